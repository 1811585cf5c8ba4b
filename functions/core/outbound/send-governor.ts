import { getConnection } from '../../data/connection-repository';
import { ReadScope } from '../../data/read-scope';
import {
  getGovernorState,
  saveGovernorState,
  savePause,
  type GovernorState,
} from '../../data/send-governor-repository';
import { logger } from '../../shared/logger';
import { CHANGED_OR_BUSY, withRetry } from '../../shared/retry';
import { companyTimeZone } from '../settings/company-settings';
import { minutesOf, readCampaignSettings } from './campaign-settings';
import type { CampaignSettingsView } from '../../contracts/campaign-settings';
import { addDays, instantOf, wallOf } from './zoned-time';

/**
 * One send governor per connection (DESIGN §10; issue 16 item 1; decisions D117). Every automatic send —
 * scheduled messages now, campaigns, flows and the external API later — asks it for a slot before it
 * sends; human replies never do (functions/core/messages does not call it).
 *
 * `reserveSendSlot` answers either `{at}`: a slot is taken, send at `at` (now or a little later, never
 * later than `maxWaitMs`), or `{deferredUntil, reason}`: nothing was taken, ask again at `deferredUntil`.
 * The rules, all in the company's time zone and with intervals in seconds:
 * - pacing: `messageInterval` seconds after each send, `greaterInterval` after every `longerIntervalAfter`-th
 *   (the streak restarts after an idle spell at least that long);
 * - allowed hours `startHour`–`endHour` and days (`sabado`, `domingo`) for the kinds that keep office hours
 *   (campaigns and flows; a schedule and an API call already name their time);
 * - `dailyLimit` sends per connection per local day;
 * - a connection that is not CONNECTED pauses everything: `deferredUntil` now + PAUSE_RETRY_MS, so the
 *   caller retries by itself and resumes once the connection is back;
 * - a provider that rate-limited the connection (`reportProviderThrottle`, decisions D166) pauses every
 *   automatic send until its back-off ends; it resumes by itself.
 * The state is one item per connection written with a condition on its version, so two reservers never
 * share a slot (the loser re-reads and takes the next one).
 */
export type SendKind = 'campaign' | 'schedule' | 'flow' | 'api' | 'bot';
export type DeferReason = 'disconnected' | 'outside-hours' | 'daily-cap' | 'paced' | 'throttled';

export const PAUSE_RETRY_MS = 60_000;
/**
 * Kinds held to the campaign settings' allowed hours and days. Not flows: a flow answers a customer who is
 * writing now, at any hour, like the chatbot (decisions D141, which narrows D117 here).
 */
export const OFFICE_HOURS_KINDS: ReadonlySet<SendKind> = new Set(['campaign']);

export interface SlotRequest {
  companyId: number;
  whatsappId: number;
  kind: SendKind;
  now?: Date;
  /** Longest wait the caller can hold a slot for (its own delay); beyond it the answer is deferred. */
  maxWaitMs?: number;
  /**
   * The rules and the connection's state, read once by a caller that takes many slots in a row (a campaign
   * wave, decisions D133) instead of once per slot; `prepareSlots` makes it.
   */
  prepared?: PreparedSlots;
}

export interface PreparedSlots {
  rules: GovernorRules;
  connected: boolean;
}

export type SlotAnswer = { at: Date } | { deferredUntil: Date; reason: DeferReason };

export interface GovernorRules {
  settings: CampaignSettingsView;
  timeZone: string;
  officeHours: boolean;
}

export interface PlannedSlot {
  at: number;
  /** Why `at` is later than asked, if it is. */
  reason: DeferReason | null;
  next: Omit<GovernorState, 'version'>;
}

/** The first instant ≥ `t` inside the allowed hours and days (a week ahead at most). */
const intoOfficeHours = (t: number, rules: GovernorRules): number => {
  const { settings, timeZone } = rules;
  const start = minutesOf(settings.startHour);
  const end = minutesOf(settings.endHour);
  let w = wallOf(t, timeZone);
  for (let i = 0; i < 8; i += 1) {
    const dayAllowed = (w.weekday !== 6 || settings.sabado) && (w.weekday !== 0 || settings.domingo);
    const minute = w.hour * 60 + w.minute;
    if (dayAllowed && minute < end) {
      if (minute >= start) return t;
      return instantOf(
        { year: w.year, month: w.month, day: w.day, hour: (start / 60) | 0, minute: start % 60 },
        timeZone,
      ).getTime();
    }
    const next = addDays(w.date, 1);
    const [y, m, d] = next.split('-').map(Number) as [number, number, number];
    t = instantOf({ year: y, month: m, day: d, hour: 0, minute: 0 }, timeZone).getTime();
    w = wallOf(t, timeZone);
  }
  return t;
};

/** Local midnight after the local day of `t`. */
const nextLocalDay = (t: number, timeZone: string): number => {
  const [y, m, d] = addDays(wallOf(t, timeZone).date, 1).split('-').map(Number) as [number, number, number];
  return instantOf({ year: y, month: m, day: d, hour: 0, minute: 0 }, timeZone).getTime();
};

/**
 * The pure arithmetic (decisions D117), given the state read and the rules: the slot's time and the state
 * after taking it. `now` in epoch ms.
 */
