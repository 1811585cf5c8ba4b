import type { FieldError } from '@/api/api-error';
import type {
  Connection,
  ConnectionChannel,
  ConnectionInput,
  ConnectionSettings,
  ScheduleEntry,
  Weekday,
} from '@/api/connections';

/**
 * The connection dialog's values, rules and payloads (core spec §3 Connection, §5 connection rules, §9
 * defaults; the server's schema in functions/http/connections/index.ts), kept apart from the components.
 * Numbers are edited as text (whole minutes, '' = 0, as the reference form sends them); dates as
 * YYYY-MM-DD ('' = none).
 */
export type TabId = 'general' | 'integrations' | 'messages' | 'chatbot' | 'assessments' | 'schedules';

export const NUMBER_FIELDS = [
  'timeSendQueue',
  'maxUseBotQueues',
  'maxUseBotQueuesNPS',
  'timeUseBotQueues',
  'expiresTicket',
  'expiresTicketNPS',
  'timeInactiveMessage',
  'timeCreateNewTicket',
] as const;
export type NumberField = (typeof NUMBER_FIELDS)[number];

export const DATE_FIELDS = [
  'importOldMessages',
  'importRecentMessages',
  'collectiveVacationStart',
  'collectiveVacationEnd',
] as const;
export type DateField = (typeof DATE_FIELDS)[number];

export type ConnectionFormValues = Omit<ConnectionSettings, NumberField | DateField> &
  Record<NumberField, string> &
  Record<DateField, string>;

export type FormField = keyof ConnectionFormValues;

/** Where each field sits, so a failed save can open the tab of the first problem. */
export const TAB_OF: Record<FormField, TabId> = {
  name: 'general',
  isDefault: 'general',
  allowGroup: 'general',
  groupAsTicket: 'general',
  queueIds: 'chatbot',
  provider: 'general',
  importOldMessages: 'general',
  importRecentMessages: 'general',
  importOldMessagesGroups: 'general',
  closedTicketsPostImported: 'general',
  integrationId: 'integrations',
  promptId: 'integrations',
  flowIdWelcome: 'integrations',
  flowIdNotPhrase: 'integrations',
  greetingMessage: 'messages',
  complationMessage: 'messages',
  outOfHoursMessage: 'messages',
  collectiveVacationStart: 'messages',
  collectiveVacationEnd: 'messages',
  collectiveVacationMessage: 'messages',
  sendIdQueue: 'chatbot',
  timeSendQueue: 'chatbot',
  maxUseBotQueues: 'chatbot',
  timeUseBotQueues: 'chatbot',
  expiresTicket: 'chatbot',
  whenExpiresTicket: 'chatbot',
  expiresInactiveMessage: 'chatbot',
  timeInactiveMessage: 'chatbot',
  inactiveMessage: 'chatbot',
  timeCreateNewTicket: 'chatbot',
  ratingMessage: 'assessments',
  maxUseBotQueuesNPS: 'assessments',
  expiresTicketNPS: 'assessments',
  schedules: 'schedules',
};

export const TAB_ORDER: readonly TabId[] = [
  'general',
  'integrations',
  'messages',
  'chatbot',
  'assessments',
  'schedules',
];

const WEEKDAYS: readonly { weekday: string; weekdayEn: Weekday }[] = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday' },
  { weekday: 'Sábado', weekdayEn: 'saturday' },
  { weekday: 'Domingo', weekdayEn: 'sunday' },
];

