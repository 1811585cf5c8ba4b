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
import { deleteQuickMessage, type QuickMessage } from '@/api/quick-messages';
import { ConfirmDeleteModal } from '@/components/confirm-modal';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useDebouncedSearch } from '@/hooks/use-debounced-search';
import { useErrorText } from '@/hooks/use-error-text';
import { useNearBottom } from '@/hooks/use-near-bottom';
import { useChannel } from '@/realtime/use-socket';
import { QuickMessageDialog } from './quick-message-dialog';
import { useQuickMessageList } from './use-quick-message-list';

type Editing = { kind: 'create' } | { kind: 'edit'; record: QuickMessage };

/** Who may change a reply (decisions D59): its owner, or anyone while it is shared and not locked (visao). */
export const mayChange = (record: QuickMessage, userId: number): boolean =>
  record.userId === userId || (record.geral && !record.visao);

/**
 * /quick-messages (administration spec "Quick replies"): search, infinite scroll, shortcode, attachment
 * name, shared flag (a green check when geral), edit and delete — offered only where the server allows
 * them — kept live from `company-{id}-quickemessage`. Every signed-in user keeps their own replies.
 */
export function QuickMessagesPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const textOf = useErrorText();
  const [filterText, setFilterText] = useState('');
  const search = useDebouncedSearch(filterText);
  const list = useQuickMessageList(search);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<QuickMessage | null>(null);
  const sentinel = useNearBottom(list.status === 'ready' && list.hasMore, list.loadMore);

  useChannel(`company-${user.companyId}-quickemessage`, (event) => {
    const record = event.record as QuickMessage | undefined;
    if (event.action === 'delete' && typeof event.id === 'number') list.remove(event.id);
    else if (event.action === 'create' && record && !search) list.upsert(record);
    else if (event.action === 'update' && record) list.upsert(record);
  });

  const columns: TableProps.ColumnDefinition<QuickMessage>[] = [
    { id: 'shortcode', header: t('quickMessages.columns.shortcode'), cell: (r) => r.shortcode, isRowHeader: true },
    { id: 'mediaName', header: t('quickMessages.columns.mediaName'), cell: (r) => r.mediaName ?? '—' },
    {
      id: 'geral',
      header: t('quickMessages.columns.geral'),
      cell: (r) => (r.geral ? <StatusIndicator type="success">{t('quickMessages.shared')}</StatusIndicator> : '—'),
    },
    {
      id: 'actions',
      header: t('quickMessages.columns.actions'),
      cell: (r) => {
        const locked = !mayChange(r, user.id);
        return (
          <SpaceBetween direction="horizontal" size="xxs">
            <Button
              variant="icon"
              iconName="edit"
              ariaLabel={t('quickMessages.edit', { name: r.shortcode })}
              disabled={locked}
              disabledReason={locked ? t('quickMessages.locked') : undefined}
              onClick={() => setEditing({ kind: 'edit', record: r })}
            />
            <Button
              variant="icon"
              iconName="remove"
              ariaLabel={t('quickMessages.remove', { name: r.shortcode })}
              disabled={locked}
              disabledReason={locked ? t('quickMessages.locked') : undefined}
              onClick={() => setDeleting(r)}
            />
          </SpaceBetween>
        );
      },
    },
  ];

  const firstLoad = list.status === 'loading' && list.records.length === 0;
  const failedFirst = list.status === 'error' && list.records.length === 0;
  const footer =
    list.records.length > 0 && list.status === 'loading' ? (
      <Box textAlign="center">
        <StatusIndicator type="loading">{t('quickMessages.loadingMore')}</StatusIndicator>
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
        loadingText={t('quickMessages.loading')}
        header={
          <Header
            variant="awsui-h1-sticky"
            actions={
              <Button variant="primary" iconName="add-plus" onClick={() => setEditing({ kind: 'create' })}>
                {t('quickMessages.add')}
              </Button>
            }
          >
            {t('quickMessages.title')}
          </Header>
        }
        filter={
          <TextFilter
            filteringText={filterText}
            filteringPlaceholder={t('quickMessages.searchPlaceholder')}
            filteringAriaLabel={t('quickMessages.searchLabel')}
            onChange={({ detail }) => setFilterText(detail.filteringText)}
          />
        }
        empty={
          failedFirst ? (
            <Alert
              type="error"
              header={t('quickMessages.loadError')}
              action={<Button onClick={list.retry}>{t('common.retry')}</Button>}
            >
              {textOf(list.error)}
            </Alert>
          ) : (
            <Box textAlign="center" color="inherit">
              {search ? t('quickMessages.noMatch') : t('quickMessages.empty')}
            </Box>
          )
        }
        footer={footer}
      />
      {/* Infinite scroll: the next page loads when this comes within 100 px of the bottom. */}
      <div ref={sentinel} data-testid="quick-messages-list-end" />
      {editing && (
        <QuickMessageDialog
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
          section="quickMessages.delete"
          name={deleting.shortcode}
          remove={() => deleteQuickMessage(deleting.id)}
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
