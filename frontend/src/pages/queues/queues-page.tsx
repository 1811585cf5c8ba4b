import Box from '@cloudscape-design/components/box';
import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/api-error';
import { deleteQueue, listQueues, type QueueAdminView } from '@/api/queues';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList } from '@/components/list-page/use-live-list';
import { useCurrentUser } from '@/components/shell/shell-context';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { isAdmin } from '@/pages/users/user-form';
import { QueueDialog } from './queue-dialog';
import { companyChannel } from '@contracts/realtime';

/** The server's order (functions/core/queues): by `orderQueue` (none last), then name. */
export const byOrder = (a: QueueAdminView, b: QueueAdminView): number =>
  (a.orderQueue ?? Infinity) - (b.orderQueue ?? Infinity) || a.name.localeCompare(b.name) || a.id - b.id;

const queueChange = channelChange<QueueAdminView>({ item: 'queue', deletedId: 'queueId' });

/**
 * A refused delete whose toast names the queues whose chatbot menus still send customers here
 * (409 ERR_QUEUE_IN_USE, details.queues [{id, name}]): the translation reads `{{names}}`.
 */
const withQueueNames = (err: unknown): unknown => {
  if (!(err instanceof ApiError) || err.code !== 'ERR_QUEUE_IN_USE') return err;
  const queues = Array.isArray(err.details?.queues) ? (err.details.queues as { name?: unknown }[]) : [];
  const names = queues.map((q) => String(q.name ?? '')).join(', ');
  return new ApiError(err.status, err.code, err.message, { details: { ...err.details, names } });
};

function Swatch({ color }: { color: string }) {
  return (
    <span
      data-testid="queue-color"
      title={color}
      style={{
        display: 'inline-block',
        width: 40,
        height: 20,
        borderRadius: 4,
        backgroundColor: color,
        border: '1px solid rgba(0, 0, 0, 0.2)',
        verticalAlign: 'middle',
      }}
    />
  );
}

function QueuesList({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  // GET /queue answers every queue at once; the search filters them here by name.
  const list = useLiveList<QueueAdminView>({
    fetchPage: async (query, options) => {
      const queues = await listQueues(options);
      const search = query.searchParam.toLowerCase();
      const items = search ? queues.filter((q) => q.name.toLowerCase().includes(search)) : queues;
      return { items, hasMore: false };
    },
    compare: byOrder,
    channel: companyChannel(companyId, 'queue'),
    change: queueChange,
  });

  const columns: TableProps.ColumnDefinition<QueueAdminView>[] = [
    { id: 'id', header: t('queues.columns.id'), cell: (q) => q.id, width: 80 },
    { id: 'name', header: t('queues.columns.name'), cell: (q) => q.name, isRowHeader: true },
    { id: 'color', header: t('queues.columns.color'), cell: (q) => <Swatch color={q.color} /> },
    { id: 'orderQueue', header: t('queues.columns.orderQueue'), cell: (q) => q.orderQueue ?? '—' },
    {
      id: 'greetingMessage',
      header: t('queues.columns.greetingMessage'),
      cell: (q) => (q.greetingMessage ? <Box variant="span">{q.greetingMessage}</Box> : '—'),
      maxWidth: 400,
    },
  ];

  return (
    <ListPage
      list={list}
      section="queues"
      columns={columns}
      itemName={(q) => q.name}
      form={({ item, onDismiss, onSaved }) => (
        <QueueDialog queueId={item?.id} companyId={companyId} onDismiss={onDismiss} onSaved={onSaved} />
      )}
      remove={async (q) => {
        try {
          return await deleteQueue(q.id);
        } catch (err) {
          throw withQueueNames(err);
        }
      }}
      endTestId="queues-list-end"
    />
  );
}

/**
 * /queues (administration spec §2 "Queues"; decisions D89): ID, name, colour, order, greeting and actions,
 * the count beside the title, add, edit (the queue dialog with its chatbot menu) and delete, kept live from
 * `company-{id}-queue`. Admins only: a plain user sees the no-access screen (the server refuses them too).
 */
export function QueuesPage() {
  const user = useCurrentUser();
  return isAdmin(user) ? <QueuesList companyId={user.companyId} /> : <AccessDeniedPage />;
}
