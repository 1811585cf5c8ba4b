import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, Forbidden, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { nextId } from './counter-repository';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';

/**
 * User: `pk = C#<c>#USER, sk = USER#<pad id>`, by name on gsi1 (`C#<c>#USER`, `<searchForm name>#<pad id>`).
 * The platform-wide unique e-mail is a guard item `pk = EMAIL#<sha256(lower-cased e-mail)>, sk = EMAIL`
 * written in the same transaction, which also serves the login lookup (e-mail -> company and user) with
 * one GetItem. Hashed so addresses never appear in keys (keys surface in AWS diagnostics).
 */
export interface User {
  id: number;
  companyId: number;
  name: string;
  email: string;
  passwordHash: string;
  profile: 'admin' | 'user';
  super: boolean;
  startWork: string;
  endWork: string;
  farewellMessage: string;
  allTicket: 'enable' | 'disable';
  allowGroup: boolean;
  allHistoric: 'enabled' | 'disabled';
  allUserChat: 'enabled' | 'disabled';
  userClosePendingTicket: 'enabled' | 'disabled';
  showDashboard: 'enabled' | 'disabled';
  allowRealTime: 'enabled' | 'disabled';
  allowConnections: 'enabled' | 'disabled';
  defaultTheme: 'light' | 'dark';
  defaultMenu: 'open' | 'closed';
  whatsappId: number | null;
  queueIds: number[];
  profileImage: string | null;
  online: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The spec's defaults (core §3, User). */
export const USER_DEFAULTS = {
  super: false,
  startWork: '00:00',
  endWork: '23:59',
  farewellMessage: '',
  allTicket: 'disable',
  allowGroup: false,
  allHistoric: 'disabled',
  allUserChat: 'disabled',
  userClosePendingTicket: 'enabled',
  showDashboard: 'disabled',
  allowRealTime: 'disabled',
  allowConnections: 'disabled',
  defaultTheme: 'light',
  defaultMenu: 'open',
  whatsappId: null,
  queueIds: [],
  profileImage: null,
  online: false,
} as const satisfies Partial<User>;

export const userKeys = (companyId: number, id: number) => ({
  pk: `${company(companyId)}#USER`,
  sk: `USER#${pad(id)}`,
});
export const emailHash = (email: string): string =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
export const emailKeys = (email: string) => ({ pk: `EMAIL#${emailHash(email)}`, sk: 'EMAIL' });

const toUser = (item: Record<string, unknown>): User => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, ...rest } = item;
  return rest as unknown as User;
};

export type NewUser = Pick<User, 'name' | 'email' | 'passwordHash' | 'profile'> &
  Partial<Omit<User, 'id' | 'companyId'>>;

/**
 * The company's live user count (for the plan limit): `pk = C#<c>#USAGE, sk = users`, attribute `n`, kept
 * in the same transactions that create and delete users, so it cannot drift.
 */
export const userUsageKeys = (companyId: number) => ({ pk: `${company(companyId)}#USAGE`, sk: 'users' });

export const userIndexKeys = (companyId: number, id: number, name: string) => ({
  gsi1pk: `${company(companyId)}#USER`,
  gsi1sk: `${searchForm(name)}#${pad(id)}`,
});

export const createUser = async (
  companyId: number,
  input: NewUser,
  options: { maxUsers?: number } = {},
): Promise<User> => {
  const id = await nextId(companyId, 'user');
  const now = new Date().toISOString();
  const user: User = {
    ...USER_DEFAULTS,
    queueIds: [],
    ...input,
    email: input.email.trim().toLowerCase(),
    id,
    companyId,
    createdAt: now,
    updatedAt: now,
  };
  const limited = options.maxUsers !== undefined;
  await transactWrite(
    [
      {
        Update: {
          Key: userUsageKeys(companyId),
          UpdateExpression: 'ADD n :one',
          ...(limited ? { ConditionExpression: 'attribute_not_exists(n) OR n < :max' } : {}),
          ExpressionAttributeValues: { ':one': 1, ...(limited ? { ':max': options.maxUsers } : {}) },
        },
      },
      {
        Put: {
          Item: { ...emailKeys(user.email), companyId, userId: id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          Item: { ...userKeys(companyId, id), ...userIndexKeys(companyId, id, user.name), ...user },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    (failure) =>
      failure.reasons?.[0] === 'ConditionalCheckFailed'
        ? new Forbidden('ERR_PLAN_LIMIT_USERS', 'The plan allows no more users', { limit: options.maxUsers })
        : new Conflict('ERR_EMAIL_ALREADY_EXISTS', 'An account with this e-mail already exists'),
  );
  return user;
};

export const getUser = async (companyId: number, id: number): Promise<User | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: userKeys(companyId, id) })),
  );
  return out.Item ? toUser(out.Item) : null;
};

/** Login lookup: which company and user own an e-mail (null when unknown). */
export const findUserIdByEmail = async (email: string): Promise<{ companyId: number; userId: number } | null> => {
  const out = await mapDynamoErrors(() => db().send(new GetCommand({ TableName: tableName(), Key: emailKeys(email) })));
  if (!out.Item) return null;
  return { companyId: Number(out.Item.companyId), userId: Number(out.Item.userId) };
};

