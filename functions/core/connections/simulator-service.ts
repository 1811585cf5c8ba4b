import { createHash, randomBytes } from 'node:crypto';
import type { SimulatorReceivedPage, SimulatorReceivedView, SimulatorSentView } from '../../contracts/simulator';
import { config } from '../../shared/config';
import type { Connection } from '../../data/connection-repository';
import { mediaUrl, putMediaObject } from '../../data/media-store';
import {
  listReceived,
  listSent,
  PHONE_HISTORY_MAX,
  recordSent,
  PHONE_ADDRESS_BOOK_MAX,
  setPhoneAddressBook,
  setPhoneHistory,
  type PhoneAddressBookEntry,
  type PhoneHistoryEntry,
  type ReceivedMessage,
  type SentMessage,
} from '../../data/simulator-phone-repository';
import { newUlid } from '../../data/ulids';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, NotFound } from '../../shared/errors';
import type { SameKeys } from '../../shared/same-keys';
import { wellFormed } from '../pipeline/inbound-event';
import { detectAttachmentType, safeFileName } from '../media/attachments';
import { findInCompany, requireChannelInPlan, requireManager } from './connection-service';
import { queueSimulatorAction } from '../pipeline/worker-outbox';

/**
 * The phone simulator's customer side (DESIGN §6; decisions D36, D41): a connection manager plays a
 * customer on a CONNECTED simulated connection. Every action goes the way a real phone's would: into the
 * connection's outbox, carried out by the worker holding it, whose simulated session hands a normalised
 * event to the inbound sink (enqueueInbound) — so the real pipeline runs. Only where the workers run the
 * simulator (WHATSAPP_DRIVER=simulator); elsewhere 404, like the scan.
 */
export const SIMULATOR_MEDIA_MAX_BYTES = 3 * 1024 * 1024;

export interface CustomerInput {
  number: string;
  name?: string | undefined;
  groupId?: string | undefined;
  groupName?: string | undefined;
}

export interface SimulatedMessageInput extends CustomerInput {
  body?: string | undefined;
  /** A reaction to a message the customer received (its provider id) … */
  reactTo?: string | undefined;
  emoji?: string | undefined;
  /** … or a reply quoting one. */
  quotedProviderMessageId?: string | undefined;
}

const simulatorConnection = async (auth: AuthContext, id: number): Promise<Connection> => {
  requireManager(auth);
  requireChannelInPlan(auth, 'whatsapp');
  if (config().WHATSAPP_DRIVER !== 'simulator') {
    throw new NotFound('ERR_NOT_FOUND', 'The phone simulator is not enabled here');
  }
  const connection = await findInCompany(auth.companyId, id);
  if (connection.channel !== 'whatsapp' || connection.status !== 'CONNECTED') {
    throw new BadRequest('ERR_VALIDATION', 'The simulated phone is not connected', [
      { field: 'params.whatsappId', reason: `status is ${connection.status}, not CONNECTED` },
    ]);
  }
  return connection;
};

const customerOf = (input: CustomerInput) => ({
  number: input.number,
  ...(input.name ? { name: input.name } : {}),
  ...(input.groupId ? { group: { id: input.groupId, ...(input.groupName ? { name: input.groupName } : {}) } } : {}),
});

/** The chat a customer writes in, as the simulated session names it: their own, or the group's. */
const chatIdOf = (input: CustomerInput): string =>
  input.groupId ? `${input.groupId}@g.us` : `${input.number}@s.whatsapp.net`;

/** What the customer's phone keeps of its own message (its side of the chat). */
const sentOf = (
  input: SimulatedMessageInput,
  providerMessageId: string,
  content: Record<string, unknown>,
): Omit<SentMessage, 'sk' | 'ack' | 'sentAt'> => {
  const text = (key: string) => (typeof content[key] === 'string' ? { [key]: content[key] as string } : {});
  return {
    providerMessageId,
    chatId: chatIdOf(input),
    type: String(content.type),
    ...text('body'),
    ...text('mediaKey'),
    ...text('mimetype'),
    ...text('filename'),
    ...text('emoji'),
    ...text('targetProviderMessageId'),
    ...(input.quotedProviderMessageId ? { quotedProviderMessageId: input.quotedProviderMessageId } : {}),
  };
};

/** A customer's message id, in the shape WhatsApp phones use (`3A` + 18 hex). */
const customerMessageId = (): string => `3A${randomBytes(9).toString('hex').toUpperCase()}`;

const MEDIA_TYPES: Record<string, 'image' | 'video' | 'audio' | 'document'> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
};

