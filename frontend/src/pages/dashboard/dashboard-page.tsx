import Alert from '@cloudscape-design/components/alert';
import BarChart from '@cloudscape-design/components/bar-chart';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import DatePicker from '@cloudscape-design/components/date-picker';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import LineChart from '@cloudscape-design/components/line-chart';
import Multiselect from '@cloudscape-design/components/multiselect';
import PieChart from '@cloudscape-design/components/pie-chart';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import Tabs from '@cloudscape-design/components/tabs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  getDashboard,
  getTicketsPerDay,
  getTicketsPerUser,
  hoursAndMinutes,
  monthToDate,
  type DashboardCounters,
  type DashboardFilter,
} from '@/api/dashboard';
import { useExportJob } from '@/components/export-progress';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useRequest } from '@/hooks/use-request';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';
import { companyChannel } from '@contracts/realtime';

/** How long after a ticket event the dashboard reads its numbers again (one read per burst). */
export const DASHBOARD_REFETCH_MS = 1000;

/** Rating emojis by score 1–5 (core §9). */
export const RATING_EMOJIS = ['😡', '🙁', '😐', '🙂', '😍'];
export const ratingEmoji = (rating: number): string =>
  rating <= 0 ? '—' : (RATING_EMOJIS[Math.min(4, Math.max(0, Math.round(rating) - 1))] ?? '—');

const CARDS: { key: keyof DashboardCounters; time?: true; percent?: true }[] = [
  { key: 'supportHappening' },
  { key: 'supportPending' },
  { key: 'supportFinished' },
  { key: 'supportGroups' },
  { key: 'leads' },
  { key: 'tickets' },
  { key: 'activeTickets' },
  { key: 'passiveTickets' },
  { key: 'avgWaitTime', time: true },
  { key: 'avgSupportTime', time: true },
  { key: 'waitRating' },
  { key: 'withRating' },
  { key: 'withoutRating' },
  { key: 'percRating', percent: true },
];

function Cards({ counters }: { counters: DashboardCounters }) {
  const { t } = useTranslation();
  return (
    <ColumnLayout columns={4} variant="text-grid">
      {CARDS.map(({ key, time, percent }) => (
        <div key={key} data-testid={`card-${key}`}>
          <Box variant="awsui-key-label">{t(`dashboard.cards.${key}`)}</Box>
          <Box variant="h2" tagOverride="p">
            {time ? hoursAndMinutes(counters[key]) : percent ? `${counters[key]}%` : counters[key]}
          </Box>
        </div>
      ))}
    </ColumnLayout>
  );
}

/** One NPS group as a gauge: its share of the rated tickets. */
function Gauge({ label, value, color }: { label: string; value: number; color: string }) {
  const { t } = useTranslation();
  return (
    <Container header={<Header variant="h3">{label}</Header>}>
      <PieChart
        variant="donut"
        size="small"
        hideFilter
        hideLegend
        hideTitles
        innerMetricValue={`${value}%`}
        innerMetricDescription={label}
        ariaLabel={label}
        data={[
          { title: label, value, color },
          { title: t('dashboard.nps.rest'), value: Math.max(0, 100 - value), color: '#e9ebed' },
        ]}
        empty={<Box color="text-body-secondary">{t('dashboard.nps.empty')}</Box>}
      />
    </Container>
  );
}

function NpsTab({ counters }: { counters: DashboardCounters }) {
  const { t } = useTranslation();
  return (
    <SpaceBetween size="l">
      <Box variant="h2" tagOverride="p" data-testid="nps-score">
        {t('dashboard.nps.score', { score: counters.npsScore })}
      </Box>
      <ColumnLayout columns={3}>
        <Gauge label={t('dashboard.nps.promoters')} value={counters.npsPromotersPerc} color="#037f0c" />
        <Gauge label={t('dashboard.nps.neutral')} value={counters.npsPassivePerc} color="#8d6605" />
        <Gauge label={t('dashboard.nps.detractors')} value={counters.npsDetractorsPerc} color="#d91515" />
      </ColumnLayout>
    </SpaceBetween>
  );
}