/** Core spec §9: 08:00–12:00 and 13:00–18:00 on the seven days (the server's default too). */
export const defaultSchedules = (): ScheduleEntry[] =>
  WEEKDAYS.map((d) => ({ ...d, startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' }));

/** A new connection starts with the spec's defaults (core §3, §9; the server applies the same). */
export const newConnectionValues = (): ConnectionFormValues => ({
  name: '',
  isDefault: false,
  queueIds: [],
  schedules: defaultSchedules(),
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  ratingMessage: '',
  sendIdQueue: null,
  timeSendQueue: '0',
  maxUseBotQueues: '3',
  maxUseBotQueuesNPS: '3',
  timeUseBotQueues: '0',
  provider: 'beta',
  expiresTicket: '0',
  expiresTicketNPS: '0',
  expiresInactiveMessage: '',
  timeInactiveMessage: '0',
  inactiveMessage: '',
  whenExpiresTicket: '0',
  timeCreateNewTicket: '0',
  allowGroup: false,
  groupAsTicket: 'disabled',
  importOldMessages: '',
  importRecentMessages: '',
  importOldMessagesGroups: false,
  closedTicketsPostImported: false,
  collectiveVacationStart: '',
  collectiveVacationEnd: '',
  collectiveVacationMessage: '',
  integrationId: null,
  promptId: null,
  flowIdWelcome: null,
  flowIdNotPhrase: null,
});

const day = (value: string | null | undefined) => (value ?? '').slice(0, 10);

export const valuesOf = (c: Connection): ConnectionFormValues => ({
  name: c.name,
  isDefault: c.isDefault,
  queueIds: c.queueIds ?? [],
  schedules: c.schedules?.length ? c.schedules : defaultSchedules(),
  greetingMessage: c.greetingMessage ?? '',
  complationMessage: c.complationMessage ?? '',
  outOfHoursMessage: c.outOfHoursMessage ?? '',
  ratingMessage: c.ratingMessage ?? '',
  sendIdQueue: c.sendIdQueue ?? null,
  timeSendQueue: String(c.timeSendQueue ?? 0),
  maxUseBotQueues: String(c.maxUseBotQueues ?? 3),
  maxUseBotQueuesNPS: String(c.maxUseBotQueuesNPS ?? 3),
  timeUseBotQueues: String(c.timeUseBotQueues ?? 0),
  provider: c.provider ?? 'beta',
  expiresTicket: String(c.expiresTicket ?? 0),
  expiresTicketNPS: String(c.expiresTicketNPS ?? 0),
  expiresInactiveMessage: c.expiresInactiveMessage ?? '',
  timeInactiveMessage: String(c.timeInactiveMessage ?? 0),
  inactiveMessage: c.inactiveMessage ?? '',
  whenExpiresTicket: c.whenExpiresTicket === '1' ? '1' : '0',
  timeCreateNewTicket: String(c.timeCreateNewTicket ?? 0),
  allowGroup: c.allowGroup === true,
  groupAsTicket: c.groupAsTicket === 'enabled' ? 'enabled' : 'disabled',
  importOldMessages: day(c.importOldMessages),
  importRecentMessages: day(c.importRecentMessages),
  importOldMessagesGroups: c.importOldMessagesGroups === true,
  closedTicketsPostImported: c.closedTicketsPostImported === true,
  collectiveVacationStart: day(c.collectiveVacationStart),
  collectiveVacationEnd: day(c.collectiveVacationEnd),
  collectiveVacationMessage: c.collectiveVacationMessage ?? '',
  integrationId: c.integrationId ?? null,
  promptId: c.promptId ?? null,
  flowIdWelcome: c.flowIdWelcome ?? null,
  flowIdNotPhrase: c.flowIdNotPhrase ?? null,
});

const WHOLE = /^\s*\d+\s*$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const blank = (s: string) => s.trim() === '';
const minutes = (s: string) => (blank(s) ? 0 : Number(s));
/** The server's bounds: whole minutes up to a year; bot counts up to 100. */
const MAX: Record<NumberField, number> = {
  timeSendQueue: 525_600,
  maxUseBotQueues: 100,
  maxUseBotQueuesNPS: 100,
  timeUseBotQueues: 525_600,
  expiresTicket: 525_600,
  expiresTicketNPS: 525_600,
  timeInactiveMessage: 525_600,
  timeCreateNewTicket: 525_600,
};

/** The full payload of the values (a create sends it all). */
export const toSettings = (v: ConnectionFormValues): ConnectionSettings => ({
  ...v,
  name: v.name.trim(),
  ...(Object.fromEntries(NUMBER_FIELDS.map((f) => [f, minutes(v[f])])) as Record<NumberField, number>),
  ...(Object.fromEntries(DATE_FIELDS.map((f) => [f, blank(v[f]) ? null : v[f]])) as Record<DateField, string | null>),
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a save sends: everything on create (with the channel); on edit only the fields that changed, so the
 * server checks only their rules (decisions D22) and a company setting turned on since, or an import date
 * drifting past "2 years ago", never blocks an unrelated edit.
 */
export const toInput = (
  values: ConnectionFormValues,
  initial: ConnectionFormValues | undefined,
  channel: ConnectionChannel,
): ConnectionInput => {
  const next = toSettings(values);
  if (!initial) return { ...next, channel };
  const before = toSettings(initial);
  return Object.fromEntries(
    (Object.keys(next) as (keyof ConnectionSettings)[])
      .filter((key) => !same(next[key], before[key]))
      .map((key) => [key, next[key]]),
  ) as ConnectionInput;
};

/** The fields whose value differs from the loaded connection (undefined on create: every rule applies). */
export const touchedFields = (
  values: ConnectionFormValues,
  initial: ConnectionFormValues | undefined,
): ReadonlySet<string> | undefined =>
  initial ? new Set(Object.keys(toInput(values, initial, 'whatsapp'))) : undefined;

/** Problems by field: i18n keys; schedule times under `schedules.<day>.<field>`. */
export type FormErrors = Record<string, string>;

/**
 * The spec's connection rules (core §5), checked as the server checks them: shapes always, the rules that
 * span fields only when one of their fields changed (or on create). `npsInUse`: the company rates tickets
 * (company setting userRating), then the rating message and a wait time are required.
 */
export const validateConnection = (
  v: ConnectionFormValues,
  ctx: { npsInUse: boolean; touched?: ReadonlySet<string> | undefined; now?: Date },
): FormErrors => {
  const errors: FormErrors = {};
  const add = (field: string, key: string) => {
    errors[field] ??= key;
  };
  const applies = (...fields: FormField[]) => !ctx.touched || fields.some((f) => ctx.touched!.has(f));

  const name = [...v.name.trim()].length;
  if (name === 0) add('name', 'connections.validation.required');
  else if (name < 2) add('name', 'connections.validation.tooShort');
  else if (name > 50) add('name', 'connections.validation.tooLong');

  for (const field of NUMBER_FIELDS) {
    if (!blank(v[field]) && (!WHOLE.test(v[field]) || Number(v[field]) > MAX[field])) {
      add(field, 'connections.validation.wholeMinutes');
    }
  }

  v.schedules.forEach((entry, index) => {
    for (const f of ['startTimeA', 'endTimeA', 'startTimeB', 'endTimeB'] as const) {
      if (entry[f] !== '' && !TIME.test(entry[f])) add(`schedules.${index}.${f}`, 'connections.validation.time');
    }
  });

  // Redirect: a time without a queue, or a queue without a time (both fields name it).
  const hasTime = WHOLE.test(v.timeSendQueue) && Number(v.timeSendQueue) > 0;
  if (applies('sendIdQueue', 'timeSendQueue') && hasTime !== (v.sendIdQueue !== null)) {
    add('sendIdQueue', 'connections.validation.sendQueuePair');
    add('timeSendQueue', 'connections.validation.sendQueuePair');
  }

  if (ctx.npsInUse && applies('ratingMessage', 'expiresTicketNPS')) {
    if (!(WHOLE.test(v.expiresTicketNPS) && Number(v.expiresTicketNPS) > 0)) {
      add('expiresTicketNPS', 'connections.validation.npsWaitTime');
    }
    if (blank(v.ratingMessage)) add('ratingMessage', 'connections.validation.npsRatingMessage');
  }

  if (applies('queueIds', 'greetingMessage') && v.queueIds.length > 1 && blank(v.greetingMessage)) {
    add('greetingMessage', 'backendErrors.ERR_WAPP_GREETING_REQUIRED');
  }

  if (applies('collectiveVacationMessage', 'collectiveVacationStart', 'collectiveVacationEnd')) {
    if (!blank(v.collectiveVacationMessage)) {
      if (blank(v.collectiveVacationStart)) add('collectiveVacationStart', 'connections.validation.vacationDates');
      if (blank(v.collectiveVacationEnd)) add('collectiveVacationEnd', 'connections.validation.vacationDates');
    }
    if (
      !blank(v.collectiveVacationStart) &&
      !blank(v.collectiveVacationEnd) &&
      v.collectiveVacationEnd < v.collectiveVacationStart
    ) {
      add('collectiveVacationEnd', 'connections.validation.vacationOrder');
    }
  }

  const now = ctx.now ?? new Date();
  const today = now.toISOString().slice(0, 10);
  const twoYearsAgo = new Date(now);
  twoYearsAgo.setUTCFullYear(twoYearsAgo.getUTCFullYear() - 2);
  const oldest = twoYearsAgo.toISOString().slice(0, 10);
  for (const field of ['importOldMessages', 'importRecentMessages'] as const) {
    if (blank(v[field]) || !applies(field)) continue;
    if (v[field] > today) add(field, 'connections.validation.importFuture');
    else if (v[field] < oldest) add(field, 'connections.validation.importTooOld');
  }
  if (
    applies('importOldMessages', 'importRecentMessages') &&
    !blank(v.importOldMessages) &&
    !blank(v.importRecentMessages) &&
    v.importRecentMessages < v.importOldMessages
  ) {
    add('importRecentMessages', 'connections.validation.importRecentBeforeOld');
  }
  return errors;
};

/**
 * The server's reasons that are the spec's (or our) known texts, so they show in the current language;
 * any other reason is shown as the server wrote it.
 */
const KNOWN_REASONS: Record<string, string> = {
  Required: 'connections.validation.required',
  'Too Short!': 'connections.validation.tooShort',
  'Too Long!': 'connections.validation.tooLong',
  'Foi informado tempo para redirecionar fila, porém não foi selecionada fila para redirecionar. Os dois campos precisam estar preenchidos':
    'connections.validation.sendQueuePair',
  'É obrigado informar um tempo para avaliação quando se utiliza o NPS.': 'connections.validation.npsWaitTime',
  'É obrigado informar uma mensagem de avaliação quando se utiliza o NPS.': 'connections.validation.npsRatingMessage',
  'A mensagem de saudação é obrigatória quando há mais de uma fila.': 'backendErrors.ERR_WAPP_GREETING_REQUIRED',
  'Obrigatório quando há mensagem de férias coletivas': 'connections.validation.vacationDates',
  'O fim das férias coletivas não pode ser antes do início': 'connections.validation.vacationOrder',
  'A data não pode estar no futuro': 'connections.validation.importFuture',
  'A data não pode ser anterior a 2 anos atrás': 'connections.validation.importTooOld',
  'A data das mensagens recentes não pode ser anterior à data das mensagens antigas':
    'connections.validation.importRecentBeforeOld',
  'must be HH:MM': 'connections.validation.time',
  'must be a whole number': 'connections.validation.wholeMinutes',
};

/**
 * A 400's `fields[]` as the form's errors: `body.timeSendQueue` -> `timeSendQueue`,
 * `body.schedules.0.startTimeA` -> `schedules.0.startTimeA`. Values are i18n keys where the reason is
 * known, else the reason itself (`raw:` prefixed, shown as is).
 */
export const serverErrors = (fields: FieldError[]): FormErrors => {
  const errors: FormErrors = {};
  for (const { field, reason } of fields) {
    const name = field.replace(/^body\./, '');
    errors[name] ??= KNOWN_REASONS[reason] ?? `raw:${reason}`;
  }
  return errors;
};

/** The tab of an error key (`schedules.3.endTimeA` -> schedules); unknown fields stay on general. */
export const tabOfError = (field: string): TabId => TAB_OF[field.split('.')[0] as FormField] ?? 'general';

/** The first tab (in the dialog's order) that holds one of the errors. */
export const firstTabWithError = (errors: FormErrors, shown: readonly TabId[]): TabId | undefined => {
  const tabs = new Set(Object.keys(errors).map(tabOfError));
  return shown.find((tab) => tabs.has(tab));
};
