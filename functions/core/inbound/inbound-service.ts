import type { Connection } from '../../data/connection-repository';
import { getContact, recordLgpdConsent, type Contact } from '../../data/contact-repository';
import {
  applyDelete,
  applyEdit,
  claimProviderRef,
  getMessage,
  getProviderRef,
  messageSortKey,
  messageWireId,
  raiseAck,
  refreshLastMessage,
  storeMessage,
  type QuotedSnapshot,
  type StoredMessage,
} from '../../data/message-repository';
import {
  getTickets,
  MAX_RUN,
  MAX_TRANSACTION_ITEMS,
  runItemCount,
  storeMessageRuns,
  type MessageRun,
} from '../../data/inbound-batch-repository';
import {
  getLastClosedTicket,
  getLiveCounts,
  getTicket,
  queueCountKey,
  readOpenTicketAhead,
  transitionTicket,
  type Ticket,
} from '../../data/ticket-repository';
import type { Queue } from '../../data/queue-repository';
import { seededUlid, ulidTime } from '../../data/ulids';
import { errorFields, logger } from '../../shared/logger';
import { enqueueOutbound, whatsappMessageId } from '../pipeline/outbound-queue';
import { publishForTicket, publishTicketChange, ticketViewOf } from '../tickets/ticket-events';
import { toContactView, toMessageView } from '../tickets/ticket-views';
import { upsertContact, contactSubjectOf } from './contact-upsert';
import type { InboundAck, InboundDelete, InboundEdit, InboundEvent, InboundMessage } from '../pipeline/inbound-event';
import type { ReadScope } from '../../data/read-scope';
import {
  answerOf,
  lastMessagePreview,
  storedContent,
  type MenuContent,
  type StoredContent,
} from '../pipeline/message-content';
import { route, type AutomaticReply } from './routing';
import { handleRatingReply } from '../tickets/nps';
import { findOrCreateTicket } from './ticket-find-or-create';
import { countImportedMessage } from '../connections/message-import';
import { recordImportedTicket } from '../../data/message-import-repository';
import { companyTimeZone, routingSettings, type RoutingSettings } from '../settings/company-settings';
import { fileListForSending } from '../files/file-list-service';
import { decideConsent, DEFAULT_CONSENT_TEXTS, type ConsentDecision } from './consent';
import { chooseAttendant, landsInQueue, queuePosition, queuePositionMessage, type LandingState } from './landing';
import { recordCampaignRead, recordCampaignReply } from '../campaigns/campaign-dispatch';
import { answerWithIntegration, startIntegration } from './integration-runner';
import { decideBot, DEFAULT_BOT_TEXTS, type BotDecision, type BotQueue } from './chatbot';
import { answerWithFlow } from '../flows/flow-triggers';

/**
 * The inbound pipeline after the queue (DESIGN §6; data-model §2.17, §4): contact upsert, ticket
 * find-or-create, the message stored with its ticket's new state in one transaction, real-time events to
 * the users who may see the ticket, then routing (automatic replies). Idempotent: the provider id is pinned
 * to one message key before anything is stored, the store is conditional on that key being new, and only
 * a store that happened publishes — so a redelivered event writes nothing new and publishes nothing twice.
 * Routing runs on redeliveries too (a crash may have come between the store and the replies); its replies
 * are keyed by ticket and kind, so they are written and sent at most once.
 */
export type InboundOutcome =
  | 'stored'
  | 'duplicate'
  | 'updated'
  | 'unchanged'
  | 'ignored:unknown-connection'
  | 'ignored:groups-disabled'
  | 'ignored:foreign-media'
  | 'ignored:unknown-message'
  | 'ignored:ticket-gone'
  | 'ignored:reaction-removed'
  | 'ignored:blocked-contact';

export const handleInboundEvent = async (event: InboundEvent, scope: ReadScope): Promise<InboundOutcome> => {
  switch (event.kind) {
    case 'message': {
      const outcome = await handleMessage(event, scope);
      // Whatever became of it, an imported message is one more handled (decisions D78).
      if (event.imported) await countImportedMessage(event);
      return outcome;
    }
    default:
      return handleChange(event, scope);
  }
};

// ---------------------------------------------------------------------------------------------- events

// -------------------------------------------------------------------------------------------- messages

/** A message's time: when our adapter received it, kept after the ticket's latest message so order holds. */
const messageTime = (event: InboundMessage, ticket: Ticket): number => {
  // An imported message keeps its own time: it sorts among the ticket's messages where it belongs.
  if (event.imported) return Date.parse(event.timestamp);
  const base = Date.parse(event.receivedAt ?? event.timestamp);
  const previous = ticket.lastMsgSk ? ulidTime(ticket.lastMsgSk.slice('MSG#'.length)) : 0;
  return Math.max(base, previous + 1);
};