function AttendantsTab({ filter, data }: { filter: DashboardFilter; data: Awaited<ReturnType<typeof getDashboard>> }) {
  const { t } = useTranslation();
  const perUser = useRequest((signal) => getTicketsPerUser(filter, { signal }), [filter]);
  const perDay = useRequest((signal) => getTicketsPerDay(filter, { signal }), [filter]);
  const chartError = <Box color="text-status-error">{t('dashboard.chartError')}</Box>;
  const exporting = useExportJob();
  return (
    <SpaceBetween size="l">
      {exporting.panel}
      <Table
        variant="embedded"
        header={
          <Header
            variant="h3"
            actions={
              <Button
                iconName="download"
                loading={exporting.busy}
                onClick={() =>
                  void exporting.start({
                    kind: 'attendants',
                    filters: { date_from: filter.dateFrom, date_to: filter.dateTo },
                  })
                }
              >
                {t('exports.excel')}
              </Button>
            }
          >
            {t('dashboard.attendants.title')}
          </Header>
        }
        items={data.attendants}
        trackBy="id"
        columnDefinitions={[
          { id: 'name', header: t('dashboard.attendants.name'), cell: (r) => r.name, isRowHeader: true },
          {
            id: 'rating',
            header: t('dashboard.attendants.rating'),
            cell: (r) => (r.countRating ? `${ratingEmoji(r.rating)} ${r.rating}` : '—'),
          },
          { id: 'countRating', header: t('dashboard.attendants.countRating'), cell: (r) => r.countRating },
          { id: 'tickets', header: t('dashboard.attendants.tickets'), cell: (r) => r.tickets },
          { id: 'wait', header: t('dashboard.attendants.avgWaitTime'), cell: (r) => hoursAndMinutes(r.avgWaitTime) },
          {
            id: 'support',
            header: t('dashboard.attendants.avgSupportTime'),
            cell: (r) => hoursAndMinutes(r.avgSupportTime),
          },
          {
            id: 'online',
            header: t('dashboard.attendants.status'),
            cell: (r) => (
              <StatusIndicator type={r.online ? 'success' : 'stopped'}>
                {t(r.online ? 'dashboard.attendants.online' : 'dashboard.attendants.offline')}
              </StatusIndicator>
            ),
          },
        ]}
      />
      <ColumnLayout columns={2}>
        <Container header={<Header variant="h3">{t('dashboard.charts.perUser')}</Header>}>
          {perUser.status === 'loading' && <Spinner />}
          {perUser.status === 'error' && chartError}
          {perUser.status === 'ready' && (
            <BarChart
              hideFilter
              height={220}
              xScaleType="categorical"
              ariaLabel={t('dashboard.charts.perUser')}
              series={[
                {
                  title: t('dashboard.charts.tickets'),
                  type: 'bar',
                  data: perUser.data.data.map((r) => ({ x: r.nome, y: r.quantidade })),
                },
              ]}
              empty={<Box color="text-body-secondary">{t('dashboard.charts.empty')}</Box>}
            />
          )}
        </Container>
        <Container header={<Header variant="h3">{t('dashboard.charts.perDay')}</Header>}>
          {perDay.status === 'loading' && <Spinner />}
          {perDay.status === 'error' && chartError}
          {perDay.status === 'ready' && (
            <LineChart
              hideFilter
              height={220}
              xScaleType="categorical"
              ariaLabel={t('dashboard.charts.perDay')}
              series={[
                {
                  title: t('dashboard.charts.tickets'),
                  type: 'line',
                  data: perDay.data.data.map((r) => ({ x: r.data ?? `${r.horario}h`, y: r.total })),
                },
              ]}
              empty={<Box color="text-body-secondary">{t('dashboard.charts.empty')}</Box>}
            />
          )}
        </Container>
      </ColumnLayout>
    </SpaceBetween>
  );
}

