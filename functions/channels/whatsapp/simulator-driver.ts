import { createHash, randomBytes } from 'node:crypto';
import {
  changeReceived,
  getPhoneAddressBook,
  getPhoneHistory,
  listReceived,
  raiseReceivedAck,
  recordReceived,
  type PhoneAddressBookEntry,
  type PhoneHistoryEntry,
  type ReceivedMessage,
} from '../../data/simulator-phone-repository';
import type { InboundEventInput } from '../inbound';
import { rateOverlimitError } from './driver';
import type {
  HistoryMessage,
  OutboundMessage,
  PhoneContact,
  PhoneContactSource,
  Session,
  SessionAuthState,
  SessionContext,
  SessionEvents,
  SimulatedCustomer,
  SimulatorAction,
  WhatsAppDriver,
} from './driver';

/**
 * The phone simulator's session (DESIGN §6): the same port as Baileys, no network. It behaves like Baileys
 * where the worker can tell:
 * - without credentials it shows QR codes (`zapdesk-sim:<random>`): the first lives 60 s, the next ones
 *   20 s, and after six unscanned codes the session ends with `timeout`;
 * - a scan (POST /simulator/{whatsappId}/scan, carried to the session by the worker) pairs: `pairing`,
 *   new credentials (`credsUpdate`), then `restart-required`, as WhatsApp asks Baileys to reconnect after
 *   pairing; the worker reconnects with the stored credentials;
 * - with stored credentials it connects straight away, without a QR code, like Baileys resuming.
 * The customers' side (decisions D41): what our side sends is recorded as received by the customer's phone
 * (once per provider id; an edit or delete for everyone changes the message received before, D75), which
 * answers ack 2 (delivered) after `deliveredMs` and ack 3/4 when the customer
 * reads (an action, or after `readMs`); a customer's message, media or reaction (the simulator routes, through
 * the holder's outbox) comes out of the session's inbound sink exactly like a Baileys message would, and the
 * customer's own copy of it (kept by the routes) then shows delivered (ack 2).
 */
export interface SimulatorCreds {
  simulator: true;
  /** The simulated phone's number (digits with country code). */
  number: string;
  pairedAt: string;
  /** Paired, and the phone's history not handed over yet (WhatsApp's history sync after a pairing, D78). */
  historyPending?: boolean;
}

export interface SimulatorOptions {
  /** How long the first QR code lives. @default 60 s (Baileys) */
  firstQrMs?: number;
  /** How long each later QR code lives. @default 20 s (Baileys) */
  nextQrMs?: number;
  /** QR codes shown before the session ends with `timeout`. @default 6 */
  qrCodes?: number;
  /** After a send, the customer's phone reports ack 2 (delivered) this much later. @default 300 ms */
  deliveredMs?: number;
  /** After a send, the customer reads it (ack 3) this much later; 0 = only when told. @default 0 */
  readMs?: number;
  /** Where the customers' phones keep what they received (DynamoDB; unit tests pass a map). */
  phone?: SimulatedPhone;
}

export interface SimulatedPhone {
  record: typeof recordReceived;
  list: typeof listReceived;
  raiseAck: typeof raiseReceivedAck;
  /** An edit or delete for everyone changes the message received before (without it: recorded as its own). */
  change?: typeof changeReceived;
  /** The phone's past conversations (null: none set, the demo history is used). */
  history?: typeof getPhoneHistory;
  /** The phone's address book (null: none set, the demo address book is used; decisions D148). */
  addressBook?: typeof getPhoneAddressBook;
}

const dynamoPhone: SimulatedPhone = {
  record: recordReceived,
  list: listReceived,
  raiseAck: raiseReceivedAck,
  change: changeReceived,
  history: getPhoneHistory,
  addressBook: getPhoneAddressBook,
};

/** History messages per batch, as WhatsApp hands a history over in chunks. */
const HISTORY_BATCH = 50;

/**
 * The past conversations of a simulated phone nobody gave a history (decisions D78): three customers and
 * a group over the last three days, so the import of old messages shows something when tried by hand.
 */
