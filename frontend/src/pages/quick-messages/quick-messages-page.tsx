import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import { deleteQuickMessage, listQuickMessages, type QuickMessage } from '@/api/quick-messages';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList } from '@/components/list-page/use-live-list';
import { useCurrentUser } from '@/components/shell/shell-context';
import { QuickMessageDialog } from './quick-message-dialog';
import { companyChannel } from '@contracts/realtime';

/** Who may change a reply (decisions D59): its owner, or anyone while it is shared and not locked (visao). */
export const mayChange = (record: QuickMessage, userId: number): boolean =>
  record.userId === userId || (record.geral && !record.visao);

/** The server's order: by shortcode, accent- and case-insensitively. */
const byShortcode = (a: QuickMessage, b: QuickMessage) =>
  a.shortcode.localeCompare(b.shortcode, 'pt', { sensitivity: 'base' }) || a.id - b.id;

const quickMessageChange = channelChange<QuickMessage>({ item: 'record', deletedId: 'id' });

/**
 * /quick-messages (administration spec "Quick replies"): search, infinite scroll, shortcode, attachment
 * name, shared flag (a green check when geral), edit and delete — offered only where the server allows
 * them — kept live from `company-{id}-quickemessage`. Every signed-in user keeps their own replies.
 */
export function QuickMessagesPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const list = useLiveList({
    fetchPage: async (query, options) => {
      const page = await listQuickMessages(query, options);
      return { items: page.records, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: byShortcode,
    channel: companyChannel(user.companyId, 'quickemessage'),
    change: quickMessageChange,
  });
  const locked = (r: QuickMessage) => !mayChange(r, user.id) && t('quickMessages.locked');

  const columns: TableProps.ColumnDefinition<QuickMessage>[] = [
    { id: 'shortcode', header: t('quickMessages.columns.shortcode'), cell: (r) => r.shortcode, isRowHeader: true },
    { id: 'mediaName', header: t('quickMessages.columns.mediaName'), cell: (r) => r.mediaName ?? '—' },
    {
      id: 'geral',
      header: t('quickMessages.columns.geral'),
      cell: (r) => (r.geral ? <StatusIndicator type="success">{t('quickMessages.shared')}</StatusIndicator> : '—'),
    },
  ];

  return (
    <ListPage
      list={list}
      section="quickMessages"
      // The heading reads just the title (the screen's tests and the spec name it so).
      counter={false}
      columns={columns}
      itemName={(r) => r.shortcode}
      form={({ item, onDismiss, onSaved }) => (
        <QuickMessageDialog record={item} onDismiss={onDismiss} onSaved={onSaved} />
      )}
      remove={(r) => deleteQuickMessage(r.id)}
      editDisabled={locked}
      removeDisabled={locked}
      endTestId="quick-messages-list-end"
    />
  );
}
