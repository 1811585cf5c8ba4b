import { createRequire } from 'node:module';
import type * as Baileys from '@whiskeysockets/baileys';
import type {
  AuthenticationCreds,
  ConnectionState,
  SignalDataSet,
  SignalDataTypeMap,
  SignalKeyStore as BaileysKeyStore,
  UserFacingSocketConfig,
  WASocket,
} from '@whiskeysockets/baileys';
import { logger } from '../../core/logger';
import type {
  DisconnectReason,
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
export type BaileysSocket = Pick<WASocket, 'ev' | 'logout' | 'end'>;
export type MakeBaileysSocket = (config: UserFacingSocketConfig) => BaileysSocket;

class BaileysSession implements Session {
  private ended = false;
  private readonly socket: BaileysSocket;
  private readonly creds: AuthenticationCreds;

  constructor(auth: SessionAuthState, events: SessionEvents, context: SessionContext, makeSocket: MakeBaileysSocket) {
    const log = baileysLogger({ companyId: context.companyId, whatsappId: context.whatsappId });
    this.creds = (auth.creds as AuthenticationCreds | null) ?? initAuthCreds();
    this.socket = makeSocket({
      auth: { creds: this.creds, keys: makeCacheableSignalKeyStore(toBaileysKeyStore(auth.keys), log) },
      logger: log,
      browser: Browsers.ubuntu('ZapDesk'),
      printQRInTerminal: false,
      markOnlineOnConnect: false,
      // History import (importOldMessages) belongs to the inbound item; until then only new messages.
      syncFullHistory: false,
    });
    // Baileys merges each update into `creds` in its own listener, registered before this one.
    this.socket.ev.on('creds.update', () => {
      if (!this.ended) events.credsUpdate(this.creds);
    });
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
