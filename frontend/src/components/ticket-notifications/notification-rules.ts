import type { AuthUser } from '@/api/auth';
import type { Message } from '@/api/messages';
import type { Ticket } from '@/api/tickets';

/**
 * Core spec §4 Listing: a notification popup only for a message not from me, unread, in a ticket that is
 * unassigned or mine, in one of my queues (or without a queue when allTicket is enabled), not in the
 * statuses pending, lgpd, nps or group unless allowed (pending with showNotificationPending; group with the
 * connection's groupAsTicket enabled and allowGroup), and not for the ticket the user is looking at.
 */
export const shouldNotify = (
  message: Pick<Message, 'fromMe' | 'read' | 'isPrivate'>,
  ticket: Pick<Ticket, 'uuid' | 'userId' | 'queueId' | 'status' | 'whatsapp'>,
  user: Pick<AuthUser, 'id' | 'queues' | 'allTicket' | 'allowGroup'>,
  {
    showNotificationPending,
    visibleTicketUuid,
  }: { showNotificationPending: boolean; visibleTicketUuid: string | null },
): boolean => {
  if (message.fromMe || message.read || message.isPrivate) return false;
  if (ticket.userId !== null && ticket.userId !== user.id) return false;
  const myQueue =
    ticket.queueId === null ? user.allTicket === 'enable' : user.queues.some((q) => q.id === ticket.queueId);
  if (!myQueue) return false;
  if (ticket.status === 'lgpd' || ticket.status === 'nps') return false;
  if (ticket.status === 'pending' && !showNotificationPending) return false;
  if (ticket.status === 'group' && !(ticket.whatsapp?.groupAsTicket === 'enabled' && user.allowGroup)) return false;
  if (ticket.uuid === visibleTicketUuid) return false;
  return true;
};

/** Core spec §9: the title shows the unread count as a symbol up to 20 (①…⑳), else the number in parentheses. */
export const titleWithUnread = (title: string, unread: number): string => {
  if (unread <= 0) return title;
  const mark = unread <= 20 ? String.fromCodePoint(0x2460 + unread - 1) : `(${unread})`;
  return `${mark} ${title}`;
};
