import Box from '@cloudscape-design/components/box';
import Icon from '@cloudscape-design/components/icon';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import { companyChannel } from '@contracts/realtime';
import {
  deleteQueueIntegration,
  listQueueIntegrations,
  type IntegrationType,
  type QueueIntegrationView,
} from '@/api/integrations';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList } from '@/components/list-page/use-live-list';
import { useCurrentUser } from '@/components/shell/shell-context';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { isAdmin } from '@/pages/users/user-form';
import { QueueIntegrationDialog } from './queue-integration-dialog';

const byName = (a: QueueIntegrationView, b: QueueIntegrationView) =>
  a.name.localeCompare(b.name, 'pt', { sensitivity: 'base' }) || a.id - b.id;

/** `company-{id}-queueIntegration`: `{action, queueIntegration}`, and `{action: 'delete', integrationId}`. */
const integrationChange = channelChange<QueueIntegrationView>({ item: 'queueIntegration', deletedId: 'integrationId' });

/** A type's icon (administration spec §2: type icons for dialogflow, n8n, webhook, typebot, flowbuilder). */
const TYPE_ICONS: Record<IntegrationType, 'contact' | 'share' | 'external' | 'gen-ai' | 'flag'> = {
  dialogflow: 'contact',
  n8n: 'share',
  webhook: 'external',
  typebot: 'gen-ai',
  flowbuilder: 'flag',
};

function QueueIntegrationsTable({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const list = useLiveList<QueueIntegrationView>({
    fetchPage: async (query, options) => {
      const page = await listQueueIntegrations(query, options);
      return { items: page.queueIntegrations, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: byName,
    channel: companyChannel(companyId, 'queueIntegration'),
    change: integrationChange,
  });
  const columns: TableProps.ColumnDefinition<QueueIntegrationView>[] = [
    {
      id: 'type',
      header: t('queueIntegration.columns.type'),
      cell: (r) => (
        <SpaceBetween direction="horizontal" size="xxs">
          <Icon name={TYPE_ICONS[r.type]} ariaLabel={t(`queueIntegration.types.${r.type}`)} />
          <Box variant="span">{t(`queueIntegration.types.${r.type}`)}</Box>
        </SpaceBetween>
      ),
      width: 180,
    },
    { id: 'name', header: t('queueIntegration.columns.name'), cell: (r) => r.name, isRowHeader: true },
  ];
  return (
    <ListPage
      list={list}
      section="queueIntegration"
      columns={columns}
      itemName={(r) => r.name}
      form={({ item, onDismiss, onSaved }) => (
        <QueueIntegrationDialog record={item} onDismiss={onDismiss} onSaved={(saved) => onSaved(saved)} />
      )}
      remove={(r) => deleteQueueIntegration(r.id)}
      endTestId="queue-integration-list-end"
    />
  );
}

/** /queue-integration: admins with the plan's useIntegrations; a plain user gets the no-permission view (§6). */
export function QueueIntegrationsPage() {
  const user = useCurrentUser();
  return isAdmin(user) ? <QueueIntegrationsTable companyId={user.companyId} /> : <AccessDeniedPage />;
}
