import * as z from 'zod';

/**
 * Help entries on the wire (core §3 Help entry, administration "Help", §3 Help item, §7; decisions D146):
 * a hosted video (its YouTube id) with a title and a description.
 */
export interface HelpView {
  id: number;
  title: string;
  description: string;
  /** The hosted video's id (YouTube). */
  video: string;
  createdAt: string;
  updatedAt: string;
}

/** GET /helps: every entry, oldest first (a short list the owner keeps). */
export interface HelpPage {
  records: HelpView[];
  hasMore: boolean;
}

/** At most this many entries exist (one small platform partition, read whole). */
export const MAX_HELPS = 200;

/**
 * The video: a YouTube id (11 characters of A–Z a–z 0–9 _ -), or a YouTube address holding one
 * (`watch?v=`, `youtu.be/`, `embed/`, `shorts/`), which is stored as the id.
 */
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
export const youtubeId = (value: string): string | null => {
  const v = value.trim();
  if (VIDEO_ID.test(v)) return v;
  const match =
    /(?:youtube(?:-nocookie)?\.com\/(?:watch\?(?:.*&)?v=|embed\/|shorts\/)|youtu\.be\/)([A-Za-z0-9_-]{11})/.exec(v);
  return match ? match[1]! : null;
};

const video = z
  .string({ error: 'Required' })
  .max(300, 'At most 300 characters')
  .transform((v, ctx) => {
    const id = youtubeId(v);
    if (!id) {
      ctx.addIssue({ code: 'custom', message: 'Must be a YouTube video id or address' });
      return z.NEVER;
    }
    return id;
  });
const title = z.string({ error: 'Required' }).trim().min(1, 'Required').max(200, 'At most 200 characters');
const description = z.string().trim().max(2000, 'At most 2000 characters');

/** POST /helps. */
export const createHelpBody = z.object({ title, video, description: description.optional() });
/** PUT /helps/{id}: only the fields sent change. */
export const updateHelpBody = z.object({
  title: title.optional(),
  video: video.optional(),
  description: description.optional(),
});