const quotedSnapshot = async (
  companyId: number,
  whatsappId: number,
  providerId: string | undefined,
  contact: Contact,
): Promise<QuotedSnapshot | undefined> => {
  if (!providerId) return undefined;
  const ref = await getProviderRef(companyId, whatsappId, providerId);
  if (!ref) return undefined;
  const quoted = await getMessage(companyId, ref.ticketId, ref.ulid);
  if (!quoted) return undefined;
  return {
    id: messageWireId(ref.ticketId, ref.ulid),
    body: quoted.body.slice(0, 1_000),
    mediaType: quoted.mediaType,
    ...(quoted.mediaKey ? { mediaKey: quoted.mediaKey } : {}),
    fromMe: quoted.fromMe,
    ...(quoted.fromMe ? {} : { contactName: quoted.participant?.name ?? contact.name }),
  };
};

/** The stored message of a provider message on its ticket, under the ulid its provider id was pinned to. */
const storedMessageOf = (
  event: InboundMessage,
  ticket: Ticket,
  ulid: string,
  content: StoredContent,
  quoted: QuotedSnapshot | undefined,
): StoredMessage => {
  const participant = event.participant
    ? {
        ...(event.participant.phone ? { number: event.participant.phone } : {}),
        ...(event.participant.lid ? { lid: event.participant.lid } : {}),
        ...(event.participant.pushName ? { name: event.participant.pushName } : {}),
      }
    : undefined;
  return {
    ulid,
    companyId: event.companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: event.whatsappId,
    ...content,
    fromMe: event.fromMe,
    isPrivate: false,
    isDeleted: false,
    isEdited: false,
    isForwarded: event.isForwarded,
    ...(quoted ? { quotedMsgId: quoted.id, quotedMsg: quoted } : {}),
    queueId: ticket.queueId,
    // What the phone sent is at least on the server; a contact's message is never acked by us.
    ack: event.fromMe ? 1 : 0,
    createdAt: new Date(ulidTime(ulid)).toISOString(),
    providerId: event.providerMessageId,
    providerTimestamp: event.timestamp,
    ...(participant ? { participant } : {}),
    userId: null,
  };
};

const handleMessage = async (event: InboundMessage, scope: ReadScope): Promise<InboundOutcome> => {
  const { companyId, whatsappId } = event;
  const connection = await scope.connection(companyId, whatsappId);
  if (!connection) return 'ignored:unknown-connection';
  if (event.chat.isGroup && !connection.allowGroup) return 'ignored:groups-disabled';
  if ('mediaKey' in event.content && !event.content.mediaKey.startsWith(`c/${companyId}/`)) {
    logger.warn('inbound media outside the company prefix', { companyId, whatsappId });
    return 'ignored:foreign-media';
  }
  if (event.content.type === 'reaction' && !event.content.emoji) return 'ignored:reaction-removed';

  // 1. Where does this provider message go? A redelivery finds the place pinned by its first delivery.
  let ticket: Ticket | null;
  let contact: Contact | null;
  let contactChanged = false;
  let ticketCreated = false;
  let ref = await getProviderRef(companyId, whatsappId, event.providerMessageId);
  if (ref) {
    ticket = await getTicket(companyId, ref.ticketId);
    contact = ticket ? await getContact(companyId, ticket.contactId) : null;
  } else {
    const upsert = await upsertContact(companyId, whatsappId, contactSubjectOf(event));
    contact = upsert.contact;
    contactChanged = upsert.created || upsert.changed;
    // A blocked contact cannot start a chat (core §4): their messages are dropped, not stored (D42).
    // What the phone itself sends (fromMe) still goes through: someone chose to write to them.
    if (!contact.active && !event.fromMe) {
      logger.info('message of a blocked contact dropped', { companyId, whatsappId, contactId: contact.id });
      return 'ignored:blocked-contact';
    }
    const found = await findOrCreateTicket(contact, connection, {
      channel: event.channel,
      isGroup: event.chat.isGroup,
      fromMe: event.fromMe,
      chatId: event.chat.id,
      providerMessageId: event.providerMessageId,
      imported: event.imported,
    });
    ticket = found.ticket;
    ticketCreated = found.created;
    // A ticket the import made can be closed with the others afterwards (POST /closedimported/{id}).
    if (event.imported && ticketCreated) await recordImportedTicket(companyId, whatsappId, ticket.id);
    const ulid = seededUlid(messageTime(event, ticket), `${whatsappId}:${event.providerMessageId}`);
    const claim = await claimProviderRef(companyId, whatsappId, event.providerMessageId, {
      ticketId: ticket.id,
      ulid,
      contactId: contact.id,
    });
    ref = claim.ref;
    if (ref.ticketId !== ticket.id) ticket = await getTicket(companyId, ref.ticketId);
  }
  if (!ticket || !contact) return 'ignored:ticket-gone';

  // 2. The message and the ticket's new state, together.
  const content = storedContent(event.content);
  const quoted = await quotedSnapshot(
    companyId,
    whatsappId,
    event.content.type === 'reaction' ? event.content.targetProviderMessageId : event.quotedProviderMessageId,
    contact,
  );
  const message = storedMessageOf(event, ticket, ref.ulid, content, quoted);
  if (event.imported) {
    const outcome = await storeMessage(message, {
      lastMessage: lastMessagePreview(content),
      updatedAt: message.createdAt,
      unread: 'keep',
      onlyIfLatest: true,
    });
    if (outcome === 'ticket-gone') return 'ignored:ticket-gone';
    // The screens learn of the ticket the import made; its messages are there when someone opens it.
    if (outcome === 'stored' && ticketCreated) {
      const current = (await getTicket(companyId, ticket.id)) ?? ticket;
      const ticketView = await ticketViewOf(scope, current, contact);
      await publishForTicket(scope, current, [{ channel: 'ticket', action: 'update', ticket: ticketView }]);
    }
    return outcome;
  }
  const outcome = await storeMessage(message, {
    lastMessage: lastMessagePreview(content),
    updatedAt: message.createdAt,
    // Someone answered from the phone: the conversation is read (data-model §2.17, outbound).
    unread: event.fromMe ? 'reset' : 'increment',
  });
  if (outcome === 'ticket-gone') return 'ignored:ticket-gone';

  // 3. Events, only for what this delivery stored.
  let current = ticket;
  if (outcome === 'stored') {
    current = (await getTicket(companyId, ticket.id)) ?? ticket;
    const ticketView = await ticketViewOf(scope, current, contact);
    await publishForTicket(scope, current, [
      ...(contactChanged
        ? [{ channel: 'contact' as const, action: 'update' as const, contact: toContactView(contact) }]
        : []),
      {
        channel: 'appMessage',
        action: 'create',
        message: toMessageView(message, current),
        ticket: ticketView,
        contact: toContactView(contact),
      },
      { channel: 'ticket', action: 'update', ticket: ticketView },
      ...(event.fromMe && ticket.unreadMessages > 0
        ? [{ channel: 'ticket' as const, action: 'updateUnread' as const, ticketId: current.id }]
        : []),
    ]);
  }

  // 4. Routing: automatic replies (idempotent per ticket and kind).
  await answerAutomatically(scope, event, connection, current, contact, message);
  return outcome;
};