export const countUsers = async (companyId: number): Promise<number> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: userUsageKeys(companyId) })),
  );
  return Number(out.Item?.n ?? 0);
};

/** Name-ordered page of a company's users, optionally by name prefix (gsi1). O(page). */
export const listUsers = async (
  companyId: number,
  q: { search?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<User>> => {
  const prefix = q.search ? searchForm(q.search) : '';
  const partition = `${company(companyId)}#USER`;
  const page = await queryPage<Record<string, unknown>>({
    scope: `${partition}#${prefix}`,
    index: 'gsi1',
    partition,
    sortPrefix: prefix || undefined,
    limit: q.limit,
    cursor: q.cursor,
  });
  return { ...page, items: page.items.map(toUser) };
};

/** Every user's id and queues (a queue's removal unlinks it); a company has at most its plan's users. */
export const listUserQueueIds = async (companyId: number): Promise<{ id: number; queueIds: number[] }[]> => {
  const result: { id: number; queueIds: number[] }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': `${company(companyId)}#USER` },
          ProjectionExpression: 'id, queueIds',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    result.push(
      ...(out.Items ?? []).map((i) => ({ id: Number(i.id), queueIds: ((i.queueIds ?? []) as number[]).map(Number) })),
    );
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return result;
};

/** What a queue's rotation needs of every user (decisions D97): queues, working hours, last presence. */
export interface UserRouting {
  id: number;
  queueIds: number[];
  startWork?: string;
  endWork?: string;
  lastSeenAt?: string;
}

/** Every user's routing fields; a company has at most its plan's users (tens). Read once per due rotation. */
export const listUserRouting = async (companyId: number): Promise<UserRouting[]> => {
  const result: UserRouting[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': `${company(companyId)}#USER` },
          ProjectionExpression: 'id, queueIds, startWork, endWork, lastSeenAt',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    for (const i of out.Items ?? []) {
      result.push({
        id: Number(i.id),
        queueIds: ((i.queueIds ?? []) as number[]).map(Number),
        ...(typeof i.startWork === 'string' ? { startWork: i.startWork } : {}),
        ...(typeof i.endWork === 'string' ? { endWork: i.endWork } : {}),
        ...(typeof i.lastSeenAt === 'string' ? { lastSeenAt: i.lastSeenAt } : {}),
      });
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return result;
};

/** Every user's id and name, for pickers; a company has at most its plan's users (tens). */
export const listUserNames = async (companyId: number): Promise<{ id: number; name: string }[]> => {
  const result: { id: number; name: string }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': `${company(companyId)}#USER` },
          ProjectionExpression: 'id, #name',
          ExpressionAttributeNames: { '#name': 'name' },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    result.push(...(out.Items ?? []).map((i) => ({ id: Number(i.id), name: String(i.name) })));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return result;
};

/** Fields a user record may change through the users API (the service decides who may change which). */
export type UserChanges = Partial<Omit<User, 'id' | 'companyId' | 'createdAt' | 'updatedAt' | 'super'>>;

/**
 * Applies changes to an existing user in one transaction: a new e-mail moves the platform-wide guard
 * (the new one must be free), a new name moves the search key. 404 when the user does not exist.
 */
export const updateUser = async (companyId: number, id: number, changes: UserChanges): Promise<User> => {
  const current = await getUser(companyId, id);
  if (!current) throw new NotFound('ERR_NO_USER_FOUND', 'User not found');
  const email = changes.email === undefined ? current.email : changes.email.trim().toLowerCase();
  const next: User = { ...current, ...changes, email, updatedAt: new Date().toISOString() };
  const emailMoves = email !== current.email;
  await transactWrite(
    [
      {
        Put: {
          Item: { ...userKeys(companyId, id), ...userIndexKeys(companyId, id, next.name), ...next },
          ConditionExpression: 'updatedAt = :seen',
          ExpressionAttributeValues: { ':seen': current.updatedAt },
        },
      },
      ...(emailMoves
        ? [
            {
              Delete: {
                Key: emailKeys(current.email),
                ConditionExpression: 'userId = :id AND companyId = :c',
                ExpressionAttributeValues: { ':id': id, ':c': companyId },
              },
            },
            {
              Put: {
                Item: { ...emailKeys(email), companyId, userId: id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ]
        : []),
    ],
    (failure) =>
      failure.reasons?.[0] === 'ConditionalCheckFailed'
        ? new Conflict('ERR_CONFLICT', 'The user changed meanwhile, reload and try again')
        : new Conflict('ERR_EMAIL_ALREADY_EXISTS', 'An account with this e-mail already exists'),
  );
  return next;
};

/** Removes a user, its e-mail guard and one from the usage count, all or nothing. */
export const deleteUser = async (companyId: number, id: number): Promise<void> => {
  const current = await getUser(companyId, id);
  if (!current) throw new NotFound('ERR_NO_USER_FOUND', 'User not found');
  await transactWrite(
    [
      {
        Delete: {
          Key: userKeys(companyId, id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      { Delete: { Key: emailKeys(current.email) } },
      {
        Update: {
          Key: userUsageKeys(companyId),
          UpdateExpression: 'ADD n :minus',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ],
    () => new NotFound('ERR_NO_USER_FOUND', 'User not found'),
  );
};
