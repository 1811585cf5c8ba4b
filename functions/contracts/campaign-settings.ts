import * as z from 'zod';

/**
 * Campaign settings on the wire (administration §3 "Campaign setting keys", §7 `GET and POST
 * /campaign-settings (body settings)`, §9 defaults and bounds; decisions D117). Intervals in seconds.
 */
export interface CampaignSettingsView {
  /** Seconds between two automatic sends on a connection (0–120). */
  messageInterval: number;
  /** After this many sends, one longer pause (0–60; 0: never). */
  longerIntervalAfter: number;
  /** The longer pause, seconds (0–180). */
  greaterInterval: number;
  /** Custom variables for campaign texts. */
  variables: { key: string; value: string }[];
  /** Campaigns may send on Saturdays / Sundays. */
  sabado: boolean;
  domingo: boolean;
  /** Campaigns' allowed hours, `HH:mm` on the company's clock, bounds 08:00–19:00. */
  startHour: string;
  endHour: string;
  /** Ours: most automatic sends per connection per day on the company's clock. */
  dailyLimit: number;
}

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:mm');
const int = (min: number, max: number) =>
  z.coerce.number({ error: 'a number' }).int('a whole number').min(min, `at least ${min}`).max(max, `at most ${max}`);
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** POST /campaign-settings: `{settings: {...}}`, every key optional; hours within 08:00–19:00, start < end. */
export const saveCampaignSettingsBody = z.object({
  settings: z
    .object({
      messageInterval: int(0, 120).optional(),
      longerIntervalAfter: int(0, 60).optional(),
      greaterInterval: int(0, 180).optional(),
      variables: z
        .array(z.object({ key: z.string().trim().min(1).max(50), value: z.string().max(1000) }))
        .max(50)
        .optional(),
      sabado: flag.optional(),
      domingo: flag.optional(),
      startHour: hhmm.refine((v) => v >= '08:00' && v <= '19:00', 'between 08:00 and 19:00').optional(),
      endHour: hhmm.refine((v) => v >= '08:00' && v <= '19:00', 'between 08:00 and 19:00').optional(),
      dailyLimit: int(1, 100_000).optional(),
    })
    .strict(),
});
export type SaveCampaignSettingsBody = z.input<typeof saveCampaignSettingsBody>;