// ------------------------------------------------------------------------------------- runs of a chat

/**
 * Whether a message may be stored together with its chat's neighbours in one run (decisions D65): a
 * contact's plain message — not from the phone, not a reaction, quoting nothing (a quote could name a
 * message of the same run, not stored yet) — with its media, if any, under the company's prefix.
 * Everything else takes the one-event path, in its place in the chat's order.
 */
export const runnable = (event: InboundEvent): event is InboundMessage =>
  event.kind === 'message' &&
  !event.fromMe &&
  !event.imported &&
  event.content.type !== 'reaction' &&
  event.quotedProviderMessageId === undefined &&
  !('mediaKey' in event.content && !event.content.mediaKey.startsWith(`c/${event.companyId}/`));

/** Messages of one run name the same chat and the same person the same way: one contact upsert serves all. */
export const runKey = (event: InboundMessage): string =>
  JSON.stringify([event.companyId, event.whatsappId, event.chat.id, contactSubjectOf(event)]);

/** A run ready to be written: what its events resolved to, and its messages. */
interface PreparedRun {
  events: readonly InboundMessage[];
  connection: Connection;
  contact: Contact;
  contactChanged: boolean;
  ticket: Ticket;
  run: MessageRun;
}

const assertRun = (events: readonly InboundMessage[]): InboundMessage => {
  const first = events[0];
  if (!first || events.length > MAX_RUN || events.some((e) => !runnable(e) || runKey(e) !== runKey(first))) {
    throw new Error('not a run of one chat');
  }
  return first;
};

/**
 * The reads of a run (as the one-event path does them for its first message): the connection, one contact
 * upsert, one ticket find-or-create; then its messages, each after the ticket's latest and after the one
 * before it, so queue order is key order. Outcomes instead when the run is dropped as a whole.
 */
const prepareRun = async (
  events: readonly InboundMessage[],
  scope: ReadScope,
): Promise<PreparedRun | InboundOutcome[]> => {
  const first = assertRun(events);
  const { companyId, whatsappId } = first;
  const all = (outcome: InboundOutcome): InboundOutcome[] => events.map(() => outcome);
  const connection = await scope.connection(companyId, whatsappId);
  if (!connection) return all('ignored:unknown-connection');
  if (first.chat.isGroup && !connection.allowGroup) return all('ignored:groups-disabled');

  // Its contact and open-ticket guard are read in one request (D84): the guard as soon as the contact's id
  // is known.
  const upsert = await upsertContact(companyId, whatsappId, contactSubjectOf(first), {
    readAhead: scope.readAhead,
    onKnown: (contactId) => readOpenTicketAhead(scope.readAhead, companyId, contactId, whatsappId),
  });
  const { contact } = upsert;
  if (!contact.active) {
    logger.info('messages of a blocked contact dropped', { companyId, whatsappId, contactId: contact.id });
    return all('ignored:blocked-contact');
  }
  const { ticket } = await findOrCreateTicket(
    contact,
    connection,
    {
      channel: first.channel,
      isGroup: first.chat.isGroup,
      fromMe: false,
      chatId: first.chat.id,
      providerMessageId: first.providerMessageId,
    },
    scope.readAhead,
  );
  let previous = ticket.lastMsgSk ? ulidTime(ticket.lastMsgSk.slice('MSG#'.length)) : 0;
  const messages = events.map((event) => {
    const time = Math.max(Date.parse(event.receivedAt ?? event.timestamp), previous + 1);
    previous = time;
    const ulid = seededUlid(time, `${whatsappId}:${event.providerMessageId}`);
    return storedMessageOf(event, ticket, ulid, storedContent(event.content), undefined);
  });
  return {
    events,
    connection,
    contact,
    contactChanged: upsert.created || upsert.changed,
    ticket,
    run: { messages, lastMessage: lastMessagePreview(messages[messages.length - 1]!) },
  };
};

