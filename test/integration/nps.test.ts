import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { inboundEventSchema } from '../../functions/channels/inbound';
import { handleInboundEvent } from '../../functions/core/inbound/inbound-service';
import { ReadScope } from '../../functions/data/read-scope';
import { handleRatingReply } from '../../functions/core/tickets/nps';
import { updateConnection, type Connection } from '../../functions/data/connection-repository';
import { createContact, type Contact } from '../../functions/data/contact-repository';
import { listTicketMessages } from '../../functions/data/message-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { setCompanySetting } from '../../functions/data/settings-repository';
import { createTicket, getOpenTicketId, getTicket, type Ticket } from '../../functions/data/ticket-repository';
import { createUser } from '../../functions/data/user-repository';
import { runTicketTimers } from '../../functions/jobs/ticks/ticket-timers';
import { someConnection } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';

/**
 * Ratings (issue 5 item 2): resolving with the farewell while the company rates tickets sends the
 * connection's rating message and parks the ticket in `nps`; the contact's score closes it with the
 * rating; nonsense asks again until maxUseBotQueuesNPS; expiresTicketNPS closes an unanswered one.
 */
let t: TestCompany;
let connection: Connection;
let token: string;
let queueId: number;

const RATING = 'De 0 a 10, como foi o atendimento?';

beforeAll(async () => {
  t = await freshCompany();
  queueId = (await createQueue(t.company.id, { name: 'Vendas', color: '#123456' })).id;
  const made = await someConnection(t.company.id, { status: 'CONNECTED' });
  connection = (
    await updateConnection(made, {
      ratingMessage: RATING,
      complationMessage: 'Obrigado, até logo!',
      expiresTicketNPS: 5,
      maxUseBotQueuesNPS: 2,
    })
  ).connection;
  await setCompanySetting(t.company.id, 'userRating', 'enabled');
  const user = await createUser(t.company.id, {
    name: 'Ana',
    email: `${randomUUID()}@test.local`,
    passwordHash: 'x',
    profile: 'user',
    queueIds: [queueId],
  });
  token = await signAccessToken({ companyId: t.company.id, userId: user.id, profile: 'user', super: false });
});

const openTicket = async (): Promise<{ ticket: Ticket; contact: Contact }> => {
  const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const contact = await createContact(
    t.company.id,
    { name: 'Cliente', number, isGroup: false, channel: 'whatsapp', whatsappId: connection.id },
    [`wa#${number}`],
  );
  const created = await createTicket(t.company.id, {
    status: 'pending',
    queueId,
    userId: null,
    contactId: contact.id,
    whatsappId: connection.id,
    channel: 'whatsapp',
    isGroup: false,
    chatId: `${number}@s.whatsapp.net`,
    origin: 'passive',
  });
  await api(token).put(`/tickets/${created.id}`, { status: 'open' });
  return { ticket: (await getTicket(t.company.id, created.id))!, contact };
};

const bodies = async (ticketId: number) =>
  (await listTicketMessages(t.company.id, ticketId)).filter((m) => m.fromMe).map((m) => m.body);

describe('NPS', () => {
  it('resolve with farewell sends the rating message and waits in nps; a score closes it rated, then the goodbye', async () => {
    const { ticket, contact } = await openTicket();
    const res = await api(token).put(`/tickets/${ticket.id}`, { status: 'closed', sendFarewellMessage: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('nps');
    expect(await bodies(ticket.id)).toEqual([RATING]);
    // Still the contact's open ticket: their answer lands here.
    expect(await getOpenTicketId(t.company.id, contact.id, connection.id)).toBe(ticket.id);

    const waiting = (await getTicket(t.company.id, ticket.id))!;
    const done = await handleRatingReply(new ReadScope(), waiting, contact, connection, ' 9 ');
    expect(done).toMatchObject({ status: 'closed', userRating: 5 });
    expect((await getTicket(t.company.id, ticket.id))?.userRating).toBe(5);
    expect(await bodies(ticket.id)).toEqual([RATING, 'Obrigado, até logo!']);
    const log = await api(token).get(`/tickets-log/${ticket.id}`);
    expect(log.body.map((e: { type: string }) => e.type).slice(-1)).toEqual(['closed']);
  });

  it('an answer that is not a score asks again, up to maxUseBotQueuesNPS, then the ticket closes unrated', async () => {
    const { ticket, contact } = await openTicket();
    await api(token).put(`/tickets/${ticket.id}`, { status: 'closed', sendFarewellMessage: true });
    const scope = new ReadScope();
    const again = await handleRatingReply(
      scope,
      (await getTicket(t.company.id, ticket.id))!,
      contact,
      connection,
      'foi ótimo',
    );
    expect(again).toMatchObject({ status: 'nps', amountUsedBotQueues: 1 });
    expect(await bodies(ticket.id)).toEqual([RATING, RATING]);
    const gaveUp = await handleRatingReply(
      scope,
      (await getTicket(t.company.id, ticket.id))!,
      contact,
      connection,
      '11',
    );
    expect(gaveUp.status).toBe('closed');
    expect(gaveUp.userRating ?? null).toBeNull();
    expect(await bodies(ticket.id)).toEqual([RATING, RATING]);
  });

  it('resolve without the farewell closes at once, no rating asked', async () => {
    const { ticket } = await openTicket();
    const res = await api(token).put(`/tickets/${ticket.id}`, { status: 'closed', sendFarewellMessage: false });
    expect(res.body.status).toBe('closed');
    expect(await bodies(ticket.id)).toEqual([]);
  });

  it('expiresTicketNPS: the ticket-timers tick closes an unanswered ticket once its wait has passed', async () => {
    const { ticket } = await openTicket();
    await api(token).put(`/tickets/${ticket.id}`, { status: 'closed', sendFarewellMessage: true });
    await runTicketTimers(new Date(Date.now() + 60_000));
    expect((await getTicket(t.company.id, ticket.id))?.status).toBe('nps');
    await runTicketTimers(new Date(Date.now() + 6 * 60_000));
    expect((await getTicket(t.company.id, ticket.id))?.status).toBe('closed');
    expect(await bodies(ticket.id)).toEqual([RATING]);
  });

  it('through the inbound pipeline: the contact’s "10" closes the ticket rated; a redelivery changes nothing', async () => {
    const { ticket, contact } = await openTicket();
    await api(token).put(`/tickets/${ticket.id}`, { status: 'closed', sendFarewellMessage: true });
    const answer = inboundEventSchema.parse({
      kind: 'message',
      companyId: t.company.id,
      whatsappId: connection.id,
      chat: { id: `${contact.number}@s.whatsapp.net` },
      providerMessageId: `3EB0${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`,
      fromMe: false,
      timestamp: new Date().toISOString(),
      receivedAt: new Date().toISOString(),
      contact: { phone: contact.number, pushName: 'Cliente' },
      content: { type: 'text', body: '10' },
    });
    expect(await handleInboundEvent(answer, new ReadScope())).toBe('stored');
    expect(await getTicket(t.company.id, ticket.id)).toMatchObject({ status: 'closed', userRating: 5 });
    expect(await handleInboundEvent(answer, new ReadScope())).toBe('duplicate');
    expect(await bodies(ticket.id)).toEqual([RATING, 'Obrigado, até logo!']);
    expect(await getOpenTicketId(t.company.id, contact.id, connection.id)).toBeNull();
  });
});
