import { createRequire } from 'node:module';
import type * as Baileys from '@whiskeysockets/baileys';
import type {
  AnyMessageContent,
  AuthenticationCreds,
  ConnectionState,
  MiscMessageGenerationOptions,
  SignalDataSet,
  SignalDataTypeMap,
  SignalKeyStore as BaileysKeyStore,
  UserFacingSocketConfig,
  WAMessage,
  WASocket,
} from '@whiskeysockets/baileys';
import { errorFields, logger } from '../../shared/logger';
import { putMediaObject } from '../../data/media-store';
import { downloadLimitBytes } from '../../core/settings/global-settings';
import { PhoneAddressBook } from './phone-address-book';
import { mapCall, mapMessageUpdate, mapUpsertMessage, type BaileysInboundContext } from './baileys-inbound';
import type {
  HistoryMessage,
  OutboundMessage,
  DisconnectReason,
  PhoneContact,
  PhoneContactSource,
  Session,
  SessionAuthState,
  SessionContext,
  SessionEvents,
  SignalKeyStore,
  WhatsAppDriver,
} from './driver';

/**
 * The Baileys session (@whiskeysockets/baileys 6.17.16): a WhatsApp Web multi-device socket whose auth state
 * lives in DynamoDB (the worker passes the stored credentials and a key store over
 * wa-auth-state-repository.ts, with Baileys' BufferJSON as the codec). `connection.update` becomes the port's
 * events; credentials changes go to the worker, which stores them as the lease holder.
 *
 * Only loaded when WHATSAPP_DRIVER is `baileys` (it takes ~1.7 s to import). This machine cannot reach
 * WhatsApp: the mapping and the auth state are unit-tested with Baileys' own types and values.
 */

/**
 * Baileys is CommonJS, and Node's ESM loader cannot see its `proto` re-export as a named import (the
 * bundled worker fails at start with "Named export 'proto' not found"): load the package with require.
 */
const {
  Browsers,
  BufferJSON,
  DisconnectReason: BaileysDisconnect,
  downloadMediaMessage,
  initAuthCreds,
  makeCacheableSignalKeyStore,
  makeWASocket,
  proto,
} = createRequire(import.meta.url)('@whiskeysockets/baileys') as typeof Baileys;

/** The fields of a `connection.update` this mapping reads. */
export type ConnectionUpdate = Partial<ConnectionState>;

export type MappedEvent =
  | { kind: 'qr'; code: string }
  | { kind: 'pairing' }
  | { kind: 'connected' }
  | { kind: 'disconnected'; reason: DisconnectReason };

/** Baileys ends an unscanned pairing with this error (status 408, the same as a lost connection). */
const QR_ATTEMPTS_ENDED = 'QR refs attempts ended';

/** Why Baileys closed, in the port's terms. */
export const disconnectReasonOf = (error: unknown): DisconnectReason => {
  const boom = error as { output?: { statusCode?: number }; message?: string } | undefined;
  const status = boom?.output?.statusCode;
  switch (status) {
    case BaileysDisconnect.loggedOut:
    case BaileysDisconnect.forbidden:
    case BaileysDisconnect.multideviceMismatch:
      // Removed on the phone, barred, or an account that cannot use multi-device: a new pairing is needed.
      return 'logged-out';
    case BaileysDisconnect.restartRequired:
      return 'restart-required';
    case BaileysDisconnect.timedOut:
      return boom?.message?.includes(QR_ATTEMPTS_ENDED) ? 'timeout' : 'connection-lost';
    default:
      // connectionClosed, connectionLost, connectionReplaced, badSession, unavailableService, no error.
      return 'connection-lost';
  }
};

/**
 * One `connection.update` as the port's events, in order. An update can carry several fields at once
 * (`{ isNewLogin: true, qr: undefined }`, `{ connection: 'connecting', qr: undefined }`); fields that mean
 * nothing to the worker (connecting, receivedPendingNotifications, isOnline) map to nothing.
 */
export const mapConnectionUpdate = (update: ConnectionUpdate): MappedEvent[] => {
  const events: MappedEvent[] = [];
  if (typeof update.qr === 'string' && update.qr.length > 0) events.push({ kind: 'qr', code: update.qr });
  if (update.isNewLogin === true) events.push({ kind: 'pairing' });
  if (update.connection === 'open') events.push({ kind: 'connected' });
  if (update.connection === 'close') {
    events.push({ kind: 'disconnected', reason: disconnectReasonOf(update.lastDisconnect?.error) });
  }
  return events;
};