/**
 * POST /simulator/{whatsappId}/messages: the customer writes (text), sends a file (multipart `file`, at
 * most 3 MB, stored in the media bucket first) or reacts (`reactTo` + `emoji`). The phone keeps what it
 * sent (ack 0, under the outbox item's ULID; the session raises it to 2 once delivered). Answers the
 * provider id the message will carry.
 */
export const simulateCustomerMessage = async (
  auth: AuthContext,
  whatsappId: number,
  input: SimulatedMessageInput,
  file?: { bytes: Buffer; filename: string },
): Promise<{ providerMessageId: string }> => {
  const connection = await simulatorConnection(auth, whatsappId);
  const providerMessageId = customerMessageId();
  let content: Record<string, unknown>;
  if (file) {
    if (file.bytes.byteLength === 0 || file.bytes.byteLength > SIMULATOR_MEDIA_MAX_BYTES) {
      throw new BadRequest('ERR_VALIDATION', 'The file is empty or too large', [
        { field: 'body.file', reason: 'must have 1 byte to 3 MB' },
      ]);
    }
    const { contentType } = detectAttachmentType(file.bytes);
    const name = safeFileName(file.filename);
    const hash = createHash('sha256').update(providerMessageId).digest('hex').slice(0, 32);
    // The Baileys driver's layout for inbound media (D31), so both drivers' media look alike.
    const key = `c/${connection.companyId}/inbound/${whatsappId}/${hash}/${name}`;
    await putMediaObject(key, file.bytes, contentType);
    const type = MEDIA_TYPES[contentType.split('/')[0]!] ?? 'document';
    content = {
      type,
      mediaKey: key,
      mimetype: contentType,
      filename: name,
      size: file.bytes.byteLength,
      ...(input.body ? { body: input.body } : {}),
    };
  } else if (input.reactTo) {
    content = { type: 'reaction', emoji: input.emoji ?? '', targetProviderMessageId: input.reactTo };
  } else if (input.body !== undefined && input.body.length > 0) {
    content = { type: 'text', body: input.body };
  } else {
    throw new BadRequest('ERR_VALIDATION', 'Nothing to send', [
      { field: 'body.body', reason: 'a text, a file or a reaction is required' },
    ]);
  }
  // Well-formed before it is stored: DynamoDB holds UTF-8, which has no lone surrogates.
  const ulid = newUlid();
  const sent = await recordSent(
    connection.companyId,
    whatsappId,
    ulid,
    wellFormed(sentOf(input, providerMessageId, content)),
  );
  await queueSimulatorAction(
    connection.companyId,
    whatsappId,
    ulid,
    wellFormed({
      action: 'message',
      customer: customerOf(input),
      providerMessageId,
      content,
      ...(input.quotedProviderMessageId ? { quotedProviderMessageId: input.quotedProviderMessageId } : {}),
      sentSk: sent.sk,
    }),
  );
  return { providerMessageId };
};

/** POST /simulator/{whatsappId}/read: the customer (or every customer) reads what they received (ack 3, or 4: played). */
export const simulateCustomerRead = async (
  auth: AuthContext,
  whatsappId: number,
  input: Partial<CustomerInput> & { ack?: 3 | 4 | undefined },
): Promise<void> => {
  const connection = await simulatorConnection(auth, whatsappId);
  await queueSimulatorAction(connection.companyId, whatsappId, newUlid(), {
    action: 'read',
    ack: input.ack ?? 3,
    ...(input.number ? { customer: customerOf({ ...input, number: input.number }) } : {}),
  });
};

/** The view is the stored message without its keys, with its id and the file's URL. */
const _sameKeys: SameKeys<
  Omit<ReceivedMessage, 'sk' | 'mediaKey'> & Pick<SimulatorReceivedView, 'id' | 'mediaUrl'>,
  SimulatorReceivedView
> = true;

/** The sent view is the stored message without its keys, with its id and the file's URL. */
const _sameSentKeys: SameKeys<
  Omit<SentMessage, 'sk' | 'mediaKey'> & Pick<SimulatorSentView, 'id' | 'mediaUrl'>,
  SimulatorSentView
> = true;

/** The ULID of a phone list id (`R#<ulid>` or `S#<ulid>`): both sides sort by it. */
const ulidOf = (id: string): string => id.slice(id.indexOf('#') + 1);

/**
 * GET /simulator/{whatsappId}/messages: the simulated customers' chats, oldest first (newest last), a page
 * at a time (`cursor`: the last `id` seen), optionally one customer's chat. A page merges what the customers
 * received with what they sent up to the point both sides are complete.
 */
