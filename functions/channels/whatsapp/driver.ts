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
  /**
   * The phone's history, which WhatsApp hands a newly paired device in batches (Baileys'
   * `messaging-history.set`), normalised like live messages; `complete` on the last batch. The worker
   * imports what falls in the connection's import window (decisions D78) and ignores the rest.
   */
  history?: (batch: HistoryBatch) => void;
}

/** A message of the phone's history, in the inbound contract (D31). */
export type HistoryMessage = Extract<InboundEventInput, { kind: 'message' }>;

export interface HistoryBatch {
  messages: HistoryMessage[];
  /** The phone said this is its last batch. */
  complete: boolean;
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
 * The message pipelines' seams (issue 4, items 3 and 4). Inbound: the worker gives each session a sink that
 * takes what the phone receives (messages, edits, deletes, acks) normalised to the inbound contract
 * (decisions D31) and enqueues it (`enqueueInbound`, functions/channels/inbound.ts). Outbound: the holder
 * of a connection carries out its outbox (D34, D41) with `send`.
 */
export type InboundSink = (event: InboundEventInput) => Promise<unknown>;

/** Media to send: where it is in the media bucket, and the bytes when the worker read them. */
export interface OutboundMedia {
  key: string;
  mimetype: string;
  filename?: string;
  /** Read from the media bucket by the worker before it calls the driver. */
  bytes?: Buffer;
}

/** What our side sends, in the port's terms (from a stored message, data-model §2.17). */
export type OutboundContent =
  | { type: 'text'; body: string }
  | { type: 'image' | 'video' | 'document' | 'sticker'; media: OutboundMedia; caption?: string }
  /** `voice`: a push-to-talk voice note rather than an audio file. */
  | { type: 'audio'; media: OutboundMedia; voice: boolean }
  | { type: 'contact'; vCard: string; displayName?: string }
  | { type: 'location'; latitude: number; longitude: number; name?: string; address?: string }
  /** Changes an earlier message of ours (WhatsApp allows 15 minutes). */
  | { type: 'edit'; targetProviderMessageId: string; body: string }
  /** Deletes an earlier message of ours for everyone. */
  | { type: 'delete'; targetProviderMessageId: string };

export interface OutboundMessage {
  /** The provider's chat id (`OutboundSend.chatId`). */
  chatId: string;
  /** Chosen before sending and already pinned to our message, so acks find it (D34). */
  providerMessageId: string;
  content: OutboundContent;
  /** A quoted reply: the provider id of the quoted message, and whether it was ours. */
  quoted?: { providerMessageId: string; fromMe: boolean; body?: string; participant?: string };
}

/**
 * WhatsApp's "too fast" (decisions D166): its servers answer `<error code="429" text="rate-overlimit">`,
 * which Baileys throws as a Boom whose `data` is 429; the simulator throws the same shape.
 */
export const isWhatsAppRateLimit = (err: unknown): boolean => {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { data?: unknown; message?: unknown; output?: { statusCode?: unknown } };
  return e.data === 429 || e.output?.statusCode === 429 || e.message === 'rate-overlimit';
};

/** The error a simulated WhatsApp throws for a rate-limited send: the shape Baileys gives. */
export const rateOverlimitError = (): Error => Object.assign(new Error('rate-overlimit'), { data: 429 });

export interface Session {
  /** Logs this device out at the provider (the phone forgets it), then ends the session. Best effort. */
  logout: () => Promise<void>;
  /** Ends the session without logging out (restart, takeover, shutdown); no event follows. */
  close: () => Promise<void>;
  /** The phone simulator's "someone scanned the QR code" (simulator driver only). */
  scan?: (phoneNumber: string) => void;
  /**
   * Sends a message with the provider id chosen before (D34) and answers once the provider took it (ack
   * 1). Throws when it could not be sent; a retry uses the same id. A provider rate-limit throws an error
   * `isWhatsAppRateLimit` recognises (decisions D166).
   */
  send?: (message: OutboundMessage) => Promise<{ providerMessageId: string }>;
  /** The phone simulator's customer acting (simulator driver only; decisions D41). */
  simulate?: (action: SimulatorAction) => Promise<void>;
  /**
   * Which of these numbers (digits with country code) have WhatsApp: the provider's "on WhatsApp" lookup
   * (contact lists' isWhatsappValid, decisions D122). Throws when the session cannot ask now.
   */
  checkNumbers?: (numbers: readonly string[]) => Promise<Record<string, boolean>>;
  /**
   * The people the phone knows (decisions D148): its address book (`contacts`) or the people of its chats
   * (`chats`), for `POST /contacts/import` and `/contacts/import/chats`. Throws when the session cannot
   * answer now.
   */
  listContacts?: (source: PhoneContactSource) => Promise<PhoneContact[]>;
}

export type PhoneContactSource = 'contacts' | 'chats';

/** A person the phone knows: digits with country code, and the name the phone keeps for them, if any. */
export interface PhoneContact {
  number: string;
  name?: string;
}

export interface SessionContext {
  companyId: number;
  whatsappId: number;
  /** Where the session delivers what the phone receives (D31). */
  inbound?: InboundSink;
  /** The connection imports old messages: ask the phone for its whole history when pairing (D78). */
  fullHistory?: boolean;
}

export interface WhatsAppDriver {
  readonly name: 'baileys' | 'simulator';
  /** How this driver's credentials and keys become text in DynamoDB. */
  readonly codec: AuthStateCodec;
  /** Opens a session; its events reach `events` until it ends (`disconnected`) or is closed. */
  start: (auth: SessionAuthState, events: SessionEvents, context: SessionContext) => Session;
}

/** Someone on the simulated customer's side (decisions D41): who they are, and in which chat. */
export interface SimulatedCustomer {
  /** Digits with country code. */
  number: string;
  name?: string;
  /** A group chat: the group's id (digits) and subject; the customer writes as a participant. */
  group?: { id: string; name?: string };
}

export type SimulatorAction =
  | {
      action: 'message';
      customer: SimulatedCustomer;
      providerMessageId: string;
      content:
        | { type: 'text'; body: string }
        | {
            type: 'image' | 'video' | 'audio' | 'document' | 'sticker';
            mediaKey: string;
            mimetype: string;
            filename?: string;
            size?: number;
            body?: string;
          }
        | { type: 'reaction'; emoji: string; targetProviderMessageId: string };
      quotedProviderMessageId?: string;
      /** Where the customer's phone keeps this message of theirs (`S#<ulid>`): delivered, it shows ack 2. */
      sentSk?: string;
    }
  /** The customer read (ack 3) or played (ack 4, voice notes) what they received. */
  | { action: 'read'; customer?: SimulatedCustomer; ack: 3 | 4 };