/**
 * After a stored run: its events — the contact (if it changed), one appMessage create per message in
 * order, one ticket update with the final state — then routing for each message, as the one-event path.
 */
const announceRun = async (prepared: PreparedRun, current: Ticket, scope: ReadScope): Promise<InboundOutcome[]> => {
  const { events, connection, contact, run } = prepared;
  const ticketView = await ticketViewOf(scope, current, contact);
  const contactView = toContactView(contact);
  await publishForTicket(scope, current, [
    ...(prepared.contactChanged
      ? [{ channel: 'contact' as const, action: 'update' as const, contact: contactView }]
      : []),
    ...run.messages.map((message) => ({
      channel: 'appMessage' as const,
      action: 'create' as const,
      message: toMessageView(message, current),
      ticket: ticketView,
      contact: contactView,
    })),
    { channel: 'ticket', action: 'update', ticket: ticketView },
  ]);
  // Each message is answered on the ticket as the one before left it: a bot step, a consent or a rating
  // changes it, and the next message must neither decide on the old state nor fail the run's retry on the
  // old version (found by the routing benchmark, issue 13).
  let ticket = current;
  let person = contact;
  for (let i = 0; i < events.length; i += 1) {
    const changed = await answerAutomatically(scope, events[i]!, connection, ticket, person, run.messages[i]!);
    if (changed && i < events.length - 1) {
      const [fresh, freshContact] = await Promise.all([
        getTicket(ticket.companyId, ticket.id),
        getContact(ticket.companyId, ticket.contactId),
      ]);
      if (!fresh) break; // deleted meanwhile: nothing left to answer on
      ticket = fresh;
      person = freshContact ?? person;
    }
  }
  return events.map(() => 'stored');
};

/** A refused run (a provider id stored meanwhile, the ticket gone): one event at a time, idempotently. */
const oneByOne = async (events: readonly InboundMessage[], scope: ReadScope): Promise<InboundOutcome[]> => {
  const outcomes: InboundOutcome[] = [];
  for (const event of events) outcomes.push(await handleMessage(event, scope));
  return outcomes;
};

/**
 * A run of one chat's consecutive contact messages (`runnable`, equal `runKey`, none stored before, each
 * provider id once, at most MAX_RUN), handled as the one-event path would handle them one after another,
 * with the work they share done once (data-model §2.17 "Batched", §5.2): one contact upsert, one ticket
 * find-or-create, the provider ids pinned (one BatchWrite), one transaction that stores every message and
 * moves the ticket once (`ADD unreadMessages :n`), one ticket re-read, and the events — contact (if it
 * changed), one appMessage create per message in order, one ticket update with the final state. When the
 * transaction is refused it wrote nothing and the messages go through the one-event path, which finds
 * their pinned ids and stores each once (D84). Answers one outcome per event, in order.
 */
export const handleMessageRun = async (
  events: readonly InboundMessage[],
  scope: ReadScope,
): Promise<InboundOutcome[]> => {
  const prepared = await prepareRun(events, scope);
  if (Array.isArray(prepared)) return prepared;
  if ((await storeMessageRuns([prepared.run])) === 'refused') return oneByOne(events, scope);
  const current = (await getTicket(prepared.ticket.companyId, prepared.ticket.id)) ?? prepared.ticket;
  return announceRun(prepared, current, scope);
};

/**
 * Runs of different chats of one batch (each a whole FIFO group's share of the batch), written together
 * (decisions D65): each run's reads as `handleMessageRun`, in parallel; then ONE transaction for every run
 * that fits (distinct tickets, ≤ 100 items) and ONE BatchGet of their tickets; then each run's events and
 * routing. A run that could not join, or all of them when the transaction is refused, is stored on its own
 * by `handleMessageRun`. Answers, per run, its outcomes or the error that stopped it (that chat is retried).
 */
