import { getConnection, getDefaultConnectionId, type Connection } from '../../data/connection-repository';
import { getContact, type Contact } from '../../data/contact-repository';
import { listQueues } from '../../data/queue-repository';
import { getCompanySettingsItem } from '../../data/settings-repository';
import {
  closeTicket,
  createTicket,
  deleteTicketItems,
  getTicket,
  listTicketLog,
  OtherOpenTicket,
  purgeTicketPartition,
  recordTicketAccess,
  TicketChanged,
  transitionTicket,
  type Ticket,
  type TicketChange,
  type TicketStatus,
} from '../../data/ticket-repository';
import { listTicketStreams, queueStream } from '../../data/ticket-list-repository';
import { getTicketViewers } from '../../data/ticket-viewer-repository';
import { getUser } from '../../data/user-repository';
import type { AuthContext } from '../../shared/auth-context';
import { maskContactFor, shouldMaskNumbers } from '../privacy/number-mask';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../shared/errors';
import { ReadScope } from '../../data/read-scope';
import { errorFields, logger } from '../../shared/logger';
import { findVisibleTicket, findVisibleTicketByUuid, ticketNotFound, ticketViewerOf } from './ticket-access';
import { publishTicketChange, ticketViewOf } from './ticket-events';
import { ratingApplies, startRating } from './nps';
import { postAgentText, postPrivateNote } from './ticket-texts';
import type { TicketLogView, TicketView } from '../../contracts/tickets';
import { canSeeTicket, type TicketViewer } from './visibility';
import { hidesNumbers } from '../settings/company-settings';
import { endTakenFlowRun } from '../../data/flow-run-repository';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';

/**
 * Tickets, one at a time (core §4 "Ticket", §7 Tickets; data-model §2.14): show, create, the transitions
 * of PUT /tickets/{id}, delete, close-all and the log. Every transition is one conditional transaction
 * (functions/data/ticket-repository.ts `transitionTicket`), so two attendants accepting the same ticket
 * get exactly one winner; the loser is told who has it (`ERR_OTHER_OPEN_TICKET` with the winner).
 * Texts a transition posts (greeting, farewell, transfer notice) go out through the outbound pipeline.
 */

const on = (v: unknown): boolean => v === true || v === 'enabled' || v === 'enable';

const settingsOf = async (companyId: number) => {
  const s = await getCompanySettingsItem(companyId);
  return {
    requiredTag: on(s.requiredTag),
    sendGreetingAccepted: on(s.sendGreetingAccepted),
    greetingAcceptedMessage: String(s.greetingAcceptedMessage ?? ''),
    sendMsgTransfTicket: on(s.sendMsgTransfTicket),
    transferMessage: String(s.transferMessage ?? ''),
    closeTicketOnTransfer: on(s.closeTicketOnTransfer),
    lgpdHideNumber: on(s.lgpdHideNumber),
    userRating: on(s.userRating),
  };
};

/** The ticket as the caller may see it: its contact's number masked for plain users under LGPD (D42). */
export const viewForCaller = async (
  auth: AuthContext,
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
): Promise<TicketView> => {
  const view = await ticketViewOf(scope, ticket, contact);
  const mask = shouldMaskNumbers(auth, (await hidesNumbers(scope, auth.companyId)) ? 'enabled' : 'disabled');
  return mask ? { ...view, contact: maskContactFor(view.contact, true) } : view;
};

const contactOf = async (ticket: Ticket): Promise<Contact> => {
  const contact = await getContact(ticket.companyId, ticket.contactId);
  if (!contact) throw new NotFound('ERR_NO_CONTACT_FOUND', 'Contact not found');
  return contact;
};

/** {{name}}, {{firstName}}, {{userName}}, {{queue}}, {{ticket}} in the texts a transition posts. */
export const fillText = (
  text: string,
  values: { name: string; userName: string; queue: string; ticketId: number },
): string =>
  text
    .replace(/\{\{\s*name\s*\}\}/g, values.name)
    .replace(/\{\{\s*firstName\s*\}\}/g, values.name.split(/\s+/)[0] ?? '')
    .replace(/\{\{\s*userName\s*\}\}/g, values.userName)
    .replace(/\{\{\s*queue\s*\}\}/g, values.queue)
    .replace(/\{\{\s*ticket\s*\}\}/g, String(values.ticketId))
    .trim();

// ------------------------------------------------------------------------------------------------ show

