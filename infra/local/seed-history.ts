import { createConnection } from '../../functions/data/connection-repository';
import { createContact } from '../../functions/data/contact-repository';
import { createTicket, transitionTicket, type Ticket, type TicketChange } from '../../functions/data/ticket-repository';

/**
 * The demo company's past (README "Demo data"): a WhatsApp connection on the phone simulator, linked to its
 * queues, and two weeks of tickets worked by its attendants — created, waiting, accepted, transferred,
 * closed and rated at past times through the same repository writes the services use, so the dashboard,
 * the reports and the contacts show history the way real work leaves it (the day aggregates, the ticket
 * log, the per-user figures; decisions D108–D110). Times are spread over business hours in São Paulo.
 */
export interface DemoHistoryInput {
  companyId: number;
  queues: { vendas: number; suporte: number };
  /** Attendants by queue: who accepts a queue's tickets. */
  attendants: { vendas: number; suporte: number };
}

const CUSTOMERS = [
  'Mariana Lopes',
  'João Pereira',
  'Beatriz Costa',
  'Rafael Almeida',
  'Camila Ribeiro',
  'Lucas Fernandes',
  'Juliana Rocha',
  'Pedro Martins',
  'Larissa Gomes',
  'Thiago Carvalho',
  'Fernanda Dias',
  'Gustavo Araújo',
];

/** A deterministic spread (no randomness: the demo is the same on every start). */
const spread = (i: number, modulo: number) => (i * 7919) % modulo;

export const seedDemoHistory = async (
  input: DemoHistoryInput,
): Promise<{ whatsappId: number; contacts: { id: number; name: string; number: string }[] }> => {
  const { companyId, queues, attendants } = input;
  const { connection } = await createConnection(companyId, {
    name: 'WhatsApp Demo',
    channel: 'whatsapp',
    status: 'DISCONNECTED',
    queueIds: [queues.vendas, queues.suporte],
    greetingMessage: 'Olá! Bem-vindo à Demo Atendimento. Escolha o setor:',
  } as Parameters<typeof createConnection>[1]);
  const whatsappId = connection.id;

  const contacts = [];
  for (const [i, name] of CUSTOMERS.entries()) {
    const number = `55119${String(87_650_000 + i * 1_111).padStart(8, '0')}`;
    contacts.push(
      await createContact(companyId, { name, number, isGroup: false, channel: 'whatsapp', whatsappId }, [
        `wa#${number}`,
      ]),
    );
  }

  const move = (ticket: Ticket, change: Partial<TicketChange> & Pick<TicketChange, 'status'>, when: Date) =>
    transitionTicket(ticket, { userId: ticket.userId, queueId: ticket.queueId, logs: [], ...change }, when);

  const now = Date.now();
  const minute = 60_000;
  // 14 past days, 2–4 tickets a day; today's tickets stay waiting or in service.
  let n = 0;
  for (let daysAgo = 14; daysAgo >= 0; daysAgo -= 1) {
    const perDay = 2 + spread(daysAgo, 3);
    for (let k = 0; k < perDay; k += 1, n += 1) {
      const contact = contacts[n % contacts.length]!;
      const inSupport = n % 3 !== 0;
      const queueId = inSupport ? queues.suporte : queues.vendas;
      const userId = inSupport ? attendants.suporte : attendants.vendas;
      // Business hours in São Paulo (UTC−3): between 12:00Z and 20:00Z.
      const day = new Date(now - daysAgo * 24 * 60 * minute);
      day.setUTCHours(12 + spread(n, 8), spread(n * 3, 60), 0, 0);
      if (day.getTime() > now - 90 * minute) day.setTime(now - (90 + k * 20) * minute);
      const created = day.getTime();
      let ticket = await createTicket(
        companyId,
        {
          status: 'pending',
          queueId,
          userId: null,
          contactId: contact.id,
          whatsappId,
          channel: 'whatsapp',
          isGroup: false,
          origin: 'passive',
        },
        new Date(created),
      );
      if (daysAgo === 0 && k === 0) continue; // one still waiting today
      const accepted = created + (3 + spread(n, 25)) * minute;
      ticket = await move(ticket, { status: 'open', userId }, new Date(accepted));
      if (daysAgo === 0) continue; // today's others are in service
      const resolved = accepted + (10 + spread(n * 5, 50)) * minute;
      if (n % 4 === 0) {
        ticket = await move(ticket, { status: 'closed' }, new Date(resolved)); // closed unrated
      } else {
        ticket = await move(ticket, { status: 'nps' }, new Date(resolved));
        const score = [10, 9, 8, 10, 6, 9, 3][n % 7]!;
        await move(
          ticket,
          { status: 'closed', rating: score, fields: { userRating: Math.max(1, Math.round(score / 2)) } },
          new Date(resolved + 4 * minute),
        );
      }
    }
  }
  return { whatsappId, contacts };
};
