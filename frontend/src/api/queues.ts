import type {
  CHATBOT_KINDS as CONTRACT_CHATBOT_KINDS,
  ChatbotKind,
  ChatbotOption,
  ChatbotOptionInput,
  MAX_BREADTH as CONTRACT_MAX_BREADTH,
  MAX_DEPTH as CONTRACT_MAX_DEPTH,
  MAX_NODES as CONTRACT_MAX_NODES,
  QueueAdminView,
  QueueView,
  ROTATION_MINUTES as CONTRACT_ROTATION_MINUTES,
  ScheduleEntry,
} from '@contracts/queues';
import { api } from './transport';

/**
 * Queues and their chatbot menus (administration spec §2 "Queues", §5 "Queue"; decisions D89; server:
 * functions/core/queues). Admins read QueueAdminView (with the option tree); others QueueView. The wire
 * shapes are the server's contract (functions/contracts/queues.ts).
 */
export type { ChatbotKind, ChatbotOption, ChatbotOptionInput, QueueAdminView, QueueView, ScheduleEntry };

// The contract's constants, repeated here (contracts are imported as types only, to keep zod out of the
// bundle); the type annotations fail the build if they ever differ from the server's.
export const CHATBOT_KINDS: typeof CONTRACT_CHATBOT_KINDS = ['text', 'attendent', 'queue', 'integration', 'file'];
/** Rotation times in minutes; 0 is "not set" (admin spec §9). */
export const ROTATION_MINUTES: typeof CONTRACT_ROTATION_MINUTES = [0, 2, 5, 10, 15, 30, 45, 60];
/** Bounds of a chatbot tree (D89): levels, options under one parent, options in all. */
export const MAX_DEPTH: typeof CONTRACT_MAX_DEPTH = 5;
export const MAX_BREADTH: typeof CONTRACT_MAX_BREADTH = 20;
export const MAX_NODES: typeof CONTRACT_MAX_NODES = 200;
export type Queue = QueueView | QueueAdminView;

/** What the queue dialog sends: the whole queue, chatbot tree included (`id` absent on new options). */
export interface QueueInput {
  name: string;
  color: string;
  orderQueue: number | null;
  greetingMessage: string;
  outOfHoursMessage: string;
  closeTicket: boolean;
  ativarRoteador: boolean;
  tempoRoteador: number;
  integrationId: number | null;
  fileListId: number | null;
  schedules: ScheduleEntry[];
  chatbots: ChatbotOptionInput[];
}

interface CallOptions {
  signal?: AbortSignal;
}

const path = (id: number) => `/queue/${encodeURIComponent(String(id))}`;

/** GET /queue: every queue of the company, by order then name (admins get the dialog's fields too). */
export const listQueues = <T extends Queue = QueueAdminView>(options: CallOptions = {}): Promise<T[]> =>
  api().get<T[]>('/queue', options);

export const getQueue = (id: number, options: CallOptions = {}): Promise<QueueAdminView> =>
  api().get<QueueAdminView>(path(id), options);

/** POST /queue (201): name and colour are required. */
export const createQueue = (input: QueueInput): Promise<QueueAdminView> => api().post<QueueAdminView>('/queue', input);

/** PUT /queue/{id}: the queue with its whole option tree (the tree given replaces the stored one). */
export const updateQueue = (id: number, input: Partial<QueueInput>): Promise<QueueAdminView> =>
  api().put<QueueAdminView>(path(id), input);

/** DELETE /queue/{id}: 409 ERR_QUEUE_IN_USE (details.queues [{id, name}]) when another queue's menu points at it. */
export const deleteQueue = (id: number): Promise<{ message: string }> => api().delete<{ message: string }>(path(id));
