import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { enqueueInbound } from '../../functions/channels/inbound';
import type { PromptView, QueueIntegrationView } from '../../functions/contracts/integrations';
import { putCampaignSettingsItem } from '../../functions/data/campaign-settings-repository';
import { createConnection, type Connection } from '../../functions/data/connection-repository';
import { latestFlowRun } from '../../functions/data/flow-run-repository';
import { getIntegrationSession } from '../../functions/data/integration-repository';
import { getProviderRef, listTicketMessages, type StoredMessage } from '../../functions/data/message-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { getTicket } from '../../functions/data/ticket-repository';
import { SHARED_READS } from '../../functions/jobs/inbound/handler';
import { waitFor } from '../helpers/connections';
import { fakeIntegrations, FAKE_WEBHOOK_SECRET } from '../../infra/local/fake-integrations';
import { fakeOpenAi, FAKE_HANDOFF_PHRASE } from '../../infra/local/fake-openai';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';

/**
 * Queue integrations and AI prompts (issue 17 items 3, 4, 9; decisions D162–D165): the admin calls, and
 * each kind of bot answering a customer through the real inbound pipeline against the local fakes
 * (test/helpers/fake-integrations.ts, fake-openai.ts), with the failures that hand the ticket to people.
 */
let t: TestCompany;
let sales: number;
const fakes = () => fakeIntegrations(inject('fakeIntegrationsUrl'));
const openAi = () => fakeOpenAi(inject('fakeOpenAiUrl'));
const admin = () => api(t.adminToken);

beforeAll(async () => {
  t = await freshCompany();
  sales = (await createQueue(t.company.id, { name: 'Vendas', color: `#${randomUUID().slice(0, 6)}` })).id;
  await putCampaignSettingsItem(t.company.id, { messageInterval: 0, greaterInterval: 0, longerIntervalAfter: 0 });
});

const { privateKey: PRIVATE_KEY } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const serviceAccount = (email = 'bot@proj.iam.gserviceaccount.com') =>
  JSON.stringify({ type: 'service_account', project_id: 'proj', client_email: email, private_key: PRIVATE_KEY });