export const demoPhoneHistory = (now: Date): PhoneHistoryEntry[] => {
  const at = (daysAgo: number, minutes: number) =>
    new Date(now.getTime() - daysAgo * 86_400_000 + minutes * 60_000).toISOString();
  const mariana = { number: '5511987650001', name: 'Mariana Costa' };
  const roberto = { number: '5521987650002', name: 'Roberto Lima' };
  const patricia = { number: '5531987650003', name: 'Patrícia Souza' };
  const group = { id: '120363000000000001', name: 'Fornecedores' };
  return [
    { ...mariana, body: 'Bom dia! Vocês entregam no sábado?', at: at(3, 0) },
    { ...mariana, fromMe: true, body: 'Bom dia, Mariana! Entregamos sim, das 8h às 12h.', at: at(3, 4) },
    { ...mariana, body: 'Perfeito, obrigada!', at: at(3, 6) },
    { ...roberto, body: 'Olá, meu pedido 4521 ainda não chegou.', at: at(2, 30) },
    { ...roberto, fromMe: true, body: 'Olá, Roberto. Vou verificar com a transportadora.', at: at(2, 41) },
    { ...roberto, fromMe: true, body: 'Seu pedido sai para entrega amanhã.', at: at(2, 95) },
    { ...roberto, body: 'Ótimo, aguardo.', at: at(2, 97) },
    { ...patricia, body: 'Vocês aceitam PIX?', at: at(1, 10) },
    { ...patricia, fromMe: true, body: 'Aceitamos PIX e cartão.', at: at(1, 12) },
    { ...roberto, group, body: 'Bom dia, pessoal. A nota fiscal de novembro já foi enviada.', at: at(1, 60) },
  ];
};

/**
 * The address book of a simulated phone nobody gave one (decisions D148): the demo history's three
 * customers and five more people, one of them saved without a name (imported under its number), so the
 * import from the phone shows something when tried by hand.
 */
export const demoPhoneAddressBook = (): PhoneAddressBookEntry[] => [
  { number: '5511987650001', name: 'Mariana Costa' },
  { number: '5521987650002', name: 'Roberto Lima' },
  { number: '5531987650003', name: 'Patrícia Souza' },
  { number: '5511976540004', name: 'Fernanda Alves' },
  { number: '5541976540005', name: 'Gustavo Pereira' },
  { number: '5551976540006', name: 'Juliana Rocha' },
  { number: '5561976540007', name: 'Thiago Martins' },
  { number: '5571976540008' },
];

/** A history entry as the phone hands it over, with a provider id that is the same every time. */
const historyMessageOf = (context: SessionContext, entry: PhoneHistoryEntry, index: number): HistoryMessage => {
  const customer: SimulatedCustomer = {
    number: entry.number,
    ...(entry.name ? { name: entry.name } : {}),
    ...(entry.group ? { group: entry.group } : {}),
  };
  const identity = { phone: entry.number, ...(entry.name ? { pushName: entry.name } : {}) };
  const id = createHash('sha256')
    .update(`${context.whatsappId}:${index}:${entry.at}:${entry.number}:${entry.body}`)
    .digest('hex')
    .slice(0, 20)
    .toUpperCase();
  return {
    kind: 'message',
    companyId: context.companyId,
    whatsappId: context.whatsappId,
    chat: {
      id: simulatedChatId(customer),
      isGroup: entry.group !== undefined,
      ...(entry.group?.name ? { name: entry.group.name } : {}),
    },
    providerMessageId: `SIMH${id}`,
    fromMe: entry.fromMe === true,
    timestamp: new Date(entry.at).toISOString(),
    ...(entry.group ? (entry.fromMe ? {} : { participant: identity }) : { contact: identity }),
    content: { type: 'text', body: entry.body },
  };
};

/** Whether the simulator's WhatsApp knows a number: 8 to 15 digits not ending in 0000 (decisions D122). */
export const isSimulatedWhatsAppNumber = (number: string): boolean =>
  /^\d{8,15}$/.test(number) && !number.endsWith('0000');

/** Sends to these chats are rate-limited on their first try by the simulated WhatsApp (decisions D166). */
export const isRateLimitedNumber = (chatId: string): boolean => chatId.split('@')[0]!.endsWith('0429');

/** The chat a simulated customer writes in: their own (`<number>@s.whatsapp.net`) or a group's. */
export const simulatedChatId = (customer: SimulatedCustomer): string =>
  customer.group ? `${customer.group.id}@g.us` : `${customer.number}@s.whatsapp.net`;

/** The customer whose phone a chat id is (digits of a one-to-one chat), or null for groups. */
const isGroupChat = (chatId: string): boolean => chatId.endsWith('@g.us');

