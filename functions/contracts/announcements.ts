import * as z from 'zod';

/**
 * Announcements on the wire (administration spec "Announcements", §3 Announcement, §4 defaults, §5, §7;
 * decisions D144). Written by the platform owner, read by every company's users in the top bar.
 */
export interface AnnouncementView {
  id: number;
  title: string;
  text: string;
  /** 1 high (Alta), 2 medium (Média), 3 low (Baixa). */
  priority: 1 | 2 | 3;
  /** Active ones show in the top bar. */
  status: boolean;
  /** The image's URL under `/media`, or null. */
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /announcements: the owner's pages by title; everyone else the active ones, by priority then newest. */
export interface AnnouncementPage {
  records: AnnouncementView[];
  hasMore: boolean;
  count?: number;
  nextCursor?: string;
}

export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;

const title = z.string({ error: 'Required' }).trim().min(1, 'Required').max(200, 'At most 200 characters');
const text = z.string({ error: 'Required' }).trim().min(1, 'Required').max(5000, 'At most 5000 characters');
const priority = z.coerce
  .number({ error: 'Must be 1, 2 or 3' })
  .int('Must be 1, 2 or 3')
  .min(1, 'Must be 1, 2 or 3')
  .max(3, 'Must be 1, 2 or 3');
/** The spec's form sends the status as a boolean; "true"/"false" and "enabled"/"disabled" are taken too. */
const status = z.union([
  z.boolean(),
  z.enum(['true', 'false', 'enabled', 'disabled']).transform((s) => s === 'true' || s === 'enabled'),
]);

/** POST /announcements (defaults: priority 3, status active — administration §4). */
export const createAnnouncementBody = z.object({
  title,
  text,
  priority: priority.optional(),
  status: status.optional(),
  // The spec's form sends these; the image comes only through media-upload.
  mediaPath: z.unknown().optional(),
  mediaName: z.unknown().optional(),
  companyId: z.unknown().optional(),
});
/** PUT /announcements/{id}: only the fields sent change. */
export const updateAnnouncementBody = createAnnouncementBody.partial({ title: true, text: true });
