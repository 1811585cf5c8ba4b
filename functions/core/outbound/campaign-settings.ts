import * as z from 'zod';
import type { CampaignSettingsView } from '../../contracts/campaign-settings';
import { getCampaignSettingsItem, putCampaignSettingsItem } from '../../data/campaign-settings-repository';
import type { AuthContext } from '../../shared/auth-context';
import { ValidationError } from '../../shared/errors';

/**
 * Campaign settings (administration §3 "Campaign setting keys", §9 defaults and bounds; decisions D117):
 * the pacing every automatic send on a connection follows (the send governor), the campaigns' allowed hours
 * and days, and our `dailyLimit` per connection. Intervals are SECONDS everywhere — on the wire, in storage
 * and in the governor's arithmetic — so there is no second/millisecond mix-up to make.
 */
export const CAMPAIGN_SETTINGS_DEFAULTS: CampaignSettingsView = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
  sabado: false,
  domingo: false,
  startHour: '09:00',
  endHour: '18:00',
  dailyLimit: 1000,
};

/** The bounds of the hour fields (§9: "the fields show 08:00 and 19:00 as bounds"). */
export const HOURS_MIN = '08:00';
export const HOURS_MAX = '19:00';

const storedSchema = z.object({
  messageInterval: z.number().int().min(0).max(120).catch(CAMPAIGN_SETTINGS_DEFAULTS.messageInterval),
  longerIntervalAfter: z.number().int().min(0).max(60).catch(CAMPAIGN_SETTINGS_DEFAULTS.longerIntervalAfter),
  greaterInterval: z.number().int().min(0).max(180).catch(CAMPAIGN_SETTINGS_DEFAULTS.greaterInterval),
  variables: z.array(z.object({ key: z.string(), value: z.string() })).catch([]),
  sabado: z.boolean().catch(false),
  domingo: z.boolean().catch(false),
  startHour: z.string().catch(CAMPAIGN_SETTINGS_DEFAULTS.startHour),
  endHour: z.string().catch(CAMPAIGN_SETTINGS_DEFAULTS.endHour),
  dailyLimit: z.number().int().min(1).catch(CAMPAIGN_SETTINGS_DEFAULTS.dailyLimit),
});

export const readCampaignSettings = async (companyId: number): Promise<CampaignSettingsView> =>
  storedSchema.parse({ ...CAMPAIGN_SETTINGS_DEFAULTS, ...(await getCampaignSettingsItem(companyId)) });

/** `HH:mm` → minutes of the day. */
export const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
};

export const getCompanyCampaignSettings = (auth: AuthContext): Promise<CampaignSettingsView> =>
  readCampaignSettings(auth.companyId);

/** POST /campaign-settings {settings}: the keys sent change (already validated by the contract). */
export const saveCompanyCampaignSettings = async (
  auth: AuthContext,
  changes: Partial<CampaignSettingsView>,
): Promise<CampaignSettingsView> => {
  const current = await readCampaignSettings(auth.companyId);
  const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  if (next.startHour >= next.endHour) {
    throw new ValidationError([{ field: 'body.settings.endHour', reason: 'must be later than startHour' }]);
  }
  await putCampaignSettingsItem(auth.companyId, next);
  return next;
};
