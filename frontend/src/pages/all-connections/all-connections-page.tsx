import { useCollection } from '@cloudscape-design/collection-hooks';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listAllConnections } from '@/api/connections';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useErrorText } from '@/hooks/use-error-text';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { useOnReconnect } from '@/realtime/use-socket';
import { addToCounts, totalsOf, type CompanyCounts } from './company-counts';

interface OverviewState {
  counts: CompanyCounts[];
  /** Connections read so far (the progress while the pages come in). */
  read: number;
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  /** Where a failed walk continues (the cursor of the page that failed; undefined = first page). */
  resumeAt: string | undefined;
}

const START: OverviewState = { counts: [], read: 0, status: 'loading', error: undefined, resumeAt: undefined };

/**
 * Every page of GET /whatsapp/all (100 summaries each, decisions D22), summed per company as they arrive.
 * `retry` continues from the page that failed; `restart` reads everything again (a socket reconnect too).
 */
function useCompanyCounts() {
  const [state, setState] = useState<OverviewState>(START);
  const [run, setRun] = useState<{ id: number; from: string | undefined; fresh: boolean }>({
    id: 0,
    from: undefined,
    fresh: true,
  });

  useEffect(() => {
    const controller = new AbortController();
    const walk = async () => {
      let cursor = run.from;
      setState((s) => (run.fresh ? START : { ...s, status: 'loading', error: undefined }));
      for (;;) {
        const page = await listAllConnections(cursor, { signal: controller.signal });
        if (controller.signal.aborted) return;
        setState((s) => ({
          ...s,
          counts: addToCounts(s.counts, page.whatsapps),
          read: s.read + page.whatsapps.length,
        }));
        if (!page.hasMore || !page.nextCursor) break;
        cursor = page.nextCursor;
        setState((s) => ({ ...s, resumeAt: cursor }));
      }
      setState((s) => ({ ...s, status: 'ready', resumeAt: undefined }));
    };
    walk().catch((error: unknown) => {
      if (!controller.signal.aborted) setState((s) => ({ ...s, status: 'error', error }));
    });
    return () => controller.abort();
  }, [run]);

  const retry = useCallback(
    () => setRun((r) => ({ id: r.id + 1, from: state.resumeAt, fresh: false })),
    [state.resumeAt],
  );
  const restart = useCallback(() => setRun((r) => ({ id: r.id + 1, from: undefined, fresh: true })), []);
  return { ...state, retry, restart };
}

type Row = CompanyCounts & { totals?: true };

/**
 * /allConnections (super only; core spec §2 Connections): per client company, how many connections are
 * connected, disconnected and in all, with a totals row. Everyone else gets the no-permission view.
 */
export function AllConnectionsPage() {
  const user = useCurrentUser();
  return user.super ? <Overview /> : <AccessDeniedPage />;
}

function Overview() {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const overview = useCompanyCounts();
  useOnReconnect(overview.restart);
  const { items, collectionProps, filterProps, filteredItemsCount } = useCollection(overview.counts, {
    filtering: {
      filteringFunction: (item, text) => item.companyName.toLowerCase().includes(text.trim().toLowerCase()),
    },
    sorting: { defaultState: { sortingColumn: { sortingField: 'companyName' } } },
  });
  const totals = totalsOf(overview.counts);
  const rows: Row[] =
    overview.counts.length > 0
      ? [...items, { companyId: 0, companyName: t('allConnections.totals'), ...totals, totals: true }]
      : [...items];

  const strong = (row: Row, value: string | number) => (row.totals ? <Box fontWeight="bold">{value}</Box> : value);
  const columns: TableProps.ColumnDefinition<Row>[] = [
    {
      id: 'company',
      header: t('allConnections.columns.company'),
      cell: (r) => strong(r, r.companyName || `#${r.companyId}`),
      sortingField: 'companyName',
      isRowHeader: true,
    },
    {
      id: 'connected',
      header: t('allConnections.columns.connected'),
      cell: (r) => strong(r, r.connected),
      sortingField: 'connected',
    },
    {
      id: 'disconnected',
      header: t('allConnections.columns.disconnected'),
      cell: (r) => strong(r, r.disconnected),
      sortingField: 'disconnected',
    },
    { id: 'total', header: t('allConnections.columns.total'), cell: (r) => strong(r, r.total), sortingField: 'total' },
  ];

  const progress =
    overview.status === 'loading' ? (
      <StatusIndicator type="loading">{t('allConnections.progress', { read: overview.read })}</StatusIndicator>
    ) : overview.status === 'error' ? (
      <SpaceBetween direction="horizontal" size="xs" alignItems="center">
        <StatusIndicator type="error">{textOf(overview.error)}</StatusIndicator>
        <Button onClick={overview.retry}>{t('common.retry')}</Button>
      </SpaceBetween>
    ) : undefined;

  return (
    <SpaceBetween size="s">
      <Table<Row>
        {...(collectionProps as Partial<TableProps<Row>>)}
        variant="full-page"
        items={rows}
        trackBy={(r) => (r.totals ? 'totals' : String(r.companyId))}
        columnDefinitions={columns}
        loading={overview.status === 'loading' && overview.counts.length === 0}
        loadingText={t('allConnections.progress', { read: overview.read })}
        header={
          <Header
            variant="awsui-h1-sticky"
            counter={overview.status === 'ready' ? `(${overview.counts.length})` : undefined}
            description={t('allConnections.description')}
            actions={
              <Button
                iconName="refresh"
                ariaLabel={t('allConnections.refresh')}
                disabled={overview.status === 'loading'}
                onClick={overview.restart}
              />
            }
          >
            {t('allConnections.title')}
          </Header>
        }
        filter={
          <TextFilter
            {...filterProps}
            countText={t('allConnections.matches', { found: filteredItemsCount ?? 0 })}
            filteringPlaceholder={t('allConnections.searchPlaceholder')}
            filteringAriaLabel={t('allConnections.searchPlaceholder')}
          />
        }
        footer={progress}
        empty={
          overview.status === 'error' ? (
            <Alert type="error" header={t('allConnections.loadError')}>
              {textOf(overview.error)}
            </Alert>
          ) : (
            <Box textAlign="center" color="inherit">
              {t('allConnections.empty')}
            </Box>
          )
        }
      />
    </SpaceBetween>
  );
}
