import * as z from 'zod';

/**
 * Campaigns on the wire (administration §2 Campaigns, §3 Campaign, §4 statuses and editability, §5, §7
 * Campaigns, §9; data-model §2.22, §3.9; decisions D133–D136): the view the server answers and sends on
 * `company-{id}-campaign`, the report, and the bodies functions/http/campaigns accepts. Shared by the
 * handlers, functions/core/campaigns and frontend/src/api/campaigns.ts.
 */
export const CAMPAIGN_STATUSES = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Administration §9: five messages and five confirmation messages. */
export const CAMPAIGN_VARIANTS = 5;
export const MESSAGE_FIELDS = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;
export const CONFIRMATION_FIELDS = [
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
] as const;

/** The progress counters, kept as the work happens (decisions D133, D134). */
export interface CampaignCounters {
  /** Shipments made from the audience (one per distinct number). */
  validContacts: number;
  /** Shipments whose first send is over (sent or failed): the campaign is FINALIZADA when this reaches validContacts. */
  done: number;
  /** Campaign messages handed to the connection. */
  delivered: number;
  /** Shipments that failed (bad number, number not on WhatsApp, send refused). */
  failed: number;
  confirmationRequested: number;
  confirmed: number;
  /** Campaign messages read on the phone (ack read or played). */
  read: number;
  /** Contacts who wrote back after the campaign reached them. */
  replied: number;
}

export interface CampaignView extends CampaignCounters {
  id: number;
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  status: CampaignStatus;
  confirmation: boolean;
  /** ISO UTC; null while INATIVA without a date. */
  scheduledAt: string | null;
  completedAt: string | null;
  contactListId: number | null;
  contactList: { id: number; name: string } | null;
  tagListId: number | null;
  whatsappId: number;
  whatsapp: { id: number; name: string } | null;
  userId: number | null;
  queueId: number | null;
  statusTicket: 'closed' | 'pending' | 'open';
  openTicket: 'enabled' | 'disabled';
  companyId: number;
  /** The attachment's URL (media store), sent with the campaign message. */
  mediaPath: string | null;
  mediaName: string | null;
  /** Why the campaign stopped by itself (its connection was deleted), if it did. */
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /campaigns: one page by id, newest first, or by name prefix. */
export interface CampaignPage {
  records: CampaignView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** One message variant's figures in the report. */
export interface CampaignVariantReport {
  /** 1..5: message{n} (and confirmationMessage{n}). */
  variant: number;
  /** Shipments that drew this variant. */
  contacts: number;
  delivered: number;
  read: number;
  replied: number;
}

/** GET /campaigns/{id}/report (decisions D134). */
export interface CampaignReportView {
  campaign: CampaignView;
  variants: CampaignVariantReport[];
}

const text = z.string().max(4096, 'Too Long!');
const idOrNull = z.union([z.coerce.number().int().positive(), z.null(), z.literal('').transform(() => null)]);
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

const fields = {
  /** Administration §5: 2 to 50 characters, required. */
  name: z.string({ error: 'Required' }).trim().min(1, 'Required').min(2, 'Too Short!').max(50, 'Too Long!'),
  message1: text.optional(),
  message2: text.optional(),
  message3: text.optional(),
  message4: text.optional(),
  message5: text.optional(),
  confirmationMessage1: text.optional(),
  confirmationMessage2: text.optional(),
  confirmationMessage3: text.optional(),
  confirmationMessage4: text.optional(),
  confirmationMessage5: text.optional(),
  confirmation: flag.optional(),
  /**
   * `YYYY-MM-DD HH:mm:ss` (the spec's saved form) or `YYYY-MM-DDTHH:mm` on the company's clock, or an ISO
   * instant with its offset; empty or null: no date (INATIVA).
   */
  scheduledAt: z.union([z.string().trim().max(40), z.null()]).optional(),
  contactListId: idOrNull.optional(),
  tagListId: idOrNull.optional(),
  /** Administration §5: a WhatsApp connection is required. */
  whatsappId: z.coerce.number({ error: 'Required' }).int().positive('Required'),
  userId: idOrNull.optional(),
  queueId: idOrNull.optional(),
  statusTicket: z.enum(['closed', 'pending', 'open']).optional(),
  openTicket: z.enum(['enabled', 'disabled']).optional(),
  // The spec's form sends these too; the tenant comes from the token, the status from the server.
  companyId: z.unknown().optional(),
  status: z.unknown().optional(),
};

/** POST /campaigns. */
export const createCampaignBody = z.object(fields);
export type CreateCampaignBody = z.input<typeof createCampaignBody>;

/** PUT /campaigns/{id}: the fields sent change. */
export const updateCampaignBody = z.object({
  ...fields,
  name: fields.name.optional(),
  whatsappId: fields.whatsappId.optional(),
});
export type UpdateCampaignBody = z.input<typeof updateCampaignBody>;
