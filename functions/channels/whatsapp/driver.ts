import type { AuthStateCodec, SignalKeyChanges } from '../../data/wa-auth-state-repository';
import type { InboundEventInput } from '../inbound';

/**
 * The WhatsApp session port (STYLE 5): what the worker needs from a session implementation, whatever
 * reaches WhatsApp. Two implementations: Baileys (baileys-driver.ts, the real one) and the simulator
 * (simulator-driver.ts, no network: local default and tests). The worker owns everything around a session —
 * the lease, the auth state in DynamoDB, the connection's status and the browser events; a driver only turns
 * its provider's socket into these events and carries out logout and close.
 */

/** Why a session ended, in the worker's terms (spec §4 Connection: what the status becomes next). */
export type DisconnectReason =
  /** The phone removed this device, or the account is barred: forget the auth state, show DISCONNECTED. */
  | 'logged-out'
  /** The provider asks for a new socket with the same credentials (after pairing): reconnect at once. */
  | 'restart-required'
  /** Network or server trouble: reconnect with backoff, counting retries. */
  | 'connection-lost'
  /** Nobody scanned the QR codes in time: show TIMEOUT until someone asks again. */
  | 'timeout';

export interface SessionEvents {
  /** A QR code to show (the first one, and each new one while nobody scans). */
  qr: (code: string) => void;
  /** The code was scanned: the phone and this device are pairing. */
  pairing: () => void;
  /** The session is open as this phone number (digits only, with country code). */
  connected: (number: string) => void;
  /** The session ended; after this event the session emits nothing more. */
  disconnected: (reason: DisconnectReason) => void;
  /** The credentials changed: the worker stores them (as the lease holder) before anything relies on them. */
  credsUpdate: (creds: unknown) => void;
}

/** The signal key store the worker gives a session, backed by DynamoDB (wa-auth-state-repository.ts). */
export interface SignalKeyStore {
  get: (type: string, ids: string[]) => Promise<Record<string, unknown>>;
  set: (changes: SignalKeyChanges) => Promise<void>;
}

export interface SessionAuthState {
  /** The stored credentials (decoded with the driver's codec), or null for a new pairing with a QR code. */
  creds: unknown;
  keys: SignalKeyStore;
}

/**
 * Seams for the message pipelines (issue 4, items 3 and 4), not built into the worker yet: the worker will
 * give each session an inbound sink that normalises what the phone receives (messages, edits, deletes,
 * acks) to the inbound contract (decisions D31) and calls `enqueueInbound` (functions/channels/inbound.ts);
 * the sender will call `send` on the session that holds the connection for each `OutboundSend` (D34).
 */
export type InboundSink = (event: InboundEventInput) => Promise<unknown>;

export interface OutboundMessage {
  /** The provider's chat id (`OutboundSend.chatId`). */
  chatId: string;
  /** Chosen before sending and already pinned to our message, so acks find it (D34). */
  providerMessageId?: string;
  body?: string;
  /** Media key in the media bucket. */
  mediaKey?: string;
}

export interface Session {
  /** Logs this device out at the provider (the phone forgets it), then ends the session. Best effort. */
  logout: () => Promise<void>;
  /** Ends the session without logging out (restart, takeover, shutdown); no event follows. */
  close: () => Promise<void>;
  /** The phone simulator's "someone scanned the QR code" (simulator driver only). */
  scan?: (phoneNumber: string) => void;
  /** Item 4 (outbound): sends a message and answers the provider's message id. */
  send?: (message: OutboundMessage) => Promise<{ providerMessageId: string }>;
}

export interface SessionContext {
  companyId: number;
  whatsappId: number;
  /** Item 3 (inbound): where the session delivers what the phone receives. */
  inbound?: InboundSink;
}

export interface WhatsAppDriver {
  readonly name: 'baileys' | 'simulator';
  /** How this driver's credentials and keys become text in DynamoDB. */
  readonly codec: AuthStateCodec;
  /** Opens a session; its events reach `events` until it ends (`disconnected`) or is closed. */
  start: (auth: SessionAuthState, events: SessionEvents, context: SessionContext) => Session;
}
