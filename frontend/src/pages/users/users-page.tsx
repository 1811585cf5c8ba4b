import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getMe, type AuthUser } from '@/api/auth';
import type { User } from '@/api/users';
import { useAppServices } from '@/app-services';
import { PageLoading } from '@/components/page-loading';
import { useErrorText } from '@/components/use-error-text';
import { useRequest } from '@/components/use-request';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { DeleteUserModal } from './delete-user-modal';
import { useNearBottom } from './use-near-bottom';
import { useDebouncedSearch, useUserList } from './use-user-list';
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
 * /users (core spec §2 Users list): search, add, edit, delete and infinite scroll, for admins only — a plain
 * user sees the 403 screen (the server answers 403 to them as well).
 */
export function UsersPage() {
  const { t } = useTranslation();
  const textOf = useErrorText();
  // The signed-in user of the last session answer; only a page opened before anything knew it asks the server.
  const { sessionUser } = useAppServices();
  const known = useSyncExternalStore(sessionUser.subscribe, sessionUser.get);
  const me = useRequest((signal) => (known ? Promise.resolve(known) : getMe({ signal })), []);
  const user = known ?? (me.status === 'ready' ? me.data : null);

  if (user) return isAdmin(user) ? <UsersList currentUser={user} /> : <AccessDeniedPage />;
  if (me.status === 'error') {
    return (
      <Alert
        type="error"
        header={t('users.loadError')}
        action={<Button onClick={me.reload}>{t('common.retry')}</Button>}
      >
        {textOf(me.error)}
      </Alert>
    );
  }
  return <PageLoading />;
}
