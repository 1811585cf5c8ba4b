import type { ReportAnswer, ReportQuery, ReportRow } from '../../contracts/dashboard';
import { getContacts, listContacts, type ContactChannel } from '../../data/contact-repository';
import { searchForm } from '../../data/keys';
import { ReadScope } from '../../data/read-scope';
import { walkReport, type ReportFilter, type ReportWalk } from '../../data/report-repository';
import { getTickets } from '../../data/ticket-list-repository';
import { readCompanyDays, readQueueDays, readUserDays } from '../../data/ticket-stats';
import type { TicketStatus } from '../../data/ticket-repository';
import type { AuthContext } from '../../shared/auth-context';
import { ValidationError } from '../../shared/errors';
import { companyTimeZone } from '../settings/company-settings';
import { assertDashboardAccess, checkedRange } from './dashboard-service';
import { addDays, minutesBetween, sumCounters, zoneDayStart } from './metrics';

/**
 * The tickets report (admin §2 Reports, §3 Report ticket row, §7; data-model §3.6; decisions D110): tickets
 * created in a range of company days, newest first, with filters, paged by `page`/`pageSize`. The page
 * is O(skipped + page) reads of the creation index (skipping capped at MAX_REPORT_SKIP); the total is
 * exact from the day aggregates when the filter is dates plus at most one of status / queues / users,
 * else the matches counted while walking, up to MAX_REPORT_COUNT (`countIsExact: false`).
 */
export const MAX_REPORT_SKIP = 1000;
export const MAX_REPORT_COUNT = 5000;
const CONTACT_MATCHES = 20;
const CHANNELS: ContactChannel[] = ['whatsapp', 'instagram', 'facebook'];

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The exact total from the aggregates, when one covers the filter. */
const aggregateTotal = async (companyId: number, q: ReportQuery): Promise<number | null> => {
  const narrowed = [q.status?.length, q.queueIds?.length, q.users?.length].filter(Boolean).length;
  if (q.searchParam?.trim() || q.contactId || q.whatsappId || q.onlyRated === 'true' || narrowed > 1) return null;
  if (q.queueIds?.length) {
    const wanted = new Set(q.queueIds);
    const rows = (await readQueueDays(companyId, q.dateFrom, q.dateTo)).filter((r) => wanted.has(r.id));
    return sumCounters(rows.map((r) => r.counters)).created ?? 0;
  }
  if (q.users?.length) {
    const wanted = new Set(q.users);
    const rows = (await readUserDays(companyId, q.dateFrom, q.dateTo)).filter((r) => wanted.has(r.id));
    return sumCounters(rows.map((r) => r.counters)).created ?? 0;
  }
  const c = sumCounters((await readCompanyDays(companyId, q.dateFrom, q.dateTo)).map((r) => r.counters));
  if (q.status?.length) return [...new Set(q.status)].reduce((a, s) => a + Math.max(0, c[`st_${s}`] ?? 0), 0);
  return Math.max(0, c.created ?? 0);
};

/** searchParam: a ticket number, or the start of contact names (their first matches). */
const searchFilter = async (companyId: number, search: string): Promise<Partial<ReportFilter> | null> => {
  if (/^\d+$/.test(search)) return { ticketId: Number(search) };
  const page = await listContacts(companyId, {
    kinds: CHANNELS.flatMap((channel) => [
      { channel, isGroup: false },
      { channel, isGroup: true },
    ]),
    namePrefix: searchForm(search),
    limit: CONTACT_MATCHES,
  });
  return page.items.length ? { contactIds: page.items.map((c) => c.id) } : null;
};

/**
 * What the report walks for a query: the creation-time bounds of its company days and its filters; null
 * when the search matches no contact (nothing to walk). The export job walks the same (decisions D128).
 */