export const listSimulatorReceived = async (
  auth: AuthContext,
  whatsappId: number,
  query: { cursor?: string | undefined; limit?: number | undefined; number?: string | undefined },
): Promise<SimulatorReceivedPage> => {
  requireManager(auth);
  if (config().WHATSAPP_DRIVER !== 'simulator') {
    throw new NotFound('ERR_NOT_FOUND', 'The phone simulator is not enabled here');
  }
  const connection = await findInCompany(auth.companyId, whatsappId);
  const limit = query.limit ?? 50;
  const after = query.cursor ? ulidOf(query.cursor) : undefined;
  const [received, sent] = await Promise.all([
    listReceived(connection.companyId, whatsappId, { ...(after ? { after: `R#${after}` } : {}), limit }),
    listSent(connection.companyId, whatsappId, { ...(after ? { after } : {}), limit }),
  ]);
  // Both sides are complete up to the last item of a side that has more: the page ends there.
  const ends = [received, sent].flatMap((side) => (side.hasMore && side.messages.length > 0 ? [side] : []));
  const end = ends.map((side) => ulidOf(side.messages.at(-1)!.sk)).sort()[0];
  const page = [...received.messages, ...sent.messages]
    .filter((m) => end === undefined || ulidOf(m.sk) <= end)
    .sort((a, b) => ulidOf(a.sk).localeCompare(ulidOf(b.sk)))
    .slice(0, limit);
  const last = page.at(-1)?.sk;
  const hasMore =
    last !== undefined && (ends.length > 0 || page.length < received.messages.length + sent.messages.length);
  const inPage = new Set(page.map((m) => m.sk));
  const chat = query.number ? `${query.number}@s.whatsapp.net` : undefined;
  const shown = <T extends { sk: string; chatId: string }>(m: T) => inPage.has(m.sk) && (!chat || m.chatId === chat);
  return {
    messages: received.messages
      .filter(shown)
      .map(({ sk, mediaKey, ...m }) => ({ ...m, id: sk, mediaUrl: mediaKey ? mediaUrl(mediaKey) : null })),
    sent: sent.messages
      .filter(shown)
      .map(({ sk, mediaKey, ...m }) => ({ ...m, id: sk, mediaUrl: mediaKey ? mediaUrl(mediaKey) : null })),
    hasMore,
    nextCursor: hasMore ? (last ?? null) : null,
  };
};

/**
 * PUT /simulator/{whatsappId}/history: the simulated phone's past conversations, which it hands over the
 * next time it is paired (the import of old messages, decisions D78). Set before scanning the QR code, in
 * any status of the connection; replaces what was set before.
 */
export const SIMULATOR_HISTORY_MAX = PHONE_HISTORY_MAX;
export const SIMULATOR_CONTACTS_MAX = PHONE_ADDRESS_BOOK_MAX;

/**
 * PUT /simulator/{whatsappId}/contacts (decisions D148): the simulated phone's address book, which
 * `POST /contacts/import` reads; replaced as a whole. Managers only, simulator driver only.
 */
export const setSimulatorAddressBook = async (
  auth: AuthContext,
  whatsappId: number,
  entries: readonly PhoneAddressBookEntry[],
): Promise<{ count: number }> => {
  const connection = await simulatedPhoneOf(auth, whatsappId);
  await setPhoneAddressBook(connection.companyId, connection.id, entries);
  return { count: entries.length };
};

/** A WhatsApp connection of the caller's company whose phone the simulator plays (managers, simulator driver). */
const simulatedPhoneOf = async (auth: AuthContext, whatsappId: number) => {
  requireManager(auth);
  requireChannelInPlan(auth, 'whatsapp');
  if (config().WHATSAPP_DRIVER !== 'simulator') {
    throw new NotFound('ERR_NOT_FOUND', 'The phone simulator is not enabled here');
  }
  const connection = await findInCompany(auth.companyId, whatsappId);
  if (connection.channel !== 'whatsapp') {
    throw new BadRequest('ERR_VALIDATION', 'Only WhatsApp connections have a simulated phone', [
      { field: 'params.whatsappId', reason: `channel is ${connection.channel}` },
    ]);
  }
  return connection;
};

export const setSimulatorHistory = async (
  auth: AuthContext,
  whatsappId: number,
  entries: readonly PhoneHistoryEntry[],
): Promise<{ count: number }> => {
  const connection = await simulatedPhoneOf(auth, whatsappId);
  await setPhoneHistory(connection.companyId, connection.id, entries);
  return { count: entries.length };
};
