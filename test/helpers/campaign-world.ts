import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { CampaignView } from '../../functions/contracts/campaigns';
import { getConnection } from '../../functions/data/connection-repository';
import { contactListCountMove, createContactList, putImportedItem } from '../../functions/data/contact-list-repository';
import { nextId } from '../../functions/data/counter-repository';
import { listReceived, type ReceivedMessage } from '../../functions/data/simulator-phone-repository';
import { transactWrite } from '../../functions/data/transactions';
import { waitFor, waitForConnection } from './connections';
import { api, type TestCompany } from './fixtures';

/**
 * A campaign test's world (test/integration/campaigns.test.ts, campaign-chaos.test.ts): a connected
 * simulator connection, campaign settings in a zone where it is noon, contact lists written as an import
 * would, the phones' received messages, and waiting for a campaign's status.
 */
export const suffix = () => String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
export const customerNumber = () => `55119${suffix()}`;

/** A zone where it is about noon now, so the campaigns' office hours (08:00–19:00) are open. */
export const noonZone = (): string => {
  const offset = 12 - new Date().getUTCHours();
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
};

export const connectedConnection = async (c: TestCompany, name: string): Promise<number> => {
  const created = await api(c.adminToken).post('/whatsapp', { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  await waitForConnection(c.company.id, id, (x) => x?.status === 'qrcode', { timeoutMs: 40_000 });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const current = await getConnection(c.company.id, id);
    if (current?.status === 'CONNECTED') return id;
    if (current?.status === 'qrcode') await api(c.adminToken).post(`/simulator/${id}/scan`);
    if (Date.now() > deadline) throw new Error(`connection ${id} did not connect; last ${current?.status}`);
    await waitForConnection(c.company.id, id, (x) => x?.status === 'CONNECTED', { timeoutMs: 4_000 }).catch(
      () => undefined,
    );
  }
};

/** Campaign pacing, hours and days for company `c` (every day, 08:00–19:00, in a zone where it is noon). */
export const setUp = async (c: TestCompany, settings: Record<string, unknown>) => {
  const zone = await api(c.adminToken).put('/companySettings', { column: 'timezone', data: noonZone() });
  expect(zone.status, JSON.stringify(zone.body)).toBe(200);
  const saved = await api(c.adminToken).post('/campaign-settings', {
    settings: { sabado: true, domingo: true, startHour: '08:00', endHour: '19:00', ...settings },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
};

/** A contact list with these rows, written as an import would (one Put each, the count once). */
export const listWith = async (c: TestCompany, rows: { name: string; number: string; email?: string }[]) => {
  const list = await createContactList(c.company.id, `Lista ${randomUUID().slice(0, 6)}`);
  const first = (await nextId(c.company.id, 'contactListItem', rows.length)) - rows.length + 1;
  for (let i = 0; i < rows.length; i += 25) {
    await Promise.all(
      rows
        .slice(i, i + 25)
        .map((r, j) =>
          putImportedItem(
            c.company.id,
            { contactListId: list.id, name: r.name, number: r.number, email: r.email ?? '' },
            first + i + j,
          ),
        ),
    );
  }
  await transactWrite([contactListCountMove(c.company.id, list.id, rows.length)]);
  return list;
};

/** Every message the connection's simulated phones received, oldest first. */
export const allReceived = async (c: TestCompany, connectionId: number): Promise<ReceivedMessage[]> => {
  const all: ReceivedMessage[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await listReceived(c.company.id, connectionId, { limit: 500, ...(after ? { after } : {}) });
    all.push(...page.messages);
    if (!page.hasMore || page.messages.length === 0) return all;
    after = page.messages[page.messages.length - 1]!.sk;
  }
};

export const numberOf = (m: ReceivedMessage) => m.chatId.split('@')[0]!;

export const campaignOf = async (c: TestCompany, id: number): Promise<CampaignView> => {
  const res = await api(c.adminToken).get(`/campaigns/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as CampaignView;
};

export const untilStatus = (c: TestCompany, id: number, status: string, timeoutMs = 180_000) =>
  waitFor(
    () => campaignOf(c, id),
    (v) => v.status === status,
    { what: `campaign ${id} ${status}`, timeoutMs, intervalMs: 500 },
  );