export const reportRange = async (
  scope: ReadScope,
  companyId: number,
  q: Omit<ReportQuery, 'page' | 'pageSize'>,
): Promise<Omit<ReportWalk, 'skip' | 'take' | 'countUpTo'> | null> => {
  const zone = await companyTimeZone(scope, companyId);
  const search = q.searchParam?.trim() ?? '';
  const searched = search ? await searchFilter(companyId, search) : {};
  if (searched === null) return null;
  return {
    companyId,
    from: zoneDayStart(q.dateFrom, zone).toISOString(),
    to: zoneDayStart(addDays(q.dateTo, 1), zone).toISOString(),
    contactId: q.contactId,
    filter: {
      statuses: q.status,
      queueIds: q.queueIds,
      userIds: q.users,
      whatsappId: q.whatsappId,
      onlyRated: q.onlyRated === 'true',
      ...searched,
    },
  };
};

/** The report's exact total when an aggregate covers the filter (else null), for the export's progress. */
export const reportTotal = (companyId: number, q: Omit<ReportQuery, 'page' | 'pageSize'>): Promise<number | null> =>
  aggregateTotal(companyId, { ...q, page: 1, pageSize: 1 });

export const ticketsReport = async (auth: AuthContext, q: ReportQuery): Promise<ReportAnswer> => {
  assertDashboardAccess(auth);
  checkedRange(q.dateFrom, q.dateTo, ['dateFrom', 'dateTo']);
  const skip = (q.page - 1) * q.pageSize;
  if (skip > MAX_REPORT_SKIP) {
    throw new ValidationError([{ field: 'query.page', reason: `too deep: at most ${MAX_REPORT_SKIP} rows skipped` }]);
  }
  const { companyId } = auth;
  const scope = new ReadScope();
  const range = await reportRange(scope, companyId, q);
  if (range === null) return { tickets: [], totalTickets: { total: 0 }, countIsExact: true, hasMore: false };
  const exact = await aggregateTotal(companyId, q);
  const walk = await walkReport({
    ...range,
    skip,
    take: q.pageSize,
    countUpTo: exact === null ? MAX_REPORT_COUNT : 0,
  });
  const tickets = await reportRows(scope, companyId, walk.rows);
  return {
    tickets,
    totalTickets: { total: exact ?? walk.matched },
    countIsExact: exact !== null || walk.complete,
    hasMore: walk.hasMore,
  };
};

/** Report rows for TRACKING items: one BatchGet of tickets and of contacts, names from the read scope. */
export const reportRows = async (
  scope: ReadScope,
  companyId: number,
  trackings: Record<string, unknown>[],
): Promise<ReportRow[]> => {
  const ids = trackings.map((t) => Number(t.ticketId));
  const [tickets, contacts, queues] = await Promise.all([
    getTickets(companyId, ids),
    getContacts(
      companyId,
      trackings.map((t) => Number(t.contactId)),
    ),
    scope.queues(companyId),
  ]);
  const byId = new Map(tickets.map((t) => [t.id, t]));
  const rows: ReportRow[] = [];
  for (const tr of trackings) {
    const ticket = byId.get(Number(tr.ticketId));
    if (!ticket) continue;
    const status = String(tr.status) as TicketStatus;
    const startedAt = str(tr.startedAt);
    const endedAt = str(tr.workEndAt) ?? str(tr.finishedAt);
    const connection = await scope.connection(companyId, Number(tr.whatsappId));
    const userId = tr.userId === null || tr.userId === undefined ? null : Number(tr.userId);
    const queueId = tr.queueId === null || tr.queueId === undefined ? null : Number(tr.queueId);
    rows.push({
      id: ticket.id,
      uuid: ticket.uuid,
      whatsappName: connection?.name ?? '',
      contactName: contacts.get(Number(tr.contactId))?.name ?? '',
      userName: userId === null ? '' : ((await scope.userName(companyId, userId)) ?? ''),
      queueName: queueId === null ? '' : (queues.get(queueId)?.name ?? ''),
      status,
      lastMessage: ticket.lastMessage,
      createdAt: String(tr.createdAt),
      closedAt: str(tr.finishedAt) ?? null,
      supportTime:
        status === 'closed' && startedAt && endedAt && tr.isGroup !== true ? minutesBetween(startedAt, endedAt) : null,
      NPS: tr.rating === undefined || tr.rating === null ? null : Number(tr.rating),
    });
  }
  return rows;
};
