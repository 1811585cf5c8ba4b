import type { KanbanLanesView, KanbanTicketsView, KanbanTicketView } from '../../contracts/tags';
import { getContacts } from '../../data/contact-repository';
import { laneLessTicketIds, laneTicketIds } from '../../data/kanban-repository';
import { ReadScope } from '../../data/read-scope';
import { getTags, listAllTags } from '../../data/tag-repository';
import { getTickets } from '../../data/ticket-list-repository';
import type { TaggedTicket } from '../../data/ticket-tag-repository';
import type { AuthContext } from '../../shared/auth-context';
import { maskContactFor, shouldMaskNumbers } from '../privacy/number-mask';
import { companyTimeZone, hidesNumbers } from '../settings/company-settings';
import { ticketViewerOf } from '../tickets/ticket-access';
import { canSeeTicket } from '../tickets/visibility';
import { tagView } from './tag-admin-service';

/**
 * The kanban board (core §2 Kanban; administration §2, §3 "Kanban ticket", §7; decisions D101). Lanes are the
 * company's kanban tags; `GET /ticket/kanban` answers the tickets created in the date range (the company's
 * days) that the caller may see: per lane the newest LANE_LIMIT from the lane's index (gsi5 `TAGT#<tagId>`),
 * and for the default lane the newest LANE_LIMIT of the range's creation index (gsi5 `TCREATED`) that sit in
 * no lane — Queries sized by the range and the lanes, never by the company. Closed tickets are not cards.
 */
export const LANE_LIMIT = 100;
/** Lanes read per request (the filter of the default lane names at most 99). */
export const MAX_LANES = 99;
/** Index items the default lane may examine per request. */
export const DEFAULT_LANE_READ_BUDGET = 1000;

/** `GET /tag/kanban`: the company's kanban lanes by id, in the spec's answer field `lista`. */
export const listKanbanLanes = async (auth: AuthContext): Promise<KanbanLanesView> => ({
  lista: (await listAllTags(auth.companyId, true)).map(tagView),
});

/** UTC offset of `zone` at `at`, in ms (local = utc + offset). */
const offsetMs = (zone: string, at: number): number => {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return local - Math.floor(at / 1000) * 1000;
};

/** The instant a company day (`yyyy-mm-dd`) starts in `zone`, as epoch ms (DST-safe: two passes). */
export const dayStartIn = (day: string, zone: string): number => {
  const naive = Date.parse(`${day}T00:00:00.000Z`);
  const first = naive - offsetMs(zone, naive);
  return naive - offsetMs(zone, first);
};

/** Today in `zone` as `yyyy-mm-dd`. */
export const todayIn = (zone: string, now = new Date()): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

const nextDay = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

/** `[startDate 00:00, endDate 24:00)` of the company's zone as ISO bounds (inclusive). */
export const kanbanRange = (zone: string, startDate: string, endDate: string) => ({
  from: new Date(dayStartIn(startDate, zone)).toISOString(),
  to: new Date(dayStartIn(nextDay(endDate), zone) - 1).toISOString(),
});

export interface KanbanQuery {
  queueIds?: number[] | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

/** `GET /ticket/kanban`: the board's cards (default today, in the company's time zone). */
export const listKanbanTickets = async (
  auth: AuthContext,
  q: KanbanQuery,
  now = new Date(),
): Promise<KanbanTicketsView> => {
  const { companyId } = auth;
  const scope = new ReadScope();
  const zone = await companyTimeZone(scope, companyId);
  const startDate = q.startDate ?? todayIn(zone, now);
  const endDate = q.endDate ?? (q.startDate && q.startDate > todayIn(zone, now) ? q.startDate : todayIn(zone, now));
  const range = kanbanRange(zone, startDate, endDate < startDate ? startDate : endDate);
  const lanes = (await listAllTags(companyId, true)).slice(0, MAX_LANES);
  const laneIds = lanes.map((l) => l.id);
  const [viewer, perLane, laneLess] = await Promise.all([
    ticketViewerOf(auth),
    Promise.all(lanes.map((lane) => laneTicketIds(companyId, lane.id, range, LANE_LIMIT))),
    laneLessTicketIds(companyId, range, laneIds, LANE_LIMIT, DEFAULT_LANE_READ_BUDGET),
  ]);
  const queues = q.queueIds && q.queueIds.length > 0 ? new Set(q.queueIds) : null;
  const tickets = ((await getTickets(companyId, [...laneLess, ...perLane.flat()])) as TaggedTicket[]).filter(
    (t) => t.status !== 'closed' && canSeeTicket(viewer, t) && (!queues || queues.has(t.queueId ?? 0)),
  );
  const [contacts, tags, mask] = await Promise.all([
    getContacts(
      companyId,
      tickets.map((t) => t.contactId),
    ),
    getTags(companyId, [...new Set(tickets.flatMap((t) => t.tagIds ?? []))]),
    hidesNumbers(scope, companyId).then((hides) => shouldMaskNumbers(auth, hides)),
  ]);
  const tagsById = new Map(tags.map((t) => [t.id, t]));
  const laneSet = new Set(laneIds);
  const views = await Promise.all(
    tickets.map(async (t): Promise<KanbanTicketView | null> => {
      const contact = contacts.get(t.contactId);
      if (!contact) return null;
      const shown = maskContactFor(contact, mask);
      const [connection, userName] = await Promise.all([
        scope.connection(companyId, t.whatsappId),
        t.userId === null ? Promise.resolve(null) : scope.userName(companyId, t.userId),
      ]);
      const lane = t.kanbanTagId ?? null;
      return {
        id: t.id,
        uuid: t.uuid,
        status: t.status,
        queueId: t.queueId,
        contact: { id: shown.id, name: shown.name, number: shown.number },
        lastMessage: t.lastMessage ?? '',
        unreadMessages: t.unreadMessages ?? 0,
        createdAt: t.createdAt,
        updatedAt: t.updatedAt,
        channel: t.channel,
        whatsapp: connection ? { id: connection.id, name: connection.name } : null,
        user: t.userId === null ? null : { id: t.userId, name: userName ?? '' },
        tags: (t.tagIds ?? []).flatMap((id) => {
          const tag = tagsById.get(id);
          return tag ? [{ id: tag.id, name: tag.name, color: tag.color, kanban: tag.kanban }] : [];
        }),
        kanbanTagId: lane !== null && laneSet.has(lane) ? lane : null,
      };
    }),
  );
  return {
    tickets: views
      .filter((v): v is KanbanTicketView => v !== null)
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id)),
  };
};