/** The phone number of a logged-in account (`5511999999999:12@s.whatsapp.net` → `5511999999999`). */
export const phoneNumberOf = (creds: Pick<AuthenticationCreds, 'me'>): string =>
  (creds.me?.id ?? '').split('@')[0]!.split(':')[0]!;

/**
 * Our key store in Baileys' shape. Values come back from JSON: app-state sync keys must become protobuf
 * objects again (as Baileys' own file store does).
 */
export const toBaileysKeyStore = (keys: SignalKeyStore): BaileysKeyStore => ({
  get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
    const found = await keys.get(type, ids);
    if (type === 'app-state-sync-key') {
      for (const id of Object.keys(found)) {
        found[id] = proto.Message.AppStateSyncKeyData.fromObject(found[id] as Record<string, unknown>);
      }
    }
    return found as { [id: string]: SignalDataTypeMap[T] };
  },
  set: async (data: SignalDataSet) => keys.set(data as Record<string, Record<string, unknown>>),
});

/** Baileys' logger interface (pino's shape). */
type BaileysLogger = NonNullable<UserFacingSocketConfig['logger']>;

/** Baileys' logger interface over ours: warnings and errors only, with the connection named. */
const baileysLogger = (bindings: Record<string, unknown>): BaileysLogger => {
  const detail = (obj: unknown): string => {
    try {
      return (typeof obj === 'string' ? obj : JSON.stringify(obj, BufferJSON.replacer)).slice(0, 500);
    } catch {
      return String(obj).slice(0, 500);
    }
  };
  const quiet = () => undefined;
  return {
    level: 'warn',
    child: (more: Record<string, unknown>) => baileysLogger({ ...bindings, ...more }),
    trace: quiet,
    debug: quiet,
    info: quiet,
    warn: (obj: unknown, msg?: string) => logger.warn(msg ?? 'baileys warning', { ...bindings, detail: detail(obj) }),
    error: (obj: unknown, msg?: string) => logger.error(msg ?? 'baileys error', { ...bindings, detail: detail(obj) }),
  };
};

/** What the driver uses of a Baileys socket (tests give a stand-in). */
export type BaileysSocket = Pick<WASocket, 'ev' | 'logout' | 'end'> &
  Partial<Pick<WASocket, 'sendMessage' | 'updateMediaMessage' | 'groupMetadata' | 'onWhatsApp'>>;

/**
 * Group subjects a session knows (decisions D78): from the phone's history and group events, else asked
 * once per group (`groupMetadata`); a failed ask is not repeated for a minute, so a burst of a group's
 * messages makes one call.
 */
export class GroupSubjects {
  private readonly known = new Map<string, string>();
  private readonly asking = new Map<string, Promise<string | undefined>>();
  private readonly failedAt = new Map<string, number>();