export const showTicket = async (auth: AuthContext, uuid: string): Promise<TicketView> => {
  const { ticket } = await findVisibleTicketByUuid(auth, uuid);
  const scope = new ReadScope();
  const contact = await contactOf(ticket);
  try {
    await recordTicketAccess(ticket, auth.userId);
  } catch (err) {
    logger.warn('ticket access not logged', { companyId: auth.companyId, ticketId: ticket.id, ...errorFields(err) });
  }
  return viewForCaller(auth, scope, ticket, contact);
};

// ---------------------------------------------------------------------------------- taken by another

/** 409 ERR_OTHER_OPEN_TICKET naming the ticket that stands in the way (core §4 "New ticket"). */
const takenBy = async (companyId: number, ticket: Ticket): Promise<Conflict> => {
  const [user] = ticket.userId === null ? [] : await getTicketViewers(companyId, [ticket.userId]);
  const queue =
    ticket.queueId === null ? undefined : (await listQueues(companyId)).find((q) => q.id === ticket.queueId);
  return new Conflict('ERR_OTHER_OPEN_TICKET', 'An open ticket already exists for the contact', {
    ticketId: ticket.id,
    userId: ticket.userId,
    user: ticket.userId === null ? null : { id: ticket.userId, name: user?.name ?? '' },
    queue: queue ? { id: queue.id, name: queue.name } : null,
    uuid: ticket.uuid,
    status: ticket.status,
  });
};

// ---------------------------------------------------------------------------------------------- create

export interface NewTicketInput {
  contactId: number;
  queueId?: number | null | undefined;
  whatsappId?: number | null | undefined;
  userId?: number | null | undefined;
  status?: 'open' | 'pending' | undefined;
}

/** The provider chat a new ticket talks to, from the contact's identities (WhatsApp number or group, Meta id). */
const chatIdOf = (contact: Contact, connection: Connection): string | undefined => {
  if (connection.channel === 'whatsapp') {
    const group = contact.identities.find((i) => i.startsWith('wa#g:'));
    if (group) return `${group.slice('wa#g:'.length)}@g.us`;
    const digits = contact.number.replace(/\D/g, '');
    return digits ? `${digits}@s.whatsapp.net` : undefined;
  }
  const meta = contact.identities.find((i) => !i.startsWith('wa#'));
  return meta?.split(':').slice(1).join(':') || (connection.channel === 'whatsappapi' ? contact.number : undefined);
};

export const createCompanyTicket = async (
  auth: AuthContext,
  input: NewTicketInput,
): Promise<{ created: boolean; ticket: TicketView }> => {
  const { companyId } = auth;
  const contact = await getContact(companyId, input.contactId);
  if (!contact || contact.deletedAt) throw new NotFound('ERR_NO_CONTACT_FOUND', 'Contact not found');
  if (!contact.active) {
    throw new BadRequest('ERR_CONTACT_BLOCKED', 'The contact is blocked', [
      { field: 'body.contactId', reason: 'the contact is blocked and cannot start a chat' },
    ]);
  }
  const whatsappId = input.whatsappId ?? (await getUser(companyId, auth.userId))?.whatsappId ?? null;
  const connectionId = whatsappId ?? (await getDefaultConnectionId(companyId));
  if (connectionId === null) throw new NotFound('ERR_NO_DEF_WAPP_FOUND', 'No default connection');
  const connection = await getConnection(companyId, connectionId);
  if (!connection) throw new NotFound('ERR_NO_WAPP_FOUND', 'Connection not found');
  const queues = await listQueues(companyId);
  const queueId = input.queueId ?? null;
  if (queueId === null && queues.length > 0 && !contact.isGroup) {
    throw new BadRequest('ERR_VALIDATION', 'Selecione uma fila', [
      { field: 'body.queueId', reason: 'Selecione uma fila' },
    ]);
  }
  if (queueId !== null && !queues.some((q) => q.id === queueId)) {
    throw new BadRequest('ERR_VALIDATION', 'Unknown queue', [{ field: 'body.queueId', reason: 'no such queue' }]);
  }
  const viewer = await ticketViewerOf(auth);
  const isAdmin = viewer.profile === 'admin' || viewer.super;
  if (queueId !== null && !isAdmin && !viewer.queueIds.includes(queueId)) {
    throw new Forbidden('ERR_NO_PERMISSION', 'Not a member of that queue');
  }
  const userId = isAdmin && input.userId ? input.userId : auth.userId;
  if (userId !== auth.userId && !(await getUser(companyId, userId))) {
    throw new BadRequest('ERR_VALIDATION', 'Unknown user', [{ field: 'body.userId', reason: 'no such user' }]);
  }
  const status: TicketStatus = contact.isGroup ? 'group' : input.status === 'pending' ? 'pending' : 'open';
  const chatId = chatIdOf(contact, connection);
  const scope = new ReadScope();
  try {
    const ticket = await createTicket(companyId, {
      status,
      queueId,
      userId: status === 'pending' ? null : userId,
      contactId: contact.id,
      whatsappId: connection.id,
      channel: connection.channel,
      isGroup: contact.isGroup,
      ...(chatId ? { chatId } : {}),
      origin: 'active',
      createdBy: auth.userId,
    });
    await publishTicketChange(scope, null, ticket, contact);
    return { created: true, ticket: await viewForCaller(auth, scope, ticket, contact) };
  } catch (err) {
    if (!(err instanceof OtherOpenTicket)) throw err;
    const other = err.ticketId === null ? null : await getTicket(companyId, err.ticketId);
    if (!other) throw new Conflict('ERR_CONFLICT', 'The contact has a ticket being created, try again');
    // The caller's own ticket: open it instead (core §4).
    if (other.userId === auth.userId && canSeeTicket(viewer, other)) {
      return { created: false, ticket: await viewForCaller(auth, scope, other, contact) };
    }
    throw await takenBy(companyId, other);
  }
};