const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const pid = () => `3EB0${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;
const configSettles = () => new Promise((resolve) => setTimeout(resolve, SHARED_READS.configMs + 100));

const createIntegration = async (body: Record<string, unknown>): Promise<QueueIntegrationView> => {
  const res = await admin().post('/queueIntegration', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as QueueIntegrationView;
};

const hookIntegration = (mode: string) =>
  createIntegration({
    type: 'webhook',
    name: `Hook ${mode} ${randomUUID().slice(0, 4)}`,
    urlN8N: `${inject('fakeIntegrationsUrl')}/hook/${mode}`,
    webhookSecret: FAKE_WEBHOOK_SECRET,
  });

/** A connected connection answered by `integrationId` or `promptId`. */
const connectionWith = async (fields: { integrationId?: number; promptId?: number }): Promise<Connection> => {
  const { connection } = await createConnection(t.company.id, {
    name: `Conexão ${randomUUID().slice(0, 6)}`,
    channel: 'whatsapp',
    status: 'CONNECTED',
  });
  const res = await admin().put(`/whatsapp/${connection.id}`, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await configSettles();
  return { ...connection, ...fields } as Connection;
};

/** The customer writes on the connection (through the inbound queue); answers the ticket once stored. */
/** The customer's message on the inbound queue (as the worker hands it over); answers its provider id. */
const enqueueSay = async (connection: Connection, number: string, body: string): Promise<string> => {
  const providerMessageId = pid();
  await enqueueInbound({
    kind: 'message',
    companyId: t.company.id,
    whatsappId: connection.id,
    chat: { id: `${number}@s.whatsapp.net` },
    providerMessageId,
    fromMe: false,
    timestamp: new Date().toISOString(),
    contact: { phone: number, pushName: 'Maria Souza' },
    content: { type: 'text', body },
  });
  return providerMessageId;
};

/** The customer writes; answers the ticket once the message is stored. */
const say = async (connection: Connection, number: string, body: string): Promise<number> => {
  const providerMessageId = await enqueueSay(connection, number, body);
  const ref = await waitFor(
    () => getProviderRef(t.company.id, connection.id, providerMessageId),
    (r) => r !== null,
    { what: `message ${body} stored` },
  );
  return ref!.ticketId;
};

const botSent = async (ticketId: number, n: number): Promise<StoredMessage[]> =>
  waitFor(
    async () => (await listTicketMessages(t.company.id, ticketId)).filter((m) => m.fromMe),
    (sent) => sent.length >= n,
    { what: `${n} bot messages`, timeoutMs: 30_000 },
  );

const sessionEnded = (ticketId: number) =>
  waitFor(
    () => getIntegrationSession(t.company.id, ticketId),
    (s) => s?.status === 'ended',
    { what: 'the integration session ended', timeoutMs: 40_000 },
  );

// ------------------------------------------------------------------------------------------ admin calls

describe('queue integrations: the admin calls', () => {
  it('stores each type with its fields, never returns a secret, lists by name and pages', async () => {
    const hook = await hookIntegration('ok');
    expect(hook).toMatchObject({ type: 'webhook', webhookSecret: '********' });
    expect(JSON.stringify(hook)).not.toContain(FAKE_WEBHOOK_SECRET);

    const flow = await createIntegration({
      type: 'dialogflow',
      name: 'Dialogflow vendas',
      projectName: 'ok-proj',
      language: 'pt-BR',
      jsonContent: serviceAccount(),
    });
    expect(JSON.stringify(flow)).not.toContain('PRIVATE KEY');
    expect(JSON.parse(flow.jsonContent!)).toMatchObject({
      client_email: 'bot@proj.iam.gserviceaccount.com',
      private_key: '********',
    });
    // Sending the masked JSON back keeps the stored key: the test still signs with it.
    const renamed = await admin().put(`/queueIntegration/${flow.id}`, {
      name: 'Dialogflow 2',
      jsonContent: flow.jsonContent,
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const tested = await admin().post('/queueIntegration/testSession', {
      projectName: 'ok-proj',
      language: 'pt-BR',
      jsonContent: flow.jsonContent,
      integrationId: flow.id,
    });
    expect(tested.body).toEqual({ success: true, message: 'Dialogflow: Olá' });

    const typebot = await createIntegration({
      type: 'typebot',
      name: 'Typebot',
      urlN8N: 'https://typebot.example/x',
      typebotSlug: 'meu-bot',
    });
    expect(typebot).toMatchObject({ typebotExpires: 1, typebotDelayMessage: 1000 });

    const page = await admin().get('/queueIntegration', { searchParam: 'dialog', pageNumber: '1' });
    expect(page.status).toBe(200);
    expect((page.body as { queueIntegrations: QueueIntegrationView[] }).queueIntegrations.map((i) => i.name)).toEqual([
      'Dialogflow 2',
    ]);
    const all = await admin().get('/queueIntegration');
    expect((all.body as { queueIntegrations: unknown[]; hasMore: boolean }).hasMore).toBe(false);
    expect((all.body as { queueIntegrations: unknown[] }).queueIntegrations.length).toBeGreaterThanOrEqual(3);
  });

  it('answers 400 with the field and writes nothing for bad input', async () => {
    const before = ((await admin().get('/queueIntegration')).body as { queueIntegrations: unknown[] }).queueIntegrations
      .length;
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'webhook', name: 'A', urlN8N: 'https://x.example' }, 'body.name'],
      [{ type: 'webhook', name: 'Sem url' }, 'body.urlN8N'],
      [{ type: 'typebot', name: 'Typebot', urlN8N: 'https://x.example' }, 'body.typebotSlug'],
      [{ type: 'dialogflow', name: 'DF', projectName: 'p', jsonContent: '{"nope":1}' }, 'body.jsonContent'],
      [{ type: 'flowbuilder', name: 'Fluxo', flowId: 999_999 }, 'body.flowId'],
      [{ type: 'telegram', name: 'Outro' }, 'body.type'],
    ];
    for (const [body, field] of cases) {
      const res = await admin().post('/queueIntegration', body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    const after = ((await admin().get('/queueIntegration')).body as { queueIntegrations: unknown[] }).queueIntegrations
      .length;
    expect(after).toBe(before);
  });

  it('refuses to delete an integration a queue uses, and deletes it once free', async () => {
    const hook = await hookIntegration('ok');
    const queue = await admin().post('/queue', {
      name: `Fila bot ${randomUUID().slice(0, 4)}`,
      color: `#${randomUUID().slice(0, 6)}`,
      integrationId: hook.id,
    });
    expect(queue.status, JSON.stringify(queue.body)).toBe(201);
    const refused = await admin().delete(`/queueIntegration/${hook.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'ERR_INTEGRATION_IN_USE' });
    const freed = await admin().put(`/queue/${(queue.body as { id: number }).id}`, { integrationId: null });
    expect(freed.status, JSON.stringify(freed.body)).toBe(200);
    expect((await admin().delete(`/queueIntegration/${hook.id}`)).status).toBe(200);
    expect((await admin().get(`/queueIntegration/${hook.id}`)).status).toBe(404);
  });
});

describe('prompts: the admin calls', () => {
  const promptBody = () => ({
    name: 'Assistente de vendas',
    prompt: 'Você é um assistente de vendas educado que responde dúvidas sobre os planos da empresa.',
    apiKey: `sk-live-${randomUUID()}`,
    queueId: sales,
  });

  it('applies the defaults, keeps the API key encrypted and never returns it', async () => {
    const body = promptBody();
    const res = await admin().post('/prompt', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const prompt = res.body as PromptView;
    expect(prompt).toMatchObject({
      voice: 'texto',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      apiKey: '********',
      queue: { id: sales, name: 'Vendas' },
    });
    const edited = await admin().put(`/prompt/${prompt.id}`, { apiKey: '********', maxTokens: 150 });
    expect(edited.status).toBe(200);
    const list = await admin().get('/prompt');
    for (const r of [res, edited, list, await admin().get(`/prompt/${prompt.id}`)]) {
      expect(JSON.stringify(r.body)).not.toContain(body.apiKey);
    }
    expect((list.body as { prompts: PromptView[] }).prompts.map((p) => p.maxTokens)).toContain(150);
  });

  it("answers the spec's texts for bad input and writes nothing", async () => {
    const before = ((await admin().get('/prompt')).body as { prompts: unknown[] }).prompts.length;
    const noQueue = await admin().post('/prompt', { ...promptBody(), queueId: undefined });
    expect(noQueue.status).toBe(400);
    expect(JSON.stringify(noQueue.body)).toContain('Informe o setor');
    const short = await admin().post('/prompt', { ...promptBody(), name: 'Ana' });
    expect(JSON.stringify(short.body)).toContain('Muito curto!');
    const shortPrompt = await admin().post('/prompt', { ...promptBody(), prompt: 'curto' });
    expect(shortPrompt.status).toBe(400);
    const badVoice = await admin().post('/prompt', { ...promptBody(), voice: 'en-US-Jenny' });
    expect(JSON.stringify(badVoice.body)).toContain('body.voice');
    expect(((await admin().get('/prompt')).body as { prompts: unknown[] }).prompts.length).toBe(before);
  });
});

// ----------------------------------------------------------------------------------- bots at work

describe('integrations answer customers', () => {
  it('a webhook answers with a verified signature, and a burst of three messages makes one call', async () => {
    const hook = await hookIntegration('ok');
    const connection = await connectionWith({ integrationId: hook.id });
    const number = phone();
    // A burst: three messages handed over one after another, as a customer typing fast (the debounce window
    // is 2 s in the test cloud; waiting for each to be stored first would stretch the burst under load).
    await enqueueSay(connection, number, 'oi');
    await enqueueSay(connection, number, 'tudo bem?');
    const ticketId = await say(connection, number, 'quero saber o preço');
    const [reply] = await botSent(ticketId, 1);
    expect(reply!.body).toBe('Webhook recebeu: oi\ntudo bem?\nquero saber o preço');
    const deliveries = (await fakes().deliveries()).filter(
      (d) => (d.body as { ticketId?: number }).ticketId === ticketId,
    );
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ signatureValid: true });
    expect(deliveries[0]!.deliveryId).toBeTruthy();
    expect(await getTicket(t.company.id, ticketId)).toMatchObject({ useIntegration: true, integrationId: hook.id });
  });

  it('typebot starts a session and continues it', async () => {
    const typebot = await createIntegration({
      type: 'typebot',
      name: 'Typebot ok',
      urlN8N: `${inject('fakeIntegrationsUrl')}/typebot/ok`,
      typebotSlug: 'vendas',
      typebotDelayMessage: 0,
    });
    const connection = await connectionWith({ integrationId: typebot.id });
    const number = phone();
    const ticketId = await say(connection, number, 'olá');
    const first = await botSent(ticketId, 2);
    expect(first.map((m) => m.body)).toEqual(['Olá, eu sou o Typebot!', 'Typebot: olá']);
    await say(connection, number, 'quero um plano');
    const second = await botSent(ticketId, 3);
    expect(second[2]!.body).toBe('Typebot: quero um plano');
    const calls = (await fakes().deliveries()).filter((d) => d.path.includes('/typebot/ok/'));
    expect(calls.some((d) => d.kind === 'typebot-continue')).toBe(true);
  });

  it('dialogflow answers through a token from the JWT-bearer grant', async () => {
    const df = await createIntegration({
      type: 'dialogflow',
      name: 'Dialogflow ok',
      projectName: 'ok-agent',
      language: 'pt-BR',
      jsonContent: serviceAccount('agent@ok.iam.gserviceaccount.com'),
    });
    const connection = await connectionWith({ integrationId: df.id });
    const ticketId = await say(connection, phone(), 'bom dia');
    const [reply] = await botSent(ticketId, 1);
    expect(reply!.body).toBe('Dialogflow: bom dia');
    const token = (await fakes().deliveries()).find(
      (d) => d.kind === 'token' && (d.body as { iss?: string }).iss === 'agent@ok.iam.gserviceaccount.com',
    );
    expect(token).toBeDefined();
  });

  it('a flowbuilder integration hands the customer to its flow', async () => {
    const created = await admin().post('/flowbuilder', { name: `Fluxo ${randomUUID().slice(0, 6)}` });
    const flowId = (created.body as { id: number }).id;
    const saved = await admin().post('/flowbuilder/flow', {
      idFlow: flowId,
      nodes: [
        { id: '1', type: 'start', position: { x: 0, y: 0 }, data: {} },
        { id: 'm', type: 'message', position: { x: 0, y: 0 }, data: { label: 'Olá do fluxo' } },
      ],
      connections: [{ source: '1', target: 'm' }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const integration = await createIntegration({ type: 'flowbuilder', name: 'Fluxo de boas-vindas', flowId });
    const connection = await connectionWith({ integrationId: integration.id });
    const ticketId = await say(connection, phone(), 'oi');
    const [reply] = await botSent(ticketId, 1);
    expect(reply!.body).toBe('Olá do fluxo');
    expect((await latestFlowRun(t.company.id, ticketId))?.trigger).toBe(`integration:${integration.id}`);
  });

  it.each(['5xx', 'timeout', 'slow'])('a %s answer hands the ticket to people, with no bot reply', async (mode) => {
    const hook = await hookIntegration(mode);
    const connection = await connectionWith({ integrationId: hook.id });
    const ticketId = await say(connection, phone(), 'alguém aí?');
    const session = await sessionEnded(ticketId);
    expect(session!.endReason).toMatch(/^integration-failed:/);
    const ticket = await getTicket(t.company.id, ticketId);
    expect(ticket).toMatchObject({ status: 'pending', userId: null, isBot: false, useIntegration: false });
    expect((await listTicketMessages(t.company.id, ticketId)).filter((m) => m.fromMe)).toEqual([]);
    // Retried with backoff before giving up (the same delivery id each time).
    const tries = (await fakes().deliveries()).filter((d) => (d.body as { ticketId?: number }).ticketId === ticketId);
    expect(tries.length).toBe(3);
    expect(new Set(tries.map((d) => d.deliveryId)).size).toBe(1);
  });

  it('a person accepting the ticket stops the integration: the pending call sends nothing', async () => {
    const hook = await hookIntegration('ok');
    const connection = await connectionWith({ integrationId: hook.id });
    const ticketId = await say(connection, phone(), 'oi');
    // Accepted during the debounce, before the call.
    const accepted = await admin().put(`/tickets/${ticketId}`, { status: 'open', userId: t.admin.id, queueId: sales });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const session = await sessionEnded(ticketId);
    expect(session!.endReason).toBe('ticket-taken');
    expect((await fakes().deliveries()).filter((d) => (d.body as { ticketId?: number }).ticketId === ticketId)).toEqual(
      [],
    );
    expect((await listTicketMessages(t.company.id, ticketId)).filter((m) => m.fromMe)).toEqual([]);
  });
});

describe('the AI assistant', () => {
  const newPrompt = async (fields: Record<string, unknown> = {}) => {
    const apiKey = `sk-ok-${randomUUID()}`;
    const res = await admin().post('/prompt', {
      name: 'Assistente de testes',
      prompt: 'Você é um assistente de vendas educado que responde dúvidas sobre os planos da empresa.',
      apiKey,
      queueId: sales,
      maxMessages: 4,
      ...fields,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { prompt: res.body as PromptView, apiKey: (fields.apiKey as string | undefined) ?? apiKey };
  };

  it('answers with the ticket as context and hands off on the phrase to the prompt queue', async () => {
    const { prompt, apiKey } = await newPrompt();
    const connection = await connectionWith({ promptId: prompt.id });
    const number = phone();
    const ticketId = await say(connection, number, 'Quais planos vocês têm?');
    const [first] = await botSent(ticketId, 1);
    expect(first!.body).toBe('Assistente: Quais planos vocês têm?');
    await say(connection, number, 'E o mais barato?');
    await botSent(ticketId, 2);
    const chats = (await openAi().chats()).filter((c) => c.apiKey === apiKey);
    expect(chats).toHaveLength(2);
    expect(chats[1]!.messages[0]!.role).toBe('system');
    expect(chats[1]!.messages.slice(1).map((m) => m.content)).toEqual([
      'Quais planos vocês têm?',
      'Assistente: Quais planos vocês têm?',
      'E o mais barato?',
    ]);
    expect(chats[1]).toMatchObject({ max_tokens: 100, temperature: 1 });

    await say(connection, number, 'quero falar com um atendente');
    const session = await sessionEnded(ticketId);
    expect(session!.endReason).toBe('handoff');
    expect(await getTicket(t.company.id, ticketId)).toMatchObject({
      status: 'pending',
      queueId: sales,
      isBot: false,
      useIntegration: false,
    });
    const sent = (await listTicketMessages(t.company.id, ticketId)).filter((m) => m.fromMe);
    expect(sent.map((m) => m.body).join('\n')).not.toContain(FAKE_HANDOFF_PHRASE);
  });

  it('answers as speech with a voice', async () => {
    const { prompt, apiKey } = await newPrompt({ voice: 'pt-BR-FranciscaNeural' });
    const connection = await connectionWith({ promptId: prompt.id });
    const ticketId = await say(connection, phone(), 'Olá');
    const [reply] = await botSent(ticketId, 1);
    expect(reply!.mediaType).toBe('audio');
    const speech = (await openAi().speech()).filter((s) => s.apiKey === apiKey);
    expect(speech).toEqual([{ apiKey, model: 'tts-1', voice: 'nova', input: 'Assistente: Olá' }]);
  });

  it('a provider failing hands the ticket to people', async () => {
    const { prompt } = await newPrompt({ apiKey: `sk-5xx-${randomUUID()}` });
    const connection = await connectionWith({ promptId: prompt.id });
    const ticketId = await say(connection, phone(), 'Olá');
    const session = await sessionEnded(ticketId);
    expect(session!.endReason).toBe('integration-failed:answered 500');
    expect(await getTicket(t.company.id, ticketId)).toMatchObject({ status: 'pending', isBot: false });
  });
});