  constructor(
    private readonly ask: ((jid: string) => Promise<{ subject?: string | null }>) | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  remember(jid: string | null | undefined, subject: string | null | undefined): void {
    if (jid && jid.endsWith('@g.us') && subject) this.known.set(jid, subject);
  }

  async subjectOf(jid: string): Promise<string | undefined> {
    const known = this.known.get(jid);
    if (known !== undefined || !this.ask) return known;
    const failed = this.failedAt.get(jid);
    if (failed !== undefined && this.now() - failed < 60_000) return undefined;
    let pending = this.asking.get(jid);
    if (!pending) {
      pending = this.ask(jid)
        .then((meta) => {
          this.remember(jid, meta.subject);
          return meta.subject ?? undefined;
        })
        .catch(() => {
          this.failedAt.set(jid, this.now());
          return undefined;
        })
        .finally(() => this.asking.delete(jid));
      this.asking.set(jid, pending);
    }
    return pending;
  }

  /** The event with the group's subject as its chat name, when it is a group message without one. */
  async named<E extends { kind: string; chat: { id: string; isGroup?: boolean; name?: string } }>(
    event: E,
  ): Promise<E> {
    if (event.kind !== 'message' || !event.chat.isGroup || event.chat.name) return event;
    const name = await this.subjectOf(event.chat.id);
    return name ? { ...event, chat: { ...event.chat, name } } : event;
  }
}

/**
 * Our send as Baileys' `sendMessage(jid, content, options)` (decisions D34, D41): the message id is the one
 * chosen before sending and pinned to our message, so the acks Baileys reports find it, and a retry reuses
 * it (the recipient's phone keeps one message per id).
 */
export const toBaileysSend = (
  message: OutboundMessage,
): { jid: string; content: AnyMessageContent; options: MiscMessageGenerationOptions } => {
  const c = message.content;
  const own = (id: string) => ({ remoteJid: message.chatId, fromMe: true, id });
  let content: AnyMessageContent;
  switch (c.type) {
    case 'text':
      content = { text: c.body };
      break;
    case 'image':
    case 'video':
      content = {
        [c.type]: c.media.bytes!,
        mimetype: c.media.mimetype,
        ...(c.caption ? { caption: c.caption } : {}),
      } as AnyMessageContent;
      break;
    case 'document':
      content = {
        document: c.media.bytes!,
        mimetype: c.media.mimetype,
        fileName: c.media.filename ?? 'file',
        ...(c.caption ? { caption: c.caption } : {}),
      };
      break;
    case 'sticker':
      content = { sticker: c.media.bytes! };
      break;
    case 'audio':
      content = { audio: c.media.bytes!, mimetype: c.media.mimetype, ptt: c.voice };
      break;
    case 'contact':
      content = {
        contacts: { ...(c.displayName ? { displayName: c.displayName } : {}), contacts: [{ vcard: c.vCard }] },
      };
      break;
    case 'location':
      content = {
        location: {
          degreesLatitude: c.latitude,
          degreesLongitude: c.longitude,
          ...(c.name ? { name: c.name } : {}),
          ...(c.address ? { address: c.address } : {}),
        },
      };
      break;
    case 'edit':
      content = { text: c.body, edit: own(c.targetProviderMessageId) };
      break;
    case 'delete':
      content = { delete: own(c.targetProviderMessageId) };
      break;
  }
  const quoted: WAMessage | undefined = message.quoted
    ? {
        key: {
          remoteJid: message.chatId,
          fromMe: message.quoted.fromMe,
          id: message.quoted.providerMessageId,
          ...(message.quoted.participant ? { participant: message.quoted.participant } : {}),
        },
        message: { conversation: message.quoted.body ?? '' },
      }
    : undefined;
  return {
    jid: message.chatId,
    content,
    options: { messageId: message.providerMessageId, ...(quoted ? { quoted } : {}) },
  };
};
export type MakeBaileysSocket = (config: UserFacingSocketConfig) => BaileysSocket;

const inboundLogFields = (context: SessionContext) => ({
  companyId: context.companyId,
  whatsappId: context.whatsappId,
});

class BaileysSession implements Session {
  private ended = false;
  private readonly socket: BaileysSocket;
  private readonly creds: AuthenticationCreds;
  /** The phone's people as its events told them (decisions D148). */
  private readonly addressBook = new PhoneAddressBook();