// ------------------------------------------------------------------------------------------ transitions

export interface TicketUpdateInput {
  status?: TicketStatus | undefined;
  userId?: number | null | undefined;
  queueId?: number | null | undefined;
  msgTransfer?: string | undefined;
  isTransfered?: boolean | undefined;
  sendFarewellMessage?: boolean | undefined;
  amountUsedBotQueues?: number | undefined;
  useIntegration?: boolean | undefined;
}

type Transition = 'accept' | 'return' | 'resolve' | 'ignore' | 'reopen' | 'transfer' | 'fields';

/** Which transition of core §4 a PUT body asks for, from the ticket's current status. */
export const transitionOf = (
  ticket: Pick<Ticket, 'status' | 'queueId' | 'userId'>,
  input: TicketUpdateInput,
): Transition => {
  if (input.isTransfered) return 'transfer';
  const status = input.status;
  if (status === 'closed') return ticket.status === 'pending' || ticket.status === 'lgpd' ? 'ignore' : 'resolve';
  if (status === 'pending') return 'return';
  if (status === 'open' || status === 'group') {
    if (ticket.status === 'closed') return 'reopen';
    if (ticket.status === 'open' || ticket.status === 'group') {
      const moves =
        (input.queueId !== undefined && input.queueId !== ticket.queueId) ||
        (input.userId !== undefined && input.userId !== ticket.userId);
      return moves ? 'transfer' : 'fields';
    }
    return 'accept';
  }
  if (input.queueId !== undefined && input.queueId !== ticket.queueId) return 'transfer';
  return 'fields';
};

const field = (name: string, reason: string) => new BadRequest('ERR_VALIDATION', reason, [{ field: name, reason }]);

const isManager = (v: TicketViewer) => v.profile === 'admin' || v.super;

/**
 * PUT /tickets/{id}. The whole read-decide-write runs again (at most 3 times) when the ticket changed
 * between its read and its write and nobody took it meanwhile (ERR_CONFLICT): a bot, a flow or an
 * integration touching the ticket a moment before an attendant accepts it must not refuse the accept.
 * Someone else's take is an answer (409 with who has it), never retried.
 */
export const updateCompanyTicket = (auth: AuthContext, id: number, input: TicketUpdateInput): Promise<TicketView> =>
  withRetry(CHANGED_MEANWHILE, () => updateTicketOnce(auth, id, input));

