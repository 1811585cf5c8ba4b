import * as z from 'zod/mini';
import type { ChatbotKind, ChatbotOptionInput, QueueAdminView, QueueInput, ScheduleEntry } from '@/api/queues';
import type { FormSchema } from '@/components/form-modal/form-errors';
import { isTime, sevenDays } from '@/components/schedule-editor';

/** One option of the tree as the editor holds it: the wire fields, with a key for React. */
export interface OptionValues {
  key: string;
  id?: number | undefined;
  name: string;
  queueType: ChatbotKind;
  greetingMessage: string;
  closeTicket: boolean;
  optQueueId: number | null;
  optUserId: number | null;
  optIntegrationId: number | null;
  optFileId: number | null;
  options: OptionValues[];
}

export interface QueueValues {
  name: string;
  color: string;
  /** As typed: digits or empty. */
  orderQueue: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  closeTicket: boolean;
  ativarRoteador: boolean;
  tempoRoteador: number;
  integrationId: number | null;
  fileListId: number | null;
  schedules: ScheduleEntry[];
  chatbots: OptionValues[];
}

let nextKey = 0;
export const newKey = (): string => `option-${++nextKey}`;

export const newOption = (): OptionValues => ({
  key: newKey(),
  name: '',
  queueType: 'text',
  greetingMessage: '',
  closeTicket: false,
  optQueueId: null,
  optUserId: null,
  optIntegrationId: null,
  optFileId: null,
  options: [],
});

const optionValues = (o: ChatbotOptionInput): OptionValues => ({
  key: newKey(),
  id: o.id,
  name: o.name,
  queueType: o.queueType ?? 'text',
  greetingMessage: o.greetingMessage ?? '',
  closeTicket: o.closeTicket ?? false,
  optQueueId: o.optQueueId ?? null,
  optUserId: o.optUserId ?? null,
  optIntegrationId: o.optIntegrationId ?? null,
  optFileId: o.optFileId ?? null,
  options: (o.options ?? []).map(optionValues),
});

export const valuesOf = (queue: QueueAdminView | undefined): QueueValues => ({
  name: queue?.name ?? '',
  color: queue?.color ?? '',
  orderQueue: queue?.orderQueue == null ? '' : String(queue.orderQueue),
  greetingMessage: queue?.greetingMessage ?? '',
  outOfHoursMessage: queue?.outOfHoursMessage ?? '',
  closeTicket: queue?.closeTicket ?? false,
  ativarRoteador: queue?.ativarRoteador ?? false,
  tempoRoteador: queue?.tempoRoteador ?? 0,
  integrationId: queue?.integrationId ?? null,
  fileListId: queue?.fileListId ?? null,
  schedules: sevenDays(queue?.schedules),
  chatbots: (queue?.chatbots ?? []).map(optionValues),
});

/** The target an option's kind uses; the others go out empty. */
const TARGET_OF: Partial<Record<ChatbotKind, 'optQueueId' | 'optUserId' | 'optIntegrationId' | 'optFileId'>> = {
  queue: 'optQueueId',
  attendent: 'optUserId',
  integration: 'optIntegrationId',
  file: 'optFileId',
};
export const targetOf = (kind: ChatbotKind) => TARGET_OF[kind];

const optionInput = (o: OptionValues): ChatbotOptionInput => {
  const target = targetOf(o.queueType);
  return {
    ...(o.id === undefined ? {} : { id: o.id }),
    name: o.name.trim(),
    queueType: o.queueType,
    greetingMessage: o.greetingMessage,
    closeTicket: o.closeTicket,
    optQueueId: target === 'optQueueId' ? o.optQueueId : null,
    optUserId: target === 'optUserId' ? o.optUserId : null,
    optIntegrationId: target === 'optIntegrationId' ? o.optIntegrationId : null,
    optFileId: target === 'optFileId' ? o.optFileId : null,
    options: o.options.map(optionInput),
  };
};

export const toInput = (v: QueueValues): QueueInput => ({
  name: v.name.trim(),
  color: v.color.trim(),
  orderQueue: v.orderQueue.trim() === '' ? null : Number(v.orderQueue),
  greetingMessage: v.greetingMessage,
  outOfHoursMessage: v.outOfHoursMessage,
  closeTicket: v.closeTicket,
  ativarRoteador: v.ativarRoteador,
  tempoRoteador: v.ativarRoteador ? v.tempoRoteador : 0,
  integrationId: v.integrationId,
  fileListId: v.fileListId,
  schedules: v.schedules,
  chatbots: v.chatbots.map(optionInput),
});

/** Queue fields (admin spec §5 "Queue"): name 2–50 and colour 3–9, both required; order a whole number. */
const fieldsSchema = (outOfHoursRequired: boolean) =>
  z.object({
    name: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'queues.dialog.required'),
        z.minLength(2, 'queues.dialog.tooShort'),
        z.maxLength(50, 'queues.dialog.tooLong'),
      ),
    color: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'queues.dialog.required'),
        z.minLength(3, 'queues.dialog.tooShort'),
        z.maxLength(9, 'queues.dialog.tooLong'),
      ),
    orderQueue: z.string().check(z.regex(/^\s*\d{0,4}\s*$/, 'queues.dialog.orderInvalid')),
    outOfHoursMessage: outOfHoursRequired
      ? z.string().check(z.trim(), z.minLength(1, 'queues.dialog.required'))
      : z.string(),
  });

type Issue = { path: PropertyKey[]; message: string };

/** The tree's rules: a name of at least 4 characters (admin spec §5); sub-options need a bot message. */
const optionIssues = (options: OptionValues[], path: PropertyKey[]): Issue[] =>
  options.flatMap((o, i) => {
    const at = [...path, i];
    const issues: Issue[] = [];
    const name = o.name.trim();
    if (name === '') issues.push({ path: [...at, 'name'], message: 'queues.dialog.required' });
    else if (name.length < 4) issues.push({ path: [...at, 'name'], message: 'queues.chatbot.nameTooShort' });
    if (o.options.length > 0 && o.greetingMessage.trim() === '') {
      issues.push({ path: [...at, 'greetingMessage'], message: 'queues.chatbot.messageRequired' });
    }
    return [...issues, ...optionIssues(o.options, [...at, 'options'])];
  });

/**
 * The dialog's rules: the fields' zod schema, the service hours as HH:MM and the option tree walked by
 * hand (its paths `chatbots.0.options.1.name` match the server's 400 fields). The out-of-hours message is
 * required when the company's hours are per queue.
 */
export const queueSchema = (outOfHoursRequired: boolean): FormSchema<QueueValues> => {
  const fields = fieldsSchema(outOfHoursRequired);
  return {
    safeParse: (values) => {
      const v = values as QueueValues;
      const parsed = fields.safeParse(v);
      const issues: Issue[] = parsed.success ? [] : parsed.error.issues.map((i) => ({ ...i, path: [...i.path] }));
      v.schedules.forEach((day, i) => {
        for (const field of ['startTimeA', 'endTimeA', 'startTimeB', 'endTimeB'] as const) {
          if (!isTime(day[field])) issues.push({ path: ['schedules', i, field], message: 'schedules.invalidTime' });
        }
      });
      issues.push(...optionIssues(v.chatbots, ['chatbots']));
      return issues.length === 0 ? { success: true, data: v } : { success: false, error: { issues } };
    },
  };
};