export const handleMessageRuns = async (
  runs: readonly (readonly InboundMessage[])[],
  scope: ReadScope,
): Promise<PromiseSettledResult<InboundOutcome[]>[]> => {
  if (runs.length === 1) return Promise.allSettled([handleMessageRun(runs[0]!, scope)]);
  const prepared = await Promise.allSettled(runs.map((events) => prepareRun(events, scope)));
  const together: { index: number; run: PreparedRun }[] = [];
  const tickets = new Set<string>();
  let items = 0;
  prepared.forEach((p, index) => {
    if (p.status !== 'fulfilled' || Array.isArray(p.value)) return;
    const ticketKey = `${p.value.ticket.companyId}:${p.value.ticket.id}`;
    const size = runItemCount(p.value.run.messages.length);
    if (tickets.has(ticketKey) || items + size > MAX_TRANSACTION_ITEMS) return;
    tickets.add(ticketKey);
    items += size;
    together.push({ index, run: p.value });
  });
  const stored = new Map<number, PreparedRun>();
  if (together.length > 0 && (await storeMessageRuns(together.map((t) => t.run.run))) === 'stored') {
    for (const t of together) stored.set(t.index, t.run);
  }
  const current = new Map<string, Ticket>();
  const companies = new Set([...stored.values()].map((r) => r.ticket.companyId));
  for (const companyId of companies) {
    const ids = [...stored.values()].filter((r) => r.ticket.companyId === companyId).map((r) => r.ticket.id);
    for (const [id, ticket] of await getTickets(companyId, ids)) current.set(`${companyId}:${id}`, ticket);
  }
  return Promise.allSettled(
    runs.map(async (events, index) => {
      const p = prepared[index]!;
      if (p.status === 'rejected') throw p.reason;
      if (Array.isArray(p.value)) return p.value;
      const run = stored.get(index);
      if (!run) return handleMessageRun(events, scope);
      return announceRun(run, current.get(`${run.ticket.companyId}:${run.ticket.id}`) ?? run.ticket, scope);
    }),
  );
};

// ------------------------------------------------------------------------------------------- routing

/** Routing for one stored message. Answers whether it changed the ticket (or its contact). */
const answerAutomatically = async (
  scope: ReadScope,
  event: InboundMessage,
  connection: Connection,
  read: Ticket,
  readContact: Contact,
  trigger: StoredMessage,
): Promise<boolean> => {
  if (event.fromMe || event.chat.isGroup) return false; // nothing to decide: skip the reads
  // A reply to a campaign (or its confirmation) counts once for it (decisions D134).
  await recordCampaignReply(read.companyId, readContact.id).catch((err: unknown) =>
    logger.warn('campaign reply not recorded', { companyId: read.companyId, ...errorFields(err) }),
  );
  if (read.status === 'nps') {
    // The contact answers the rating question (D46). Only the ticket's latest message counts, so a
    // redelivery after the answer was handled (or asked again) changes nothing.
    if (read.lastMsgSk === messageSortKey(trigger.ulid)) {
      await handleRatingReply(scope, read, readContact, connection, trigger.body);
      return true;
    }
    return false;
  }
  const { companyId } = read;
  const [settings, timeZone, queues] = await Promise.all([
    routingSettings(scope, companyId),
    companyTimeZone(scope, companyId),
    scope.queues(companyId),
  ]);
  let ticket = read;
  let contact = readContact;
  let isNew = ticket.firstProviderId === event.providerMessageId;
  // The bot's step for this message was written already (a redelivery): nothing of it runs again.
  const handled = ticket.botTrigger === event.providerMessageId;

  // LGPD consent comes before anything else (decisions D93).
  if (!handled) {
    const consent = decideConsent({
      settings,
      isNew,
      isGroup: event.chat.isGroup,
      ticket,
      contact,
      body: trigger.body,
      texts: DEFAULT_CONSENT_TEXTS,
    });
    if (consent.action !== 'none') {
      const accepted = await carryOutConsent(scope, event, ticket, contact, trigger, consent);
      if (!accepted) return true;
      // Accepted: routing goes on as for a new ticket, its opening message being this answer.
      ({ ticket, contact } = accepted);
      isNew = true;
    }
  }

  const queue = ticket.queueId === null ? undefined : queues.get(ticket.queueId);
  const replies = route({
    message: { fromMe: event.fromMe, isGroup: event.chat.isGroup },
    ticket: { status: ticket.status, userId: ticket.userId, isNew },
    connection,
    queue: queue ? { outOfHoursMessage: queue.outOfHoursMessage, schedules: queue.schedules } : null,
    settings,
    now: new Date(),
    timeZone,
  });
  // Out of hours or on vacation, the bot waits (decisions D91); otherwise it answers, its menu carrying the
  // connection's greeting when it greets.
  const closed = replies.some((r) => r.kind === 'vacation' || r.kind === 'outOfHours');
  // A flow (decisions D139–D140) answers instead of the greeting and the chatbot when it has the message.
  if (!closed && !handled && (await answerWithFlow(scope, connection, ticket, contact, trigger, isNew))) return true;
  // A queue integration or the AI assistant (decisions D162–D164) answers instead when the ticket has one.
  if (
    !closed &&
    !handled &&
    (await answerWithIntegration(scope, connection, ticket, contact, trigger, isNew, queue?.integrationId ?? null))
  ) {
    return true;
  }
  const bot =
    closed || handled
      ? null
      : decideBot({
          isNew,
          ticket,
          state: {
            stage: ticket.botStage ?? null,
            path: ticket.botPath ?? [],
            attempts: ticket.amountUsedBotQueues ?? 0,
          },
          body: answerOf(trigger),
          connection: { ...connection, maxUseBotQueues: connection.maxUseBotQueues || 3 },
          queues: botQueues(queues),
          settings,
          texts: DEFAULT_BOT_TEXTS,
        });
  let after = trigger;
  for (const reply of replies) {
    if (reply.kind === 'greeting' && bot?.greeted) continue;
    after = await sendAutomaticReply(scope, event, ticket, contact, reply, after, reply.key);
  }
  const consented = ticket !== read;
  if (!bot) return consented;
  for (const [i, body] of bot.replies.entries()) {
    // The last reply may be a menu: drawn as buttons or a list where the company asks (decisions D132).
    const menu =
      bot.menu && i === bot.replies.length - 1 && settings.chatBotType !== 'text'
        ? { style: settings.chatBotType === 'button' ? ('button' as const) : ('list' as const), ...bot.menu }
        : undefined;
    after = await sendAutomaticReply(
      scope,
      event,
      ticket,
      contact,
      { kind: 'chatBot', body, ...(menu ? { menu } : {}) },
      after,
      `bot:${event.providerMessageId}:${i}`,
    );
  }
  for (const fileListId of bot.files ?? []) {
    after = await sendFileList(scope, event, ticket, contact, fileListId, after);
  }
  const next = await landing(scope, event, ticket, contact, bot.next, isNew, after, { settings, timeZone });
  if (!next) return consented;
  await applyBotStep(scope, ticket, contact, event.providerMessageId, next);
  if (bot.integrationId) await startIntegration(scope, ticket, contact, bot.integrationId, trigger);
  return true;
};