const updateTicketOnce = async (auth: AuthContext, id: number, input: TicketUpdateInput): Promise<TicketView> => {
  const { companyId } = auth;
  const { ticket, viewer } = await findVisibleTicket(auth, id);
  const kind = transitionOf(ticket, input);
  const settings = await settingsOf(companyId);
  const scope = new ReadScope();
  const contact = await contactOf(ticket);
  const manager = isManager(viewer);
  const mine = ticket.userId === auth.userId;
  const group = ticket.isGroup || ticket.status === 'group';
  const fields: TicketChange['fields'] = {
    ...(input.amountUsedBotQueues !== undefined ? { amountUsedBotQueues: input.amountUsedBotQueues } : {}),
    ...(input.useIntegration !== undefined ? { useIntegration: input.useIntegration } : {}),
  };
  const queues = await scope.queues(companyId);
  const checkQueue = (queueId: number | null | undefined) => {
    if (queueId !== null && queueId !== undefined && !queues.has(queueId)) throw field('body.queueId', 'no such queue');
  };
  const me = await getUser(companyId, auth.userId);
  const connection = await scope.connection(companyId, ticket.whatsappId);
  const texts = { name: contact.name, userName: me?.name ?? '', queue: '', ticketId: ticket.id };

  let change: TicketChange;
  let after: (t: Ticket) => Promise<void> = async () => {};
  switch (kind) {
    case 'accept': {
      if (input.userId !== undefined && input.userId !== null && input.userId !== auth.userId && !manager) {
        throw new Forbidden('ERR_NO_PERMISSION', 'Only an admin accepts for someone else');
      }
      const queueId = input.queueId !== undefined ? input.queueId : ticket.queueId;
      checkQueue(queueId);
      if (queueId === null && !group && queues.size > 0) throw field('body.queueId', 'Selecione uma fila');
      const userId = input.userId ?? auth.userId;
      change = {
        status: group ? 'group' : 'open',
        userId,
        queueId,
        fields,
        logs: [
          ...(queueId !== ticket.queueId ? [{ type: 'queue' as const, userId: auth.userId, queueId }] : []),
          { type: 'open', userId, queueId },
        ],
      };
      const greet =
        settings.sendGreetingAccepted &&
        ticket.status === 'pending' &&
        (!group || connection?.groupAsTicket === 'enabled') &&
        settings.greetingAcceptedMessage.trim() !== '';
      if (greet) {
        after = async (t) => {
          await postAgentText(
            scope,
            t,
            contact,
            fillText(settings.greetingAcceptedMessage, { ...texts, queue: queueName(queues, t.queueId) }),
            userId,
          );
        };
      }
      break;
    }
    case 'return': {
      if (ticket.status !== 'open') throw field('body.status', `a ${ticket.status} ticket cannot return to the queue`);
      if (!mine && !manager) throw new Forbidden('ERR_NO_PERMISSION', 'Not your ticket');
      change = {
        status: 'pending',
        userId: null,
        queueId: ticket.queueId,
        fields,
        logs: [{ type: 'pending', userId: auth.userId, queueId: ticket.queueId }],
      };
      break;
    }
    case 'ignore':
    case 'resolve': {
      if (ticket.status === 'closed') throw field('body.status', 'the ticket is already closed');
      const pendingLike = ticket.status === 'pending' || ticket.status === 'lgpd' || ticket.status === 'nps';
      const mayClosePending =
        manager || auth.userFlags.userClosePendingTicket !== false || auth.userFlags.showDashboard === true;
      if (pendingLike ? !mayClosePending : !(mine || manager || (group && viewer.allowGroup))) {
        throw new Forbidden('ERR_NO_PERMISSION', 'No permission to close this ticket');
      }
      if (
        kind === 'resolve' &&
        settings.requiredTag &&
        (contact.tagIds ?? []).length === 0 &&
        (ticket.tagIds ?? []).length === 0
      ) {
        throw new BadRequest('ERR_REQUIRED_TAG', 'Você deve atribuir uma tag antes de fechar o ticket.', [
          { field: 'body.status', reason: 'Você deve atribuir uma tag antes de fechar o ticket.' },
        ]);
      }
      if (kind === 'resolve' && input.sendFarewellMessage !== false && ratingApplies(settings, connection, ticket)) {
        // Rating first (D46): the ticket waits in `nps`; the farewell follows the contact's answer.
        const waiting = await mapTaken(companyId, id, auth.userId, () =>
          startRating(scope, ticket, contact, connection!, auth.userId),
        );
        return viewForCaller(auth, scope, waiting, contact);
      }
      if (kind === 'resolve' && input.sendFarewellMessage) {
        const farewell = (me?.farewellMessage ?? '').trim() || (connection?.complationMessage ?? '').trim();
        if (farewell)
          await postAgentText(
            scope,
            ticket,
            contact,
            fillText(farewell, { ...texts, queue: queueName(queues, ticket.queueId) }),
            auth.userId,
          );
      }
      const fresh = (await getTicket(companyId, id)) ?? ticket;
      const closed = await mapTaken(companyId, id, auth.userId, () =>
        closeTicket(fresh, {
          userId: auth.userId,
          fields: kind === 'ignore' ? { ...fields, amountUsedBotQueues: 0 } : fields,
        }),
      );
      await publishTicketChange(scope, fresh, closed, contact);
      return viewForCaller(auth, scope, closed, contact);
    }
    case 'reopen': {
      const userId = manager && input.userId ? input.userId : auth.userId;
      change = {
        status: group ? 'group' : 'open',
        userId,
        queueId: input.queueId !== undefined ? input.queueId : ticket.queueId,
        fields,
        logs: [{ type: 'reopen', userId, queueId: ticket.queueId }],
      };
      checkQueue(change.queueId);
      break;
    }
    case 'transfer': {
      if (!mine && !manager && ticket.status !== 'pending') throw new Forbidden('ERR_NO_PERMISSION', 'Not your ticket');
      if (ticket.status === 'closed') throw field('body.status', 'a closed ticket cannot be transferred');
      const queueId = input.queueId !== undefined ? input.queueId : ticket.queueId;
      if (queueId === null || queueId === undefined) throw field('body.queueId', 'Selecione uma fila');
      checkQueue(queueId);
      const target = input.userId ?? null;
      if (target !== null && !(await getUser(companyId, target))) throw field('body.userId', 'no such user');
      const status: TicketStatus = target === null ? 'pending' : group ? 'group' : 'open';
      texts.queue = queueName(queues, queueId);
      if (target !== null) texts.userName = (await getUser(companyId, target))?.name ?? '';
      const note = (input.msgTransfer ?? '').trim();
      if (note) await postPrivateNote(scope, ticket, contact, note, auth.userId);
      if (settings.sendMsgTransfTicket && settings.transferMessage.trim()) {
        await postAgentText(scope, ticket, contact, fillText(settings.transferMessage, texts), auth.userId);
      }
      const logs: TicketChange['logs'] = [
        { type: 'transfered', userId: auth.userId, queueId: ticket.queueId },
        ...(target !== null ? [{ type: 'receivedTransfer' as const, userId: target, queueId }] : []),
        ...(queueId !== ticket.queueId ? [{ type: 'queue' as const, userId: auth.userId, queueId }] : []),
      ];
      if (settings.closeTicketOnTransfer) {
        // The transfer closes this ticket and opens a fresh one in the target queue (D44).
        const fresh = (await getTicket(companyId, id)) ?? ticket;
        const closed = await mapTaken(companyId, id, auth.userId, () => closeTicket(fresh, { userId: auth.userId }));
        await publishTicketChange(scope, fresh, closed, contact);
        const next = await createTicket(companyId, {
          status,
          queueId,
          userId: target,
          contactId: ticket.contactId,
          whatsappId: ticket.whatsappId,
          channel: ticket.channel,
          isGroup: ticket.isGroup,
          ...(ticket.chatId ? { chatId: ticket.chatId } : {}),
          origin: 'active',
          createdBy: auth.userId,
        });
        await publishTicketChange(scope, null, next, contact);
        return viewForCaller(auth, scope, next, contact);
      }
      change = { status, userId: target, queueId, fields, logs };
      break;
    }
    case 'fields':
      if (!mine && !manager) throw new Forbidden('ERR_NO_PERMISSION', 'Not your ticket');
      change = { status: ticket.status, userId: ticket.userId, queueId: ticket.queueId, fields, logs: [] };
      break;
  }
  const fresh = kind === 'accept' || kind === 'reopen' ? ticket : ((await getTicket(companyId, id)) ?? ticket);
  const next = await mapTaken(companyId, id, auth.userId, () => transitionTicket(fresh, change));
  await publishTicketChange(scope, fresh, next, contact);
  // A person has the ticket now: a flow running on it stops at once (decisions D139).
  if (fresh.isBot && (next.userId !== null || next.status !== 'pending')) {
    const ended = await endTakenFlowRun(companyId, id);
    if (ended) {
      logger.info('flow run ended', {
        companyId,
        ticketId: id,
        runId: ended.runId,
        flowId: ended.flowId,
        reason: 'ticket-taken',
      });
    }
  }
  await after(next);
  return viewForCaller(auth, scope, (await getTicket(companyId, id)) ?? next, contact);
};

