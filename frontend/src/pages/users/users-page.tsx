import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import type { AuthUser } from '@/api/auth';
import { deleteUser, listUsers, type User } from '@/api/users';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList } from '@/components/list-page/use-live-list';
import { useCurrentUser } from '@/components/shell/shell-context';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { UserDialog } from './user-dialog';
import { isAdmin } from './user-form';
import { companyChannel } from '@contracts/realtime';

/** The list's order: by name, accent- and case-insensitively, like the server's (D5). */
const byName = (a: User, b: User) => a.name.localeCompare(b.name, 'pt', { sensitivity: 'base' });

const userChange = channelChange<User>({ item: 'user', deletedId: 'userId' });

function UsersList({ currentUser }: { currentUser: AuthUser }) {
  const { t } = useTranslation();
  // Core spec §7: other admins' changes show live (`company-{id}-user` create, update, delete).
  const list = useLiveList({
    fetchPage: async (query, options) => {
      const page = await listUsers(query, options);
      return { items: page.users, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: byName,
    channel: companyChannel(currentUser.companyId, 'user'),
    change: userChange,
  });

  const columns: TableProps.ColumnDefinition<User>[] = [
    { id: 'id', header: t('users.columns.id'), cell: (u) => u.id, width: 80 },
    {
      id: 'status',
      header: t('users.columns.status'),
      cell: (u) =>
        u.online ? (
          <StatusIndicator type="success">{t('users.online')}</StatusIndicator>
        ) : (
          <StatusIndicator type="stopped">{t('users.offline')}</StatusIndicator>
        ),
    },
    { id: 'name', header: t('users.columns.name'), cell: (u) => u.name, isRowHeader: true },
    { id: 'email', header: t('users.columns.email'), cell: (u) => u.email },
    { id: 'profile', header: t('users.columns.profile'), cell: (u) => t(`users.profiles.${u.profile}`) },
    { id: 'workHours', header: t('users.columns.workHours'), cell: (u) => `${u.startWork} – ${u.endWork}` },
  ];

  return (
    <ListPage
      list={list}
      section="users"
      // The heading reads just the title (the screen's tests and the spec name it so).
      counter={false}
      columns={columns}
      itemName={(u) => u.name}
      form={({ item, onDismiss, onSaved }) => (
        // The dialog reads the user afresh rather than trusting the list's copy.
        <UserDialog userId={item?.id} currentUser={currentUser} onDismiss={onDismiss} onSaved={onSaved} />
      )}
      remove={(u) => deleteUser(u.id)}
      // The server refuses deleting oneself (ERR_CANNOT_DELETE_SELF); do not offer it.
      removeDisabled={(u) => u.id === currentUser.id}
      endTestId="users-list-end"
    />
  );
}

/**
 * /users (core spec §2 Users list): search, add, edit, delete and infinite scroll, kept live from the
 * `company-{id}-user` events, for admins only — a plain user sees the 403 screen (the server answers 403 to
 * them as well). The signed-in user comes from the app shell.
 */
export function UsersPage() {
  const user = useCurrentUser();
  return isAdmin(user) ? <UsersList currentUser={user} /> : <AccessDeniedPage />;
}