/**
 * LGPD consent (decisions D93): asks (the ticket goes to `lgpd`), asks again, closes on a refusal, or on
 * an acceptance stores `lgpdAcceptedAt` and puts the ticket back to pending — answering then the ticket
 * and contact routing goes on with. The question and each answer's reply are keyed by the ticket and the
 * answered message, so a redelivery sends nothing twice; the state changes are conditional transitions.
 */
const carryOutConsent = async (
  scope: ReadScope,
  event: InboundMessage,
  ticket: Ticket,
  contact: Contact,
  trigger: StoredMessage,
  consent: Exclude<ConsentDecision, { action: 'none' }>,
): Promise<{ ticket: Ticket; contact: Contact } | null> => {
  const { providerMessageId } = event;
  const log = { type: 'chatBot' as const, userId: null, queueId: ticket.queueId };
  switch (consent.action) {
    case 'ask': {
      await sendAutomaticReply(scope, event, ticket, contact, { kind: 'chatBot', body: consent.body }, trigger, 'lgpd');
      const after = await transitionTicket(ticket, {
        status: 'lgpd',
        userId: null,
        queueId: ticket.queueId,
        fields: { isBot: true, botTrigger: providerMessageId },
        logs: [log],
      });
      await publishTicketChange(scope, ticket, after, contact);
      return null;
    }
    case 'reask':
      await sendAutomaticReply(
        scope,
        event,
        ticket,
        contact,
        { kind: 'chatBot', body: consent.body },
        trigger,
        `lgpd:${providerMessageId}`,
      );
      return null;
    case 'refuse': {
      await sendAutomaticReply(
        scope,
        event,
        ticket,
        contact,
        { kind: 'chatBot', body: consent.body },
        trigger,
        `lgpd:${providerMessageId}`,
      );
      const after = await transitionTicket(ticket, {
        status: 'closed',
        userId: null,
        queueId: ticket.queueId,
        fields: { isBot: false, botTrigger: providerMessageId, amountUsedBotQueues: 0 },
        logs: [log, { type: 'closed', userId: null, queueId: ticket.queueId }],
      });
      await publishTicketChange(scope, ticket, after, contact);
      return null;
    }
    case 'accept': {
      const accepted = (await recordLgpdConsent(ticket.companyId, contact.id, new Date().toISOString())) ?? contact;
      const after = await transitionTicket(ticket, {
        status: 'pending',
        userId: null,
        queueId: ticket.queueId,
        fields: { isBot: false, firstProviderId: providerMessageId },
        logs: [log],
      });
      await publishForTicket(scope, after, [
        { channel: 'contact', action: 'update', contact: toContactView(accepted) },
      ]);
      await publishTicketChange(scope, ticket, after, accepted);
      return { ticket: after, contact: accepted };
    }
  }
};

/**
 * A ticket that lands in a queue to wait for a person (decisions D93): its wallet attendant or a random
 * online user of the queue gets it, inside the bot step's own transition (so a retry cannot give it twice);
 * otherwise the customer hears their place in the queue, before that transition, keyed by the answered
 * message. Answers the step to write (the bot's, or one made for the assignment), if any.
 */