const queueName = (queues: Map<number, { name: string }>, queueId: number | null): string =>
  queueId === null ? '' : (queues.get(queueId)?.name ?? '');

/**
 * Runs a transition; when the ticket changed meanwhile, tells the caller who has it now (the "ticket
 * already open by another user" notice) or, when nobody else does, to reload (409 ERR_CONFLICT).
 */
const mapTaken = async (
  companyId: number,
  ticketId: number,
  me: number,
  run: () => Promise<Ticket>,
): Promise<Ticket> => {
  try {
    return await run();
  } catch (err) {
    if (err instanceof OtherOpenTicket) {
      const other = err.ticketId === null ? null : await getTicket(companyId, err.ticketId);
      if (other) throw await takenBy(companyId, other);
      throw err;
    }
    if (!(err instanceof TicketChanged)) throw err;
    const now = await getTicket(companyId, ticketId);
    if (!now) throw ticketNotFound();
    if (now.userId !== null && now.userId !== me && now.status !== 'closed') throw await takenBy(companyId, now);
    throw err;
  }
};

// ------------------------------------------------------------------------------------- delete, close all

/** DELETE /tickets/{id} (ticket-options:deleteTicket, admins): the ticket, its guard, messages and log. */
export const deleteCompanyTicket = async (auth: AuthContext, id: number): Promise<void> => {
  const { ticket } = await findVisibleTicket(auth, id);
  const contact = await contactOf(ticket);
  await deleteTicketItems(ticket);
  await publishTicketChange(new ReadScope(), ticket, null, contact);
  await purgeTicketPartition(auth.companyId, id);
};

