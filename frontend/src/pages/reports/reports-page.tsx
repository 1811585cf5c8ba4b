import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import Container from '@cloudscape-design/components/container';
import DatePicker from '@cloudscape-design/components/date-picker';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Multiselect from '@cloudscape-design/components/multiselect';
import Pagination from '@cloudscape-design/components/pagination';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  getReport,
  hoursAndMinutes,
  monthToDate,
  reportFilterQuery,
  type ReportFilter,
  type ReportRow,
} from '@/api/dashboard';
import { useExportJob } from '@/components/export-progress';
import { listQueues, type QueueView } from '@/api/queues';
import { listUserNames } from '@/api/users';
import { useOnFollow } from '@/hooks/use-on-follow';
import { useRequest } from '@/hooks/use-request';
import { LogDialog } from '@/pages/tickets/ticket-dialogs';

/** Admin §9: page sizes 5, 10, 20, 50, default 10. */
export const PAGE_SIZES = [5, 10, 20, 50];
const STATUSES = ['open', 'pending', 'closed', 'group', 'nps', 'lgpd'];

const dateTime = (iso: string | null) => {
  if (!iso) return '—';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** The print stylesheet of the PDF export (decisions D111): the report alone, on A4 portrait pages. */
const PRINT_CSS = `@media print { @page { size: A4 portrait; margin: 12mm; } body * { visibility: hidden; }
  #report-print, #report-print * { visibility: visible; } #report-print { position: absolute; left: 0; top: 0; width: 100%; } }`;

/**
 * /reports (admin §2 Reports, §3 Report ticket row, §5 filters): the tickets created in a range (first of
 * the month to today by default), filtered by search, status, queues, attendants and rating, paged 5, 10,
 * 20 or 50 (default 10), each row with its log and a link to the ticket. The total comes from the same
 * aggregates as the dashboard when the filter allows (decisions D110). PDF: the browser's print of the
 * table on A4 portrait. Excel: every row of the filters applied, written by the export job (decisions D128).
 */
export function ReportsPage() {
  const { t } = useTranslation();
  const onFollow = useOnFollow();
  const empty: ReportFilter = {
    ...monthToDate(),
    searchParam: '',
    status: [],
    queueIds: [],
    users: [],
    whatsappId: null,
    onlyRated: false,
  };
  const [draft, setDraft] = useState<ReportFilter>(empty);
  const [filter, setFilter] = useState<ReportFilter>(empty);
  const exporting = useExportJob();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [logOf, setLogOf] = useState<number | null>(null);
  const report = useRequest((signal) => getReport(filter, { page, pageSize }, { signal }), [filter, page, pageSize]);
  const queues = useRequest((signal) => listQueues<QueueView>({ signal }), []);
  const users = useRequest((signal) => listUserNames({ signal }), []);
  const queueOptions =
    queues.status === 'ready' ? queues.data.map((q) => ({ value: String(q.id), label: q.name })) : [];
  const userOptions = users.status === 'ready' ? users.data.map((u) => ({ value: String(u.id), label: u.name })) : [];
  const statusOptions = STATUSES.map((s) => ({ value: s, label: t(`reports.status.${s}`) }));
  const pick = (options: { value: string; label: string }[], values: (string | number)[]) =>
    options.filter((o) => values.map(String).includes(o.value));
  const total = report.status === 'ready' ? report.data.totalTickets.total : 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  const columns = [
    { id: 'id', header: t('reports.columns.id'), cell: (r: ReportRow) => r.id },
    { id: 'whatsappName', header: t('reports.columns.whatsappName'), cell: (r: ReportRow) => r.whatsappName },
    { id: 'contactName', header: t('reports.columns.contactName'), cell: (r: ReportRow) => r.contactName },
    { id: 'userName', header: t('reports.columns.userName'), cell: (r: ReportRow) => r.userName || '—' },
    { id: 'queueName', header: t('reports.columns.queueName'), cell: (r: ReportRow) => r.queueName || '—' },
    { id: 'status', header: t('reports.columns.status'), cell: (r: ReportRow) => t(`reports.status.${r.status}`) },
    { id: 'lastMessage', header: t('reports.columns.lastMessage'), cell: (r: ReportRow) => r.lastMessage },
    { id: 'createdAt', header: t('reports.columns.createdAt'), cell: (r: ReportRow) => dateTime(r.createdAt) },
    { id: 'closedAt', header: t('reports.columns.closedAt'), cell: (r: ReportRow) => dateTime(r.closedAt) },
    {
      id: 'supportTime',
      header: t('reports.columns.supportTime'),
      cell: (r: ReportRow) => (r.supportTime === null ? '—' : hoursAndMinutes(r.supportTime)),
    },
    { id: 'nps', header: t('reports.columns.nps'), cell: (r: ReportRow) => r.NPS ?? '—' },
    {
      id: 'actions',
      header: t('reports.columns.actions'),
      cell: (r: ReportRow) => (
        <SpaceBetween direction="horizontal" size="xxs">
          <Button
            variant="icon"
            iconName="status-info"
            ariaLabel={t('reports.log', { id: r.id })}
            onClick={() => setLogOf(r.id)}
          />
          <Button
            variant="icon"
            iconName="external"
            ariaLabel={t('reports.openTicket', { id: r.id })}
            href={`/tickets/${r.uuid}`}
            onFollow={onFollow}
          />
        </SpaceBetween>
      ),
    },
  ];

  return (
    <SpaceBetween size="l">
      <style>{PRINT_CSS}</style>
      <Header variant="h1">{t('menu.reports')}</Header>
      <Container>
        <SpaceBetween size="m">
          <SpaceBetween direction="horizontal" size="m" alignItems="end">
            <FormField label={t('reports.filter.search')}>
              <Input
                value={draft.searchParam}
                onChange={({ detail }) => setDraft((d) => ({ ...d, searchParam: detail.value }))}
                ariaLabel={t('reports.filter.search')}
              />
            </FormField>
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
          </SpaceBetween>
          <SpaceBetween direction="horizontal" size="m" alignItems="end">
            <FormField label={t('reports.filter.status')}>
              <Multiselect
                selectedOptions={pick(statusOptions, draft.status)}
                onChange={({ detail }) =>
                  setDraft((d) => ({ ...d, status: detail.selectedOptions.map((o) => o.value ?? '') }))
                }
                options={statusOptions}
                placeholder={t('reports.filter.all')}
              />
            </FormField>
            <FormField label={t('dashboard.filter.queues')}>
              <Multiselect
                selectedOptions={pick(queueOptions, draft.queueIds)}
                onChange={({ detail }) =>
                  setDraft((d) => ({ ...d, queueIds: detail.selectedOptions.map((o) => Number(o.value)) }))
                }
                options={queueOptions}
                placeholder={t('reports.filter.all')}
              />
            </FormField>
            <FormField label={t('reports.filter.users')}>
              <Multiselect
                selectedOptions={pick(userOptions, draft.users)}
                onChange={({ detail }) =>
                  setDraft((d) => ({ ...d, users: detail.selectedOptions.map((o) => Number(o.value)) }))
                }
                options={userOptions}
                placeholder={t('reports.filter.all')}
              />
            </FormField>
            <Checkbox
              checked={draft.onlyRated}
              onChange={({ detail }) => setDraft((d) => ({ ...d, onlyRated: detail.checked }))}
            >
              {t('reports.filter.onlyRated')}
            </Checkbox>
            <Button
              variant="primary"
              onClick={() => {
                setPage(1);
                setFilter({ ...draft });
              }}
            >
              {t('dashboard.filter.apply')}
            </Button>
          </SpaceBetween>
        </SpaceBetween>
      </Container>
      {report.status === 'error' && <Alert type="error">{t('reports.error')}</Alert>}
      {exporting.panel}
      <div id="report-print">
        <Table
          loading={report.status === 'loading'}
          loadingText={t('reports.loading')}
          items={report.status === 'ready' ? report.data.tickets : []}
          trackBy="id"
          columnDefinitions={columns}
          empty={<Box color="text-body-secondary">{t('reports.empty')}</Box>}
          header={
            <Header
              counter={report.status === 'ready' ? `(${total}${report.data.countIsExact ? '' : '+'})` : undefined}
              actions={
                <SpaceBetween direction="horizontal" size="xs">
                  <Button
                    iconName="download"
                    loading={exporting.busy}
                    onClick={() => void exporting.start({ kind: 'tickets-report', filters: reportFilterQuery(filter) })}
                  >
                    {t('exports.excel')}
                  </Button>
                  <Button
                    onClick={() => {
                      if (document.getElementById('report-print')) window.print();
                    }}
                  >
                    {t('reports.pdf')}
                  </Button>
                </SpaceBetween>
              }
            >
              {t('reports.title')}
            </Header>
          }
          pagination={
            <SpaceBetween direction="horizontal" size="xs" alignItems="center">
              <Pagination
                currentPageIndex={page}
                pagesCount={pages}
                onChange={({ detail }) => setPage(detail.currentPageIndex)}
                ariaLabels={{
                  nextPageLabel: t('reports.nextPage'),
                  previousPageLabel: t('reports.previousPage'),
                  pageLabel: (n) => t('reports.page', { n }),
                }}
              />
              <Select
                selectedOption={{ value: String(pageSize), label: String(pageSize) }}
                onChange={({ detail }) => {
                  setPage(1);
                  setPageSize(Number(detail.selectedOption.value));
                }}
                options={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
                ariaLabel={t('reports.pageSize')}
              />
            </SpaceBetween>
          }
        />
      </div>
      {logOf !== null && <LogDialog ticket={{ id: logOf }} onClose={() => setLogOf(null)} />}
    </SpaceBetween>
  );
}
