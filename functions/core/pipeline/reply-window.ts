import type { Ticket } from '../../data/ticket-repository';
import { Forbidden } from '../../shared/errors';

/**
 * Meta's reply window (core spec §8: "Facebook channels warn that replies are allowed for 24 h"; decisions
 * D40): on Messenger, Instagram and the WhatsApp Cloud API a business may answer freely only within 24 hours
 * of the customer's last message (later messages need message tags or templates, not supported). The
 * inbound pipeline stamps `lastInboundAt` on the ticket with each customer message; sends check it, and
 * ticket views can show `replyWindowEndsAt` so the composer warns before anyone types.
 */
export const META_REPLY_WINDOW_MS = 24 * 3600 * 1000;
const WINDOWED: ReadonlySet<string> = new Set(['facebook', 'instagram', 'whatsappapi']);

export const hasReplyWindow = (channel: string): boolean => WINDOWED.has(channel);

/** When the ticket's reply window closes (ISO), null for channels without one or before any customer message. */
export const replyWindowEndsAt = (ticket: Pick<Ticket, 'channel' | 'lastInboundAt'>): string | null => {
  if (!hasReplyWindow(ticket.channel) || !ticket.lastInboundAt) return null;
  const start = Date.parse(ticket.lastInboundAt);
  return Number.isNaN(start) ? null : new Date(start + META_REPLY_WINDOW_MS).toISOString();
};

export const isReplyWindowOpen = (ticket: Pick<Ticket, 'channel' | 'lastInboundAt'>, now = new Date()): boolean => {
  if (!hasReplyWindow(ticket.channel)) return true;
  const ends = replyWindowEndsAt(ticket);
  return ends !== null && Date.parse(ends) > now.getTime();
};

/** 403 ERR_META_WINDOW_CLOSED (with `details.replyWindowEndsAt`) when a Meta ticket may no longer be answered. */
export const assertReplyWindowOpen = (ticket: Pick<Ticket, 'channel' | 'lastInboundAt'>, now = new Date()): void => {
  if (isReplyWindowOpen(ticket, now)) return;
  throw new Forbidden(
    'ERR_META_WINDOW_CLOSED',
    'Meta allows replies only within 24 hours of the customer’s last message',
    {
      replyWindowEndsAt: replyWindowEndsAt(ticket),
    },
  );
};
