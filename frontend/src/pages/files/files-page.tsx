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
import { deleteFileList, type FileListView } from '@/api/files';
import { ConfirmDeleteModal } from '@/components/confirm-modal';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useErrorText } from '@/hooks/use-error-text';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { useNearBottom } from '@/hooks/use-near-bottom';
import { useDebouncedSearch } from '@/hooks/use-debounced-search';
import { isAdmin } from '@/pages/users/user-form';
import { useChannel } from '@/realtime/use-socket';
import { FileListDialog } from './file-list-dialog';
import { useFileLists } from './use-file-lists';

type Editing = { kind: 'create' } | { kind: 'edit'; record: FileListView };

/**
 * The list of /files (administration spec §2 "Files"): search from 3 characters, infinite scroll, name and
 * number of files, edit and delete, the title with the count, kept live from `company-{id}-file`.
 */
function FileListsTable({ currentUser }: { currentUser: AuthUser }) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const [filterText, setFilterText] = useState('');
  const search = useDebouncedSearch(filterText);
  const list = useFileLists(search);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<FileListView | null>(null);
  const sentinel = useNearBottom(list.status === 'ready' && list.hasMore, list.loadMore);

  // Administration spec §4: create or update adds or replaces a row; delete removes it.
  useChannel(`company-${currentUser.companyId}-file`, (event) => {
    const record = event.files as FileListView | undefined;
    if (event.action === 'delete' && typeof event.fileId === 'number') list.remove(event.fileId);
    else if (event.action === 'create' && record && !search) list.upsert(record);
    else if (event.action === 'update' && record) list.upsert(record);
  });

  const columns: TableProps.ColumnDefinition<FileListView>[] = [
    { id: 'name', header: t('files.columns.name'), cell: (r) => r.name, isRowHeader: true },
    { id: 'files', header: t('files.columns.files'), cell: (r) => r.options.length, width: 120 },
    {
      id: 'actions',
      header: t('files.columns.actions'),
      width: 120,
      cell: (r) => (
        <SpaceBetween direction="horizontal" size="xxs">
          <Button
            variant="icon"
            iconName="edit"
            ariaLabel={t('files.edit', { name: r.name })}
            onClick={() => setEditing({ kind: 'edit', record: r })}
          />
          <Button
            variant="icon"
            iconName="remove"
            ariaLabel={t('files.remove', { name: r.name })}
            onClick={() => setDeleting(r)}
          />
        </SpaceBetween>
      ),
    },
  ];

  const firstLoad = list.status === 'loading' && list.records.length === 0;
  const failedFirst = list.status === 'error' && list.records.length === 0;
  const footer =
    list.records.length > 0 && list.status === 'loading' ? (
      <Box textAlign="center">
        <StatusIndicator type="loading">{t('files.loadingMore')}</StatusIndicator>
      </Box>
    ) : list.records.length > 0 && list.status === 'error' ? (
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
        items={list.records}
        trackBy="id"
        columnDefinitions={columns}
        loading={firstLoad}
        loadingText={t('files.loading')}
        header={
          <Header
            variant="awsui-h1-sticky"
            counter={firstLoad ? undefined : `(${list.records.length}${list.hasMore ? '+' : ''})`}
            actions={
              <Button variant="primary" iconName="add-plus" onClick={() => setEditing({ kind: 'create' })}>
                {t('files.add')}
              </Button>
            }
          >
            {t('files.title')}
          </Header>
        }
        filter={
          <TextFilter
            filteringText={filterText}
            filteringPlaceholder={t('files.searchPlaceholder')}
            filteringAriaLabel={t('files.searchLabel')}
            onChange={({ detail }) => setFilterText(detail.filteringText)}
          />
        }
        empty={
          failedFirst ? (
            <Alert
              type="error"
              header={t('files.loadError')}
              action={<Button onClick={list.retry}>{t('common.retry')}</Button>}
            >
              {textOf(list.error)}
            </Alert>
          ) : (
            <Box textAlign="center" color="inherit">
              {search ? t('files.noMatch') : t('files.empty')}
            </Box>
          )
        }
        footer={footer}
      />
      {/* Infinite scroll: the next page loads when this comes within 100 px of the bottom. */}
      <div ref={sentinel} data-testid="files-list-end" />
      {editing && (
        <FileListDialog
          record={editing.kind === 'edit' ? editing.record : undefined}
          onDismiss={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            if (created) list.reset();
            else list.upsert(saved);
          }}
        />
      )}
      {deleting && (
        <ConfirmDeleteModal
          section="files.delete"
          name={deleting.name}
          remove={() => deleteFileList(deleting.id)}
          onDismiss={() => setDeleting(null)}
          onDeleted={() => {
            const id = deleting.id;
            setDeleting(null);
            list.remove(id);
          }}
        />
      )}
    </>
  );
}

/** /files: admins (and the super user) manage file lists; a plain user gets the no-permission view (§6). */
export function FilesPage() {
  const user = useCurrentUser();
  return isAdmin(user) ? <FileListsTable currentUser={user} /> : <AccessDeniedPage />;
}
