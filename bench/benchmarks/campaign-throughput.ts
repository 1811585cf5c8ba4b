import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { signAccessToken } from '../../functions/core/access-token';
import { getCampaign } from '../../functions/data/campaign-repository';
import { db } from '../../functions/data/client';
import { createCompany } from '../../functions/data/company-repository';
import { contactListCountMove, createContactList, putImportedItem } from '../../functions/data/contact-list-repository';
import { nextId } from '../../functions/data/counter-repository';
import { createPlan } from '../../functions/data/plan-repository';
import { listReceived } from '../../functions/data/simulator-phone-repository';
import { transactWrite } from '../../functions/data/transactions';
import { createUser } from '../../functions/data/user-repository';
import type { LocalCloud } from '../../infra/local/cloud';
import type { Benchmark, BenchContext } from '../benchmark';
import { markdownTable } from '../stats';

/**
 * Campaign throughput with pacing 0 (issue 16 item 13, second half; decisions D133, D135): one campaign to
 * CONTACTS numbers through the whole pipeline of the local cloud — the wave (shipments from the list,
 * a governor slot each), the `campaign` queue's sends (claim, contact, ticket, keyed message), the outbound
 * job, the connection's outbox and the WhatsApp worker (simulator) — until every message is on the
 * simulated phones. Figures: shipments per second until FINALIZADA, messages per second until the last one
 * reached its phone, and duplicates / missing numbers on the phones. Goal: ≥ 100 messages/s on this
 * machine. Run it alone: it loads both cores for minutes.
 */
const CONTACTS = Number(process.env.BENCH_CAMPAIGN_CONTACTS ?? 500);
const GOAL_RATE = 100;

