import type { ReadScope } from '../../data/read-scope';
import * as z from 'zod';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, NotFound } from '../../shared/errors';
import { getCompany } from '../../data/company-repository';
import { getCompanySettingsItem, setCompanySetting } from '../../data/settings-repository';
import { defaultSchedules } from '../../data/connection-repository';
import type { ScheduleEntry } from '../../contracts/queues';

/**
 * Company settings by column (core spec §3 "Company settings", §5 "Company settings"). The allow-list
 * below is the only way a column name reaches storage: an unknown column is a 400, never a query.
 * Defaults are what a new company sees before an admin changes anything (docs/decisions/D17-settings.md).
 */
const onOff = z.enum(['enabled', 'disabled']);

/** The company's time zone when it has none stored (data-model §1.2). */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/** An IANA zone this runtime knows (`America/Manaus`, `Europe/Lisbon`, `UTC`). */
export const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
};
const text = z.string().max(2000);

/**
 * The minute of the day (0–1439) of an instant on the company's clock (DESIGN §10): what a user's
 * startWork–endWork is compared with (decisions D97). Inbound's service hours read the same clock through
 * their own `localTime`, which adds the weekday.
 */
export const localMinuteOfDay = (at: Date, timeZone: string): number => {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part('hour') * 60 + part('minute');
};

export const COMPANY_SETTING_COLUMNS = {
  userRating: { schema: onOff, default: 'disabled' },
  scheduleType: { schema: z.enum(['disabled', 'queue', 'company', 'connection']), default: 'disabled' },
  chatBotType: { schema: z.enum(['text', 'list', 'button']), default: 'text' },
  acceptCallWhatsapp: { schema: onOff, default: 'enabled' },
  userRandom: { schema: onOff, default: 'disabled' },
  sendGreetingMessageOneQueues: { schema: onOff, default: 'enabled' },
  sendSignMessage: { schema: onOff, default: 'enabled' },
  sendFarewellWaitingTicket: { schema: onOff, default: 'disabled' },
  sendGreetingAccepted: { schema: onOff, default: 'disabled' },
  sendQueuePosition: { schema: onOff, default: 'disabled' },
  acceptAudioMessageContact: { schema: onOff, default: 'enabled' },
  enableLGPD: { schema: onOff, default: 'disabled' },
  requiredTag: { schema: onOff, default: 'disabled' },
  lgpdDeleteMessage: { schema: onOff, default: 'disabled' },
  lgpdHideNumber: { schema: onOff, default: 'disabled' },
  lgpdConsent: { schema: onOff, default: 'disabled' },
  lgpdMessage: { schema: text, default: '' },
  lgpdLink: { schema: z.union([z.literal(''), z.string().url().max(500)]), default: '' },
  sendMsgTransfTicket: { schema: onOff, default: 'disabled' },
  DirectTicketsToWallets: { schema: z.boolean(), default: false },
  closeTicketOnTransfer: { schema: z.boolean(), default: false },
  showNotificationPending: { schema: z.boolean(), default: false },
  transferMessage: { schema: text, default: '' },
  greetingAcceptedMessage: { schema: text, default: '' },
  AcceptCallWhatsappMessage: { schema: text, default: '' },
  sendQueuePositionMessage: { schema: text, default: '' },
  /** Ours (DESIGN §10): every hour, day and "today" of the company's automation is computed in this zone. */
  timezone: {
    schema: z.string().max(64).refine(isTimeZone, 'an IANA time zone, e.g. America/Sao_Paulo'),
    default: DEFAULT_TIME_ZONE,
  },
} as const;

export type CompanySettingColumn = keyof typeof COMPANY_SETTING_COLUMNS;
export type CompanySettings = {
  [K in CompanySettingColumn]: (typeof COMPANY_SETTING_COLUMNS)[K]['default'] | string | boolean;
};

export const COLUMN_NAMES = Object.keys(COMPANY_SETTING_COLUMNS) as CompanySettingColumn[];

/**
 * The spec's paired rules: a switch that sends a text needs the text. Checked on the state after the
 * change, whichever of the two columns the change touches.
 */
const REQUIRED_TEXT: { when: CompanySettingColumn; is: string; text: CompanySettingColumn }[] = [
  { when: 'sendMsgTransfTicket', is: 'enabled', text: 'transferMessage' },
  { when: 'sendGreetingAccepted', is: 'enabled', text: 'greetingAcceptedMessage' },
  { when: 'sendQueuePosition', is: 'enabled', text: 'sendQueuePositionMessage' },
  { when: 'acceptCallWhatsapp', is: 'disabled', text: 'AcceptCallWhatsappMessage' },
];

const withDefaults = (stored: Record<string, unknown>): CompanySettings => {
  const result: Record<string, unknown> = {};
  for (const column of COLUMN_NAMES) result[column] = stored[column] ?? COMPANY_SETTING_COLUMNS[column].default;
  return result as CompanySettings;
};

/** Another company's settings are visible only to the platform owner; anyone else gets a plain 404. */
const companyFor = async (auth: AuthContext, companyId: number): Promise<number> => {
  if (companyId !== auth.companyId && !auth.super) throw new NotFound('ERR_NO_COMPANY_FOUND', 'Company not found');
  if (companyId !== auth.companyId && !(await getCompany(companyId))) {
    throw new NotFound('ERR_NO_COMPANY_FOUND', 'Company not found');
  }
  return companyId;
};

