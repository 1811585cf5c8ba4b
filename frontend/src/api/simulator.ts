import type {
  SimulatedMessageAnswer,
  SimulatedMessageBody,
  SimulatedReadBody,
  SimulatorReceivedPage,
  SimulatorReceivedView,
  SimulatorSentView,
} from '@contracts/simulator';
import { api } from './transport';

/**
 * The phone simulator's customer side (decisions D41): the typed client of the `/simulator/{whatsappId}`
 * routes. Only where the workers run the simulator driver; elsewhere every route answers 404. The wire
 * shapes are the server's contract (functions/contracts/simulator.ts).
 */
export type { SimulatorReceivedPage };
/** What a simulated customer received (a send of ours the simulator driver stored). */
export type SimulatorReceived = SimulatorReceivedView;
/** What a simulated customer sent (their own side of the chat). */
export type SimulatorSent = SimulatorSentView;

/** One message of a customer's chat, either side, as their phone shows it. */
export type ChatEntry = { side: 'received'; message: SimulatorReceived } | { side: 'sent'; message: SimulatorSent };
/** The customer: digits with the country code (8–15) and an optional display name. */
export type SimulatedCustomer = Pick<SimulatedMessageBody, 'number' | 'name'>;
/** A text, a reaction (`reactTo` + `emoji`) or a file's caption, from a customer. */
export type SimulatedMessage = SimulatedMessageBody;

/** The media route takes files up to 3 MB. */
export const SIMULATOR_MEDIA_MAX_BYTES = 3 * 1024 * 1024;

/** A customer number as the routes take it: 8 to 15 digits. */
export const isCustomerNumber = (value: string): boolean => /^\d{8,15}$/.test(value);

interface CallOptions {
  signal?: AbortSignal;
}

const base = (whatsappId: number) => `/simulator/${encodeURIComponent(String(whatsappId))}`;

/** POST /simulator/{id}/messages: the customer writes a text or reacts (`reactTo` + `emoji`). */
export const sendSimulatedMessage = (whatsappId: number, input: SimulatedMessage): Promise<SimulatedMessageAnswer> =>
  api().post<SimulatedMessageAnswer>(`${base(whatsappId)}/messages`, input);

/** POST /simulator/{id}/media, multipart: the customer sends a file (≤ 3 MB) with an optional caption. */
export const sendSimulatedMedia = (
  whatsappId: number,
  input: SimulatedMessage,
  file: File,
): Promise<SimulatedMessageAnswer> => {
  const form = new FormData();
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string' && value !== '') form.append(key, value);
  }
  form.append('file', file, file.name);
  return api().post<SimulatedMessageAnswer>(`${base(whatsappId)}/media`, form);
};

/** GET /simulator/{id}/messages: one page of the customers' (or one's, `number`) chats, both sides, newest last. */
export const listSimulatorReceived = (
  whatsappId: number,
  query: { number?: string; cursor?: string; limit?: number } = {},
  options: CallOptions = {},
): Promise<SimulatorReceivedPage> =>
  api().get<SimulatorReceivedPage>(`${base(whatsappId)}/messages`, { ...options, query });

/** Both sides sort by the ULID after the id's `#` (`R#…` received, `S#…` sent). */
const orderOf = (entry: ChatEntry): string => entry.message.id.slice(entry.message.id.indexOf('#') + 1);

/** A page's two sides merged into the chat's order (a server without `sent` gives the received side only). */
export const chatEntriesOf = (page: Pick<SimulatorReceivedPage, 'messages'> & { sent?: SimulatorSent[] }) =>
  [
    ...page.messages.map((message): ChatEntry => ({ side: 'received', message })),
    ...(page.sent ?? []).map((message): ChatEntry => ({ side: 'sent', message })),
  ].sort((a, b) => orderOf(a).localeCompare(orderOf(b)));

/** Every page of one customer's chat, both sides in order (a test tool's chat: a few pages at most). */
export const listCustomerChat = async (
  whatsappId: number,
  number: string,
  options: CallOptions = {},
  maxPages = 20,
): Promise<ChatEntry[]> => {
  const all: ChatEntry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await listSimulatorReceived(
      whatsappId,
      { number, limit: 100, ...(cursor ? { cursor } : {}) },
      options,
    );
    all.push(...chatEntriesOf(answer));
    if (!answer.hasMore || !answer.nextCursor) break;
    cursor = answer.nextCursor;
  }
  return all;
};

/** POST /simulator/{id}/read: the customer (or every customer) reads what they received (3), or plays it (4). */
export const simulateRead = async (whatsappId: number, input: SimulatedReadBody & { ack: 3 | 4 }): Promise<void> => {
  await api().post<unknown>(`${base(whatsappId)}/read`, input);
};
