import type {
  AttendantRow,
  ChartQuery,
  DashboardAnswer,
  DashboardQuery,
  MomentsAnswer,
  MomentsQuery,
  MomentTicket,
  TicketsDayAnswer,
  TicketsUsersAnswer,
  UserMoment,
} from '../../contracts/dashboard';
import { MAX_RANGE_DAYS } from '../../contracts/dashboard';
import { getContacts } from '../../data/contact-repository';
import { company } from '../../data/keys';
import { ReadScope } from '../../data/read-scope';
import { listTicketStreams, queueStream } from '../../data/ticket-list-repository';
import { getLiveCounts, userCountKey, type Ticket } from '../../data/ticket-repository';
import { readCompanyDays, readQueueDays, readUserDays, zonedDayHour } from '../../data/ticket-stats';
import { listUsers, type User } from '../../data/user-repository';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, Forbidden, ValidationError } from '../../shared/errors';
import { companyTimeZone } from '../settings/company-settings';
import { addDays, attendantRow, dashboardCounters, daysBetween, eachDay, sumCounters, type Counters } from './metrics';

/**
 * GET /dashboard, /dashboard/ticketsUsers, /dashboard/ticketsDay, /usersMoments and /dashboard/moments
 * (core §2, §3, §7; data-model §3.6; decisions D108–D110). Every number comes from the day aggregates
 * (functions/data/ticket-stats.ts): a request reads O(days in range) items (× queues or attendants for
 * those views), never the company's tickets.
 */

const isManager = (auth: AuthContext) => auth.profile === 'admin' || auth.super;

/** Admins, and users with showDashboard (core §6): dashboard and reports. */
export const assertDashboardAccess = (auth: AuthContext): void => {
  if (!isManager(auth) && auth.userFlags.showDashboard !== true) {
    throw new Forbidden('ERR_NO_PERMISSION', 'No permission to see the dashboard');
  }
};

/** Admins, and users with allowRealTime (core §6): the attendance panel. */
const assertPanelAccess = (auth: AuthContext): void => {
  if (!isManager(auth) && auth.userFlags.allowRealTime !== true) {
    throw new Forbidden('ERR_NO_PERMISSION', 'No permission to see the attendance panel');
  }
};

/** Today in the company's zone. */
export const companyToday = async (scope: ReadScope, companyId: number, now = new Date()): Promise<string> =>
  zonedDayHour(now.toISOString(), await companyTimeZone(scope, companyId)).day;

/** A checked range of company days. */
export const checkedRange = (from: string, to: string, fields: [string, string]): { from: string; to: string } => {
  if (to < from)
    throw new ValidationError([{ field: `query.${fields[1]}`, reason: `must not be before ${fields[0]}` }]);
  if (daysBetween(from, to) >= MAX_RANGE_DAYS) {
    throw new ValidationError([{ field: `query.${fields[1]}`, reason: `at most ${MAX_RANGE_DAYS} days` }]);
  }
  return { from, to };
};

const dashboardRange = async (scope: ReadScope, auth: AuthContext, q: DashboardQuery) => {
  if (q.date_from && q.date_to) return checkedRange(q.date_from, q.date_to, ['date_from', 'date_to']);
  if (q.days) {
    const today = await companyToday(scope, auth.companyId);
    return { from: addDays(today, 1 - q.days), to: today };
  }
  // The spec's answer to a request without a filter (core §8).
  throw new BadRequest('ERR_VALIDATION', 'Parametrize o filtro', [
    { field: 'query.days', reason: 'Parametrize o filtro' },
  ]);
};

