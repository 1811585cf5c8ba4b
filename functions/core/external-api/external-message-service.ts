import { getCompany } from '../../data/company-repository';
import {
  createContact,
  findContactIdsByIdentities,
  getContact,
  IdentityTaken,
  type Contact,
} from '../../data/contact-repository';
import { findConnectionByToken, getConnection, type Connection } from '../../data/connection-repository';
import { deleteMediaObject, putMediaObject } from '../../data/media-store';
import { getPlan } from '../../data/plan-repository';
import { listQueues } from '../../data/queue-repository';
import { ReadScope } from '../../data/read-scope';
import { createTicket, getOpenTicketId, getTicket, OtherOpenTicket, type Ticket } from '../../data/ticket-repository';
import { getUser } from '../../data/user-repository';
import { Conflict, Forbidden, TooManyRequests, Unauthorized, ValidationError } from '../../shared/errors';
import { isCompanyInactive, isSubscriptionExpired, planFlagsOf } from '../auth/request-context';
import { detectAttachmentType, safeFileName } from '../media/attachments';
import { preparedUlid, writeIntegrationMessage, type Outgoing } from '../messages/message-service';
import { announceContact } from '../contacts/contact-service';
import { publishTicketChange } from '../tickets/ticket-events';
import { prepareSlots, reserveSendSlot, waitForSlot } from '../outbound/send-governor';

/**
 * The external messages API (administration spec "External messages API", §5, §7; data-model §3.12;
 * decisions D123): an integrator sends a text or files to a WhatsApp number with a connection's
 * 30-character token as bearer. The token names the company and the connection (`APIKEY#<sha256>`), so a
 * request acts only for the company whose connection it is; an unknown token is 401 and reaches nothing.
 * The number must be digits only with country and area code (400 otherwise). The message finds or creates
 * the contact and its ticket on that connection and goes through the same store, outbound queue and events
 * as an attendant's message, so it appears in the ticket like any other.
 */
export const EXTERNAL_NUMBER = /^\d{10,15}$/;
export const NUMBER_RULE = 'digits only, with country and area code (e.g. 5511999999999)';

export interface ExternalFile {
  filename: string;
  bytes: Buffer;
}

export interface ExternalSendInput {
  number: string;
  body: string;
  userId?: number | undefined;
  queueId?: number | undefined;
  medias: ExternalFile[];
}

export interface ExternalSendResult {
  message: string;
  ticketId: number;
  ticketUuid: string;
  messageIds: string[];
}

interface Target {
  companyId: number;
  connection: Connection;
  ticket: Ticket;
  contact: Contact;
  userId: number | null;
}

const invalidToken = () => new Unauthorized('ERR_INVALID_TOKEN', 'Invalid or missing token');

/** The connection the bearer token belongs to, of a company that may use the API; 401 / 403 otherwise. */
const connectionOfToken = async (token: string | null): Promise<Connection> => {
  if (!token || !/^[A-Za-z0-9]{1,100}$/.test(token)) throw invalidToken();
  const owner = await findConnectionByToken(token);
  if (!owner) throw invalidToken();
  const connection = await getConnection(owner.companyId, owner.whatsappId);
  if (!connection || connection.token !== token) throw invalidToken();
  const company = await getCompany(owner.companyId);
  if (!company || isCompanyInactive(company) || isSubscriptionExpired(company)) throw invalidToken();
  const plan = company.planId ? await getPlan(company.planId) : null;
  if (planFlagsOf(plan).useExternalApi === false) {
    throw new Forbidden('ERR_NO_PERMISSION', 'The company plan does not include the external API');
  }
  return connection;
};

const checkInput = async (companyId: number, input: ExternalSendInput): Promise<void> => {
  const problems: { field: string; reason: string }[] = [];
  if (!EXTERNAL_NUMBER.test(input.number)) problems.push({ field: 'body.number', reason: NUMBER_RULE });
  if (input.medias.length === 0 && !input.body.trim()) problems.push({ field: 'body.body', reason: 'Required' });
  if (input.userId !== undefined && !(await getUser(companyId, input.userId))) {
    problems.push({ field: 'body.userId', reason: 'no such user' });
  }
  if (input.queueId !== undefined && !(await listQueues(companyId)).some((q) => q.id === input.queueId)) {
    problems.push({ field: 'body.queueId', reason: 'no such queue' });
  }
  if (problems.length > 0) throw new ValidationError(problems);
};

/** The person with this WhatsApp number (the phone identity, data-model §2.12), made when missing. */
const contactOf = async (companyId: number, whatsappId: number, number: string): Promise<Contact> => {
  const identity = `wa#${number}`;
  const known = (await findContactIdsByIdentities(companyId, [identity])).get(identity);
  if (known !== undefined) {
    const contact = await getContact(companyId, known);
    if (contact && !contact.deletedAt) return contact;
  }
  try {
    const made = await createContact(
      companyId,
      { name: number, number, isGroup: false, channel: 'whatsapp', whatsappId },
      [identity],
    );
    await announceContact(companyId, made);
    return made;
  } catch (err) {
    if (!(err instanceof IdentityTaken) || err.contactId === null) throw err;
    const winner = await getContact(companyId, err.contactId);
    if (!winner) throw err;
    return winner;
  }
};

