import { closedPeriodStart, type ServiceHours } from './schedule';

/**
 * The routing step of the inbound pipeline (DESIGN §6): after a contact's message is stored, what the
 * system answers by itself. A pure function of what the job loaded, so every rule is a table test. Today
 * it knows the connection's collective vacation, the out-of-hours message and the greeting of a new ticket
 * (docs/decisions/D33-inbound-tickets-automatic-replies.md); queue menus, chatbot trees, flows, integrations and
 * ratings extend it later — they will also return replies (and ticket changes) from here.
 */
export type AutomaticReplyKind = 'greeting' | 'outOfHours' | 'vacation' | 'chatBot';

export interface AutomaticReply {
  kind: AutomaticReplyKind;
  body: string;
  /**
   * What makes the reply unique on its ticket (its message id is derived from it): the kind alone (once a
   * ticket) unless the rule names more — the closed period for out-of-hours, the vacation for its message
   * (decisions D92).
   */
  key?: string;
}

export interface RoutingInput {
  message: { fromMe: boolean; isGroup: boolean };
  ticket: {
    status: string;
    userId: number | null;
    /** This message opened the ticket. */
    isNew: boolean;
  };
  connection: {
    greetingMessage: string;
    outOfHoursMessage: string;
    schedules: readonly ServiceHours[];
    queueIds: readonly number[];
    collectiveVacationStart?: string | null;
    collectiveVacationEnd?: string | null;
    collectiveVacationMessage?: string;
  };
  /** The ticket's queue, when it has one. */
  queue: { outOfHoursMessage: string; schedules: readonly ServiceHours[] } | null;
  settings: {
    scheduleType: string;
    sendGreetingMessageOneQueues: string;
    /** The company's working hours (scheduleType `company`). */
    schedules?: readonly ServiceHours[];
  };
  now: Date;
  timeZone: string;
}

/** The calendar day (yyyy-mm-dd) of an instant in a time zone. */
const localDay = (at: Date, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

const onVacation = (input: RoutingInput): boolean => {
  const { collectiveVacationStart: start, collectiveVacationEnd: end } = input.connection;
  if (!start || !end) return false;
  const today = localDay(input.now, input.timeZone);
  return today >= start.slice(0, 10) && today <= end.slice(0, 10);
};

/** Which service hours apply (the company setting `scheduleType`), or null when hours are not checked. */
const serviceHours = (input: RoutingInput): { schedules: readonly ServiceHours[]; message: string } | null => {
  switch (input.settings.scheduleType) {
    case 'connection':
      return { schedules: input.connection.schedules, message: input.connection.outOfHoursMessage };
    case 'queue':
      return input.queue ? { schedules: input.queue.schedules, message: input.queue.outOfHoursMessage } : null;
    case 'company':
      // The company's working hours; the out-of-hours text is the connection's (the company has none).
      return { schedules: input.settings.schedules ?? [], message: input.connection.outOfHoursMessage };
    default:
      return null;
  }
};

export const route = (input: RoutingInput): AutomaticReply[] => {
  // Only a contact's own message on a ticket nobody handles yet gets an automatic answer; groups never.
  if (input.message.fromMe || input.message.isGroup) return [];
  if (input.ticket.userId !== null || input.ticket.status !== 'pending') return [];

  const vacationText = input.connection.collectiveVacationMessage?.trim() ?? '';
  if (vacationText && onVacation(input)) {
    // Once per vacation: a new vacation (other dates) speaks again on the same ticket.
    const { collectiveVacationStart: start, collectiveVacationEnd: end } = input.connection;
    return [{ kind: 'vacation', body: vacationText, key: `vacation:${start!.slice(0, 10)}:${end!.slice(0, 10)}` }];
  }

  const hours = serviceHours(input);
  const closedSince = hours ? closedPeriodStart(hours.schedules, input.now, input.timeZone) : null;
  if (closedSince !== null) {
    // Once per closed period: the next night (or lunch break) answers again (decisions D92).
    const text = hours!.message.trim();
    return text ? [{ kind: 'outOfHours', body: text, key: `outOfHours:${closedSince}` }] : [];
  }

  const greeting = input.connection.greetingMessage.trim();
  const oneQueueSilenced =
    input.connection.queueIds.length === 1 && input.settings.sendGreetingMessageOneQueues === 'disabled';
  if (input.ticket.isNew && greeting && !oneQueueSilenced) return [{ kind: 'greeting', body: greeting }];
  return [];
};
