import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { deleteFlow, duplicateFlow, listFlows, type Flow } from '@/api/flows';
import { ConfirmModal } from '@/components/confirm-modal';
import { ListPage } from '@/components/list-page/list-page';
import { useLiveList } from '@/components/list-page/use-live-list';
import { useNotifications } from '@/components/notifications';
import { useCurrentUser } from '@/components/shell/shell-context';
import { FlowNameDialog } from './flow-name-dialog';

/** The server's order without a search: newest first. */
const newestFirst = (a: Flow, b: Flow) => b.id - a.id;

/**
 * /flowbuilders, 'Fluxos de conversa' (administration §2 Flow builder; decisions D138): search, infinite
 * scroll, name and Ativo/Desativado; per row Editar nome (the name dialog), Editar fluxo (the editor at
 * /flowbuilder/{id}), Duplicar and Excluir, each with the spec's question and toast. The server sends no
 * live events for flows (the spec lists none): the list is read again after each change made here.
 */
export function FlowsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const notify = useNotifications();
  const [duplicating, setDuplicating] = useState<Flow | null>(null);
  const [running, setRunning] = useState(false);
  const list = useLiveList({
    fetchPage: async (query, options) => {
      const page = await listFlows(query, options);
      return { items: page.flows, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    compare: newestFirst,
    // No flow events exist; the channel name only satisfies the hook (nothing is ever published on it).
    channel: `company-${user.companyId}-flowbuilder`,
    change: () => null,
  });

  const duplicate = async (flow: Flow) => {
    setRunning(true);
    try {
      await duplicateFlow(flow.id);
      notify.success(t('flows.duplicate.success'));
      list.reset();
    } catch (err) {
      notify.error(err);
    } finally {
      setRunning(false);
      setDuplicating(null);
    }
  };

  const columns: TableProps.ColumnDefinition<Flow>[] = [
    {
      id: 'name',
      header: t('flows.columns.name'),
      cell: (r) => (
        <Button variant="inline-link" onClick={() => navigate(`/flowbuilder/${r.id}`)}>
          {r.name}
        </Button>
      ),
      isRowHeader: true,
    },
    {
      id: 'status',
      header: t('flows.columns.status'),
      cell: (r) =>
        r.active ? (
          <StatusIndicator type="success">{t('flows.active')}</StatusIndicator>
        ) : (
          <StatusIndicator type="stopped">{t('flows.inactive')}</StatusIndicator>
        ),
    },
    {
      id: 'flow',
      header: t('flows.columns.flow'),
      cell: (r) => (
        <SpaceBetween direction="horizontal" size="xs">
          <Button variant="inline-link" onClick={() => navigate(`/flowbuilder/${r.id}`)}>
            {t('flows.editFlow')}
          </Button>
          <Button
            variant="inline-link"
            ariaLabel={t('flows.duplicateOf', { name: r.name })}
            onClick={() => setDuplicating(r)}
          >
            {t('flows.duplicate.action')}
          </Button>
        </SpaceBetween>
      ),
    },
  ];

  return (
    <>
      <ListPage
        list={list}
        section="flows"
        counter={false}
        columns={columns}
        itemName={(r) => r.name}
        form={({ item, onDismiss, onSaved }) => (
          <FlowNameDialog record={item} onDismiss={onDismiss} onSaved={onSaved} />
        )}
        remove={(r) => deleteFlow(r.id)}
        endTestId="flows-list-end"
      />
      {duplicating && (
        <ConfirmModal
          header={t('flows.duplicate.title')}
          cancelText={t('flows.dialog.cancel')}
          confirmText={t('flows.duplicate.confirm')}
          running={running}
          onConfirm={() => void duplicate(duplicating)}
          onDismiss={() => setDuplicating(null)}
        >
          {t('flows.duplicate.text')}
        </ConfirmModal>
      )}
    </>
  );
}
