import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import { ANNOUNCEMENT_CHANNEL } from '@contracts/realtime';
import { deleteAnnouncement, listAnnouncements, type Announcement } from '@/api/announcements';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList } from '@/components/list-page/use-live-list';
import { AnnouncementDialog } from './announcement-dialog';
import { PriorityBadge } from './priority';

/** The server's order for the owner: by title, accent- and case-insensitively. */
const byTitle = (a: Announcement, b: Announcement) =>
  a.title.localeCompare(b.title, 'pt', { sensitivity: 'base' }) || a.id - b.id;

const announcementChange = channelChange<Announcement>({ item: 'record', deletedId: 'id' });

/**
 * /announcements (administration spec "Announcements"; decisions D144): the platform owner's table — title,
 * priority (Alta, Média, Baixa), attachment name, status, edit and delete — with search, add, infinite scroll
 * and the count in the title, kept live from `company-announcement`. Super only (route-access.ts).
 */
export function AnnouncementsPage() {
  const { t } = useTranslation();
  const list = useLiveList({
    fetchPage: async (query, options) => {
      const page = await listAnnouncements(query, options);
      return { items: page.records, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: byTitle,
    channel: ANNOUNCEMENT_CHANNEL,
    change: announcementChange,
  });

  const columns: TableProps.ColumnDefinition<Announcement>[] = [
    { id: 'title', header: t('announcements.columns.title'), cell: (r) => r.title, isRowHeader: true },
    {
      id: 'priority',
      header: t('announcements.columns.priority'),
      cell: (r) => <PriorityBadge priority={r.priority} />,
    },
    { id: 'mediaName', header: t('announcements.columns.mediaName'), cell: (r) => r.mediaName ?? '—' },
    {
      id: 'status',
      header: t('announcements.columns.status'),
      cell: (r) => (
        <StatusIndicator type={r.status ? 'success' : 'stopped'}>
          {r.status ? t('announcements.active') : t('announcements.inactive')}
        </StatusIndicator>
      ),
    },
  ];

  return (
    <ListPage
      list={list}
      section="announcements"
      columns={columns}
      itemName={(r) => r.title}
      form={({ item, onDismiss, onSaved }) => (
        <AnnouncementDialog record={item} onDismiss={onDismiss} onSaved={onSaved} />
      )}
      remove={(r) => deleteAnnouncement(r.id)}
      endTestId="announcements-list-end"
    />
  );
}