/** What the customer sees of a send, for the simulator's list. */
const receivedOf = (message: OutboundMessage): Omit<ReceivedMessage, 'sk' | 'ack' | 'receivedAt'> => {
  const base = {
    providerMessageId: message.providerMessageId,
    chatId: message.chatId,
    ...(message.quoted ? { quotedProviderMessageId: message.quoted.providerMessageId } : {}),
  };
  const c = message.content;
  switch (c.type) {
    case 'text':
      return { ...base, type: 'text', body: c.body };
    case 'image':
    case 'video':
    case 'document':
    case 'sticker':
      return {
        ...base,
        type: c.type,
        ...(c.caption ? { body: c.caption } : {}),
        mediaKey: c.media.key,
        mimetype: c.media.mimetype,
        ...(c.media.filename ? { filename: c.media.filename } : {}),
      };
    case 'audio':
      return { ...base, type: 'audio', mediaKey: c.media.key, mimetype: c.media.mimetype, voice: c.voice };
    case 'contact':
      return { ...base, type: 'contact', vCard: c.vCard, ...(c.displayName ? { body: c.displayName } : {}) };
    case 'location':
      return { ...base, type: 'location', latitude: c.latitude, longitude: c.longitude, body: c.name ?? '' };
    case 'edit':
      return { ...base, type: 'edit', body: c.body, targetProviderMessageId: c.targetProviderMessageId };
    case 'delete':
      return { ...base, type: 'delete', targetProviderMessageId: c.targetProviderMessageId };
  }
};

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
  private connected = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Sends already refused once as rate-limited (by provider message id). */
  private readonly throttled = new Set<string>();

  constructor(
    private readonly auth: SessionAuthState,
    private readonly events: SessionEvents,
    private readonly options: Required<SimulatorOptions>,
    private readonly context: SessionContext,
  ) {
    // Like a socket, events start after the caller got the session.
    setImmediate(() => this.open());
  }

  private open(): void {
    if (this.ended) return;
    if (isSimulatorCreds(this.auth.creds)) {
      const creds = this.auth.creds;
      this.connected = true;
      this.events.connected(creds.number);
      if (creds.historyPending) this.handOverHistory(creds).catch(() => undefined);
      return;
    }
    this.nextQr();
  }

  /** After a pairing, the phone hands its history over in batches, once (decisions D78). */
  private async handOverHistory(creds: SimulatorCreds): Promise<void> {
    const { companyId, whatsappId } = this.context;
    const entries = (await this.options.phone.history?.(companyId, whatsappId)) ?? demoPhoneHistory(new Date());
    if (this.ended) return;
    const messages = [...entries]
      .map((entry, index) => historyMessageOf(this.context, entry, index))
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    for (let start = 0; start === 0 || start < messages.length; start += HISTORY_BATCH) {
      if (this.ended) return;
      this.events.history?.({
        messages: messages.slice(start, start + HISTORY_BATCH),
        complete: start + HISTORY_BATCH >= messages.length,
      });
    }
    const handedOver: SimulatorCreds = { ...creds, historyPending: false };
    this.events.credsUpdate(handedOver);
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
    this.connected = false;
    this.showingQr = false;
    clearTimeout(this.timer);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private later(ms: number, run: () => Promise<unknown>): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (this.ended) return;
      run().catch(() => undefined);
    }, ms);
    this.timers.add(t);
  }

  private async deliver(event: InboundEventInput): Promise<void> {
    if (!this.context.inbound) throw new Error('the simulated session has no inbound sink');
    await this.context.inbound(event);
  }

  private async ack(received: Pick<ReceivedMessage, 'sk' | 'chatId' | 'providerMessageId'>, ack: number) {
    const { companyId, whatsappId } = this.context;
    if (!(await this.options.phone.raiseAck(companyId, whatsappId, received.sk, ack))) return;
    await this.deliver({
      kind: 'ack',
      companyId,
      whatsappId,
      chat: { id: received.chatId, isGroup: isGroupChat(received.chatId) },
      providerMessageId: received.providerMessageId,
      ack,
    });
  }

  async send(message: OutboundMessage): Promise<{ providerMessageId: string }> {
    if (!this.connected || this.ended) throw new Error('the simulated phone is not connected');
    const { companyId, whatsappId } = this.context;
    const c = message.content;
    // The simulated WhatsApp rate-limits the first try of each send to a number ending in 0429, so tests and
    // demos can show the send governor's pause (decisions D166).
    if (isRateLimitedNumber(message.chatId) && !this.throttled.has(message.providerMessageId)) {
      this.throttled.add(message.providerMessageId);
      throw rateOverlimitError();
    }
    if ((c.type === 'edit' || c.type === 'delete') && this.options.phone.change) {
      // The customer's phone shows the earlier message edited or deleted (once per change id).
      await this.options.phone.change(companyId, whatsappId, {
        providerMessageId: message.providerMessageId,
        targetProviderMessageId: c.targetProviderMessageId,
        type: c.type,
        ...(c.type === 'edit' ? { body: c.body } : {}),
      });
      return { providerMessageId: message.providerMessageId };
    }
    const received = await this.options.phone.record(companyId, whatsappId, receivedOf(message));
    // Received before (a retried send with the same id): the customer sees it once, like WhatsApp.
    if (received && message.content.type !== 'edit' && message.content.type !== 'delete') {
      this.later(this.options.deliveredMs, () => this.ack(received, 2));
      if (this.options.readMs > 0) this.later(this.options.readMs, () => this.ack(received, 3));
    }
    return { providerMessageId: message.providerMessageId };
  }

  /**
   * The simulated WhatsApp's directory (decisions D122): every number is on WhatsApp except those ending
   * in 0000, so tests and demos can show both answers.
   */
  async checkNumbers(numbers: readonly string[]): Promise<Record<string, boolean>> {
    if (!this.connected || this.ended) throw new Error('the simulated phone is not connected');
    return Object.fromEntries(numbers.map((n) => [n, isSimulatedWhatsAppNumber(n)]));
  }

  /**
   * The simulated phone's people (decisions D148): its address book (as set, else the demo one), or the
   * people it has chats with — its history's one-to-one chats, named as the address book names them.
   */
  async listContacts(source: PhoneContactSource): Promise<PhoneContact[]> {
    if (!this.connected || this.ended) throw new Error('the simulated phone is not connected');
    const { companyId, whatsappId } = this.context;
    const book = (await this.options.phone.addressBook?.(companyId, whatsappId)) ?? demoPhoneAddressBook();
    const named = (entry: { number: string; name?: string }): PhoneContact =>
      entry.name ? { number: entry.number, name: entry.name } : { number: entry.number };
    if (source === 'contacts') return book.map(named);
    const names = new Map(book.filter((e) => e.name).map((e) => [e.number, e.name]));
    const history = (await this.options.phone.history?.(companyId, whatsappId)) ?? demoPhoneHistory(new Date());
    const people = new Map<string, string | undefined>();
    for (const entry of history) {
      if (entry.group) continue;
      people.set(entry.number, names.get(entry.number) ?? people.get(entry.number) ?? entry.name);
    }
    return [...people].map(([number, name]) => named({ number, ...(name ? { name } : {}) }));
  }

  async simulate(action: SimulatorAction): Promise<void> {
    if (!this.connected || this.ended) throw new Error('the simulated phone is not connected');
    const { companyId, whatsappId } = this.context;
    if (action.action === 'read') {
      const chatId = action.customer ? simulatedChatId(action.customer) : undefined;
      let after: string | undefined;
      for (;;) {
        const page = await this.options.phone.list(companyId, whatsappId, { ...(after ? { after } : {}), limit: 100 });
        for (const received of page.messages) {
          if (received.ack >= action.ack || (chatId && received.chatId !== chatId)) continue;
          if (received.type === 'edit' || received.type === 'delete') continue;
          await this.ack(received, action.ack);
        }
        if (!page.hasMore || page.messages.length === 0) return;
        after = page.messages.at(-1)!.sk;
      }
    }
    const { customer } = action;
    const identity = { phone: customer.number, ...(customer.name ? { pushName: customer.name } : {}) };
    await this.deliver({
      kind: 'message',
      companyId,
      whatsappId,
      chat: {
        id: simulatedChatId(customer),
        isGroup: customer.group !== undefined,
        ...(customer.group?.name ? { name: customer.group.name } : {}),
      },
      providerMessageId: action.providerMessageId,
      fromMe: false,
      timestamp: new Date().toISOString(),
      ...(customer.group ? { participant: identity } : { contact: identity }),
      ...(action.quotedProviderMessageId ? { quotedProviderMessageId: action.quotedProviderMessageId } : {}),
      content: action.content,
    });
    // Delivered: the customer's own copy shows two ticks (WhatsApp's "delivered"; no read receipts come back).
    if (action.sentSk) await this.options.phone.raiseAck(companyId, whatsappId, action.sentSk, 2);
  }

  scan(phoneNumber: string): void {
    if (this.ended || !this.showingQr) return;
    clearTimeout(this.timer);
    this.showingQr = false;
    this.events.pairing();
    const creds: SimulatorCreds = {
      simulator: true,
      number: phoneNumber,
      pairedAt: new Date().toISOString(),
      historyPending: true,
    };
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
    deliveredMs: options.deliveredMs ?? 300,
    readMs: options.readMs ?? 0,
    phone: options.phone ?? dynamoPhone,
  };
  return {
    name: 'simulator',
    codec: {},
    start: (auth: SessionAuthState, events: SessionEvents, context: SessionContext) =>
      new SimulatedSession(auth, events, settings, context),
  };
};
