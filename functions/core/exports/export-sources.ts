import type { AttendantsExportFilters, ExportFormat, ExportKind, ReportExportFilters } from '../../contracts/exports';
import type { TicketStatus } from '../../data/ticket-repository';
import { ReadScope } from '../../data/read-scope';
import { reportPages } from '../../data/report-repository';
import type { AuthContext } from '../../shared/auth-context';
import { allContactViews, companyContactCount } from '../contacts/contact-service';
import { assertDashboardAccess, checkedRange, getDashboard } from '../dashboard/dashboard-service';
import { reportRange, reportRows, reportTotal } from '../dashboard/report-service';
import { companyTimeZone } from '../settings/company-settings';
import type { Cell, SheetColumn } from './sheet-writers';

/**
 * What each export writes (decisions D128, D129): its file and sheet names, its columns, its rows a page at
 * a time — read by the same service functions as the screen it comes from, so a cell equals what that
 * screen's API answers for the same filters — and the row count when it is known beforehand.
 */
export interface ExportSource {
  fileName: string;
  sheetName: string;
  columns: readonly SheetColumn[];
  /**
   * Checks permission and filters as the screen's API would (a 403 or a 400 naming the field) and answers
   * the rows expected (null when only walking tells). Runs when the export is asked for and again in the job.
   */
  total: () => Promise<number | null>;
  pages: () => AsyncGenerator<Cell[][]>;
}

/** Rows per page the job reads and writes at once. */
export const EXPORT_PAGE_ROWS = 200;

/** The report's status names as the screen shows them (pt, the file's language). */
export const STATUS_TEXT: Record<TicketStatus, string> = {
  open: 'Em atendimento',
  pending: 'Aguardando',
  closed: 'Finalizado',
  group: 'Grupo',
  nps: 'Aguardando avaliação',
  lgpd: 'LGPD',
};

/** An instant as the company's wall clock: a Date whose UTC fields are the local date and time. */
export const wallClock = (iso: string, zone: string): Date => {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return new Date(Date.UTC(n('year'), n('month') - 1, n('day'), n('hour') % 24, n('minute'), n('second')));
};

const attendants = (auth: AuthContext, filters: AttendantsExportFilters): ExportSource => {
  // The same call as the Atendentes table (D109: one definition per metric).
  let answer: ReturnType<typeof getDashboard> | undefined;
  const dashboard = () => (answer ??= getDashboard(auth, filters));
  return {
    fileName: 'relatorio-de-atendentes.xlsx',
    sheetName: 'Atendentes',
    columns: [
      { header: 'Nome', kind: 'text', width: 30 },
      { header: 'Avaliação', kind: 'number', width: 12 },
      { header: 'Avaliações', kind: 'number', width: 12 },
      { header: 'Atendimentos', kind: 'number', width: 14 },
      { header: 'T.M. de espera', kind: 'minutes', width: 16 },
      { header: 'T.M. de atendimento', kind: 'minutes', width: 20 },
      { header: 'Status', kind: 'text', width: 10 },
    ],
    total: async () => (await dashboard()).attendants.length,
    pages: async function* () {
      const rows = (await dashboard()).attendants;
      for (let i = 0; i < rows.length; i += EXPORT_PAGE_ROWS) {
        yield rows
          .slice(i, i + EXPORT_PAGE_ROWS)
          .map((r) => [
            r.name,
            r.rating,
            r.countRating,
            r.tickets,
            r.avgWaitTime,
            r.avgSupportTime,
            r.online ? 'Online' : 'Offline',
          ]);
      }
    },
  };
};

const ticketsReport = (auth: AuthContext, filters: ReportExportFilters): ExportSource => ({
  fileName: 'relatorio-de-atendimentos.xlsx',
  sheetName: 'RelatorioDeAtendimentos',
  columns: [
    { header: 'Ticket', kind: 'number', width: 10 },
    { header: 'Conexão', kind: 'text', width: 20 },
    { header: 'Contato', kind: 'text', width: 28 },
    { header: 'Usuário', kind: 'text', width: 22 },
    { header: 'Fila', kind: 'text', width: 18 },
    { header: 'Status', kind: 'text', width: 20 },
    { header: 'Última mensagem', kind: 'text', width: 40 },
    { header: 'Abertura', kind: 'datetime', width: 18 },
    { header: 'Fechamento', kind: 'datetime', width: 18 },
    { header: 'T. de atendimento', kind: 'minutes', width: 18 },
    { header: 'NPS', kind: 'number', width: 8 },
    { header: 'UUID', kind: 'text', width: 38 },
  ],
  total: async () => {
    assertDashboardAccess(auth);
    checkedRange(filters.dateFrom, filters.dateTo, ['dateFrom', 'dateTo']);
    return reportTotal(auth.companyId, filters);
  },
  pages: async function* () {
    assertDashboardAccess(auth);
    const scope = new ReadScope();
    const zone = await companyTimeZone(scope, auth.companyId);
    const range = await reportRange(scope, auth.companyId, filters);
    if (range === null) return;
    // The screen's own row builder (reportRows): names, support time and NPS as the paged report shows.
    for await (const trackings of reportPages(range, EXPORT_PAGE_ROWS)) {
      const rows = await reportRows(scope, auth.companyId, trackings);
      yield rows.map((r) => [
        r.id,
        r.whatsappName,
        r.contactName,
        r.userName,
        r.queueName,
        STATUS_TEXT[r.status] ?? r.status,
        r.lastMessage,
        wallClock(r.createdAt, zone),
        r.closedAt ? wallClock(r.closedAt, zone) : null,
        r.supportTime,
        r.NPS,
        r.uuid,
      ]);
    }
  },
});

const contacts = (auth: AuthContext, format: ExportFormat): ExportSource => ({
  fileName: `contatos.${format}`,
  sheetName: 'Contatos',
  columns: [
    { header: 'ID', kind: 'number', width: 10 },
    { header: 'Nome', kind: 'text', width: 30 },
    { header: 'WhatsApp', kind: 'text', width: 20 },
    { header: 'E-mail', kind: 'text', width: 30 },
    { header: 'Canal', kind: 'text', width: 12 },
    { header: 'Grupo', kind: 'text', width: 8 },
    { header: 'Situação', kind: 'text', width: 12 },
    { header: 'Criado em', kind: 'datetime', width: 18 },
  ],
  total: () => companyContactCount(auth),
  pages: async function* () {
    const zone = await companyTimeZone(new ReadScope(), auth.companyId);
    for await (const page of allContactViews(auth, EXPORT_PAGE_ROWS)) {
      yield page.map((c) => [
        c.id,
        c.name,
        c.number,
        c.email,
        c.channel,
        c.isGroup ? 'Sim' : 'Não',
        c.active ? 'Ativo' : 'Bloqueado',
        wallClock(c.createdAt, zone),
      ]);
    }
  },
});

export const exportSource = (
  auth: AuthContext,
  kind: ExportKind,
  format: ExportFormat,
  filters: Record<string, unknown>,
): ExportSource =>
  kind === 'attendants'
    ? attendants(auth, filters as AttendantsExportFilters)
    : kind === 'tickets-report'
      ? ticketsReport(auth, filters as ReportExportFilters)
      : contacts(auth, format);
