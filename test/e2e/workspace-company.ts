import type { Page } from 'playwright-core';
import { randomInt, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { resetConfigForTests } from '../../functions/shared/config';
import { signup } from '../../functions/core/auth/signup-service';
import { hashPassword } from '../../functions/core/passwords';
import { listPlans } from '../../functions/data/plan-repository';
import { createQueue, type Queue } from '../../functions/data/queue-repository';
import { createUser, type User } from '../../functions/data/user-repository';

/**
 * The company of the attendant's-workspace e2e: signed up through the API like a customer would, then the
 * two queues and the two attendants written through the product's repositories (the API has no queue
 * creation yet), and a simulated WhatsApp connection made and paired through the API. The worker of this
 * test file writes to the e2e cloud's storage with the cloud's own environment (global-setup provides it).
 */
Object.assign(process.env, inject('localCloudEnv'));
resetConfigForTests();

export const PASSWORD = 'Loja@2026';

// The test reads answers field by field; `any` keeps those reads terse.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A JSON caller of the gateway's API (the same one the browser calls). */
export const apiAs = (token?: string) => {
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${inject('appUrl')}/api${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: Json = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
    put: (path: string, body?: unknown) => call('PUT', path, body),
  };
};

const ok = <T extends { status: number; body: Json }>(answer: T, what: string, status = 200): T => {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
};

/** Polls `read` until `accept` takes its value; fails with the last value after `timeoutMs`. */
export const waitUntil = async <T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
};

export interface WorkspaceCompany {
  companyId: number;
  adminToken: string;
  queue1: Queue;
  queue2: Queue;
  attendantA: User & { password: string };
  attendantB: User & { password: string };
  whatsappId: number;
  farewell: string;
}

/**
 * Admin (sign-up), queues 'Vendas' and 'Suporte', attendant A in Vendas and B in Suporte, and a CONNECTED
 * simulated WhatsApp connection with Vendas only: a single-queue connection puts a new ticket straight into
 * its queue (newTicketQueue), so A sees the customer's first message in Aguardando with no chatbot step.
 * Its farewell (complationMessage) is what the customer receives when B resolves with farewell.
 */
export const workspaceCompany = async (): Promise<WorkspaceCompany> => {
  const suffix = randomUUID().slice(0, 6);
  const plan = (await listPlans()).find((p) => p.isPublic && p.name === 'Profissional');
  if (!plan) throw new Error('the demo seed has no Profissional plan');
  const adminEmail = `admin-${suffix}@e2e.zapdesk.local`;
  const anon = apiAs();
  // The sign-up service itself, each workspace from its own address: the HTTP route allows 10 sign-ups an
  // hour per IP (SIGNUP_LIMIT), and the e2e files together make more than that from 127.0.0.1. The route
  // is driven in the browser by accounts.e2e.test.ts.
  await signup({
    name: 'Marta Dias',
    companyName: `Loja ${suffix}`,
    email: adminEmail,
    password: PASSWORD,
    phone: '(11) 98765-4321',
    planId: plan.id,
    sourceIp: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
  });
  const login = ok(await anon.post('/auth/login', { email: adminEmail, password: PASSWORD }), 'admin login');
  const adminToken = login.body.token as string;
  const companyId = login.body.user.companyId as number;

  const queue1 = await createQueue(companyId, { name: 'Vendas', color: '#2e7d32', orderQueue: 1 });
  const queue2 = await createQueue(companyId, { name: 'Suporte', color: '#1565c0', orderQueue: 2 });
  const passwordHash = await hashPassword(PASSWORD);
  const attendant = async (name: string, queueId: number) => ({
    ...(await createUser(companyId, {
      name,
      email: `${name.split(' ')[0]!.toLowerCase()}-${suffix}@e2e.zapdesk.local`,
      passwordHash,
      profile: 'user',
      queueIds: [queueId],
    })),
    password: PASSWORD,
  });
  const attendantA = await attendant('Ana Vendas', queue1.id);
  const attendantB = await attendant('Bruno Suporte', queue2.id);

  const farewell = `Obrigado pelo contato! ${suffix}`;
  const admin = apiAs(adminToken);
  const created = ok(
    await admin.post('/whatsapp', { name: `Loja ${suffix}`, queueIds: [queue1.id], complationMessage: farewell }),
    'create connection',
    201,
  );
  const whatsappId = created.body.id as number;
  // The worker shows a QR code; the simulated phone scans it (again if a new code replaced the first).
  await waitUntil(
    async () => {
      const c = (await admin.get(`/whatsapp/${whatsappId}`)).body;
      if (c?.status === 'qrcode') await admin.post(`/simulator/${whatsappId}/scan`);
      return c?.status as string;
    },
    (status) => status === 'CONNECTED',
    'the connection to be CONNECTED',
    60_000,
  );
  return { companyId, adminToken, queue1, queue2, attendantA, attendantB, whatsappId, farewell };
};

export interface Received {
  id: string;
  chatId: string;
  body?: string;
  type?: string;
  mediaUrl: string | null;
  [field: string]: unknown;
}

/** What the simulated customer received on the connection (GET /simulator/{whatsappId}/messages, every page). */
export const customerReceived = async (
  company: Pick<WorkspaceCompany, 'adminToken' | 'whatsappId'>,
  number: string,
): Promise<Received[]> => {
  const admin = apiAs(company.adminToken);
  const all: Received[] = [];
  let cursor = '';
  for (;;) {
    const page = ok(
      await admin.get(
        `/simulator/${company.whatsappId}/messages?number=${number}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      ),
      'simulator messages',
    ).body;
    all.push(...(page.messages as Received[]));
    if (!page.hasMore || !page.nextCursor) return all;
    cursor = encodeURIComponent(page.nextCursor as string);
  }
};

/** The simulated customer writes a text to the company. */
export const customerWrites = async (
  company: Pick<WorkspaceCompany, 'adminToken' | 'whatsappId'>,
  customer: { number: string; name: string },
  body: string,
): Promise<void> => {
  ok(
    await apiAs(company.adminToken).post(`/simulator/${company.whatsappId}/messages`, { ...customer, body }),
    'simulated customer message',
  );
};

/** The app as `npm start` prints it (localhost): the presigned upload URLs name that host (S3_ENDPOINT). */
export const appOrigin = (): string => inject('appUrl').replace('127.0.0.1', 'localhost');

/** Signs `who` in through the login screen and waits for the attendant's workspace. */
export const logIn = async (page: Page, who: { email: string; password: string }): Promise<void> => {
  await page.goto(`${appOrigin()}/login`, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Senha', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/tickets');
};

/** Another admin of the company (name "Gerente <Word>"), signed in with PASSWORD. */
export const manager = async (company: WorkspaceCompany, name: string) => ({
  ...(await createUser(company.companyId, {
    name,
    email: `${name.split(' ')[1]!.toLowerCase()}-${company.companyId}@e2e.zapdesk.local`,
    passwordHash: await hashPassword(PASSWORD),
    profile: 'admin',
  })),
  password: PASSWORD,
});
