import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { createContact } from '../../functions/data/contact-repository';
import { createQueue, type Queue } from '../../functions/data/queue-repository';
import { createTicket, type Ticket } from '../../functions/data/ticket-repository';
import { createUser, type User } from '../../functions/data/user-repository';
import { someConnection, type SocketEvent } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets, type TestSocket } from '../helpers/ws-client';

/**
 * The visibility matrix of core §6 (issue 5 item 10): who sees which ticket — in GET /tickets/u/{uuid}, in
 * the lists, and in the live `company-{id}-ticket` events. The expected table is written out here by hand
 * from the spec's rules, so it checks functions/core/tickets/visibility.ts rather than restating it.
 */
type Viewer = 'admin' | 'ana' | 'bia' | 'tito' | 'gabi' | 'uli';
type TicketName = 'pendingVendas' | 'pendingNoQueue' | 'openForOther' | 'group' | 'anasInSuporte';

/** Rows: viewers; ✓ = sees. */
const EXPECTED: Record<Viewer, TicketName[]> = {
  // Admins see every ticket of the company.
  admin: ['pendingVendas', 'pendingNoQueue', 'openForOther', 'group', 'anasInSuporte'],
  // Vendas member: its pending tickets, and her own ticket wherever it is.
  ana: ['pendingVendas', 'anasInSuporte'],
  // Suporte member without allUserChat: another user's ticket in her queue stays hidden.
  bia: [],
  // allTicket: also tickets without a queue.
  tito: ['pendingVendas', 'pendingNoQueue'],
  // allowGroup: also group tickets.
  gabi: ['pendingVendas', 'group'],
  // allUserChat: other users' tickets in his queues.
  uli: ['pendingVendas', 'openForOther'],
};

let t: TestCompany;
let outsider: TestCompany;
let vendas: Queue;
let suporte: Queue;
const tokens = new Map<Viewer, string>();
const users = new Map<Viewer, User>();
const tickets = new Map<TicketName, Ticket>();

const person = async (name: Viewer, queueIds: number[], flags: Record<string, unknown> = {}) => {
  const user = await createUser(t.company.id, {
    name,
    email: `${randomUUID()}@test.local`,
    passwordHash: 'x',
    profile: 'user',
    queueIds,
    ...flags,
  } as Parameters<typeof createUser>[1]);
  users.set(name, user);
  tokens.set(name, await signAccessToken({ companyId: t.company.id, userId: user.id, profile: 'user', super: false }));
};

const ticket = async (
  name: TicketName,
  fields: Pick<Ticket, 'status' | 'queueId' | 'userId' | 'isGroup'>,
  whatsappId: number,
) => {
  const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const contact = await createContact(
    t.company.id,
    { name: `Cliente ${name}`, number, isGroup: fields.isGroup, channel: 'whatsapp', whatsappId },
    [fields.isGroup ? `wa#g:${number}` : `wa#${number}`],
  );
  tickets.set(
    name,
    await createTicket(t.company.id, {
      ...fields,
      contactId: contact.id,
      whatsappId,
      channel: 'whatsapp',
      origin: 'passive',
    }),
  );
};

const nameOf = (id: unknown): TicketName | undefined => [...tickets].find(([, x]) => x.id === id)?.[0];
const sorted = (names: (TicketName | undefined)[]) => names.filter((n): n is TicketName => n !== undefined).sort();

beforeAll(async () => {
  t = await freshCompany();
  outsider = await freshCompany();
  vendas = await createQueue(t.company.id, { name: 'Vendas', color: '#111111' });
  suporte = await createQueue(t.company.id, { name: 'Suporte', color: '#222222' });
  tokens.set('admin', t.adminToken);
  users.set('admin', t.admin);
  await person('ana', [vendas.id]);
  await person('bia', [suporte.id]);
  await person('tito', [vendas.id], { allTicket: 'enable' });
  await person('gabi', [vendas.id], { allowGroup: true });
  await person('uli', [vendas.id], { allUserChat: 'enabled' });
  const { id: whatsappId } = await someConnection(t.company.id, { status: 'CONNECTED' });
  await ticket('pendingVendas', { status: 'pending', queueId: vendas.id, userId: null, isGroup: false }, whatsappId);
  await ticket('pendingNoQueue', { status: 'pending', queueId: null, userId: null, isGroup: false }, whatsappId);
  await ticket('openForOther', { status: 'open', queueId: vendas.id, userId: t.admin.id, isGroup: false }, whatsappId);
  await ticket('group', { status: 'group', queueId: null, userId: null, isGroup: true }, whatsappId);
  await ticket(
    'anasInSuporte',
    { status: 'open', queueId: suporte.id, userId: users.get('ana')!.id, isGroup: false },
    whatsappId,
  );
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const VIEWERS = Object.keys(EXPECTED) as Viewer[];

describe('ticket visibility matrix', () => {
  it.each(VIEWERS)(
    'GET /tickets/u/{uuid} as %s: 200 exactly for the tickets the rules allow, 403 otherwise',
    async (v) => {
      const seen: TicketName[] = [];
      for (const [name, x] of tickets) {
        const res = await api(tokens.get(v)).get(`/tickets/u/${x.uuid}`);
        expect([200, 403], `${v} → ${name}`).toContain(res.status);
        if (res.status === 200) seen.push(name);
      }
      expect(seen.sort()).toEqual([...EXPECTED[v]].sort());
    },
  );

  it.each(VIEWERS)('GET /tickets (every status, show-all asked) as %s lists the same tickets', async (v) => {
    const res = await api(tokens.get(v)).get('/tickets', {
      statusFilter: JSON.stringify(['open', 'pending', 'group']),
      showAll: 'true',
    });
    expect(res.status).toBe(200);
    expect(sorted(res.body.tickets.map((x: { id: number }) => nameOf(x.id)))).toEqual([...EXPECTED[v]].sort());
  });

  it('live ticket events reach exactly the sockets of those who may see the ticket, never another company', async () => {
    const url = (token: string) => `${inject('wsUrl')}?token=${token}`;
    const sockets = new Map<Viewer | 'outsider', TestSocket>();
    for (const v of VIEWERS) sockets.set(v, await connectSocket(url(tokens.get(v)!)));
    sockets.set('outsider', await connectSocket(url(outsider.adminToken)));
    // An admin's field update publishes `update` without moving the ticket anywhere.
    for (const [, x] of tickets) {
      const res = await api(t.adminToken).put(`/tickets/${x.id}`, { useIntegration: false });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    for (const [who, socket] of sockets) {
      // Events published before the answers came back arrive before the pong.
      socket.send({ action: 'ping' });
      const events: SocketEvent[] = [];
      for (;;) {
        const e = (await socket.next()) as SocketEvent;
        if (e.action === 'pong') break;
        events.push(e);
      }
      const updated = events
        .filter((e) => e.channel === `company-${t.company.id}-ticket` && e.action === 'update')
        .map((e) => nameOf((e.ticket as { id: number }).id));
      const expected = who === 'outsider' ? [] : EXPECTED[who];
      expect(sorted([...new Set(updated)]), String(who)).toEqual([...expected].sort());
      if (who === 'outsider') expect(events.filter((e) => String(e.channel).includes(`-${t.company.id}-`))).toEqual([]);
    }
  });
});
