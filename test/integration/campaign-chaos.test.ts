import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  SEND_LEASE_MS,
  sendShipment,
  type SendOutcome,
  type SendPoint,
} from '../../functions/core/campaigns/campaign-dispatch';
import { getShipment } from '../../functions/data/campaign-repository';
import { getLease, markWorkerDead } from '../../functions/data/wa-lease-repository';
import {
  allReceived,
  connectedConnection,
  customerNumber,
  listWith,
  numberOf,
  setUp,
  untilStatus,
} from '../helpers/campaign-world';
import { waitFor } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';

/**
 * Campaigns under crashes (issue 16 item 11; DESIGN §10 "exactly once by key, not by luck"): while a paced
 * campaign runs through the local cloud, the WhatsApp worker holding its connection is killed (declared
 * dead: it drops its sessions at once and another takes the lease) and campaign send jobs die at random
 * points — after the claim, after the ticket, after the message was posted, after the shipment was
 * recorded — ten times in all. Each dead send is redelivered once its claim has expired (as SQS does after
 * the visibility timeout). Every number must get its message exactly once and the campaign must finish.
 */
let t: TestCompany;
let whatsappId: number;

const POINTS: SendPoint[] = ['claimed', 'ticket', 'posted', 'recorded'];
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await freshCompany();
  whatsappId = await connectedConnection(t, 'Caos');
  // One second between sends, so the run lasts long enough to be hit mid-way.
  await setUp(t, { messageInterval: 1, longerIntervalAfter: 0, greaterInterval: 0 });
}, 180_000);

describe('a campaign whose worker and send jobs are killed at random points', () => {
  it('10 kills → every number gets its message exactly once, and the campaign ends FINALIZADA', async () => {
    const tag = randomUUID().slice(0, 6);
    const rows = Array.from({ length: 40 }, (_, i) => ({ name: `Pessoa ${i}`, number: customerNumber() }));
    const list = await listWith(t, rows);
    const created = await api(t.adminToken).post('/campaigns', {
      name: `Caos ${tag}`,
      message1: `${tag}: Olá {nome}`,
      contactListId: list.id,
      whatsappId,
      scheduledAt: new Date().toISOString(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const fenceBefore = (await getLease(t.company.id, whatsappId))!.fence;

    let workerKills = 0;
    // A holder already declared dead whose connection is not taken over yet is not killed twice (a second
    // kill of it would change no hands, and the fence check below counts hand-overs).
    const killed = new Set<string>();
    const crashed: { number: string; point: SendPoint; outcome: SendOutcome | 'crashed' }[] = [];
    for (let kill = 0; kill < 10; kill += 1) {
      await pause(1_000 + Math.random() * 2_000);
      // Alternate at random, with at least three of each.
      const killWorker = workerKills < 3 ? true : kill - workerKills < 3 ? false : Math.random() < 0.5;
      if (killWorker) {
        const lease = await getLease(t.company.id, whatsappId);
        if (lease?.holder && !killed.has(lease.holder)) {
          killed.add(lease.holder);
          await markWorkerDead(lease.holder);
          workerKills += 1;
        }
        continue;
      }
      // A send job dies at a random point on a number still waiting (if the real job took it first, the
      // claim refuses this one: that is a redelivery arriving while the first run is alive).
      const waiting: string[] = [];
      for (const r of rows) {
        const s = await getShipment(t.company.id, id, r.number);
        if (!s || s.status === 'PENDING') waiting.push(r.number);
      }
      const number = waiting.length > 0 ? pick(waiting) : pick(rows).number;
      const point = pick(POINTS);
      const outcome = await sendShipment(t.company.id, id, number, new Date(), {
        at: (p) => {
          if (p === point) throw new Error(`injected crash at ${p}`);
        },
      }).catch((err: Error) => {
        expect(err.message).toBe(`injected crash at ${point}`);
        return 'crashed' as const;
      });
      crashed.push({ number, point, outcome });
    }
    expect(workerKills).toBeGreaterThanOrEqual(3);
    expect(crashed.length).toBeGreaterThanOrEqual(3);

    // The dead sends come back once their claims have expired (SQS redelivery after the visibility timeout).
    const later = () => new Date(Date.now() + SEND_LEASE_MS + 1_000);
    for (const c of crashed.filter((x) => x.outcome === 'crashed')) {
      const again = await sendShipment(t.company.id, id, c.number, later());
      expect(['delivered', 'duplicate'], `${c.number} after a crash at ${c.point}`).toContain(again);
    }

    const done = await untilStatus(t, id, 'FINALIZADA', 240_000);
    expect(done).toMatchObject({ validContacts: 40, done: 40, delivered: 40, failed: 0 });

    // Exactly once on every phone: one message per number, never a second id for the same shipment.
    const mine = await waitFor(
      async () => (await allReceived(t, whatsappId)).filter((m) => (m.body ?? '').startsWith(`${tag}:`)),
      (ms) => new Set(ms.map(numberOf)).size >= 40,
      { what: 'every phone to receive its message', timeoutMs: 60_000, intervalMs: 1000 },
    );
    const byNumber = new Map<string, string[]>();
    for (const m of mine) byNumber.set(numberOf(m), [...(byNumber.get(numberOf(m)) ?? []), m.body ?? '']);
    expect(byNumber.size).toBe(40);
    for (const [i, r] of rows.entries()) expect(byNumber.get(r.number), r.number).toEqual([`${tag}: Olá Pessoa ${i}`]);
    // The worker really changed hands each time it was killed.
    expect((await getLease(t.company.id, whatsappId))!.fence).toBeGreaterThanOrEqual(fenceBefore + workerKills);
  }, 420_000);
});
