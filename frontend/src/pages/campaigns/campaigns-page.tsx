import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  cancelCampaign,
  deleteCampaign,
  isCampaignEditable,
  listCampaigns,
  restartCampaign,
  type Campaign,
  type CampaignStatus,
} from '@/api/campaigns';
import { ListPage } from '@/components/list-page/list-page';
import { channelChange, useLiveList } from '@/components/list-page/use-live-list';
import { useNotifications } from '@/components/notifications';
import { useCurrentUser } from '@/components/shell/shell-context';
import { companyChannel } from '@contracts/realtime';
import { CampaignDialog } from './campaign-dialog';

/** The server's order without a search: newest first. */
const newestFirst = (a: Campaign, b: Campaign) => b.id - a.id;

const campaignChange = channelChange<Campaign>({ item: 'record', deletedId: 'campaignId' });

export const reportPath = (id: number) => `/campaign/${id}/report`;

const STATUS_LOOK: Record<CampaignStatus, StatusIndicatorProps.Type> = {
  INATIVA: 'stopped',
  PROGRAMADA: 'pending',
  EM_ANDAMENTO: 'in-progress',
  CANCELADA: 'warning',
  FINALIZADA: 'success',
};

/** `dd/MM/yyyy HH:mm` in the browser's clock, or the empty mark. */
export const dateTime = (iso: string | null, language: string): string =>
  iso
    ? new Intl.DateTimeFormat(language, {
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(iso))
    : '—';

/**
 * /campaigns (administration spec "Campaigns", §4; decisions D136): searchable, infinite scroll; columns
 * name, status, contact list, connection, scheduled and completed time, confirmation; actions stop
 * (EM_ANDAMENTO), restart (CANCELADA), report, edit (when the spec allows it) and delete — kept live from
 * `company-{id}-campaign`.
 */
export function CampaignsPage() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const notify = useNotifications();
  const list = useLiveList({
    fetchPage: async (query, options) => {
      const page = await listCampaigns(query, options);
      return { items: page.records, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: newestFirst,
    channel: companyChannel(user.companyId, 'campaign'),
    change: campaignChange,
  });

  const act = async (run: () => Promise<Campaign>, done: string) => {
    try {
      list.replace(await run());
      notify.success(done);
    } catch (err) {
      notify.error(err);
    }
  };

  const columns: TableProps.ColumnDefinition<Campaign>[] = [
    { id: 'name', header: t('campaigns.columns.name'), cell: (c) => c.name, isRowHeader: true },
    {
      id: 'status',
      header: t('campaigns.columns.status'),
      cell: (c) => <StatusIndicator type={STATUS_LOOK[c.status]}>{t(`campaigns.status.${c.status}`)}</StatusIndicator>,
    },
    {
      id: 'contactList',
      header: t('campaigns.columns.contactList'),
      cell: (c) => c.contactList?.name ?? (c.tagListId ? t('campaigns.byTag') : t('campaigns.none')),
    },
    { id: 'whatsapp', header: t('campaigns.columns.whatsapp'), cell: (c) => c.whatsapp?.name ?? t('campaigns.none') },
    {
      id: 'scheduledAt',
      header: t('campaigns.columns.scheduledAt'),
      cell: (c) => (c.scheduledAt ? dateTime(c.scheduledAt, i18n.language) : t('campaigns.noSchedule')),
    },
    {
      id: 'completedAt',
      header: t('campaigns.columns.completedAt'),
      cell: (c) => (c.completedAt ? dateTime(c.completedAt, i18n.language) : t('campaigns.notCompleted')),
    },
    {
      id: 'confirmation',
      header: t('campaigns.columns.confirmation'),
      cell: (c) => (c.confirmation ? t('campaigns.enabled') : t('campaigns.disabled')),
    },
    {
      id: 'operations',
      header: t('campaigns.columns.operations'),
      cell: (c) => (
        <SpaceBetween direction="horizontal" size="xxs">
          {c.status === 'EM_ANDAMENTO' && (
            <Button
              variant="icon"
              iconName="close"
              ariaLabel={t('campaigns.stop', { name: c.name })}
              onClick={() => void act(() => cancelCampaign(c.id), t('campaigns.stopped'))}
            />
          )}
          {c.status === 'CANCELADA' && (
            <Button
              variant="icon"
              iconName="redo"
              ariaLabel={t('campaigns.restart', { name: c.name })}
              onClick={() => void act(() => restartCampaign(c.id), t('campaigns.restarted'))}
            />
          )}
          <Button
            variant="icon"
            iconName="view-full"
            ariaLabel={t('campaigns.report', { name: c.name })}
            onClick={() => void navigate(reportPath(c.id))}
          />
        </SpaceBetween>
      ),
    },
  ];

  return (
    <ListPage
      list={list}
      section="campaigns"
      columns={columns}
      itemName={(c) => c.name}
      form={({ item, onDismiss, onSaved }) => <CampaignDialog record={item} onDismiss={onDismiss} onSaved={onSaved} />}
      editDisabled={(c) => (isCampaignEditable(c) ? false : t('campaigns.readOnly'))}
      remove={(c) => deleteCampaign(c.id)}
      endTestId="campaigns-end"
    />
  );
}
