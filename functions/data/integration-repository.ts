import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IntegrationType, PromptVoice } from '../contracts/integrations';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { isConditionalFailure, mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';

/**
 * Queue integrations and AI prompts (administration spec §3; docs/data-model.md §2.27, §3.11; decisions
 * D162–D165). Each is one item in its company's partition, listed by name on gsi1:
 * - `C#<c>#QUEUEINTEGRATION / QUEUEINTEGRATION#<pad id>`, gsi1 `C#<c>#QUEUEINTEGRATION` → `<sf name>#<pad id>`;
 * - `C#<c>#PROMPT / PROMPT#<pad id>`, gsi1 `C#<c>#PROMPT` → `<sf name>#<pad id>`.
 * Secrets are held sealed (`*Cipher`, AES-GCM, functions/shared/token-cipher.ts); the service opens them
 * only to call the provider. Writes are conditional on `version` as read.
 *
 * The runtime's per-ticket state lives in the ticket's partition (so the ticket cascade removes it):
 * - `C#<c>#T#<t> / INTSESSION` — the integration answering the ticket: which, its provider session
 *   (typebot's sessionId), the last customer message it read, when it expires;
 * - `C#<c>#T#<t> / INTCALL#<ulid>` — the claim of one call for the burst that ended with message `ulid`
 *   (claimed before the call, with a lease, so a redelivery or a second worker never calls twice).
 */
export interface QueueIntegration {
  id: number;
  companyId: number;
  name: string;
  type: IntegrationType;
  projectName: string | null;
  /** The service account JSON without its private key (shown); the key is `privateKeyCipher`. */
  jsonPublic: string | null;
  privateKeyCipher: string | null;
  language: string | null;
  urlN8N: string | null;
  typebotSlug: string | null;
  typebotExpires: number | null;
  typebotKeywordFinish: string | null;
  typebotKeywordRestart: string | null;
  typebotRestartMessage: string | null;
  typebotUnknownMessage: string | null;
  typebotDelayMessage: number | null;
  flowId: number | null;
  webhookSecretCipher: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface Prompt {
  id: number;
  companyId: number;
  name: string;
  prompt: string;
  voice: PromptVoice;
  voiceKeyCipher: string | null;
  voiceRegion: string | null;
  maxTokens: number;
  temperature: number;
  apiKeyCipher: string;
  queueId: number;
  maxMessages: number;
  version: number;
  createdAt: string;
  updatedAt: string;
}

type Kind = 'QUEUEINTEGRATION' | 'PROMPT';
const partitionOf = (companyId: number, kind: Kind): string => `${company(companyId)}#${kind}`;
const keysOf = (companyId: number, kind: Kind, id: number) => ({
  pk: partitionOf(companyId, kind),
  sk: `${kind}#${pad(id)}`,
});
export const integrationKeys = (companyId: number, id: number) => keysOf(companyId, 'QUEUEINTEGRATION', id);
export const promptKeys = (companyId: number, id: number) => keysOf(companyId, 'PROMPT', id);

const itemOf = (kind: Kind, e: { companyId: number; id: number; name: string }) => ({
  ...keysOf(e.companyId, kind, e.id),
  gsi1pk: partitionOf(e.companyId, kind),
  gsi1sk: `${searchForm(e.name)}#${pad(e.id)}`,
  type: kind,
  ...e,
});
const strip = <T>(item: Record<string, unknown>): T => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, type: _t, ...rest } = item;
  // `type` is also a queue integration's own field: keep it there.
  return (item.type === 'QUEUEINTEGRATION' ? { ...rest, type: item.integrationType } : rest) as T;
};

export const integrationNotFound = () => new NotFound('ERR_NO_INTEGRATION_FOUND', 'Integration not found');
export const promptNotFound = () => new NotFound('ERR_NO_PROMPT_FOUND', 'Prompt not found');
const changedMeanwhile = () => new Conflict('ERR_CONFLICT', 'It changed meanwhile, reload it');

/** The item of a queue integration: its own `type` field is stored as `integrationType`. */
const integrationItem = (i: QueueIntegration) => {
  const { type, ...rest } = i;
  return { ...itemOf('QUEUEINTEGRATION', rest), integrationType: type };
};

const get = async (key: { pk: string; sk: string }): Promise<Record<string, unknown> | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true })),
  );
  return out.Item ?? null;
};

const save = async (item: Record<string, unknown>, seen: number): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: item,
          ConditionExpression: 'attribute_exists(pk) AND version = :seen',
          ExpressionAttributeValues: { ':seen': seen },
        }),
      ),
    changedMeanwhile,
  );
};

const remove = async (key: { pk: string; sk: string }, seen: number): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: key,
          ConditionExpression: 'attribute_exists(pk) AND version = :seen',
          ExpressionAttributeValues: { ':seen': seen },
        }),
      ),
    changedMeanwhile,
  );
};