  constructor(auth: SessionAuthState, events: SessionEvents, context: SessionContext, makeSocket: MakeBaileysSocket) {
    const log = baileysLogger({ companyId: context.companyId, whatsappId: context.whatsappId });
    this.creds = (auth.creds as AuthenticationCreds | null) ?? initAuthCreds();
    this.socket = makeSocket({
      auth: { creds: this.creds, keys: makeCacheableSignalKeyStore(toBaileysKeyStore(auth.keys), log) },
      logger: log,
      browser: Browsers.ubuntu('ZapDesk'),
      printQRInTerminal: false,
      markOnlineOnConnect: false,
      // The whole history only when the connection imports old messages (decisions D78).
      syncFullHistory: context.fullHistory === true,
    });
    // Baileys merges each update into `creds` in its own listener, registered before this one.
    this.socket.ev.on('creds.update', () => {
      if (!this.ended) events.credsUpdate(this.creds);
    });
    const sink = context.inbound;
    const groups = new GroupSubjects(this.socket.groupMetadata ? (jid) => this.socket.groupMetadata!(jid) : undefined);
    this.socket.ev.on('groups.upsert', (metas) => {
      for (const meta of metas) groups.remember(meta.id, meta.subject);
    });
    this.socket.ev.on('groups.update', (metas) => {
      for (const meta of metas) groups.remember(meta.id, meta.subject);
    });
    this.socket.ev.on('contacts.upsert', (contacts) => this.addressBook.rememberContacts(contacts));
    this.socket.ev.on('contacts.update', (contacts) => this.addressBook.rememberContacts(contacts));
    this.socket.ev.on('chats.upsert', (chats) => this.addressBook.rememberChats(chats));
    this.socket.ev.on('messaging-history.set', ({ contacts, chats }) => {
      this.addressBook.rememberContacts(contacts);
      this.addressBook.rememberChats(chats);
    });
    if (sink) {
      const inbound: BaileysInboundContext = {
        companyId: context.companyId,
        whatsappId: context.whatsappId,
        storeMedia: async (message, media) => {
          const bytes = await downloadMediaMessage(
            message,
            'buffer',
            {},
            {
              logger: log,
              reuploadRequest: (m) => this.socket.updateMediaMessage!(m),
            },
          );
          await putMediaObject(media.key, bytes, media.mimetype);
          return { size: bytes.byteLength };
        },
        maxMediaBytes: downloadLimitBytes,
      };
      const deliver = (event: Promise<Parameters<typeof sink>[0] | null>) =>
        event
          .then(async (e) => (e && !this.ended ? sink(await groups.named(e)) : undefined))
          .catch((err: unknown) =>
            logger.error('whatsapp event not enqueued', { ...inboundLogFields(context), ...errorFields(err) }),
          );
      // Only live messages ('notify'); history sync ('append') waits for the old-message import.
      this.socket.ev.on('messages.upsert', ({ messages, type }) => {
        if (type !== 'notify') return;
        for (const message of messages) void deliver(mapUpsertMessage(message, inbound));
      });
      // The phone's history after a pairing (WhatsApp's history sync): the worker imports what the
      // connection's window takes (decisions D78). Batches are handed over in order.
      let history = Promise.resolve();
      this.socket.ev.on('messaging-history.set', ({ chats, messages, isLatest, progress }) => {
        for (const chat of chats) groups.remember(chat.id, chat.name);
        history = history
          .then(async () => {
            const mapped: HistoryMessage[] = [];
            for (const message of messages) {
              const event = await mapUpsertMessage(message, inbound).catch(() => null);
              if (event?.kind === 'message') mapped.push(await groups.named(event));
            }
            if (!this.ended) events.history?.({ messages: mapped, complete: isLatest === true || progress === 100 });
          })
          .catch((err: unknown) =>
            logger.error('whatsapp history not handed over', { ...inboundLogFields(context), ...errorFields(err) }),
          );
      });
      this.socket.ev.on('messages.update', (updates) => {
        for (const update of updates) void deliver(Promise.resolve(mapMessageUpdate(update, inbound)));
      });
      this.socket.ev.on('call', (calls) => {
        for (const call of calls) void deliver(Promise.resolve(mapCall(call, inbound)));
      });
    }
    this.socket.ev.on('connection.update', (update) => {
      if (this.ended) return;
      for (const event of mapConnectionUpdate(update)) {
        if (event.kind === 'qr') events.qr(event.code);
        else if (event.kind === 'pairing') events.pairing();
        else if (event.kind === 'connected') events.connected(phoneNumberOf(this.creds));
        else {
          this.ended = true;
          events.disconnected(event.reason);
        }
      }
    });
  }

  async send(message: OutboundMessage): Promise<{ providerMessageId: string }> {
    if (this.ended || !this.socket.sendMessage) throw new Error('the WhatsApp session is closed');
    const { jid, content, options } = toBaileysSend(message);
    const sent = await this.socket.sendMessage(jid, content, options);
    return { providerMessageId: sent?.key.id ?? message.providerMessageId };
  }

  /** WhatsApp's directory lookup for contact lists (decisions D122): `onWhatsApp` by phone JID. */
  async checkNumbers(numbers: readonly string[]): Promise<Record<string, boolean>> {
    if (this.ended || !this.socket.onWhatsApp) throw new Error('the WhatsApp session is closed');
    const found = await this.socket.onWhatsApp(...numbers.map((n) => `${n}@s.whatsapp.net`));
    const known = new Set((found ?? []).filter((r) => r.exists).map((r) => String(r.jid).split('@')[0]));
    return Object.fromEntries(numbers.map((n) => [n, known.has(n)]));
  }

  /** The phone's address book or chats, as far as this session has been told them (decisions D148). */
  async listContacts(source: PhoneContactSource): Promise<PhoneContact[]> {
    if (this.ended) throw new Error('the WhatsApp session is closed');
    return this.addressBook.list(source);
  }

  async logout(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    try {
      await this.socket.logout();
    } catch (err) {
      // Best effort: the device may already be gone at the phone, or the socket closed.
      logger.warn('baileys logout failed', { errorMessage: err instanceof Error ? err.message : String(err) });
    }
    this.socket.end(undefined);
  }

  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.socket.end(undefined);
  }
}

export const createBaileysDriver = (options: { makeSocket?: MakeBaileysSocket } = {}): WhatsAppDriver => {
  const makeSocket = options.makeSocket ?? ((config) => makeWASocket(config));
  return {
    name: 'baileys',
    codec: { replacer: BufferJSON.replacer, reviver: BufferJSON.reviver },
    start: (auth, events, context) => new BaileysSession(auth, events, context, makeSocket),
  };
};