/** Every user of the company (tens; the plan limits them), name order. */
const allUsers = async (companyId: number): Promise<User[]> => {
  const users: User[] = [];
  let cursor: string | undefined;
  do {
    const page = await listUsers(companyId, { limit: 100, cursor });
    users.push(...page.items);
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
  return users;
};

const onlineIds = async (scope: ReadScope, companyId: number): Promise<Set<number>> =>
  new Set((await scope.onlineUsers(companyId)).connections.map((c) => c.userId));

const attendantRows = async (
  scope: ReadScope,
  companyId: number,
  from: string,
  to: string,
): Promise<AttendantRow[]> => {
  const [users, days, online] = await Promise.all([
    allUsers(companyId),
    readUserDays(companyId, from, to),
    onlineIds(scope, companyId),
  ]);
  const byUser = new Map<number, Counters[]>();
  for (const row of days) byUser.set(row.id, [...(byUser.get(row.id) ?? []), row.counters]);
  return users.map((u) =>
    attendantRow({ id: u.id, name: u.name, online: online.has(u.id) }, sumCounters(byUser.get(u.id) ?? [])),
  );
};

export const getDashboard = async (auth: AuthContext, q: DashboardQuery): Promise<DashboardAnswer> => {
  assertDashboardAccess(auth);
  const scope = new ReadScope();
  const { from, to } = await dashboardRange(scope, auth, q);
  const { companyId } = auth;
  const [companyDays, queueDays, attendants] = await Promise.all([
    readCompanyDays(companyId, from, to),
    q.queueIds?.length ? readQueueDays(companyId, from, to) : Promise.resolve([]),
    attendantRows(scope, companyId, from, to),
  ]);
  const wanted = new Set(q.queueIds ?? []);
  const counters = q.queueIds?.length
    ? sumCounters(queueDays.filter((r) => wanted.has(r.id)).map((r) => r.counters))
    : sumCounters(companyDays.map((r) => r.counters));
  const leads = sumCounters(companyDays.map((r) => r.counters)).leads ?? 0;
  return { counters: dashboardCounters(counters, leads), attendants, dateFrom: from, dateTo: to };
};

/** GET /dashboard/ticketsUsers: tickets per attendant in the range (the same `tickets` as the table). */
export const ticketsPerUser = async (auth: AuthContext, q: ChartQuery): Promise<TicketsUsersAnswer> => {
  assertDashboardAccess(auth);
  const { from, to } = checkedRange(q.initialDate, q.finalDate, ['initialDate', 'finalDate']);
  const rows = (await attendantRows(new ReadScope(), auth.companyId, from, to)).filter((r) => r.tickets > 0);
  const data = rows.map((r) => ({ userId: r.id, nome: r.name, quantidade: r.tickets }));
  return { data, count: data.reduce((a, r) => a + r.quantidade, 0) };
};

/** GET /dashboard/ticketsDay: tickets per day, or per hour for a one-day range (the same `tickets` card). */
export const ticketsPerDay = async (auth: AuthContext, q: ChartQuery): Promise<TicketsDayAnswer> => {
  assertDashboardAccess(auth);
  const { from, to } = checkedRange(q.initialDate, q.finalDate, ['initialDate', 'finalDate']);
  const days = await readCompanyDays(auth.companyId, from, to);
  if (from === to) {
    const c = sumCounters(days.map((d) => d.counters));
    const data = Array.from({ length: 24 }, (_, h) => {
      const hour = String(h).padStart(2, '0');
      return { horario: hour, total: Math.max(0, c[`h${hour}`] ?? 0) };
    });
    return { data, count: data.reduce((a, r) => a + r.total, 0) };
  }
  const byDay = new Map(days.map((d) => [d.day, Math.max(0, d.counters.created ?? 0)]));
  const data = eachDay(from, to).map((day) => ({ data: day, total: byDay.get(day) ?? 0 }));
  return { data, count: data.reduce((a, r) => a + r.total, 0) };
};

/** GET /usersMoments: every user, online or not, with the tickets they hold now (live counts). */
export const usersMoments = async (auth: AuthContext): Promise<UserMoment[]> => {
  assertPanelAccess(auth);
  const scope = new ReadScope();
  const users = await allUsers(auth.companyId);
  const [online, counts] = await Promise.all([
    onlineIds(scope, auth.companyId),
    getLiveCounts(
      auth.companyId,
      users.flatMap((u) => [userCountKey(u.id, 'open'), userCountKey(u.id, 'pending')]),
    ),
  ]);
  return users.map((u) => ({
    id: u.id,
    name: u.name,
    profile: u.profile,
    online: online.has(u.id),
    open: counts.get(userCountKey(u.id, 'open')) ?? 0,
    pending: counts.get(userCountKey(u.id, 'pending')) ?? 0,
  }));
};

/** How many tickets the panel lists at most (newest activity first); `hasMore` says when there are more. */
export const PANEL_LIMIT = 300;

/**
 * GET /dashboard/moments: the tickets being served (open) and waiting (pending), from the live lists of
 * every queue (and no queue) — O(tickets listed). The panel groups them per attendant; a plain user with
 * allowRealTime sees every card but may open only their own tickets (core §2).
 */
export const dashboardMoments = async (auth: AuthContext, q: MomentsQuery): Promise<MomentsAnswer> => {
  assertPanelAccess(auth);
  const { companyId } = auth;
  const scope = new ReadScope();
  const queues = await scope.queues(companyId);
  const statuses = q.status
    ? [q.status].filter((s) => s === 'open' || s === 'pending')
    : (['open', 'pending'] as const);
  const queueIds: (number | null)[] = q.queueIds?.length ? q.queueIds : [...queues.keys(), null];
  const streams = statuses.flatMap((s) => queueIds.map((id) => queueStream(companyId, id, s)));
  const page = await listTicketStreams({
    scope: `${company(companyId)}#MOMENTS`,
    streams: streams.slice(0, 64),
    descending: true,
    ...(q.userId ? { accept: (t: Ticket) => t.userId === q.userId } : {}),
    limit: PANEL_LIMIT,
  });
  const contacts = await getContacts(
    companyId,
    page.items.map((t) => t.contactId),
  );
  const manager = isManager(auth);
  const tickets: MomentTicket[] = [];
  for (const t of page.items) {
    const queue = t.queueId === null ? undefined : queues.get(t.queueId);
    const connection = await scope.connection(companyId, t.whatsappId);
    const userName = t.userId === null ? null : await scope.userName(companyId, t.userId);
    tickets.push({
      id: t.id,
      uuid: t.uuid,
      status: t.status,
      lastMessage: t.lastMessage,
      updatedAt: t.updatedAt,
      createdAt: t.createdAt,
      unreadMessages: t.unreadMessages,
      userId: t.userId,
      user: t.userId === null ? null : { id: t.userId, name: userName ?? '' },
      queueId: t.queueId,
      queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
      contact: { id: t.contactId, name: contacts.get(t.contactId)?.name ?? '' },
      whatsapp: connection ? { id: connection.id, name: connection.name } : null,
      canOpen: manager || t.userId === auth.userId,
    });
  }
  return { tickets, hasMore: page.hasMore };
};