const list = async <T>(
  companyId: number,
  kind: Kind,
  q: { search?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<T>> => {
  const partition = partitionOf(companyId, kind);
  const prefix = q.search ? searchForm(q.search) : '';
  const page = await queryPage<Record<string, unknown>>({
    scope: `${partition}#${prefix}`,
    index: 'gsi1',
    partition,
    sortPrefix: prefix || undefined,
    limit: q.limit,
    cursor: q.cursor,
  });
  return { ...page, items: page.items.map((i) => strip<T>(i)) };
};

// ------------------------------------------------------------------------------------------ integrations

export type NewIntegration = Omit<QueueIntegration, 'id' | 'companyId' | 'version' | 'createdAt' | 'updatedAt'>;

export const createIntegration = async (companyId: number, input: NewIntegration): Promise<QueueIntegration> => {
  const id = await nextId(companyId, 'queueIntegration');
  const now = new Date().toISOString();
  const integration: QueueIntegration = { ...input, id, companyId, version: 1, createdAt: now, updatedAt: now };
  await createItem(integrationItem(integration));
  return integration;
};

export const getIntegration = async (companyId: number, id: number): Promise<QueueIntegration | null> => {
  const item = await get(integrationKeys(companyId, id));
  return item ? strip<QueueIntegration>(item) : null;
};

export const saveIntegration = async (
  current: QueueIntegration,
  changes: Partial<NewIntegration>,
): Promise<QueueIntegration> => {
  const next = { ...current, ...changes, version: current.version + 1, updatedAt: new Date().toISOString() };
  await save(integrationItem(next), current.version);
  return next;
};

export const deleteIntegration = (current: QueueIntegration): Promise<void> =>
  remove(integrationKeys(current.companyId, current.id), current.version);

export const listIntegrations = (
  companyId: number,
  q: { search?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<QueueIntegration>> => list<QueueIntegration>(companyId, 'QUEUEINTEGRATION', q);

// ---------------------------------------------------------------------------------------------- prompts

export type NewPrompt = Omit<Prompt, 'id' | 'companyId' | 'version' | 'createdAt' | 'updatedAt'>;

export const createPrompt = async (companyId: number, input: NewPrompt): Promise<Prompt> => {
  const id = await nextId(companyId, 'prompt');
  const now = new Date().toISOString();
  const prompt: Prompt = { ...input, id, companyId, version: 1, createdAt: now, updatedAt: now };
  await createItem(itemOf('PROMPT', prompt));
  return prompt;
};

export const getPrompt = async (companyId: number, id: number): Promise<Prompt | null> => {
  const item = await get(promptKeys(companyId, id));
  return item ? strip<Prompt>(item) : null;
};

export const savePrompt = async (current: Prompt, changes: Partial<NewPrompt>): Promise<Prompt> => {
  const next = { ...current, ...changes, version: current.version + 1, updatedAt: new Date().toISOString() };
  await save(itemOf('PROMPT', next), current.version);
  return next;
};

export const deletePrompt = (current: Prompt): Promise<void> =>
  remove(promptKeys(current.companyId, current.id), current.version);

export const listPrompts = (
  companyId: number,
  q: { search?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<Prompt>> => list<Prompt>(companyId, 'PROMPT', q);

// ------------------------------------------------------------------------- the runtime, per ticket

export interface IntegrationSession {
  companyId: number;
  ticketId: number;
  /** `integration:<id>` or `prompt:<id>`. */
  source: string;
  /** The provider's own session (typebot's sessionId), once started. */
  providerSession: string | null;
  /** ULID of the last customer message a call has read (the next call reads what came after). */
  lastRead: string;
  /** ULID of the newest customer message waiting for the debounce to fire. */
  latest: string;
  status: 'active' | 'ended';
  endReason: string | null;
  expiresAt: string | null;
  updatedAt: string;
}

const ticketPartition = (companyId: number, ticketId: number) => `${company(companyId)}#T#${ticketId}`;
export const sessionKeys = (companyId: number, ticketId: number) => ({
  pk: ticketPartition(companyId, ticketId),
  sk: 'INTSESSION',
});

export const getIntegrationSession = async (
  companyId: number,
  ticketId: number,
): Promise<IntegrationSession | null> => {
  const item = await get(sessionKeys(companyId, ticketId));
  if (!item) return null;
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as unknown as IntegrationSession;
};

/**
 * A customer message for the ticket's integration: starts the session (or restarts an ended one for a
 * new `source`) and moves `latest` forward, never back — so of a burst only the newest message's timer
 * finds itself the latest and makes the call. Answers the session as written.
 */
export const noteIntegrationMessage = async (
  companyId: number,
  ticketId: number,
  source: string,
  ulid: string,
  since: string,
): Promise<IntegrationSession> => {
  const now = new Date().toISOString();
  const out = await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sessionKeys(companyId, ticketId),
        UpdateExpression:
          'SET companyId = :c, ticketId = :t, #source = if_not_exists(#source, :s), providerSession = if_not_exists(providerSession, :null), ' +
          'lastRead = if_not_exists(lastRead, :since), #status = if_not_exists(#status, :active), ' +
          'endReason = if_not_exists(endReason, :null), expiresAt = if_not_exists(expiresAt, :null), latest = :u, updatedAt = :now',
        ConditionExpression: 'attribute_not_exists(latest) OR latest < :u',
        ExpressionAttributeNames: { '#source': 'source', '#status': 'status' },
        ExpressionAttributeValues: {
          ':c': companyId,
          ':t': ticketId,
          ':s': source,
          ':u': ulid,
          ':since': since,
          ':active': 'active',
          ':null': null,
          ':now': now,
        },
        ReturnValues: 'ALL_NEW',
      }),
    )
    .catch(async (err: unknown) => {
      if (isConditionalFailure(err)) return { Attributes: await get(sessionKeys(companyId, ticketId)) };
      throw err;
    });
  const { pk: _pk, sk: _sk, ...rest } = (out.Attributes ?? {}) as Record<string, unknown>;
  return rest as unknown as IntegrationSession;
};

/** A new session replaces an ended one (another source, or after a restart keyword). */
export const resetIntegrationSession = async (session: IntegrationSession, source: string): Promise<void> => {
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sessionKeys(session.companyId, session.ticketId),
        UpdateExpression:
          'SET #source = :s, #status = :active, providerSession = :null, endReason = :null, expiresAt = :null, updatedAt = :now',
        ConditionExpression: 'updatedAt = :seen',
        ExpressionAttributeNames: { '#source': 'source', '#status': 'status' },
        ExpressionAttributeValues: {
          ':s': source,
          ':active': 'active',
          ':null': null,
          ':now': new Date().toISOString(),
          ':seen': session.updatedAt,
        },
      }),
    )
    .catch((err: unknown) => {
      if (!isConditionalFailure(err)) throw err;
    });
};

