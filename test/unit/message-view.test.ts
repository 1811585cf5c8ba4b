import { describe, expect, it } from 'vitest';
import { toMessageView } from '../../functions/core/tickets/ticket-views';
import type { StoredMessage } from '../../functions/data/message-repository';

/** A message as the inbound job stores it (decisions D33, D91). */
const stored = (overrides: Partial<StoredMessage> = {}): StoredMessage => ({
  ulid: '01JD0000000000000000000000',
  companyId: 7,
  ticketId: 42,
  contactId: 3,
  whatsappId: 5,
  body: 'Olá! Escolha uma fila.',
  fromMe: true,
  isPrivate: false,
  isDeleted: false,
  isEdited: false,
  isForwarded: false,
  mediaType: 'chat',
  queueId: null,
  ack: 1,
  createdAt: '2026-11-27T03:00:00.000Z',
  ...overrides,
});

describe('the message view on the wire (decisions D99)', () => {
  it.each(['greeting', 'outOfHours', 'vacation', 'chatBot'] as const)(
    "says an automatic reply (%s) is the system's, with no attendant",
    (automatic) => {
      const view = toMessageView(stored({ automatic, userId: null }));
      expect(view).toMatchObject({ id: '42-01JD0000000000000000000000', fromMe: true, automatic, userId: null });
    },
  );

  it('carries no `automatic` on what a person wrote: an attendant or the contact', () => {
    const attendant = toMessageView(stored({ userId: 9 }));
    const contact = toMessageView(stored({ fromMe: false, body: 'oi' }));
    expect('automatic' in attendant).toBe(false);
    expect(attendant.userId).toBe(9);
    expect('automatic' in contact).toBe(false);
  });
});
