import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthUser } from '@/api/auth';
import type { User } from '@/api/users';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useDebouncedSearch } from '@/hooks/use-debounced-search';
import { useErrorText } from '@/hooks/use-error-text';
import { useNearBottom } from '@/hooks/use-near-bottom';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { useChannel } from '@/realtime/use-socket';
import { DeleteUserModal } from './delete-user-modal';
import { useUserList } from './use-user-list';
import { UserDialog } from './user-dialog';
import { isAdmin } from './user-form';

type Editing = { kind: 'create' } | { kind: 'edit'; userId: number };

function UsersList({ currentUser }: { currentUser: AuthUser }) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const [filterText, setFilterText] = useState('');
  const search = useDebouncedSearch(filterText);
  const list = useUserList(search);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const sentinel = useNearBottom(list.status === 'ready' && list.hasMore, list.loadMore);

  // Core spec §7: other admins' changes show live (`company-{id}-user` create, update, delete).
  useChannel(`company-${currentUser.companyId}-user`, (event) => {
    const user = event.user as User | undefined;
    if (event.action === 'delete' && typeof event.userId === 'number') list.remove(event.userId);
    else if (event.action === 'create' && user && !search) list.insert(user);
    else if (event.action === 'update' && user) list.replace(user);
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
    {
      id: 'actions',
      header: t('users.columns.actions'),
      cell: (u) => (
        <SpaceBetween direction="horizontal" size="xxs">
          <Button
            variant="icon"
            iconName="edit"
            ariaLabel={t('users.edit', { name: u.name })}
            onClick={() => setEditing({ kind: 'edit', userId: u.id })}
          />
          <Button
            variant="icon"
            iconName="remove"
            ariaLabel={t('users.remove', { name: u.name })}
            // The server refuses deleting oneself (ERR_CANNOT_DELETE_SELF); do not offer it.
            disabled={u.id === currentUser.id}
            onClick={() => setDeleting(u)}
          />
        </SpaceBetween>
      ),
    },
  ];

  const firstLoad = list.status === 'loading' && list.users.length === 0;
  const failedFirst = list.status === 'error' && list.users.length === 0;

  const footer =
    list.users.length > 0 && list.status === 'loading' ? (
      <Box textAlign="center">
        <StatusIndicator type="loading">{t('users.loadingMore')}</StatusIndicator>
      </Box>
    ) : list.users.length > 0 && list.status === 'error' ? (
      <Box textAlign="center">
        <SpaceBetween direction="horizontal" size="xs" alignItems="center">
          <StatusIndicator type="error">{textOf(list.error)}</StatusIndicator>
          <Button onClick={list.retry}>{t('common.retry')}</Button>
        </SpaceBetween>
      </Box>
    ) : undefined;

  return (
    <>
      <Table
        variant="full-page"
        stickyHeader
        items={list.users}
        trackBy="id"
        columnDefinitions={columns}
        loading={firstLoad}
        loadingText={t('users.loading')}
        header={
          <Header
            variant="awsui-h1-sticky"
            actions={
              <Button variant="primary" iconName="add-plus" onClick={() => setEditing({ kind: 'create' })}>
                {t('users.add')}
              </Button>
            }
          >
            {t('users.title')}
          </Header>
        }
        filter={
          <TextFilter
            filteringText={filterText}
            filteringPlaceholder={t('users.searchPlaceholder')}
            filteringAriaLabel={t('users.searchLabel')}
            onChange={({ detail }) => setFilterText(detail.filteringText)}
          />
        }
        empty={
          failedFirst ? (
            <Alert
              type="error"
              header={t('users.loadError')}
              action={<Button onClick={list.retry}>{t('common.retry')}</Button>}
            >
              {textOf(list.error)}
            </Alert>
          ) : (
            <Box textAlign="center" color="inherit">
              {search ? t('users.noMatch') : t('users.empty')}
            </Box>
          )
        }
        footer={footer}
      />
      {/* Infinite scroll (core spec §9): the next page loads when this comes within 100 px of the bottom. */}
      <div ref={sentinel} data-testid="users-list-end" />
      {editing && (
        <UserDialog
          userId={editing.kind === 'edit' ? editing.userId : undefined}
          currentUser={currentUser}
          onDismiss={() => setEditing(null)}
          onSaved={(user) => {
            setEditing(null);
            if (editing.kind === 'create') list.reset();
            else list.replace(user);
          }}
        />
      )}
      {deleting && (
        <DeleteUserModal
          user={deleting}
          onDismiss={() => setDeleting(null)}
          onDeleted={(id) => {
            setDeleting(null);
            list.remove(id);
          }}
        />
      )}
    </>
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
