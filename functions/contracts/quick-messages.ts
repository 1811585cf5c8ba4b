import * as z from 'zod';

/**
 * Quick replies on the wire (administration spec "Quick replies", §3 QuickMessage, §5; core §7
 * `GET /quick-messages/list`; decisions D58–D59): the view the server answers and sends in
 * `quickemessage` events, and the bodies functions/http/quick-messages accepts. Shared by the handlers,
 * functions/core/quick-messages and frontend/src/api/quick-messages.ts.
 */
export interface QuickMessageView {
  id: number;
  shortcode: string;
  message: string;
  /** Shared with the whole company; otherwise only its owner sees it. */
  geral: boolean;
  /** A shared reply only its owner may change. */
  visao: boolean;
  status: boolean;
  userId: number;
  /** The attachment's URL under `/media`, or null. */
  mediaPath: string | null;
  mediaName: string | null;
  isMedia: boolean;
  createdAt: string;
  updatedAt: string;
}

/** GET /quick-messages: one page by shortcode. */
export interface QuickMessagePage {
  records: QuickMessageView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** Shortcode required (administration §5: 'Obrigatório'). */
const shortcode = z.string({ error: 'Obrigatório' }).trim().min(1, 'Obrigatório').max(100, 'Too Long!');
const fields = {
  message: z.string().max(10_000, 'Too Long!').optional(),
  geral: z.boolean().optional(),
  visao: z.boolean().optional(),
  status: z.boolean().optional(),
  // The spec's form sends these; the owner and the tenant always come from the token.
  userId: z.unknown().optional(),
  companyId: z.unknown().optional(),
};

/** POST /quick-messages. */
export const createQuickMessageBody = z.object({ shortcode, ...fields });
export type CreateQuickMessageBody = z.input<typeof createQuickMessageBody>;
/** PUT /quick-messages/{id}: only the fields sent change. */
export const updateQuickMessageBody = z.object({ shortcode: shortcode.optional(), ...fields });
export type UpdateQuickMessageBody = z.input<typeof updateQuickMessageBody>;