/**
 * The dashboard at / (core §2 Dashboard, §3 counters, §9): a range (first of the month to today by
 * default) and the user's queues, then tabs Indicadores (cards), NPS (gauges) and Atendentes (table, two
 * charts and its Excel export, relatorio-de-atendentes.xlsx, written by the export job: decisions D128). Every figure comes from GET /dashboard and its charts, which read the same aggregates
 * (decisions D109), so a number is the same wherever it is shown. The route guard shows the 403 view
 * to users without showDashboard.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const [draft, setDraft] = useState<DashboardFilter>(() => ({
    ...monthToDate(),
    queueIds: me.queues.map((q) => q.id),
  }));
  const [filter, setFilter] = useState(draft);
  const [tab, setTab] = useState('indicators');
  const data = useRequest((signal) => getDashboard(filter, { signal }), [filter]);
  // Live (issue 18 item 8): a ticket change moves the day aggregates in its own write (D108), so the
  // numbers are read again DASHBOARD_REFETCH_MS after a burst of ticket events, and after a reconnect.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refetch = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      data.reload();
    }, DASHBOARD_REFETCH_MS);
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useChannel(companyChannel(me.companyId, 'ticket'), refetch);
  useOnReconnect(refetch);
  const queueOptions = me.queues.map((q) => ({ value: String(q.id), label: q.name }));
  return (
    <SpaceBetween size="l">
      <Header variant="h1">{t('menu.dashboard')}</Header>
      <Container>
        <SpaceBetween direction="horizontal" size="m" alignItems="end">
          <FormField label={t('dashboard.filter.from')}>
            <DatePicker
              value={draft.dateFrom}
              onChange={({ detail }) => setDraft((d) => ({ ...d, dateFrom: detail.value }))}
              placeholder="YYYY/MM/DD"
              ariaLabel={t('dashboard.filter.from')}
            />
          </FormField>
          <FormField label={t('dashboard.filter.to')}>
            <DatePicker
              value={draft.dateTo}
              onChange={({ detail }) => setDraft((d) => ({ ...d, dateTo: detail.value }))}
              placeholder="YYYY/MM/DD"
              ariaLabel={t('dashboard.filter.to')}
            />
          </FormField>
          {queueOptions.length > 0 && (
            <FormField label={t('dashboard.filter.queues')}>
              <Multiselect
                selectedOptions={queueOptions.filter((o) => draft.queueIds.includes(Number(o.value)))}
                onChange={({ detail }) =>
                  setDraft((d) => ({ ...d, queueIds: detail.selectedOptions.map((o) => Number(o.value)) }))
                }
                options={queueOptions}
                placeholder={t('dashboard.filter.allQueues')}
              />
            </FormField>
          )}
          <Button variant="primary" onClick={() => setFilter({ ...draft })}>
            {t('dashboard.filter.apply')}
          </Button>
        </SpaceBetween>
      </Container>
      {data.status === 'loading' && <Spinner size="large" />}
      {data.status === 'error' && <Alert type="error">{t('dashboard.error')}</Alert>}
      {data.status === 'ready' && (
        <Tabs
          activeTabId={tab}
          onChange={({ detail }) => setTab(detail.activeTabId)}
          tabs={[
            {
              id: 'indicators',
              label: t('dashboard.tabs.indicators'),
              content: <Cards counters={data.data.counters} />,
            },
            { id: 'nps', label: t('dashboard.tabs.nps'), content: <NpsTab counters={data.data.counters} /> },
            {
              id: 'attendants',
              label: t('dashboard.tabs.attendants'),
              content: <AttendantsTab filter={filter} data={data.data} />,
            },
          ]}
        />
      )}
    </SpaceBetween>
  );
}