/** Tickets one close-all call closes at most; the answer says when more are left (D45). */
export const CLOSE_ALL_LIMIT = 500;

/**
 * POST /tickets/closeAll (admins): closes the tickets of `status` in the selected queues (none selected:
 * every queue and none), each with its own conditional transition, so a ticket that moves meanwhile is
 * skipped rather than overwritten. Closes at most CLOSE_ALL_LIMIT per call. Group tickets are closed the
 * way the Grupos list shows them: those of the selected queues and those without a queue.
 */
export const closeAllTickets = async (
  auth: AuthContext,
  input: { status: 'open' | 'pending' | 'group'; selectedQueueIds?: number[] | undefined },
): Promise<{ closed: number; hasMore: boolean }> => {
  const { companyId } = auth;
  const scope = new ReadScope();
  const queues = await scope.queues(companyId);
  const chosen = input.selectedQueueIds?.length ? input.selectedQueueIds : [...queues.keys(), 0];
  const selected = input.status === 'group' && !chosen.includes(0) ? [...chosen, 0] : chosen;
  let closed = 0;
  for (const queueId of selected) {
    let cursor: string | undefined;
    do {
      const page = await listTicketStreams({
        scope: `${companyId}#closeAll#${queueId}#${input.status}`,
        streams: [queueStream(companyId, queueId === 0 ? null : queueId, input.status)],
        descending: true,
        limit: 50,
        cursor,
      });
      for (const ticket of page.items) {
        if (closed >= CLOSE_ALL_LIMIT) return { closed, hasMore: true };
        try {
          const done = await closeTicket(ticket, { userId: auth.userId });
          closed += 1;
          const contact = await getContact(companyId, ticket.contactId);
          if (contact) await publishTicketChange(scope, ticket, done, contact);
        } catch (err) {
          if (!(err instanceof TicketChanged)) throw err;
        }
      }
      cursor = page.nextCursor;
    } while (cursor);
  }
  return { closed, hasMore: false };
};

// ------------------------------------------------------------------------------------------------- log

/** GET /tickets-log/{ticketId}: the ticket's timeline, oldest first, with user and queue names. */
export const ticketTimeline = async (auth: AuthContext, id: number): Promise<TicketLogView[]> => {
  await findVisibleTicket(auth, id);
  const entries = await listTicketLog(auth.companyId, id);
  const userIds = [...new Set(entries.flatMap((e) => (e.userId === null ? [] : [e.userId])))];
  const [users, queues] = await Promise.all([
    getTicketViewers(auth.companyId, userIds),
    new ReadScope().queues(auth.companyId),
  ]);
  const names = new Map(users.map((u) => [u.id, u.name]));
  return entries.map((e) => {
    const queue = e.queueId === null ? undefined : queues.get(e.queueId);
    return {
      type: e.type,
      user: e.userId === null ? null : { id: e.userId, name: names.get(e.userId) ?? '' },
      queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
      createdAt: e.createdAt,
    };
  });
};