/**
 * Writes what a call changed: messages read up to `lastRead` (never back), the provider's session, and
 * whether the session ended. Conditional on `lastRead` not being past it already (a late duplicate).
 */
export const advanceIntegrationSession = async (
  companyId: number,
  ticketId: number,
  change: {
    lastRead: string;
    providerSession?: string | null;
    expiresAt?: string | null;
    end?: string;
  },
): Promise<boolean> => {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = {
    ':r': change.lastRead,
    ':now': new Date().toISOString(),
    ':status': change.end ? 'ended' : 'active',
    ':reason': change.end ?? null,
  };
  const sets = ['lastRead = :r', 'updatedAt = :now', '#status = :status', 'endReason = :reason'];
  if (change.providerSession !== undefined) {
    sets.push('providerSession = :ps');
    values[':ps'] = change.providerSession;
  }
  if (change.expiresAt !== undefined) {
    sets.push('expiresAt = :ex');
    values[':ex'] = change.expiresAt;
  }
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sessionKeys(companyId, ticketId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk) AND lastRead <= :r',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (err) {
    if (isConditionalFailure(err)) return false;
    throw err;
  }
};

/** Ends the ticket's session (a person took the ticket, or the bot handed over). */
export const endIntegrationSession = async (companyId: number, ticketId: number, reason: string): Promise<void> => {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sessionKeys(companyId, ticketId),
        UpdateExpression: 'SET #status = :ended, endReason = :reason, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND #status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':ended': 'ended',
          ':active': 'active',
          ':reason': reason,
          ':now': new Date().toISOString(),
        },
      }),
    );
  } catch (err) {
    if (!isConditionalFailure(err)) throw err;
  }
};

/**
 * Claims the call for the burst ending at `ulid`: a new claim, or one whose lease ran out without being
 * done (the worker died mid-call). Answers false when another holds it or it is done.
 */
export const claimIntegrationCall = async (
  companyId: number,
  ticketId: number,
  ulid: string,
  leaseMs: number,
): Promise<boolean> => {
  const now = Date.now();
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          pk: ticketPartition(companyId, ticketId),
          sk: `INTCALL#${ulid}`,
          status: 'claimed',
          leaseUntil: new Date(now + leaseMs).toISOString(),
          // Kept a day: the claim only matters while its messages can be redelivered.
          ttl: Math.floor(now / 1000) + 24 * 3600,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR (#status = :claimed AND leaseUntil < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':claimed': 'claimed', ':now': new Date(now).toISOString() },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionalFailure(err)) return false;
    throw err;
  }
};

export const finishIntegrationCall = async (companyId: number, ticketId: number, ulid: string): Promise<void> => {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: ticketPartition(companyId, ticketId), sk: `INTCALL#${ulid}` },
      UpdateExpression: 'SET #status = :done',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':done': 'done' },
    }),
  );
};
