import { createContact } from '../../functions/data/contact-repository';
import { company, pad } from '../../functions/data/keys';
import { createTag } from '../../functions/data/tag-repository';
import { ticketTagKeys, ticketTagPartition } from '../../functions/data/ticket-tag-repository';
import type { Benchmark } from '../benchmark';
import { markdownTable, ms } from '../stats';
import { batchWrite, FIRST_DAY, LAST_DAY, tenant, timeRequests } from './dashboard';

/**
 * `GET /api/ticket/kanban` for the same 30-day range at a company with 1 000 and one with 100 000 open
 * tickets in it (issue 15 item 12; decisions D101): three lanes holding a tenth of the tickets each, the rest
 * in the default lane, so every lane is full at both sizes and both answers hold the same number of cards. The board reads at most LANE_LIMIT cards per lane and a bounded read budget for the
 * default lane, so its cost should not follow the company's size. Tickets, their TRACKING items and lane
 * links are written straight through BatchWrite (the seed is what limits the size); 200 real contacts are
 * shared by the tickets.
 */
const SIZES = [1_000, 100_000] as const;
const LANES = 3;
const CONTACTS = 200;
const MAX_RATIO = 1.2;
const DAYS = 30;

const seedBoard = async (companyId: number, size: number) => {
  const lanes = [];
  for (let l = 0; l < LANES; l += 1) {
    lanes.push(await createTag(companyId, { name: `Etapa ${l + 1}`, color: '#3366ff', kanban: 1 }));
  }
  const contactIds: number[] = [];
  for (let i = 0; i < CONTACTS; i += 1) {
    const number = `5511${String(900_000_000 + companyId * 1_000 + i)}`;
    const contact = await createContact(
      companyId,
      { name: `Cliente ${i}`, number, isGroup: false, channel: 'whatsapp', whatsappId: null },
      [`wa#${number}`],
    );
    contactIds.push(contact.id);
  }
  const start = Date.parse(`${FIRST_DAY}T03:00:00.000Z`);
  const span = DAYS * 86_400_000;
  const items: Record<string, unknown>[] = [];
  for (let id = 1; id <= size; id += 1) {
    const createdAt = new Date(start + Math.floor((id / size) * (span - 60_000))).toISOString();
    // Each lane holds a tenth of the tickets: full (≥ 100 cards) at both sizes, so both answer as many cards.
    const lane = id % 10 < LANES ? lanes[id % 10]! : null;
    const contactId = contactIds[id % CONTACTS]!;
    const pk = `${company(companyId)}#T#${pad(id)}`;
    items.push(
      {
        pk,
        sk: 'TICKET',
        type: 'TICKET',
        id,
        uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
        companyId,
        status: 'pending',
        queueId: null,
        userId: null,
        contactId,
        whatsappId: 1,
        channel: 'whatsapp',
        isGroup: false,
        isBot: false,
        lastMessage: 'Olá, quero um orçamento',
        unreadMessages: 1,
        tagIds: lane ? [lane.id] : [],
        ...(lane ? { kanbanTagId: lane.id } : {}),
        createdAt,
        updatedAt: createdAt,
        version: 1,
      },
      {
        pk,
        sk: 'TRACKING',
        type: 'TRACKING',
        gsi5pk: `${company(companyId)}#TCREATED`,
        gsi5sk: `${createdAt}#${pad(id)}`,
        companyId,
        ticketId: id,
        contactId,
        whatsappId: 1,
        queueId: null,
        userId: null,
        status: 'pending',
        origin: 'passive',
        isGroup: false,
        createdAt,
        statsDay: createdAt.slice(0, 10),
        statsHour: 0,
        ...(lane ? { kanbanTagId: lane.id } : {}),
      },
      ...(lane
        ? [
            {
              ...ticketTagKeys(companyId, id, lane.id),
              gsi5pk: ticketTagPartition(companyId, lane.id),
              gsi5sk: `${createdAt}#${pad(id)}`,
              type: 'TICKET_TAG',
              companyId,
              ticketId: id,
              tagId: lane.id,
              kanban: 1,
              enteredAt: createdAt,
            },
          ]
        : []),
    );
    if (items.length >= 2_000) await batchWrite(items.splice(0));
  }
  await batchWrite(items);
};

export const kanbanBoard: Benchmark = {
  name: 'kanban-board',
  description:
    '`GET /api/ticket/kanban` for the same 30-day range at 1 000 vs 100 000 open tickets (3 lanes, a tenth each).',
  goal: `p50 at 100 000 ÷ p50 at 1 000 ≤ ${MAX_RATIO}`,
  needsCloud: true,
  run: async (ctx) => {
    if (!ctx.cloud) throw new Error('kanban-board needs the local cloud');
    const results: { size: number; cards: number; p50: number; p95: number }[] = [];
    for (const size of SIZES) {
      ctx.log(`kanban-board: seeding ${size} tickets`);
      const t = await tenant(`kanban ${size}`);
      await seedBoard(t.companyId, size);
      const url = new URL('/api/ticket/kanban', ctx.cloud.gatewayUrl);
      url.searchParams.set('startDate', FIRST_DAY);
      url.searchParams.set('endDate', LAST_DAY);
      const r = await timeRequests(url.toString(), t.token);
      results.push({ size, cards: (r.body.tickets as unknown[]).length, p50: r.p50, p95: r.p95 });
    }
    const [small, big] = results as [(typeof results)[0], (typeof results)[0]];
    const ratio = big.p50 / small.p50;
    return {
      table: markdownTable(
        ['open tickets in range', 'cards answered', 'p50 ms', 'p95 ms'],
        results.map((r) => [r.size.toLocaleString('en'), String(r.cards), ms(r.p50), ms(r.p95)]),
        ['r', 'r', 'r', 'r'],
      ),
      goalMet: ratio <= MAX_RATIO,
      summary: `p50 ratio 100 000 / 1 000: ${ratio.toFixed(2)} (${ms(small.p50)} → ${ms(big.p50)} ms).`,
      notes:
        'Per request: the company’s kanban tags (one Query), one gsi5 Query per lane (≤ 100 cards) and the default ' +
        'lane’s Query of the creation index filtered on the lane (≤ 1 000 items examined), then BatchGets of the ' +
        'tickets and their contacts. Both companies answer 400 cards (100 per lane and 100 in the default lane).',
    };
  },
};
