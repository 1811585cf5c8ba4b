import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import { useTranslation } from 'react-i18next';
import { deleteFlowCampaign, listFlowCampaigns, type FlowCampaign } from '@/api/flows';
import { ListPage } from '@/components/list-page/list-page';
import { useLiveList } from '@/components/list-page/use-live-list';
import { useCurrentUser } from '@/components/shell/shell-context';
import { PhraseCampaignDialog } from './phrase-campaign-dialog';

const byId = (a: FlowCampaign, b: FlowCampaign) => a.id - b.id;
const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * /phrase-lists, 'Campanhas' (administration §2 Campaigns by phrase; decisions D140): every phrase campaign
 * (a company has few: one call, searched here by name), name and Ativo/Desativado, edit and delete with the
 * spec's toasts. The page is for admins (who hold 'contacts-page:deleteContact', the delete permission).
 */
export function PhraseListsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const list = useLiveList({
    fetchPage: async (query, options) => {
      const all = await listFlowCampaigns(options);
      const wanted = plain(query.searchParam);
      return { items: wanted ? all.filter((c) => plain(c.name).includes(wanted)) : all, hasMore: false };
    },
    compare: byId,
    // The spec lists no phrase-campaign events; the channel name only satisfies the hook.
    channel: `company-${user.companyId}-flowcampaign`,
    change: () => null,
  });

  const columns: TableProps.ColumnDefinition<FlowCampaign>[] = [
    { id: 'name', header: t('phraseLists.columns.name'), cell: (r) => r.name, isRowHeader: true },
    { id: 'phrase', header: t('phraseLists.columns.phrase'), cell: (r) => r.phrase },
    {
      id: 'status',
      header: t('phraseLists.columns.status'),
      cell: (r) =>
        r.status ? (
          <StatusIndicator type="success">{t('phraseLists.active')}</StatusIndicator>
        ) : (
          <StatusIndicator type="stopped">{t('phraseLists.inactive')}</StatusIndicator>
        ),
    },
  ];

  return (
    <ListPage
      list={list}
      section="phraseLists"
      columns={columns}
      itemName={(r) => r.name}
      form={({ item, onDismiss, onSaved }) => (
        <PhraseCampaignDialog record={item} onDismiss={onDismiss} onSaved={onSaved} />
      )}
      remove={(r) => deleteFlowCampaign(r.id)}
      endTestId="phrase-lists-end"
    />
  );
}
