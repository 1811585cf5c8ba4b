import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../infra/local/seed';
import { api } from '../helpers/fixtures';

/**
 * The demo data every area shows on first start (README "Demo data"; the brief: a queue with a chatbot,
 * history for the dashboard…), seeded by the test cloud as `npm start` seeds it. Read as the demo admin
 * through the API, as the screens read it.
 */
const login = async (email: string) => {
  const res = await api().post('/auth/login', { email, password: DEMO_PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
};

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

describe('the demo company', () => {
  it('has queues (one with a chatbot menu) and a simulator connection linked to them', async () => {
    const admin = api(await login('admin@demo.zapdesk.local'));
    const queues = (await admin.get('/queue')).body as { id: number; name: string; chatbots?: unknown[] }[];
    expect(queues.map((q) => q.name)).toEqual(['Vendas', 'Suporte']);
    const connections = (await admin.get('/whatsapp')).body as { name: string; queues?: { id: number }[] }[];
    const demo = connections.find((c) => c.name === 'WhatsApp Demo');
    expect(demo?.queues?.map((q) => q.id).sort()).toEqual(queues.map((q) => q.id).sort());
  });

  it('has two weeks of worked tickets: the dashboard and the report show them', async () => {
    const admin = api(await login('admin@demo.zapdesk.local'));
    const range = { date_from: day(14), date_to: day(0) };
    const dashboard = await admin.get('/dashboard', range);
    expect(dashboard.status, JSON.stringify(dashboard.body)).toBe(200);
    const counters = dashboard.body.counters as Record<string, number>;
    expect(counters.supportFinished).toBeGreaterThanOrEqual(20);
    expect(counters.withRating).toBeGreaterThan(0);
    expect(counters.avgSupportTime).toBeGreaterThan(0);
    const attendants = (dashboard.body.attendants as { name: string; tickets: number }[]).filter((a) => a.tickets > 0);
    expect(attendants.map((a) => a.name).sort()).toEqual(['Ana Atendente', 'Bruno Atendente']);
    const report = await admin.get('/ticketreport/reports', {
      dateFrom: day(14),
      dateTo: day(0),
      page: '1',
      pageSize: '10',
    });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.totalTickets.total).toBeGreaterThanOrEqual(counters.supportFinished!);
  });

  it('has a recurring scheduled message on the demo connection', async () => {
    const admin = api(await login('admin@demo.zapdesk.local'));
    const res = await admin.get('/schedules');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const schedules = res.body.schedules as { status: string; enviarQuantasVezes: number; contact: { name: string } }[];
    expect(schedules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          status: 'PENDENTE',
          enviarQuantasVezes: 6,
          contact: expect.objectContaining({ name: 'Mariana Lopes' }),
        }),
      ]),
    );
  });

  it('has a contact list and a campaign to it, not started', async () => {
    const admin = api(await login('admin@demo.zapdesk.local'));
    const lists = await admin.get('/contact-lists');
    expect(lists.status, JSON.stringify(lists.body)).toBe(200);
    const list = (lists.body.records as { id: number; name: string; contactsCount: number }[]).find(
      (l) => l.name === 'Clientes da demonstração',
    );
    expect(list?.contactsCount).toBe(4);
    const campaigns = await admin.get('/campaigns');
    expect(campaigns.status, JSON.stringify(campaigns.body)).toBe(200);
    expect(campaigns.body.records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Promoção de fim de ano', status: 'INATIVA', contactListId: list!.id }),
      ]),
    );
  });

  it('has a flow to the queues and a phrase campaign that starts it', async () => {
    const admin = api(await login('admin@demo.zapdesk.local'));
    const flows = await admin.get('/flowbuilder');
    expect(flows.status, JSON.stringify(flows.body)).toBe(200);
    const flow = (flows.body.flows as { id: number; name: string }[]).find((f) => f.name === 'Atendimento inicial');
    expect(flow).toBeDefined();
    const doc = await admin.get(`/flowbuilder/flow/${flow!.id}`);
    expect((doc.body.flow.flow.nodes as { type: string }[]).map((n) => n.type)).toEqual([
      'start',
      'singleBlock',
      'menu',
      'ticket',
      'ticket',
    ]);
    const phrases = await admin.get('/flowcampaign');
    expect(phrases.status, JSON.stringify(phrases.body)).toBe(200);
    expect(JSON.stringify(phrases.body)).toContain('quero atendimento');
  });

  it('has two bot flows on the local stand-ins, a Typebot and the AI assistant, each started by a phrase', async () => {
    const admin = api(await login('admin@demo.zapdesk.local'));
    const flows = (await admin.get('/flowbuilder')).body.flows as { id: number; name: string }[];
    for (const [name, type] of [
      ['Robô Typebot (demonstração)', 'typebot'],
      ['Assistente com IA (demonstração)', 'openai'],
    ] as const) {
      const flow = flows.find((f) => f.name === name);
      expect(flow, name).toBeDefined();
      const doc = await admin.get(`/flowbuilder/flow/${flow!.id}`);
      expect((doc.body.flow.flow.nodes as { type: string }[]).map((n) => n.type)).toEqual(['start', type, 'ticket']);
    }
    const phrases = JSON.stringify((await admin.get('/flowcampaign')).body);
    expect(phrases).toContain('quero o robô');
    expect(phrases).toContain('falar com a ia');
  });
});