const landing = async (
  scope: ReadScope,
  event: InboundMessage,
  ticket: Ticket,
  contact: Contact,
  step: BotDecision['next'],
  isNew: boolean,
  after: StoredMessage,
  company: { settings: RoutingSettings; timeZone: string },
): Promise<BotStep | undefined> => {
  const before: LandingState = {
    status: ticket.status,
    userId: ticket.userId,
    queueId: ticket.queueId,
    botStage: ticket.botStage ?? null,
  };
  const target: LandingState = {
    status: step?.close ? 'closed' : step?.userId !== undefined ? 'open' : ticket.status,
    userId: step?.userId ?? ticket.userId,
    queueId: step?.queueId ?? ticket.queueId,
    botStage: step ? step.state.stage : before.botStage,
  };
  if (!landsInQueue(before, target, isNew) || target.queueId === null) return step;
  const { settings, timeZone } = company;
  const { companyId } = ticket;
  const assigned = chooseAttendant({
    queueId: target.queueId,
    settings,
    walletUserId: settings.DirectTicketsToWallets ? await walletUserId(scope, ticket, contact) : null,
    online: settings.userRandom === 'enabled' ? [...(await scope.onlineUsers(companyId)).users.values()] : [],
    now: new Date(),
    timeZone,
    random: Math.random,
  });
  if (assigned) {
    const base: BotStep = step ?? {
      state: { stage: null, path: [], attempts: ticket.amountUsedBotQueues ?? 0 },
      log: 'chatBot',
    };
    return { ...base, userId: assigned.userId, assigned: true };
  }
  if (settings.sendQueuePosition === 'enabled') {
    const key = queueCountKey(target.queueId, 'pending');
    const pending = (await getLiveCounts(companyId, [key])).get(key) ?? 0;
    const position = queuePosition(pending, before.status === 'pending' && before.queueId === target.queueId);
    const body = queuePositionMessage(settings.sendQueuePositionMessage, position);
    if (body) {
      await sendAutomaticReply(
        scope,
        event,
        ticket,
        contact,
        { kind: 'chatBot', body },
        after,
        `queuePosition:${event.providerMessageId}`,
      );
    }
  }
  return step;
};

/**
 * The contact's wallet attendant (decisions D93): the user who attended the contact's last closed ticket
 * on this connection, while they still exist in the company.
 */
const walletUserId = async (scope: ReadScope, ticket: Ticket, contact: Contact): Promise<number | null> => {
  const last = await getLastClosedTicket(ticket.companyId, contact.id, ticket.whatsappId);
  if (!last || last.ticketId === ticket.id) return null;
  const previous = await getTicket(ticket.companyId, last.ticketId);
  if (previous?.userId == null) return null;
  return (await scope.userName(ticket.companyId, previous.userId)) === null ? null : previous.userId;
};

/**
 * A file list as the bot sends it (decisions D93): its message, then each file as a media message, through
 * the outbound pipeline, keyed by the answered message and the list — exactly once per answered message. A
 * list deleted meanwhile sends nothing (D88).
 */
const sendFileList = async (
  scope: ReadScope,
  event: InboundMessage,
  ticket: Ticket,
  contact: Contact,
  fileListId: number,
  after: StoredMessage,
): Promise<StoredMessage> => {
  const list = await fileListForSending(ticket.companyId, fileListId);
  if (!list) return after;
  const seed = `files:${event.providerMessageId}:${fileListId}`;
  let last = after;
  if (list.message.trim()) {
    last = await sendAutomaticReply(
      scope,
      event,
      ticket,
      contact,
      { kind: 'chatBot', body: list.message.trim() },
      last,
      `${seed}:message`,
    );
  }
  for (const [i, file] of list.files.entries()) {
    const media = {
      mediaKey: file.mediaKey,
      mediaType: file.mediaType,
      mimetype: file.mimetype,
      filename: file.fileName,
    };
    last = await sendAutomaticReply(
      scope,
      event,
      ticket,
      contact,
      { kind: 'chatBot', body: file.mediaType === 'application' ? '' : file.name, media },
      last,
      `${seed}:${i}`,
    );
  }
  return last;
};

/** The company's queues as the bot reads them (its menu lists the connection's, in the connection's order). */
const botQueues = (queues: Map<number, Queue>): Map<number, BotQueue> =>
  new Map(
    [...queues.values()].map((q) => [
      q.id,
      {
        id: q.id,
        name: q.name,
        greetingMessage: q.greetingMessage ?? '',
        chatbots: q.chatbots ?? [],
        fileListId: q.fileListId ?? null,
      },
    ]),
  );

/** A bot step to write; `assigned` when landing gave the ticket to someone (its log names them). */
type BotStep = NonNullable<BotDecision['next']> & { assigned?: boolean };

/**
 * The ticket after a bot step, in one conditional transition that also records the answered message
 * (`botTrigger`): the replies went out first with ids derived from that message, so a crash before this
 * write re-decides the same step and the replies are not sent twice; after it, a redelivery is skipped.
 */
const applyBotStep = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  triggerId: string,
  next: BotStep,
): Promise<void> => {
  const queueId = next.queueId ?? ticket.queueId;
  const userId = next.userId ?? ticket.userId;
  const status = next.close ? 'closed' : next.userId !== undefined ? 'open' : ticket.status;
  const after = await transitionTicket(ticket, {
    status,
    userId,
    queueId,
    fields: {
      botStage: next.state.stage,
      botPath: next.state.path,
      amountUsedBotQueues: next.state.attempts,
      isBot: next.state.stage !== null,
      botTrigger: triggerId,
    },
    logs: [
      { type: next.log, userId: null, queueId },
      ...(next.assigned ? [{ type: 'open' as const, userId, queueId }] : []),
      ...(status === 'closed' ? [{ type: 'closed' as const, userId: null, queueId }] : []),
    ],
  });
  await publishTicketChange(scope, ticket, after, contact);
};

/** A file the bot sends (a file list's, D93): it goes out as media, like a person's upload (D59). */
interface ReplyMedia {
  mediaKey: string;
  mediaType: string;
  mimetype: string;
  filename: string;
}

