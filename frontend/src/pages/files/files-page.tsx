import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import { companyChannel } from '@contracts/realtime';
import { deleteFileList, listFileLists, type FileListView } from '@/api/files';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList } from '@/components/list-page/use-live-list';
import { useCurrentUser } from '@/components/shell/shell-context';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { isAdmin } from '@/pages/users/user-form';
import { FileListDialog } from './file-list-dialog';

/** The server's order: by name, accent- and case-insensitively (decisions D5). */
const byName = (a: FileListView, b: FileListView) =>
  a.name.localeCompare(b.name, 'pt', { sensitivity: 'base' }) || a.id - b.id;

/** `company-{id}-file` (administration spec §4): `{action, files}`, and `{action: 'delete', fileId}`. */
const fileChange = channelChange<FileListView>({ item: 'files', deletedId: 'fileId' });

/**
 * The list of /files (administration spec §2 "Files"): search from 3 characters, infinite scroll, name and
 * number of files, edit and delete, the title with the count, kept live from `company-{id}-file`.
 */
function FileListsTable({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const list = useLiveList<FileListView>({
    fetchPage: async (query, options) => {
      const page = await listFileLists(query, options);
      return { items: page.files, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: byName,
    channel: companyChannel(companyId, 'file'),
    change: fileChange,
  });

  const columns: TableProps.ColumnDefinition<FileListView>[] = [
    { id: 'name', header: t('files.columns.name'), cell: (r) => r.name, isRowHeader: true },
    { id: 'files', header: t('files.columns.files'), cell: (r) => r.options.length, width: 120 },
  ];

  return (
    <ListPage
      list={list}
      section="files"
      columns={columns}
      itemName={(r) => r.name}
      form={({ item, onDismiss, onSaved }) => (
        <FileListDialog record={item} onDismiss={onDismiss} onSaved={(saved) => onSaved(saved)} />
      )}
      remove={(r) => deleteFileList(r.id)}
      endTestId="files-list-end"
    />
  );
}

/** /files: admins (and the super user) manage file lists; a plain user gets the no-permission view (§6). */
export function FilesPage() {
  const user = useCurrentUser();
  return isAdmin(user) ? <FileListsTable companyId={user.companyId} /> : <AccessDeniedPage />;
}
