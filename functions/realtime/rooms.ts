import * as z from 'zod';
import { TICKET_STATUSES, type TicketStatus } from '../contracts/tickets';

/**
 * The spec's socket emits (core §7, real time) and the rooms they join or leave. A room is an interest:
 * joining `ticket:42` asks for that ticket's message events, and the publisher still checks, per event,
 * whether the connection's user may see it (DESIGN §5). Room names are ours; channel names stay the spec's.
 */

export const NOTIFICATION_ROOM = 'notification';
export const statusRoom = (status: TicketStatus): string => `status:${status}`;
export const ticketRoom = (ticketId: number): string => `ticket:${ticketId}`;

const ticketId = z.coerce.number().int().positive();

/** Each room action's payload and the change it makes. */
export const ROOM_ACTIONS = {
  joinNotification: { schema: z.object({}), change: () => ({ join: [NOTIFICATION_ROOM] }) },
  leaveNotification: { schema: z.object({}), change: () => ({ leave: [NOTIFICATION_ROOM] }) },
  joinTickets: {
    schema: z.object({ status: z.enum(TICKET_STATUSES) }),
    change: (p: { status: TicketStatus }) => ({ join: [statusRoom(p.status)] }),
  },
  leaveTickets: {
    schema: z.object({ status: z.enum(TICKET_STATUSES) }),
    change: (p: { status: TicketStatus }) => ({ leave: [statusRoom(p.status)] }),
  },
  joinChatBox: {
    schema: z.object({ ticketId }),
    change: (p: { ticketId: number }) => ({ join: [ticketRoom(p.ticketId)] }),
  },
  leaveChatBox: {
    schema: z.object({ ticketId }),
    change: (p: { ticketId: number }) => ({ leave: [ticketRoom(p.ticketId)] }),
  },
} as const;

export type RoomAction = keyof typeof ROOM_ACTIONS;