/** The company's working hours as stored, or the spec's default (08:00–12:00 and 13:00–18:00, every day). */
const companySchedulesOf = (stored: Record<string, unknown>): ScheduleEntry[] =>
  Array.isArray(stored.schedules) ? (stored.schedules as ScheduleEntry[]) : defaultSchedules();

export const getCompanySettings = async (
  auth: AuthContext,
  companyId: number,
): Promise<CompanySettings & { schedules: ScheduleEntry[] }> => {
  const stored = await getCompanySettingsItem(await companyFor(auth, companyId));
  return { ...withDefaults(stored), schedules: companySchedulesOf(stored) };
};

/**
 * PUT /companies/{id}/schedules (admin spec §7): the company's working hours, checked when the company's
 * `scheduleType` is `company`. An admin sets their own company's; the platform owner any company's.
 */
export const updateCompanySchedules = async (
  auth: AuthContext,
  companyId: number,
  schedules: ScheduleEntry[],
): Promise<{ id: number; schedules: ScheduleEntry[] }> => {
  const id = await companyFor(auth, companyId);
  const stored = await setCompanySetting(id, 'schedules', schedules);
  return { id, schedules: companySchedulesOf(stored) };
};

export const columnSchema = z.enum(COLUMN_NAMES as [CompanySettingColumn, ...CompanySettingColumn[]], {
  error: 'unknown setting column',
});

export const getCompanySettingOne = async (
  auth: AuthContext,
  column: CompanySettingColumn,
): Promise<Partial<CompanySettings>> => {
  const settings = withDefaults(await getCompanySettingsItem(auth.companyId));
  return { [column]: settings[column] };
};

export const updateCompanySetting = async (
  auth: AuthContext,
  column: CompanySettingColumn,
  data: unknown,
): Promise<CompanySettings> => {
  const parsed = COMPANY_SETTING_COLUMNS[column].schema.safeParse(data);
  if (!parsed.success) {
    throw new BadRequest('ERR_VALIDATION', 'Invalid setting value', [
      { field: 'body.data', reason: parsed.error.issues[0]?.message ?? 'invalid value' },
    ]);
  }
  const current = withDefaults(await getCompanySettingsItem(auth.companyId));
  const next = { ...current, [column]: parsed.data };
  for (const rule of REQUIRED_TEXT) {
    if (
      (rule.when === column || rule.text === column) &&
      next[rule.when] === rule.is &&
      String(next[rule.text]).trim() === ''
    ) {
      throw new BadRequest('ERR_VALIDATION', `${rule.text} is required while ${rule.when} is ${rule.is}`, [
        { field: 'body.data', reason: `${rule.text} is required while ${rule.when} is ${rule.is}` },
      ]);
    }
  }
  return withDefaults(await setCompanySetting(auth.companyId, column, parsed.data));
};

// ------------------------------------------------------------------- what automation reads, once a scope

/** The settings the inbound routing reads. */
export interface RoutingSettings {
  scheduleType: string;
  sendGreetingMessageOneQueues: string;
  /** The company's working hours (scheduleType `company`). */
  schedules: ScheduleEntry[];
  /** LGPD consent, landing in a queue (decisions D93). */
  enableLGPD: string;
  lgpdMessage: string;
  lgpdLink: string;
  userRandom: string;
  DirectTicketsToWallets: boolean;
  sendQueuePosition: string;
  sendQueuePositionMessage: string;
  /** How bot menus are drawn where the channel can (text, list, button; decisions D132). */
  chatBotType: string;
}

const settingOf = (stored: Record<string, unknown>, column: CompanySettingColumn): string =>
  String(stored[column] ?? COMPANY_SETTING_COLUMNS[column].default);

/** The company's IANA time zone (DESIGN §10: every hour and day is computed in it). */
export const companyTimeZone = (scope: ReadScope, companyId: number): Promise<string> =>
  scope.memo(`timezone:${companyId}`, async () => {
    const zone = (await scope.settingsItem(companyId)).timezone;
    return typeof zone === 'string' && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
  });

export const routingSettings = (scope: ReadScope, companyId: number): Promise<RoutingSettings> =>
  scope.memo(`settings:${companyId}`, async () => {
    const stored = await scope.settingsItem(companyId);
    return {
      scheduleType: settingOf(stored, 'scheduleType'),
      sendGreetingMessageOneQueues: settingOf(stored, 'sendGreetingMessageOneQueues'),
      schedules: companySchedulesOf(stored),
      enableLGPD: settingOf(stored, 'enableLGPD'),
      lgpdMessage: settingOf(stored, 'lgpdMessage'),
      lgpdLink: settingOf(stored, 'lgpdLink'),
      userRandom: settingOf(stored, 'userRandom'),
      DirectTicketsToWallets: (stored.DirectTicketsToWallets ?? false) === true,
      sendQueuePosition: settingOf(stored, 'sendQueuePosition'),
      sendQueuePositionMessage: settingOf(stored, 'sendQueuePositionMessage'),
      chatBotType: settingOf(stored, 'chatBotType'),
    };
  });

/** LGPD: whether plain users see contact numbers masked (company setting `lgpdHideNumber`, D42). */
export const hidesNumbers = (scope: ReadScope, companyId: number): Promise<boolean> =>
  scope.memo(
    `hideNumbers:${companyId}`,
    async () => settingOf(await scope.settingsItem(companyId), 'lgpdHideNumber') === 'enabled',
  );
