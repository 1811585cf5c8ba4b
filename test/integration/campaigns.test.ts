import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CampaignReportView, CampaignView } from '../../functions/contracts/campaigns';
import {
  runWave,
  sendShipment,
  variantFor,
  variantsOf,
  type SendOutcome,
} from '../../functions/core/campaigns/campaign-dispatch';
import { getCampaign, getShipment } from '../../functions/data/campaign-repository';
import { setItemWhatsappValid } from '../../functions/data/contact-list-repository';
import { eventsUntil, waitFor, type SocketEvent } from '../helpers/connections';
import { api, channelPlan, freshCompany, TINY_PNG, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';
import {
  allReceived,
  campaignOf,
  connectedConnection,
  customerNumber,
  listWith,
  numberOf,
  setUp,
  untilStatus,
} from '../helpers/campaign-world';

/**
 * Campaigns (issue 16 items 3, 4 and 11; decisions D133–D136), through the local cloud and the simulated
 * phones: the HTTP surface (validation writing nothing, editability, plan flag, isolation), a 500-contact
 * campaign with pacing 0 that ends FINALIZADA with exactly one message per phone even with its waves run
 * twice at once and sends redelivered, a bad number failing only its shipment, variants and variables
 * filled, cancel and restart without a repeat, the confirmation flow, and the report's counters.
 */
let t: TestCompany;
let whatsappId: number;

beforeAll(async () => {
  t = await freshCompany();
  whatsappId = await connectedConnection(t, 'Campanhas');
  await setUp(t, {
    messageInterval: 0,
    longerIntervalAfter: 0,
    greaterInterval: 0,
    variables: [{ key: 'promo', value: 'PROMO10' }],
  });
}, 180_000);
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

describe('campaigns over HTTP', { timeout: 120_000 }, () => {
  it('refuses bad input with the field and the reason, writing nothing', async () => {
    const list = await listWith(t, []);
    const tag = `Bad ${randomUUID().slice(0, 6)}`;
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'A', message1: 'Oi', contactListId: list.id, whatsappId }, 'body.name'],
      [{ name: tag, message1: 'Oi', contactListId: list.id }, 'body.whatsappId'],
      [{ name: tag, message1: 'Oi', contactListId: list.id, whatsappId: 999_999 }, 'body.whatsappId'],
      [{ name: tag, contactListId: list.id, whatsappId }, 'body.message1'],
      [{ name: tag, message1: 'Oi', whatsappId }, 'body.contactListId'],
      [{ name: tag, message1: 'Oi', contactListId: 999_999, whatsappId }, 'body.contactListId'],
      [
        { name: tag, message1: 'Oi', contactListId: list.id, whatsappId, confirmation: true },
        'body.confirmationMessage1',
      ],
      [
        { name: tag, message1: 'Oi', contactListId: list.id, whatsappId, openTicket: 'enabled', userId: t.admin.id },
        'body.queueId',
      ],
      [
        { name: tag, message1: 'Oi', contactListId: list.id, whatsappId, scheduledAt: '2020-01-01 10:00:00' },
        'body.scheduledAt',
      ],
      [{ name: tag, message1: 'Oi', contactListId: list.id, whatsappId, scheduledAt: 'amanhã' }, 'body.scheduledAt'],
    ];
    for (const [body, field] of cases) {
      const res = await api(t.adminToken).post('/campaigns', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const search = await api(t.adminToken).get('/campaigns', { searchParam: 'Bad' });
    expect(search.status).toBe(200);
    expect(search.body.records).toEqual([]);
  });

  it('creates, lists, edits by the spec rules, attaches media, deletes; another company sees a 404', async () => {
    const list = await listWith(t, [{ name: 'Ana', number: customerNumber() }]);
    const inHalfAnHour = new Date(Date.now() + 30 * 60_000).toISOString();
    const created = await api(t.adminToken).post('/campaigns', {
      name: 'Black Friday',
      message1: 'Olá {nome}',
      contactListId: list.id,
      whatsappId,
      scheduledAt: inHalfAnHour,
      companyId: 999,
      status: 'FINALIZADA',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const c = created.body as CampaignView;
    expect(c).toMatchObject({ status: 'PROGRAMADA', contactList: { id: list.id }, companyId: t.company.id });
    // PROGRAMADA within the hour: read-only (administration §4).
    const late = await api(t.adminToken).put(`/campaigns/${c.id}`, { name: 'Outra' });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
    // Without a date it is INATIVA and editable; media attaches and goes.
    const draft = await api(t.adminToken).post('/campaigns', {
      name: 'Rascunho',
      message1: 'Oi',
      contactListId: list.id,
      whatsappId,
    });
    expect(draft.body.status).toBe('INATIVA');
    const edited = await api(t.adminToken).put(`/campaigns/${draft.body.id}`, { name: 'Rascunho 2', message2: 'Olá' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Rascunho 2', message1: 'Oi', message2: 'Olá', status: 'INATIVA' });
    const form = new FormData();
    form.append('file', new Blob([TINY_PNG], { type: 'image/png' }), 'oferta.png');
    const media = await api(t.adminToken).post(`/campaigns/${draft.body.id}/media-upload`, form);
    expect(media.status, JSON.stringify(media.body)).toBe(200);
    expect(media.body.mediaName).toBe('oferta.png');
    expect((await api(t.adminToken).delete(`/campaigns/${draft.body.id}/media-upload`)).body.mediaName).toBeNull();
    const page = await api(t.adminToken).get('/campaigns', { searchParam: 'rascunho' });
    expect(page.body.records.map((r: CampaignView) => r.id)).toEqual([draft.body.id]);
    // Cancel is only for a running campaign.
    const cancel = await api(t.adminToken).post(`/campaigns/${draft.body.id}/cancel`);
    expect(cancel.status).toBe(409);

    const other = await freshCompany();
    expect((await api(other.adminToken).get(`/campaigns/${c.id}`)).status).toBe(404);
    expect((await api(other.adminToken).delete(`/campaigns/${c.id}`)).status).toBe(404);
    expect((await api(t.attendantToken).get('/campaigns')).status).toBe(403);

    expect((await api(t.adminToken).delete(`/campaigns/${c.id}`)).status).toBe(200);
    expect((await api(t.adminToken).get(`/campaigns/${c.id}`)).status).toBe(404);
  });

  it('a plan without useCampaigns gets the permission error', async () => {
    const plan = await channelPlan({ useCampaigns: false });
    const p = await freshCompany(undefined, { planId: plan.id });
    const res = await api(p.adminToken).get('/campaigns');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });
});

describe('sending', { timeout: 420_000 }, () => {
  it('500 contacts at pacing 0: FINALIZADA with exactly one message per phone, variants and variables filled, a bad number failing only itself; waves run twice and sends redelivered change nothing', async () => {
    const tag = randomUUID().slice(0, 6);
    const rows = Array.from({ length: 500 }, (_, i) => ({
      name: `Pessoa ${i}`,
      number: customerNumber(),
      email: `p${i}@x.test`,
    }));
    const invalid = { name: 'Sem WhatsApp', number: customerNumber() };
    const short = { name: 'Curto', number: '1234567' };
    const list = await listWith(t, [...rows, invalid, short]);
    await setItemWhatsappValid(t.company.id, list.id, invalid.number, false);
    const socket = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
    const body = {
      name: `Oferta ${tag}`,
      message1: `A ${tag}: Olá {nome}, use {promo} ({email})`,
      message3: `B ${tag}: Oi {nome}, seu número {numero}`,
      contactListId: list.id,
      whatsappId,
      scheduledAt: new Date().toISOString(),
    };
    const created = await api(t.adminToken).post('/campaigns', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    // Two more waves at once beside the queued one: one claim wins, the others do nothing.
    const outcomes = await Promise.all([runWave(t.company.id, id), runWave(t.company.id, id)]);
    expect(outcomes.filter((o) => o === 'busy' || o === 'not-due').length).toBeGreaterThanOrEqual(1);

    const done = await untilStatus(t, id, 'FINALIZADA', 300_000);
    expect(done).toMatchObject({ validContacts: 502, done: 502, delivered: 500, failed: 2 });
    expect(done.completedAt).not.toBeNull();
    // The socket heard the progress and the end.
    const framesOf = (e: SocketEvent): SocketEvent[] => (Array.isArray(e.batch) ? (e.batch as SocketEvent[]) : [e]);
    const heard = await eventsUntil(
      socket,
      (e) =>
        framesOf(e).some(
          (x) =>
            x.channel === `company-${t.company.id}-campaign` &&
            (x.record as CampaignView | undefined)?.id === id &&
            (x.record as CampaignView).status === 'FINALIZADA',
        ),
      20_000,
    );
    const progress = heard
      .flatMap(framesOf)
      .filter(
        (x) => x.channel === `company-${t.company.id}-campaign` && (x.record as CampaignView | undefined)?.id === id,
      );
    expect(progress.length).toBeGreaterThan(2);
    expect((await getShipment(t.company.id, id, invalid.number))?.status).toBe('FAILED');
    expect((await getShipment(t.company.id, id, short.number))?.status).toBe('FAILED');

    // Redelivered sends after the end: nothing is sent again.
    const again: SendOutcome[] = await Promise.all(
      rows.slice(0, 5).map((r) => sendShipment(t.company.id, id, r.number)),
    );
    expect(again.every((o) => o === 'stopped' || o === 'duplicate')).toBe(true);

    // Every phone got exactly one message, its variant's, with its own values.
    const variants = variantsOf({ message1: 'x', message2: '', message3: 'x', message4: '', message5: '' });
    const mine = await waitFor(
      async () => (await allReceived(t, whatsappId)).filter((m) => (m.body ?? '').includes(tag)),
      (ms) => ms.length >= 500,
      { what: '500 campaign messages on the phones', timeoutMs: 120_000, intervalMs: 1000 },
    );
    expect(mine).toHaveLength(500);
    const byNumber = new Map(mine.map((m) => [numberOf(m), m.body ?? '']));
    expect(byNumber.size).toBe(500);
    expect(byNumber.has(invalid.number)).toBe(false);
    for (const [i, r] of rows.entries()) {
      const text = byNumber.get(r.number);
      expect(text, r.number).toBe(
        variantFor(variants, r.number) === 1
          ? `A ${tag}: Olá Pessoa ${i}, use PROMO10 (p${i}@x.test)`
          : `B ${tag}: Oi Pessoa ${i}, seu número ${r.number}`,
      );
    }

    // The report: per variant, from the counters.
    const report = await api(t.adminToken).get(`/campaigns/${id}/report`);
    expect(report.status).toBe(200);
    const r = report.body as CampaignReportView;
    expect(r.variants.map((v) => v.variant)).toEqual([1, 3]);
    expect(r.variants.reduce((n, v) => n + v.delivered, 0)).toBe(500);
    const expectedA = rows.filter((x) => variantFor(variants, x.number) === 1).length;
    expect(r.variants[0]!.delivered).toBe(expectedA);
    expect(expectedA).toBeGreaterThan(150);
    expect(expectedA).toBeLessThan(350);

    // A reply and a read count once for the variant that reached the contact.
    const replier = rows[0]!;
    const v = variantFor(variants, replier.number);
    const read = await api(t.adminToken).post(`/simulator/${whatsappId}/read`, { number: replier.number, ack: 3 });
    expect(read.status, JSON.stringify(read.body)).toBeLessThan(300);
    for (const text of ['Quero!', 'Quero mesmo']) {
      const sent = await api(t.adminToken).post(`/simulator/${whatsappId}/messages`, {
        number: replier.number,
        body: text,
      });
      expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    }
    const counted = await waitFor(
      async () => (await api(t.adminToken).get(`/campaigns/${id}/report`)).body as CampaignReportView,
      (x) => x.campaign.replied === 1 && x.campaign.read === 1,
      { what: 'the reply and the read counted', timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(counted.variants.find((x) => x.variant === v)).toMatchObject({ replied: 1, read: 1 });
    expect(counted.campaign.status).toBe('FINALIZADA');
  });

  it('cancel mid-way stops the sends; restart finishes without a repeat', async () => {
    const c = await freshCompany();
    const connection = await connectedConnection(c, 'Pausada');
    await setUp(c, { messageInterval: 1, longerIntervalAfter: 0, greaterInterval: 0 });
    const tag = randomUUID().slice(0, 6);
    const rows = Array.from({ length: 30 }, (_, i) => ({ name: `P${i}`, number: customerNumber() }));
    const list = await listWith(c, rows);
    const created = await api(c.adminToken).post('/campaigns', {
      name: `Lenta ${tag}`,
      message1: `${tag} oi {nome}`,
      contactListId: list.id,
      whatsappId: connection,
      scheduledAt: new Date().toISOString(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    await waitFor(
      () => campaignOf(c, id),
      (v) => v.delivered >= 3,
      { what: 'a few sends', timeoutMs: 60_000, intervalMs: 200 },
    );
    const cancelled = await api(c.adminToken).post(`/campaigns/${id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe('CANCELADA');
    const atCancel = (await getCampaign(c.company.id, id))!;
    expect(atCancel.done).toBeLessThan(30);
    // A send that comes due now does nothing and leaves its shipment waiting.
    const waiting = [];
    for (const r of rows) {
      const s = await getShipment(c.company.id, id, r.number);
      if (s?.status === 'PENDING') waiting.push(r.number);
    }
    expect(waiting.length).toBeGreaterThan(0);
    expect(await sendShipment(c.company.id, id, waiting[0]!)).toBe('stopped');
    expect((await getShipment(c.company.id, id, waiting[0]!))?.status).toBe('PENDING');

    // A cancelled campaign may be edited (administration §4), but its audience is fixed once it started.
    const renamed = await api(c.adminToken).put(`/campaigns/${id}`, { name: `Lenta ${tag} 2` });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.status).toBe('CANCELADA');
    const otherList = await listWith(c, []);
    const moved = await api(c.adminToken).put(`/campaigns/${id}`, { contactListId: otherList.id });
    expect(moved.status).toBe(400);
    expect(moved.body.fields.map((f: { field: string }) => f.field)).toContain('body.contactListId');

    const restarted = await api(c.adminToken).post(`/campaigns/${id}/restart`);
    expect(restarted.status, JSON.stringify(restarted.body)).toBe(200);
    expect(restarted.body.status).toBe('EM_ANDAMENTO');
    const done = await untilStatus(c, id, 'FINALIZADA', 120_000);
    expect(done).toMatchObject({ validContacts: 30, done: 30, delivered: 30, failed: 0 });
    const mine = await waitFor(
      async () => (await allReceived(c, connection)).filter((m) => (m.body ?? '').includes(tag)),
      (ms) => ms.length >= 30,
      { what: '30 messages', timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(new Set(mine.map(numberOf)).size).toBe(30);
    expect(mine).toHaveLength(30);
  });

  it('confirmation: the contact is asked first and gets the campaign message after replying', async () => {
    const tag = randomUUID().slice(0, 6);
    const yes = { name: 'Bia', number: customerNumber() };
    const silent = { name: 'Caio', number: customerNumber() };
    const list = await listWith(t, [yes, silent]);
    const created = await api(t.adminToken).post('/campaigns', {
      name: `Confirma ${tag}`,
      message1: `${tag} oferta para {nome}`,
      confirmation: true,
      confirmationMessage1: `${tag} {nome}, podemos enviar a oferta? Responda SIM`,
      contactListId: list.id,
      whatsappId,
      scheduledAt: new Date().toISOString(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const asked = await untilStatus(t, id, 'FINALIZADA', 60_000);
    expect(asked).toMatchObject({ confirmationRequested: 2, delivered: 0 });
    await waitFor(
      async () => (await allReceived(t, whatsappId)).filter((m) => (m.body ?? '').includes(tag)),
      (ms) => ms.length >= 2,
      { what: 'the two questions', timeoutMs: 30_000, intervalMs: 500 },
    );
    const reply = await api(t.adminToken).post(`/simulator/${whatsappId}/messages`, {
      number: yes.number,
      body: 'SIM',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    const after = await waitFor(
      () => campaignOf(t, id),
      (v) => v.delivered === 1,
      { what: 'the campaign message after the confirmation', timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(after).toMatchObject({ confirmationRequested: 2, confirmed: 1, delivered: 1 });
    const got = await waitFor(
      async () => (await allReceived(t, whatsappId)).filter((m) => (m.body ?? '').includes(tag)),
      (ms) => ms.length >= 3,
      { what: 'the offer on the phone', timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(got.filter((m) => numberOf(m) === yes.number).map((m) => m.body)).toEqual([
      `${tag} Bia, podemos enviar a oferta? Responda SIM`,
      `${tag} oferta para Bia`,
    ]);
    expect(got.filter((m) => numberOf(m) === silent.number)).toHaveLength(1);
  });
});