/**
 * The contact's not-closed ticket on the connection, else a new one: open for the user the integrator
 * named, pending in the named queue (or none) otherwise — as a customer's first message would land.
 */
const ticketOf = async (
  connection: Connection,
  contact: Contact,
  input: Pick<ExternalSendInput, 'userId' | 'queueId'>,
): Promise<Ticket> => {
  const { companyId } = connection;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const openId = await getOpenTicketId(companyId, contact.id, connection.id);
    const open = openId === null ? null : await getTicket(companyId, openId);
    if (open && open.status !== 'closed') return open;
    try {
      const ticket = await createTicket(companyId, {
        status: input.userId !== undefined ? 'open' : 'pending',
        queueId: input.queueId ?? null,
        userId: input.userId ?? null,
        contactId: contact.id,
        whatsappId: connection.id,
        channel: connection.channel,
        isGroup: false,
        chatId: `${contact.number}@s.whatsapp.net`,
        origin: 'active',
        createdBy: input.userId ?? null,
      });
      await publishTicketChange(new ReadScope(), null, ticket, contact);
      return ticket;
    } catch (err) {
      if (!(err instanceof OtherOpenTicket)) throw err;
    }
  }
  throw new Conflict('ERR_CREATING_TICKET', 'Could not open a ticket for the contact');
};

/** How long a call waits for its send slots before it is answered 429 instead (decisions D166). */
export const API_SLOT_WAIT_MS = 5_000;

/**
 * The connection's send governor (DESIGN §10; decisions D117, D166) for a request's `count` messages: all
 * their slots are taken before anything is written, so a request is sent whole or refused whole. Refused:
 * 400 ERR_WAPP_NOT_INITIALIZED when the connection is not connected; 429 with Retry-After and the reason
 * (`paced`, `daily-cap`, `throttled`) when the slots are further away than API_SLOT_WAIT_MS. Answers the
 * slot times, one per message, for `dispatch` to wait for.
 */
const takeSlots = async (connection: Connection, count: number): Promise<Date[]> => {
  const { companyId, id: whatsappId } = connection;
  const prepared = await prepareSlots(companyId, whatsappId, 'api');
  // Not connected now: accepted like an attendant's message, it waits in the connection's outbox and goes
  // out when the connection is back (the governor's disconnect pause, without a slot to hold).
  if (!prepared.connected) return Array.from({ length: count }, () => new Date());
  const slots: Date[] = [];
  for (let i = 0; i < count; i += 1) {
    const slot = await reserveSendSlot({ companyId, whatsappId, kind: 'api', maxWaitMs: API_SLOT_WAIT_MS, prepared });
    if ('deferredUntil' in slot) {
      const seconds = Math.max(1, Math.ceil((slot.deferredUntil.getTime() - Date.now()) / 1000));
      throw new TooManyRequests(seconds, 'ERR_TOO_MANY_REQUESTS', `The connection's sends are held (${slot.reason})`, {
        reason: slot.reason,
        retryAt: slot.deferredUntil.toISOString(),
      });
    }
    slots.push(slot.at);
  }
  return slots;
};

/**
 * The one place the external API sends (decisions D123): every message of a request passes here, at the
 * send-governor slot `takeSlots` took for it.
 */
const dispatch = async (target: Target, out: Outgoing, slot: Date, prepared?: { ulid: string; seed: string }) => {
  await waitForSlot(slot);
  return writeIntegrationMessage(target.companyId, target.userId, target.ticket, target.contact, out, prepared);
};

/** POST /api/messages/send (JSON text or multipart `medias`): checks, finds the ticket, sends. */
export const sendExternalMessage = async (
  token: string | null,
  input: ExternalSendInput,
): Promise<ExternalSendResult> => {
  const connection = await connectionOfToken(token);
  const { companyId } = connection;
  await checkInput(companyId, input);
  const slots = await takeSlots(connection, Math.max(1, input.medias.length));
  const contact = await contactOf(companyId, connection.id, input.number);
  let ticket = await ticketOf(connection, contact, input);
  const target = (): Target => ({ companyId, connection, ticket, contact, userId: input.userId ?? null });
  const ids: string[] = [];
  if (input.medias.length === 0) {
    ids.push((await dispatch(target(), { body: input.body.trim(), isPrivate: false }, slots[0]!)).id);
  }
  for (const [i, file] of input.medias.entries()) {
    const prepared = preparedUlid(ticket);
    const name = safeFileName(file.filename);
    const key = `c/${companyId}/tickets/${ticket.id}/${prepared.ulid}/${name}`;
    const { contentType } = detectAttachmentType(file.bytes);
    await putMediaObject(key, file.bytes, contentType);
    try {
      const sent = await dispatch(
        target(),
        {
          body: i === 0 ? input.body.trim() : '',
          isPrivate: false,
          media: { key, mimetype: contentType, filename: name, size: file.bytes.length },
        },
        slots[i]!,
        prepared,
      );
      ids.push(sent.id);
    } catch (err) {
      await deleteMediaObject(key).catch(() => undefined);
      throw err;
    }
    ticket = (await getTicket(companyId, ticket.id)) ?? ticket;
  }
  return { message: 'Mensagem enviada', ticketId: ticket.id, ticketUuid: ticket.uuid, messageIds: ids };
};
