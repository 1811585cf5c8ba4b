/**
 * Ticket wire vocabulary (core spec §3 Ticket, §4 statuses): shared by the server and the browser.
 */
export const TICKET_STATUSES = ['open', 'pending', 'closed', 'group', 'lgpd', 'nps'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
