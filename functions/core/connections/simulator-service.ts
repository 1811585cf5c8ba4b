import { createHash, randomBytes } from 'node:crypto';
import type { SimulatorReceivedPage, SimulatorReceivedView } from '../../contracts/simulator';
import { config } from '../../shared/config';
import type { Connection } from '../../data/connection-repository';
import { mediaUrl, putMediaObject } from '../../data/media-store';
import {
  listReceived,
  PHONE_HISTORY_MAX,
  setPhoneHistory,
  type PhoneHistoryEntry,
  type ReceivedMessage,
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

/** A customer's message id, in the shape WhatsApp phones use (`3A` + 18 hex). */
const customerMessageId = (): string => `3A${randomBytes(9).toString('hex').toUpperCase()}`;

const MEDIA_TYPES: Record<string, 'image' | 'video' | 'audio' | 'document'> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
};

/**
 * POST /simulator/{whatsappId}/messages: the customer writes (text), sends a file (multipart `file`, at
 * most 3 MB, stored in the media bucket first) or reacts (`reactTo` + `emoji`). Answers the provider id
 * the message will carry.
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
  // Well-formed before it is stored in the outbox: DynamoDB holds UTF-8, which has no lone surrogates.
  await queueSimulatorAction(
    connection.companyId,
    whatsappId,
    newUlid(),
    wellFormed({
      action: 'message',
      customer: customerOf(input),
      providerMessageId,
      content,
      ...(input.quotedProviderMessageId ? { quotedProviderMessageId: input.quotedProviderMessageId } : {}),
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

/**
 * GET /simulator/{whatsappId}/messages: what the simulated customers received, oldest first (newest last),
 * a page at a time (`cursor`: the last `id` seen), optionally one customer's chat.
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
  const page = await listReceived(connection.companyId, whatsappId, {
    ...(query.cursor ? { after: query.cursor } : {}),
    limit: query.limit ?? 50,
  });
  const chat = query.number ? `${query.number}@s.whatsapp.net` : undefined;
  const messages = page.messages
    .filter((m) => !chat || m.chatId === chat)
    .map(({ sk, mediaKey, ...m }) => ({ ...m, id: sk, mediaUrl: mediaKey ? mediaUrl(mediaKey) : null }));
  return {
    messages,
    hasMore: page.hasMore,
    nextCursor: page.hasMore ? (page.messages.at(-1)?.sk ?? null) : null,
  };
};

/**
 * PUT /simulator/{whatsappId}/history: the simulated phone's past conversations, which it hands over the
 * next time it is paired (the import of old messages, decisions D78). Set before scanning the QR code, in
 * any status of the connection; replaces what was set before.
 */
export const SIMULATOR_HISTORY_MAX = PHONE_HISTORY_MAX;

export const setSimulatorHistory = async (
  auth: AuthContext,
  whatsappId: number,
  entries: readonly PhoneHistoryEntry[],
): Promise<{ count: number }> => {
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
  await setPhoneHistory(connection.companyId, connection.id, entries);
  return { count: entries.length };
};
