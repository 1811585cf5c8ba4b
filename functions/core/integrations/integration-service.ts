import { randomBytes } from 'node:crypto';
import {
  SECRET_MASK,
  TYPEBOT_DEFAULT_DELAY_MS,
  TYPEBOT_DEFAULT_EXPIRES_MINUTES,
  type CreateIntegrationInput,
  type IntegrationType,
  type QueueIntegrationEvent,
  type QueueIntegrationPage,
  type QueueIntegrationView,
  type TestSessionInput,
  type TestSessionResult,
  type UpdateIntegrationInput,
} from '../../contracts/integrations';
import { listConnections } from '../../data/connection-repository';
import { getFlow } from '../../data/flow-repository';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  integrationNotFound,
  listIntegrations,
  saveIntegration,
  type NewIntegration,
  type QueueIntegration,
} from '../../data/integration-repository';
import { listQueues } from '../../data/queue-repository';
import type { AuthContext } from '../../shared/auth-context';
import { Conflict, ValidationError, type FieldError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';
import { decryptSecret, encryptSecret } from '../../shared/token-cipher';
import { managers, publish } from '../notifier';
import { fetchPage } from '../paging';
import { flatten } from '../queues/chatbot-tree';
import { dialogflowDetectIntent, parseServiceAccount, type ServiceAccount } from './providers/dialogflow';

/**
 * Queue integrations (administration spec §2, §3 "Queue integration", §5, §7; decisions D162–D163): CRUD for
 * the company's admins behind the plan flag useIntegrations (the route table checks both), and the Dialogflow
 * test. Another company's integration is a 404 like a missing one. Events: `company-{id}-queueIntegration`.
 */
export const INTEGRATION_PAGE_SIZE = 20;
/** The unpaged list (selects) reads at most this many. */
export const INTEGRATION_LIST_MAX = 500;

const SECRET = 'integration-secret' as const;

export const toIntegrationView = (i: QueueIntegration): QueueIntegrationView => ({
  id: i.id,
  name: i.name,
  type: i.type,
  projectName: i.projectName,
  jsonContent: i.jsonPublic,
  language: i.language,
  urlN8N: i.urlN8N,
  typebotSlug: i.typebotSlug,
  typebotExpires: i.typebotExpires,
  typebotKeywordFinish: i.typebotKeywordFinish,
  typebotKeywordRestart: i.typebotKeywordRestart,
  typebotRestartMessage: i.typebotRestartMessage,
  typebotUnknownMessage: i.typebotUnknownMessage,
  typebotDelayMessage: i.typebotDelayMessage,
  flowId: i.flowId,
  webhookSecret: i.webhookSecretCipher ? SECRET_MASK : null,
  createdAt: i.createdAt,
  updatedAt: i.updatedAt,
});

const announce = async (companyId: number, event: QueueIntegrationEvent): Promise<void> => {
  try {
    await publish(companyId, { channel: 'queueIntegration', ...event }, managers);
  } catch (err) {
    logger.warn('queue integration event not sent', { companyId, action: event.action, ...errorFields(err) });
  }
};

const findIntegration = async (companyId: number, id: number): Promise<QueueIntegration> => {
  const found = await getIntegration(companyId, id);
  if (!found) throw integrationNotFound();
  return found;
};

/** The JSON as shown: the service account without its private key (SECRET_MASK in its place). */
const publicJson = (account: ServiceAccount): string =>
  JSON.stringify({ ...account.raw, private_key: SECRET_MASK }, null, 2);

type Fields = Omit<UpdateIntegrationInput, 'companyId'>;

/**
 * The stored integration for `input` over `current` (none on create): each type's required fields
 * (§5), the service account's key sealed (a JSON whose key is SECRET_MASK keeps the stored one), the
 * webhook secret sealed (generated when an n8n/webhook integration has none). A 400 names every problem.
 */
const resolve = async (companyId: number, input: Fields, current: QueueIntegration | null): Promise<NewIntegration> => {
  const pick = <K extends keyof Fields>(k: K, stored: unknown) => (input[k] !== undefined ? input[k] : stored);
  const type = (input.type ?? current?.type) as IntegrationType;
  const problems: FieldError[] = [];
  const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  const next: NewIntegration = {
    name: (input.name ?? current?.name)!,
    type,
    projectName: text(pick('projectName', current?.projectName)),
    jsonPublic: current?.jsonPublic ?? null,
    privateKeyCipher: current?.privateKeyCipher ?? null,
    language: text(pick('language', current?.language)),
    urlN8N: text(pick('urlN8N', current?.urlN8N)),
    typebotSlug: text(pick('typebotSlug', current?.typebotSlug)),
    typebotExpires: (pick('typebotExpires', current?.typebotExpires) as number | null | undefined) ?? null,
    typebotKeywordFinish: text(pick('typebotKeywordFinish', current?.typebotKeywordFinish)),
    typebotKeywordRestart: text(pick('typebotKeywordRestart', current?.typebotKeywordRestart)),
    typebotRestartMessage: text(pick('typebotRestartMessage', current?.typebotRestartMessage)),
    typebotUnknownMessage: text(pick('typebotUnknownMessage', current?.typebotUnknownMessage)),
    typebotDelayMessage:
      (pick('typebotDelayMessage', current?.typebotDelayMessage) as number | null | undefined) ?? null,
    flowId: (pick('flowId', current?.flowId) as number | null | undefined) ?? null,
    webhookSecretCipher: current?.webhookSecretCipher ?? null,
  };
  switch (type) {
    case 'dialogflow': {
      if (!next.projectName) problems.push({ field: 'body.projectName', reason: 'Required' });
      next.language ??= 'pt-BR';
      const json = input.jsonContent;
      if (json !== undefined && json !== null && json.trim() !== '') {
        const account = parseServiceAccount(json);
        if (!account) {
          problems.push({
            field: 'body.jsonContent',
            reason: 'must be a service account JSON with client_email and private_key',
          });
        } else if (account.privateKey === SECRET_MASK) {
          if (!next.privateKeyCipher) problems.push({ field: 'body.jsonContent', reason: 'Required: private_key' });
          else next.jsonPublic = publicJson(account);
        } else {
          next.jsonPublic = publicJson(account);
          next.privateKeyCipher = await encryptSecret(SECRET, account.privateKey);
        }
      } else if (!next.privateKeyCipher || json === null || json === '') {
        problems.push({ field: 'body.jsonContent', reason: 'Required' });
      }
      break;
    }
    case 'n8n':
    case 'webhook': {
      if (!next.urlN8N) problems.push({ field: 'body.urlN8N', reason: 'Required' });
      const secret = input.webhookSecret;
      if (typeof secret === 'string' && secret !== '' && secret !== SECRET_MASK) {
        if (secret.length < 16) problems.push({ field: 'body.webhookSecret', reason: 'at least 16 characters' });
        else next.webhookSecretCipher = await encryptSecret(SECRET, secret);
      }
      next.webhookSecretCipher ??= await encryptSecret(SECRET, randomBytes(24).toString('base64url'));
      break;
    }
    case 'typebot':
      if (!next.urlN8N) problems.push({ field: 'body.urlN8N', reason: 'Required' });
      if (!next.typebotSlug) problems.push({ field: 'body.typebotSlug', reason: 'Required' });
      next.typebotExpires ??= TYPEBOT_DEFAULT_EXPIRES_MINUTES;
      next.typebotDelayMessage ??= TYPEBOT_DEFAULT_DELAY_MS;
      break;
    case 'flowbuilder':
      if (next.flowId === null) problems.push({ field: 'body.flowId', reason: 'Required' });
      else if (!(await getFlow(companyId, next.flowId)))
        problems.push({ field: 'body.flowId', reason: 'no such flow' });
      break;
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return next;
};

export const listCompanyIntegrations = async (
  auth: AuthContext,
  q: { searchParam?: string | undefined; pageNumber?: number | undefined; cursor?: string | undefined },
): Promise<QueueIntegrationPage> => {
  if (q.pageNumber === undefined && q.cursor === undefined) {
    // The unpaged list for selects (core §7 "GET /queueIntegration"): the company's integrations by name.
    const all: QueueIntegration[] = [];
    let cursor: string | undefined;
    do {
      const page = await listIntegrations(auth.companyId, { search: q.searchParam, limit: 100, cursor });
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor && all.length < INTEGRATION_LIST_MAX);
    return { queueIntegrations: all.map(toIntegrationView), hasMore: cursor !== undefined };
  }
  const page = await fetchPage({ pageNumber: q.pageNumber ?? 1, cursor: q.cursor }, INTEGRATION_PAGE_SIZE, (cursor) =>
    listIntegrations(auth.companyId, { search: q.searchParam, limit: INTEGRATION_PAGE_SIZE, cursor }),
  );
  return {
    queueIntegrations: page.items.map(toIntegrationView),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

export const showIntegration = async (auth: AuthContext, id: number): Promise<QueueIntegrationView> =>
  toIntegrationView(await findIntegration(auth.companyId, id));

export const createCompanyIntegration = async (
  auth: AuthContext,
  input: CreateIntegrationInput,
): Promise<QueueIntegrationView> => {
  const fields = await resolve(auth.companyId, input, null);
  const created = await createIntegration(auth.companyId, fields);
  const view = toIntegrationView(created);
  await announce(auth.companyId, { action: 'create', queueIntegration: view });
  return view;
};

export const updateCompanyIntegration = async (
  auth: AuthContext,
  id: number,
  input: UpdateIntegrationInput,
): Promise<QueueIntegrationView> => {
  const saved = await withRetry(CHANGED_MEANWHILE, async () => {
    const current = await findIntegration(auth.companyId, id);
    return saveIntegration(current, await resolve(auth.companyId, input, current));
  });
  const view = toIntegrationView(saved);
  await announce(auth.companyId, { action: 'update', queueIntegration: view });
  return view;
};

/**
 * `DELETE /queueIntegration/{id}`: refused with 409 ERR_INTEGRATION_IN_USE, naming who uses it, while a
 * queue, a chatbot option or a connection points at it (D162) — deleting it would silently change what
 * their customers get. The check reads the company's queues and connections (O(queues + connections)).
 */
export const deleteCompanyIntegration = async (auth: AuthContext, id: number): Promise<void> => {
  const { companyId } = auth;
  await withRetry(CHANGED_MEANWHILE, async () => {
    const current = await findIntegration(companyId, id);
    const [queues, connections] = await Promise.all([listQueues(companyId), listConnections(companyId)]);
    const usingQueues = queues.filter(
      (q) =>
        q.integrationId === id ||
        flatten(q.chatbots).some((o) => o.queueType === 'integration' && o.optIntegrationId === id),
    );
    const usingConnections = connections.filter((c) => c.integrationId === id);
    if (usingQueues.length > 0 || usingConnections.length > 0) {
      throw new Conflict('ERR_INTEGRATION_IN_USE', 'Queues or connections use this integration: remove it first', {
        queues: usingQueues.map((q) => ({ id: q.id, name: q.name })),
        connections: usingConnections.map((c) => ({ id: c.id, name: c.name })),
        names: [...usingQueues, ...usingConnections].map((x) => x.name).join(', '),
      });
    }
    await deleteIntegration(current);
  });
  await announce(companyId, { action: 'delete', integrationId: id });
};

/** The integration's secrets opened, for a call (never for a view). */
export const openIntegrationSecrets = async (
  i: QueueIntegration,
): Promise<{ privateKey: string | null; webhookSecret: string | null }> => ({
  privateKey: i.privateKeyCipher ? await decryptSecret(SECRET, i.privateKeyCipher) : null,
  webhookSecret: i.webhookSecretCipher ? await decryptSecret(SECRET, i.webhookSecretCipher) : null,
});

/**
 * `POST /queueIntegration/testSession` (projectName, jsonContent, language): one detectIntent of 'Olá'
 * with the JSON given (or, when its private_key is SECRET_MASK, the stored key of `integrationId`).
 * Answers what the agent said, or why the call failed — a provider failure is the test's result, not an
 * error of this request.
 */
export const testDialogflowSession = async (auth: AuthContext, input: TestSessionInput): Promise<TestSessionResult> => {
  const account = parseServiceAccount(input.jsonContent);
  if (!account) {
    throw new ValidationError([
      { field: 'body.jsonContent', reason: 'must be a service account JSON with client_email and private_key' },
    ]);
  }
  let privateKey = account.privateKey;
  if (privateKey === SECRET_MASK) {
    const stored = input.integrationId ? await getIntegration(auth.companyId, input.integrationId) : null;
    if (!stored?.privateKeyCipher) {
      throw new ValidationError([{ field: 'body.jsonContent', reason: 'Required: private_key' }]);
    }
    privateKey = await decryptSecret(SECRET, stored.privateKeyCipher);
  }
  try {
    const answer = await dialogflowDetectIntent(
      { ...account, privateKey },
      { projectName: input.projectName, language: input.language ?? 'pt-BR', sessionId: `test-${auth.userId}` },
      'Olá',
    );
    return { success: true, message: answer.join('\n') || '(sem resposta)' };
  } catch (err) {
    return { success: false, message: err instanceof Error ? err.message : 'falhou' };
  }
};