/**
 * Writes an automatic reply as an outbound message (fromMe, ack 0, `automatic: kind`) on the ticket and
 * puts it on the outbound queue (D34). Its provider id is derived from the ticket and the kind, so a ticket
 * gets each kind at most once, however often its contact writes or the event is redelivered.
 */
const sendAutomaticReply = async (
  scope: ReadScope,
  event: InboundMessage,
  ticket: Ticket,
  contact: Contact,
  reply: AutomaticReply & { media?: ReplyMedia; menu?: MenuContent },
  after: StoredMessage,
  /** What makes the reply unique: its kind (once a ticket) unless the caller names more (the bot's steps). */
  seed: string = reply.kind,
): Promise<StoredMessage> => {
  const { companyId, whatsappId } = event;
  const providerId = whatsappMessageId(`${companyId}:${whatsappId}:${ticket.id}:${seed}`);
  const time = Math.max(Date.now(), ulidTime(after.ulid) + 1);
  const { ref } = await claimProviderRef(companyId, whatsappId, providerId, {
    ticketId: ticket.id,
    ulid: seededUlid(time, `${whatsappId}:${providerId}`),
    contactId: ticket.contactId,
  });
  if (ref.ticketId !== ticket.id) return after; // an older ticket of this contact already had this reply
  const message: StoredMessage = {
    ulid: ref.ulid,
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId,
    body: reply.body,
    mediaType: reply.media?.mediaType ?? 'chat',
    ...(reply.media
      ? { mediaKey: reply.media.mediaKey, mimetype: reply.media.mimetype, filename: reply.media.filename }
      : {}),
    ...(reply.menu ? { dataJson: JSON.stringify({ menu: reply.menu }) } : {}),
    fromMe: true,
    isPrivate: false,
    isDeleted: false,
    isEdited: false,
    isForwarded: false,
    queueId: ticket.queueId,
    ack: 0,
    createdAt: new Date(ulidTime(ref.ulid)).toISOString(),
    providerId,
    userId: null,
    automatic: reply.kind,
    triggeredBy: event.providerMessageId,
  };
  const outcome = await storeMessage(message, {
    lastMessage: lastMessagePreview(message),
    updatedAt: message.createdAt,
    unread: 'keep',
  });
  if (outcome === 'ticket-gone') return after;
  if (outcome === 'duplicate') {
    // Written before: send again only when this is the very event that wrote it (a retry after a crash
    // between the write and the send); the sender drops a message already past ack 0.
    const stored = await getMessage(companyId, ticket.id, ref.ulid);
    if (stored?.triggeredBy !== event.providerMessageId || stored.ack !== 0) return stored ?? after;
  } else {
    const current = (await getTicket(companyId, ticket.id)) ?? ticket;
    const ticketView = await ticketViewOf(scope, current, contact);
    await publishForTicket(scope, current, [
      {
        channel: 'appMessage',
        action: 'create',
        message: toMessageView(message, current),
        ticket: ticketView,
        contact: toContactView(contact),
      },
      { channel: 'ticket', action: 'update', ticket: ticketView },
    ]);
  }
  await enqueueOutbound({
    kind: 'send',
    companyId,
    whatsappId,
    channel: event.channel,
    ticketId: ticket.id,
    messageId: messageWireId(ticket.id, ref.ulid),
    chatId: ticket.chatId ?? event.chat.id,
    ...(event.channel === 'whatsapp' ? { providerMessageId: providerId } : {}),
    requestedAt: new Date().toISOString(),
  });
  return message;
};

// ---------------------------------------------------------------------------- edits, deletes, acks

const handleChange = async (
  event: InboundEdit | InboundDelete | InboundAck,
  scope: ReadScope,
): Promise<InboundOutcome> => {
  const { companyId, whatsappId } = event;
  const ref = await getProviderRef(companyId, whatsappId, event.providerMessageId);
  if (!ref) return 'ignored:unknown-message';
  const updated =
    event.kind === 'edit'
      ? await applyEdit(companyId, ref, event.body, event.receivedAt ?? new Date().toISOString())
      : event.kind === 'delete'
        ? await applyDelete(companyId, ref)
        : await raiseAck(companyId, ref, event.ack);
  if (!updated) return 'unchanged';
  // A campaign message read on the phone counts once for its variant (decisions D134).
  if (event.kind === 'ack' && event.ack >= 3 && updated.automatic === 'chatBot') {
    await recordCampaignRead(companyId, updated.contactId, event.providerMessageId).catch((err: unknown) =>
      logger.warn('campaign read not recorded', { companyId, ...errorFields(err) }),
    );
  }
  const ticket = await getTicket(companyId, ref.ticketId);
  if (!ticket) return 'updated';
  if (event.kind === 'edit' && ticket.lastMsgSk === messageSortKey(ref.ulid)) {
    await refreshLastMessage(companyId, ref, lastMessagePreview(updated));
  }
  await publishForTicket(scope, ticket, [
    { channel: 'appMessage', action: 'update', message: toMessageView(updated, ticket) },
  ]);
  return 'updated';
};
