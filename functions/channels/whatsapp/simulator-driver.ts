import { randomBytes } from 'node:crypto';
import type { Session, SessionAuthState, SessionContext, SessionEvents, WhatsAppDriver } from './driver';

/**
 * The phone simulator's session (DESIGN §6): the same port as Baileys, no network. It behaves like Baileys
 * where the worker can tell:
 * - without credentials it shows QR codes (`zapdesk-sim:<random>`): the first lives 60 s, the next ones
 *   20 s, and after six unscanned codes the session ends with `timeout`;
 * - a scan (POST /simulator/{whatsappId}/scan, carried to the session by the worker) pairs: `pairing`,
 *   new credentials (`credsUpdate`), then `restart-required`, as WhatsApp asks Baileys to reconnect after
 *   pairing; the worker reconnects with the stored credentials;
 * - with stored credentials it connects straight away, without a QR code, like Baileys resuming.
 * Item 6 (the phone simulator UI) will let a person or a test play the customer through the same session.
 */
export interface SimulatorCreds {
  simulator: true;
  /** The simulated phone's number (digits with country code). */
  number: string;
  pairedAt: string;
}

export interface SimulatorOptions {
  /** How long the first QR code lives. @default 60 s (Baileys) */
  firstQrMs?: number;
  /** How long each later QR code lives. @default 20 s (Baileys) */
  nextQrMs?: number;
  /** QR codes shown before the session ends with `timeout`. @default 6 */
  qrCodes?: number;
}

export const isSimulatorCreds = (creds: unknown): creds is SimulatorCreds =>
  typeof creds === 'object' &&
  creds !== null &&
  (creds as SimulatorCreds).simulator === true &&
  typeof (creds as SimulatorCreds).number === 'string';

/**
 * The number a simulated phone has when the scan names none: Brazil's country code and the area code 00,
 * which no real line has, then the connection id. Thirteen digits like a Brazilian mobile number.
 */
export const simulatedPhoneNumber = (whatsappId: number): string => `55000${String(whatsappId).padStart(8, '0')}`;

export const newSimulatorQrCode = (): string => `zapdesk-sim:${randomBytes(18).toString('base64url')}`;

class SimulatedSession implements Session {
  private ended = false;
  private timer: NodeJS.Timeout | undefined;
  private showingQr = false;
  private shown = 0;

  constructor(
    private readonly auth: SessionAuthState,
    private readonly events: SessionEvents,
    private readonly options: Required<SimulatorOptions>,
  ) {
    // Like a socket, events start after the caller got the session.
    setImmediate(() => this.open());
  }

  private open(): void {
    if (this.ended) return;
    if (isSimulatorCreds(this.auth.creds)) {
      this.events.connected(this.auth.creds.number);
      return;
    }
    this.nextQr();
  }

  private nextQr(): void {
    if (this.ended) return;
    if (this.shown >= this.options.qrCodes) {
      this.end('timeout');
      return;
    }
    this.shown += 1;
    this.showingQr = true;
    this.events.qr(newSimulatorQrCode());
    this.timer = setTimeout(() => this.nextQr(), this.shown === 1 ? this.options.firstQrMs : this.options.nextQrMs);
  }

  private end(reason: 'timeout' | 'restart-required'): void {
    this.stop();
    this.events.disconnected(reason);
  }

  private stop(): void {
    this.ended = true;
    this.showingQr = false;
    clearTimeout(this.timer);
  }

  scan(phoneNumber: string): void {
    if (this.ended || !this.showingQr) return;
    clearTimeout(this.timer);
    this.showingQr = false;
    this.events.pairing();
    const creds: SimulatorCreds = { simulator: true, number: phoneNumber, pairedAt: new Date().toISOString() };
    this.events.credsUpdate(creds);
    // WhatsApp asks a freshly paired device to reconnect (Baileys: DisconnectReason.restartRequired).
    setImmediate(() => {
      if (!this.ended) this.end('restart-required');
    });
  }

  async logout(): Promise<void> {
    this.stop();
  }

  async close(): Promise<void> {
    this.stop();
  }
}

export const createSimulatorDriver = (options: SimulatorOptions = {}): WhatsAppDriver => {
  const settings: Required<SimulatorOptions> = {
    firstQrMs: options.firstQrMs ?? 60_000,
    nextQrMs: options.nextQrMs ?? 20_000,
    qrCodes: options.qrCodes ?? 6,
  };
  return {
    name: 'simulator',
    codec: {},
    start: (auth: SessionAuthState, events: SessionEvents, _context: SessionContext) =>
      new SimulatedSession(auth, events, settings),
  };
};
