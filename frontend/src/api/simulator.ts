import { api } from './transport';

/**
 * The phone simulator's customer side (decisions D41): the typed client of the `/simulator/{whatsappId}`
 * routes. Only where the workers run the simulator driver; elsewhere every route answers 404.
 */

/** What a simulated customer received (functions/core/connections/simulator-service.ts `ReceivedView`). */
export interface SimulatorReceived {
  id: string;
  providerMessageId: string;
  /** The chat (remote JID) it was sent to, `<digits>@s.whatsapp.net`. */
  chatId: string;
  type: string;
  body?: string;
  mimetype?: string;
  filename?: string;
  voice?: boolean;
  quotedProviderMessageId?: string;
  targetProviderMessageId?: string;
  ack: number;
  receivedAt: string;
  mediaUrl: string | null;
}

export interface SimulatorReceivedPage {
  messages: SimulatorReceived[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** The customer: digits with the country code (8–15) and an optional display name. */
export interface SimulatedCustomer {
  number: string;
  name?: string;
}

export interface SimulatedMessage extends SimulatedCustomer {
  body?: string;
  reactTo?: string;
  emoji?: string;
  quotedProviderMessageId?: string;
}

/** The media route takes files up to 3 MB. */
export const SIMULATOR_MEDIA_MAX_BYTES = 3 * 1024 * 1024;

/** A customer number as the routes take it: 8 to 15 digits. */
export const isCustomerNumber = (value: string): boolean => /^\d{8,15}$/.test(value);

interface CallOptions {
  signal?: AbortSignal;
}

const base = (whatsappId: number) => `/simulator/${encodeURIComponent(String(whatsappId))}`;

/** POST /simulator/{id}/messages: the customer writes a text or reacts (`reactTo` + `emoji`). */
export const sendSimulatedMessage = (
  whatsappId: number,
  input: SimulatedMessage,
): Promise<{ providerMessageId: string }> =>
  api().post<{ providerMessageId: string }>(`${base(whatsappId)}/messages`, input);

/** POST /simulator/{id}/media, multipart: the customer sends a file (≤ 3 MB) with an optional caption. */
export const sendSimulatedMedia = (
  whatsappId: number,
  input: SimulatedMessage,
  file: File,
): Promise<{ providerMessageId: string }> => {
  const form = new FormData();
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string' && value !== '') form.append(key, value);
  }
  form.append('file', file, file.name);
  return api().post<{ providerMessageId: string }>(`${base(whatsappId)}/media`, form);
};

/** GET /simulator/{id}/messages: one page of what the customers (or one, `number`) received, newest last. */
export const listSimulatorReceived = (
  whatsappId: number,
  query: { number?: string; cursor?: string; limit?: number } = {},
  options: CallOptions = {},
): Promise<SimulatorReceivedPage> =>
  api().get<SimulatorReceivedPage>(`${base(whatsappId)}/messages`, { ...options, query });

/** Every page of one customer's received messages (a test tool's chat: a few pages at most). */
export const listCustomerReceived = async (
  whatsappId: number,
  number: string,
  options: CallOptions = {},
  maxPages = 20,
): Promise<SimulatorReceived[]> => {
  const all: SimulatorReceived[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await listSimulatorReceived(
      whatsappId,
      { number, limit: 100, ...(cursor ? { cursor } : {}) },
      options,
    );
    all.push(...answer.messages);
    if (!answer.hasMore || !answer.nextCursor) break;
    cursor = answer.nextCursor;
  }
  return all;
};

/** POST /simulator/{id}/read: the customer (or every customer) reads what they received (3), or plays it (4). */
export const simulateRead = async (whatsappId: number, input: { number?: string; ack: 3 | 4 }): Promise<void> => {
  await api().post<unknown>(`${base(whatsappId)}/read`, input);
};
