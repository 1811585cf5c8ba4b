import * as z from 'zod';
import { buildPixPayload, normalisePixKey, PIX_KEY_TYPES } from './pix-payload';

/**
 * The composer's interactive messages (core spec §2 "interactive buttons (list, URL, copy, call-me, PIX)",
 * §5 validation; decisions D52): what each call takes, and what is stored — `dataJson` with everything the
 * app needs to draw the buttons, and a plain-text `body` that is what the customer receives where the
 * channel shows no buttons (WhatsApp through the worker sends text; the PIX text is the "copia e cola"
 * code itself, so the customer can always pay).
 */
const text = (max: number, required: string) => z.string({ error: required }).trim().min(1, required).max(max);
const optionalText = (max: number) => z.string().trim().max(max).optional();

export const listSchema = z.object({
  /** The saved list's title (spec: "A saved title must be chosen in the list dialog"). */
  title: text(60, 'Required: choose a saved list title'),
  body: text(1024, 'Required: the message text'),
  buttonText: optionalText(20),
  footer: optionalText(60),
  sections: z
    .array(
      z.object({
        title: optionalText(24),
        rows: z
          .array(
            z.object({
              id: optionalText(200),
              title: text(24, 'Required: the option title'),
              description: optionalText(72),
            }),
          )
          .min(1, 'a section needs at least one option')
          .max(10),
      }),
      { error: 'Required: the list sections' },
    )
    .min(1, 'a list needs at least one section')
    .max(10)
    .refine((s) => s.reduce((n, section) => n + section.rows.length, 0) <= 10, 'a list has at most 10 options'),
});

export const copySchema = z.object({
  body: optionalText(1024),
  title: optionalText(60),
  /** What the button copies (spec: "copy button without content shows a message"). */
  copyCode: text(200, 'Required: the text to copy'),
});

export const callSchema = z.object({
  body: optionalText(1024),
  title: optionalText(60),
  phoneNumber: z
    .string({ error: 'Required: the number to call' })
    .trim()
    .transform((v) => v.replace(/[\s()+-]/g, ''))
    .pipe(z.string().regex(/^\d{8,15}$/, 'must be a phone number: country code, area code, number')),
});

export const urlSchema = z.object({
  body: optionalText(1024),
  title: optionalText(60),
  url: z
    .string({ error: 'Required: the link' })
    .trim()
    .min(1, 'Required: the link')
    .max(2000)
    .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), 'must be an http(s) link'),
});

/** The amount as the app sends it: a number, or text with a comma or a dot as the decimal separator. */
const amount = z
  .union([z.number(), z.string().trim().min(1)], { error: 'Required: the amount' })
  .transform((v, ctx) => {
    const n = typeof v === 'number' ? v : Number(v.replace(/\.(?=\d{3}(\D|$))/g, '').replace(',', '.'));
    if (!Number.isFinite(n) || n <= 0 || n > 999_999_999.99) {
      ctx.addIssue({ code: 'custom', message: 'must be an amount above 0' });
      return z.NEVER;
    }
    return Math.round(n * 100) / 100;
  });

export const pixSchema = z
  .object({
    title: optionalText(60),
    sendvalue: amount,
    sendkey_type: z.enum(PIX_KEY_TYPES, { error: `must be one of ${PIX_KEY_TYPES.join(', ')}` }),
    sendmerchant_name: text(100, 'Required: the receiver’s name'),
    sendKey: text(100, 'Required: the PIX key'),
    sendmerchant_city: optionalText(60),
  })
  .transform((v, ctx) => {
    const normalised = normalisePixKey(v.sendkey_type, v.sendKey);
    if ('reason' in normalised) {
      ctx.addIssue({ code: 'custom', path: ['sendKey'], message: normalised.reason });
      return z.NEVER;
    }
    return { ...v, sendKey: normalised.key };
  });

export type InteractiveKind = 'list' | 'copy' | 'call' | 'url' | 'pix';

export interface InteractiveContent {
  body: string;
  mediaType: 'list' | 'interactive';
  dataJson: string;
}

const lines = (...parts: (string | undefined)[]) => parts.filter((p) => p && p.trim() !== '').join('\n');

/** Default PIX city when the app sends none (the field is mandatory in the BR Code). */
export const DEFAULT_PIX_CITY = 'SAO PAULO';

export const listContent = (v: z.infer<typeof listSchema>): InteractiveContent => {
  const options = v.sections.flatMap((s) => s.rows.map((r) => r.title));
  return {
    body: lines(`*${v.title}*`, v.body, '', ...options.map((o, i) => `${i + 1}. ${o}`), v.footer),
    mediaType: 'list',
    dataJson: JSON.stringify({ type: 'list', ...v, buttonText: v.buttonText ?? 'Ver opções' }),
  };
};

export const copyContent = (v: z.infer<typeof copySchema>): InteractiveContent => ({
  body: lines(v.title && `*${v.title}*`, v.body, v.copyCode),
  mediaType: 'interactive',
  dataJson: JSON.stringify({ type: 'copy', ...v }),
});

export const callContent = (v: z.infer<typeof callSchema>): InteractiveContent => ({
  body: lines(v.title && `*${v.title}*`, v.body, `+${v.phoneNumber}`),
  mediaType: 'interactive',
  dataJson: JSON.stringify({ type: 'call', ...v }),
});

export const urlContent = (v: z.infer<typeof urlSchema>): InteractiveContent => ({
  body: lines(v.title && `*${v.title}*`, v.body, v.url),
  mediaType: 'interactive',
  dataJson: JSON.stringify({ type: 'url', ...v }),
});

export const pixContent = (v: z.infer<typeof pixSchema>): InteractiveContent => {
  const payload = buildPixPayload({
    key: v.sendKey,
    merchantName: v.sendmerchant_name,
    merchantCity: v.sendmerchant_city ?? DEFAULT_PIX_CITY,
    amount: v.sendvalue,
  });
  return {
    // The customer gets the code itself: pasting it in any bank app pays.
    body: payload,
    mediaType: 'interactive',
    dataJson: JSON.stringify({
      type: 'pix',
      title: v.title ?? '',
      sendvalue: v.sendvalue,
      sendkey_type: v.sendkey_type,
      sendmerchant_name: v.sendmerchant_name,
      sendKey: v.sendKey,
      payload,
    }),
  };
};