export const planSlot = (state: GovernorState, rules: GovernorRules, now: number): PlannedSlot => {
  const { settings, timeZone } = rules;
  let reason: DeferReason | null = null;
  let t = Math.max(now, state.nextAt);
  if (t > now) reason = 'paced';
  if (state.pausedUntil > t) {
    t = state.pausedUntil;
    reason = 'throttled';
  }
  // An idle spell as long as the longer pause counts as that pause: the streak restarts.
  const idle = state.nextAt === 0 || now - state.nextAt >= settings.greaterInterval * 1000;
  let streak = idle ? 0 : state.streak;
  const place = () => {
    if (rules.officeHours) {
      const inside = intoOfficeHours(t, rules);
      if (inside > t) {
        t = inside;
        reason = 'outside-hours';
      }
    }
  };
  place();
  let day = wallOf(t, timeZone).date;
  let count = state.day === day ? state.dayCount : 0;
  if (count >= settings.dailyLimit) {
    t = nextLocalDay(t, timeZone);
    reason = 'daily-cap';
    place();
    day = wallOf(t, timeZone).date;
    count = 0;
    streak = 0;
  }
  streak += 1;
  const longer = settings.longerIntervalAfter > 0 && streak >= settings.longerIntervalAfter;
  const gapSeconds = longer ? settings.greaterInterval : settings.messageInterval;
  return {
    at: t,
    reason,
    next: {
      nextAt: t + gapSeconds * 1000,
      streak: longer ? 0 : streak,
      day,
      dayCount: count + 1,
      pausedUntil: state.pausedUntil,
      throttles: state.throttles,
    },
  };
};

export const governorRules = async (companyId: number, kind: SendKind): Promise<GovernorRules> => {
  const [settings, timeZone] = await Promise.all([
    readCampaignSettings(companyId),
    companyTimeZone(new ReadScope(), companyId),
  ]);
  return { settings, timeZone, officeHours: OFFICE_HOURS_KINDS.has(kind) };
};

/** The rules and the connection's state for a run of `reserveSendSlot` calls (`prepared`). */
export const prepareSlots = async (companyId: number, whatsappId: number, kind: SendKind): Promise<PreparedSlots> => {
  const [connection, rules] = await Promise.all([getConnection(companyId, whatsappId), governorRules(companyId, kind)]);
  return { rules, connected: connection?.status === 'CONNECTED' };
};

export const reserveSendSlot = async (request: SlotRequest): Promise<SlotAnswer> => {
  const { companyId, whatsappId, kind } = request;
  const maxWaitMs = request.maxWaitMs ?? 60_000;
  const prepared = request.prepared ?? (await prepareSlots(companyId, whatsappId, kind));
  const nowMs = (request.now ?? new Date()).getTime();
  if (!prepared.connected) {
    return { deferredUntil: new Date(nowMs + PAUSE_RETRY_MS), reason: 'disconnected' };
  }
  const { rules } = prepared;
  return withRetry({ ...CHANGED_OR_BUSY, attempts: 50 }, async () => {
    const state = await getGovernorState(companyId, whatsappId);
    const now = request.now ? nowMs : Date.now();
    const plan = planSlot(state, rules, now);
    if (plan.at - now > maxWaitMs) return { deferredUntil: new Date(plan.at), reason: plan.reason ?? 'paced' };
    await saveGovernorState(companyId, whatsappId, state, plan.next);
    return { at: new Date(plan.at) };
  });
};

/** Waits until a reserved slot's time (the caller chose a `maxWaitMs` it can afford to sleep). */
export const waitForSlot = async (at: Date): Promise<void> => {
  const ms = at.getTime() - Date.now();
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
};

/** The first pause after a provider's rate-limit, doubled per spell that follows closely, capped. */
export const THROTTLE_PAUSE_MS = { first: 30_000, max: 15 * 60_000 } as const;

/**
 * A provider said "too fast" for this connection (WhatsApp's rate-overlimit, the Graph API's throttling
 * codes; decisions D166): every automatic send of the connection pauses — `reserveSendSlot` answers
 * `{deferredUntil, reason: 'throttled'}` — until the pause ends, and resumes by itself. A report during a
 * pause changes nothing (the other chats' sends that were already on their way are refused too); a report
 * less than 15 min after the last pause ended doubles it (30 s, 1 min, 2 min, … at most 15 min); the
 * provider's Retry-After, when it gives one, wins. Human replies are not governed; the send that was
 * refused is retried by its own caller. Answers the end of the pause.
 */
export const reportProviderThrottle = async (
  companyId: number,
  whatsappId: number,
  options: { retryAfterMs?: number; now?: Date } = {},
): Promise<Date> =>
  withRetry({ ...CHANGED_OR_BUSY, attempts: 20 }, async () => {
    const now = (options.now ?? new Date()).getTime();
    const state = await getGovernorState(companyId, whatsappId);
    if (state.pausedUntil > now) return new Date(state.pausedUntil);
    const closeToLast = state.pausedUntil > 0 && now - state.pausedUntil < THROTTLE_PAUSE_MS.max;
    const throttles = closeToLast ? state.throttles + 1 : 1;
    const backOff = Math.min(THROTTLE_PAUSE_MS.max, THROTTLE_PAUSE_MS.first * 2 ** (throttles - 1));
    const until = now + (options.retryAfterMs ?? backOff);
    await savePause(companyId, whatsappId, state, { until, throttles });
    logger.warn('provider rate-limited the connection: automatic sends paused', {
      companyId,
      whatsappId,
      until: new Date(until).toISOString(),
      throttles,
    });
    return new Date(until);
  });
