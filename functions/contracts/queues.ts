import * as z from 'zod';

/**
 * Queues as every signed-in user reads them (core §7 "Other": GET /queue, GET /queue/{id}), and the
 * service hours queues and connections share; used by functions/core/queues, functions/contracts/
 * connections.ts and frontend/src/api.
 */
/**
 * One day of the service hours: two shifts, A and B, HH:MM ('' for none). `weekdayEn` is a day of the
 * week in English whenever it was written through the API (connections.ts WEEKDAYS_EN); stored schedules
 * are typed as text.
 */
export interface ScheduleEntry {
  weekday: string;
  weekdayEn: string;
  startTimeA: string;
  endTimeA: string;
  startTimeB: string;
  endTimeB: string;
}

export interface QueueView {
  id: number;
  name: string;
  color: string;
  orderQueue: number | null;
  greetingMessage: string;
  outOfHoursMessage: string;
  schedules: ScheduleEntry[];
}

/** The chatbot option kinds (admin spec §3 Chatbot option `queueType`). */
export const CHATBOT_KINDS = ['text', 'attendent', 'queue', 'integration', 'file'] as const;
export type ChatbotKind = (typeof CHATBOT_KINDS)[number];

/** One option of a queue's chatbot tree, as stored and answered (decisions D89). */
export interface ChatbotOption {
  id: number;
  name: string;
  queueType: ChatbotKind;
  /** The bot's message when this option is chosen (and the prompt of its sub-options). */
  greetingMessage: string;
  closeTicket: boolean;
  optQueueId: number | null;
  optUserId: number | null;
  optIntegrationId: number | null;
  optFileId: number | null;
  options: ChatbotOption[];
}

/** Rotation times an admin may choose (admin spec §9), in minutes; 0 is "not set" (the default). */
export const ROTATION_MINUTES = [0, 2, 5, 10, 15, 30, 45, 60] as const;

/** A queue as its admin edits it: everything the queue dialog shows. */
export interface QueueAdminView extends QueueView {
  closeTicket: boolean;
  ativarRoteador: boolean;
  tempoRoteador: number;
  integrationId: number | null;
  fileListId: number | null;
  chatbots: ChatbotOption[];
}

/** Bounds of a chatbot tree (decisions D89): levels, options under one parent, options in all. */
export const MAX_DEPTH = 5;
export const MAX_BREADTH = 20;
export const MAX_NODES = 200;

const id = z.number().int().positive();
const target = id.nullable().optional();

/** One option as the browser sends it: `id` absent for a new option; targets by kind. */
export interface ChatbotOptionInput {
  id?: number | undefined;
  name: string;
  queueType?: ChatbotKind | undefined;
  greetingMessage?: string | undefined;
  closeTicket?: boolean | undefined;
  optQueueId?: number | null | undefined;
  optUserId?: number | null | undefined;
  optIntegrationId?: number | null | undefined;
  optFileId?: number | null | undefined;
  options?: ChatbotOptionInput[] | undefined;
}

const chatbotFields = {
  name: z.string().trim().min(4, 'at least 4 characters').max(100, 'at most 100 characters'),
  queueType: z.enum(CHATBOT_KINDS).optional(),
  greetingMessage: z.string().max(4096, 'at most 4096 characters').optional(),
  closeTicket: z.boolean().optional(),
  optQueueId: target,
  optUserId: target,
  optIntegrationId: target,
  optFileId: target,
  options: z
    .array(z.lazy(() => chatbotOptionSchema))
    .max(MAX_BREADTH, `at most ${MAX_BREADTH} options`)
    .optional(),
};

export const chatbotOptionSchema: z.ZodType<ChatbotOptionInput> = z.lazy(() =>
  z.object({ id: id.optional(), ...chatbotFields }),
);

/** PUT /chatbot/{id}: any of the option's fields; `options`, when given, replaces its sub-options. */
export const updateChatbotBodySchema = z.object(chatbotFields).partial();

const hhmm = z.union([z.literal(''), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM')]);

/** One day of service hours as the dialogs send it. */
export const scheduleEntrySchema = z.object({
  weekday: z.string().max(30),
  weekdayEn: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
  startTimeA: hhmm,
  endTimeA: hhmm,
  startTimeB: hhmm,
  endTimeB: hhmm,
});

const queueFields = {
  name: z.string().trim().min(2, 'at least 2 characters').max(50, 'at most 50 characters'),
  color: z.string().trim().min(3, 'at least 3 characters').max(9, 'at most 9 characters'),
  orderQueue: z.number().int().min(0).max(9999).nullable(),
  greetingMessage: z.string().max(4096),
  outOfHoursMessage: z.string().max(4096),
  closeTicket: z.boolean(),
  ativarRoteador: z.boolean(),
  tempoRoteador: z
    .number()
    .int()
    .refine((n) => (ROTATION_MINUTES as readonly number[]).includes(n), `one of ${ROTATION_MINUTES.join(', ')}`),
  integrationId: id.nullable(),
  fileListId: id.nullable(),
  schedules: z.array(scheduleEntrySchema).max(7),
  chatbots: z.array(chatbotOptionSchema).max(MAX_BREADTH, `at most ${MAX_BREADTH} options`),
};

/** POST /queue: name and colour required; the rest as the dialog sends it. */
export const createQueueBodySchema = z
  .object({ ...queueFields })
  .partial()
  .required({ name: true, color: true });
/** PUT /queue/{id}: any of the dialog's fields. */
export const updateQueueBodySchema = z.object({ ...queueFields }).partial();

/** POST /chatbot: an option at the root of `queueId`'s tree, or under option `chatbotId`. */
export const createChatbotBodySchema = z.intersection(
  z.object({ queueId: id.optional(), chatbotId: id.optional() }),
  chatbotOptionSchema,
);