interface Api {
  call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const apiFor = (cloud: LocalCloud, token: string): Api => ({
  call: async (method, path, body) => {
    const res = await fetch(`${cloud.gatewayUrl}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  },
});

const sleep = (msDelay: number) => new Promise((r) => setTimeout(r, msDelay));

const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
};

const connectedConnection = async (api: Api, name: string): Promise<number> => {
  const created = await api.call('POST', '/whatsapp', { name });
  if (created.status !== 200 && created.status !== 201) {
    throw new Error(`POST /whatsapp answered ${created.status}: ${JSON.stringify(created.body)}`);
  }
  const id = created.body.id as number;
  const statusOf = async () => (await api.call('GET', `/whatsapp/${id}`)).body?.status as string | undefined;
  await waitFor(`QR code of ${name}`, async () => ((await statusOf()) === 'qrcode' ? true : undefined));
  const scanned = await api.call('POST', `/simulator/${id}/scan`);
  if (scanned.status !== 200) throw new Error(`scan answered ${scanned.status}: ${JSON.stringify(scanned.body)}`);
  await waitFor(`${name} connected`, async () => ((await statusOf()) === 'CONNECTED' ? true : undefined));
  return id;
};

/** A zone where it is about noon now, so the campaigns' office hours (08:00–19:00) are open. */
const noonZone = (): string => {
  const offset = 12 - new Date().getUTCHours();
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
};

const expectOk = (what: string, res: { status: number; body: unknown }) => {
  if (res.status >= 300) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
};

export const campaignThroughput: Benchmark = {
  name: 'campaign-throughput',
  description: `One campaign to ${CONTACTS} numbers with pacing 0, through the whole pipeline to the simulated phones.`,
  goal: `≥ ${GOAL_RATE} messages/s on this machine, 0 duplicates, 0 missed`,
  needsCloud: false,
  run: async (ctx: BenchContext) => {
    const { startLocalCloud } = await import('../../infra/local/cloud');
    ctx.log('starting a local cloud with pollers and the WhatsApp worker (simulator)...');
    const cloud = await startLocalCloud({
      dataDir: join(ctx.workDir, 'cloud'),
      port: 0,
      inMemory: true,
      serveFrontend: false,
      pollers: true,
      ticks: false,
      quiet: true,
      logLevel: 'warn',
      whatsappDriver: 'simulator',
    });
    try {
      const plan = await createPlan({
        name: 'Bench campaigns',
        users: 10,
        connections: 5,
        queues: 10,
        amount: 0,
        isPublic: false,
        useWhatsapp: true,
        useFacebook: true,
        useInstagram: true,
        useCampaigns: true,
        useSchedules: true,
        useInternalChat: true,
        useExternalApi: true,
        useKanban: true,
        useOpenAi: true,
        useIntegrations: true,
      });
      const stamp = Date.now();
      const company = await createCompany({
        name: `Bench campaign ${stamp}`,
        email: `bench-campaign-${stamp}@bench.local`,
        phone: '',
        document: '',
        planId: plan.id,
        status: true,
        recurrence: 'MENSAL',
        dueDate: '2999-12-31',
      });
      const admin = await createUser(company.id, {
        name: 'Bench Admin',
        email: `admin-${company.id}-${stamp}@bench.local`,
        passwordHash: 'x',
        profile: 'admin',
      });
      const token = await signAccessToken(
        { companyId: company.id, userId: admin.id, profile: 'admin', super: false },
        3600,
      );
      const api = apiFor(cloud, token);
      ctx.log('creating and scanning a connection...');
      const whatsappId = await connectedConnection(api, 'Bench');
      expectOk('time zone', await api.call('PUT', '/companySettings', { column: 'timezone', data: noonZone() }));
      expectOk(
        'campaign settings',
        await api.call('POST', '/campaign-settings', {
          settings: {
            messageInterval: 0,
            longerIntervalAfter: 0,
            greaterInterval: 0,
            sabado: true,
            domingo: true,
            startHour: '08:00',
            endHour: '19:00',
            dailyLimit: 100_000,
          },
        }),
      );

      ctx.log(`a contact list of ${CONTACTS}...`);
      const list = await createContactList(company.id, 'Bench');
      const first = (await nextId(company.id, 'contactListItem', CONTACTS)) - CONTACTS + 1;
      const numbers = Array.from({ length: CONTACTS }, (_, i) => `5511${String(900_000_000 + i * 37)}`);
      for (let i = 0; i < CONTACTS; i += 25) {
        await Promise.all(
          numbers
            .slice(i, i + 25)
            .map((number, j) =>
              putImportedItem(
                company.id,
                { contactListId: list.id, name: `Pessoa ${i + j}`, number, email: '' },
                first + i + j,
              ),
            ),
        );
      }
      await transactWrite([contactListCountMove(company.id, list.id, CONTACTS)]);

      // Where the time goes: DynamoDB requests by command, their summed latency and the errors they met.
      const profile = new Map<string, { calls: number; ms: number; errors: Map<string, number> }>();
      db().middlewareStack.add(
        (next, context) => async (args) => {
          const name = (context.commandName ?? '?').replace(/Command$/, '');
          const entry = profile.get(name) ?? { calls: 0, ms: 0, errors: new Map<string, number>() };
          profile.set(name, entry);
          entry.calls += 1;
          const began = performance.now();
          try {
            return await next(args);
          } catch (err) {
            const kind = (err as Error).name;
            entry.errors.set(kind, (entry.errors.get(kind) ?? 0) + 1);
            throw err;
          } finally {
            entry.ms += performance.now() - began;
          }
        },
        { step: 'initialize', name: 'campaignBenchProfile' },
      );

      const tag = randomUUID().slice(0, 6);
      ctx.log('running the campaign...');
      profile.clear();
      const t0 = Date.now();
      const created = await api.call('POST', '/campaigns', {
        name: `Bench ${tag}`,
        message1: `Bench ${tag}: olá {nome}`,
        contactListId: list.id,
        whatsappId,
        scheduledAt: new Date().toISOString(),
      });
      expectOk('POST /campaigns', created);
      const id = created.body.id as number;
      const finished = await waitFor(
        'FINALIZADA',
        async () => {
          const c = await getCampaign(company.id, id);
          return c?.status === 'FINALIZADA' ? c : undefined;
        },
        20 * 60_000,
      );
      const tFinal = Date.now() - t0;
      ctx.log(`FINALIZADA after ${(tFinal / 1000).toFixed(1)} s; waiting for the phones...`);
      const countPhones = async () => {
        const perNumber = new Map<string, number>();
        let after: string | undefined;
        for (;;) {
          const page = await listReceived(company.id, whatsappId, { limit: 500, ...(after ? { after } : {}) });
          for (const m of page.messages) {
            if (!(m.body ?? '').includes(tag)) continue;
            const n = m.chatId.split('@')[0]!;
            perNumber.set(n, (perNumber.get(n) ?? 0) + 1);
          }
          if (!page.hasMore || page.messages.length === 0) return perNumber;
          after = page.messages[page.messages.length - 1]!.sk;
        }
      };
      const onPhones = await waitFor(
        'the messages on the phones',
        async () => {
          const perNumber = await countPhones();
          return perNumber.size >= CONTACTS ? perNumber : undefined;
        },
        20 * 60_000,
      );
      const tPhones = Date.now() - t0;
      await sleep(3_000); // a late duplicate would land by now; counted below
      const settled = await countPhones();
      const requestRows = [...profile.entries()]
        .sort((a, b) => b[1].calls - a[1].calls)
        .map(([name, e]) => [
          name,
          (e.calls / CONTACTS).toFixed(2),
          (e.ms / e.calls).toFixed(1),
          [...e.errors.entries()].map(([k, n]) => `${k} ${n}`).join(', ') || '—',
        ]);
      const duplicates = [...settled.values()].reduce((n, c) => n + (c - 1), 0);
      const missed = numbers.filter((n) => !onPhones.has(n)).length;
      const shipmentsPerSecond = finished.done / (tFinal / 1000);
      const messagesPerSecond = CONTACTS / (tPhones / 1000);
      const table = markdownTable(
        [
          'contacts',
          'FINALIZADA after',
          'shipments/s',
          'last message on its phone after',
          'messages/s end to end',
          'delivered (counter)',
          'duplicates',
          'missed',
        ],
        [
          [
            String(CONTACTS),
            `${(tFinal / 1000).toFixed(1)} s`,
            shipmentsPerSecond.toFixed(1),
            `${(tPhones / 1000).toFixed(1)} s`,
            messagesPerSecond.toFixed(1),
            String(finished.delivered),
            String(duplicates),
            String(missed),
          ],
        ],
      );
      const requests = markdownTable(['DynamoDB request', 'per message', 'mean ms', 'errors'], requestRows);
      return {
        table: `${table}\n\n${requests}`,
        goalMet: messagesPerSecond >= GOAL_RATE && duplicates === 0 && missed === 0,
        summary:
          `${messagesPerSecond.toFixed(1)} messages/s end to end (goal ≥ ${GOAL_RATE}), ` +
          `${shipmentsPerSecond.toFixed(1)} shipments/s to FINALIZADA, ${duplicates} duplicates, ${missed} missed.`,
        notes:
          'A loaded-machine figure: one local cloud on the 2-core machine the whole team shares, DynamoDB Local ' +
          'in memory, 4 local consumers per queue. Each send is a claim, a contact and a ticket made (and the ' +
          'carrier ticket closed: openTicket is off), the keyed message, its outbound job and outbox item, and ' +
          'the final transaction with the campaign counters; the worker drains the connection’s outbox one ' +
          'message at a time. Not measured here: inbound p99 during the campaign.',
      };
    } finally {
      await cloud.stop();
    }
  },
};
