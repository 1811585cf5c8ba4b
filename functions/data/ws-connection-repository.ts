import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { mapDynamoErrors } from './errors';
import { company, fnv1a } from './keys';

/**
 * WebSocket connections (docs/data-model.md, "WebSocket connection").
 * - `pk = WS#<connectionId>, sk = WS`: lookup for $disconnect and GoneException cleanup, which only know
 *   the connection id (API Gateway's ids are random, so this item reveals nothing about a tenant).
 * - `pk = C#<c>#WS, sk = <connectionId>`: the company's connections, the publisher's fan-out Query.
 * Both expire through `ttl` (API Gateway closes idle sockets after 10 minutes and any socket after 2 h).
 */
export interface WsConnection {
  connectionId: string;
  companyId: number;
  userId: number;
  profile: 'admin' | 'user';
  super: boolean;
  rooms: string[];
  connectedAt: string;
  /**
   * The company's due date when the socket connected: the publisher delivers nothing to, and closes, a
   * socket whose company expired since (decisions D157). Absent on sockets stored before it was kept.
   */
  dueDate?: string;
}

export const CONNECTION_TTL_SECONDS = 2 * 3600 + 300;

const lookupKey = (connectionId: string) => ({ pk: `WS#${connectionId}`, sk: 'WS' });
const companyKey = (companyId: number, connectionId: string) => ({ pk: `${company(companyId)}#WS`, sk: connectionId });

/**
 * Platform events (announcements, decisions D144) reach every socket of every company through one more
 * listing of the company socket item: gsi2 `SOCKETS#<s>` → `<connectionId>`, spread over PLATFORM_SOCKET_SHARDS
 * partitions by the connection id. The publisher reads the shards; no company's socket list is read.
 */
export const PLATFORM_SOCKET_SHARDS = 8;
const platformSocketKeys = (connectionId: string) => ({
  gsi2pk: `SOCKETS#${fnv1a(connectionId) % PLATFORM_SOCKET_SHARDS}`,
  gsi2sk: connectionId,
});

export const putConnection = async (c: WsConnection, now = Date.now()): Promise<void> => {
  const ttl = Math.floor(now / 1000) + CONNECTION_TTL_SECONDS;
  await transactWrite([
    {
      Put: {
        Item: { ...lookupKey(c.connectionId), companyId: c.companyId, userId: c.userId, ttl },
      },
    },
    {
      Put: {
        // `rooms` is a string set (ADD / DELETE keep it unique); DynamoDB has no empty sets.
        Item: {
          ...companyKey(c.companyId, c.connectionId),
          ...platformSocketKeys(c.connectionId),
          ...c,
          rooms: c.rooms.length > 0 ? new Set(c.rooms) : undefined,
          ttl,
        },
      },
    },
  ]);
};

export const getConnectionOwner = async (
  connectionId: string,
): Promise<{ companyId: number; userId: number } | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: lookupKey(connectionId) })),
  );
  if (!out.Item) return null;
  return { companyId: Number(out.Item.companyId), userId: Number(out.Item.userId) };
};

export const getConnection = async (companyId: number, connectionId: string): Promise<WsConnection | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: companyKey(companyId, connectionId) })),
  );
  return out.Item ? toConnection(out.Item) : null;
};

export const deleteConnection = async (connectionId: string): Promise<void> => {
  const owner = await getConnectionOwner(connectionId);
  await mapDynamoErrors(() => db().send(new DeleteCommand({ TableName: tableName(), Key: lookupKey(connectionId) })));
  if (owner) {
    await mapDynamoErrors(() =>
      db().send(new DeleteCommand({ TableName: tableName(), Key: companyKey(owner.companyId, connectionId) })),
    );
  }
};

const toConnection = (item: Record<string, unknown>): WsConnection => ({
  connectionId: String(item.connectionId),
  companyId: Number(item.companyId),
  userId: Number(item.userId),
  profile: item.profile === 'admin' ? 'admin' : 'user',
  super: item.super === true,
  rooms:
    item.rooms instanceof Set || Array.isArray(item.rooms)
      ? [...(item.rooms as Iterable<unknown>)].map(String).sort()
      : [],
  connectedAt: String(item.connectedAt),
  ...(typeof item.dueDate === 'string' ? { dueDate: item.dueDate } : {}),
});

/** All live connections of a company (the fan-out set; expired ones are filtered by ttl). */
export const listCompanyConnections = async (companyId: number, now = Date.now()): Promise<WsConnection[]> => {
  const result: WsConnection[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: '#ttl > :now',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':pk': `${company(companyId)}#WS`, ':now': Math.floor(now / 1000) },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    result.push(...(out.Items ?? []).map(toConnection));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return result;
};

/**
 * Adds or removes rooms of a connection (a room is an interest, not a grant: the publisher's audience
 * still decides who may see each event). Returns the connection's rooms afterwards; null when the
 * connection is not registered.
 */
export const changeRooms = async (
  companyId: number,
  connectionId: string,
  change: { join?: string[]; leave?: string[] },
): Promise<string[] | null> => {
  const join = change.join ?? [];
  const leave = change.leave ?? [];
  if (join.length === 0 && leave.length === 0) return (await getConnection(companyId, connectionId))?.rooms ?? null;
  const clauses = [join.length > 0 ? 'ADD #rooms :join' : '', leave.length > 0 ? 'DELETE #rooms :leave' : ''].filter(
    Boolean,
  );
  try {
    const out = await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: companyKey(companyId, connectionId),
          UpdateExpression: clauses.join(' '),
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#rooms': 'rooms' },
          ExpressionAttributeValues: {
            ...(join.length > 0 ? { ':join': new Set(join) } : {}),
            ...(leave.length > 0 ? { ':leave': new Set(leave) } : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return out.Attributes ? toConnection(out.Attributes).rooms : [];
  } catch (err) {
    if (err instanceof Conflict) return null;
    throw err;
  }
};

/**
 * Every live socket of the platform (announcements, D144): one Query per shard of gsi2 `SOCKETS#<s>`,
 * cost O(sockets). Expired ones are filtered by ttl; a socket made a moment ago may be missing (the index
 * is eventually consistent), and the browser refetches the list on connect.
 */
export const listPlatformConnections = async (now = Date.now()): Promise<WsConnection[]> => {
  const shards = await Promise.all(
    Array.from({ length: PLATFORM_SOCKET_SHARDS }, async (_, shard) => {
      const found: WsConnection[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const out = await mapDynamoErrors(() =>
          db().send(
            new QueryCommand({
              TableName: tableName(),
              IndexName: 'gsi2',
              KeyConditionExpression: 'gsi2pk = :pk',
              FilterExpression: '#ttl > :now',
              ExpressionAttributeNames: { '#ttl': 'ttl' },
              ExpressionAttributeValues: { ':pk': `SOCKETS#${shard}`, ':now': Math.floor(now / 1000) },
              ...(startKey ? { ExclusiveStartKey: startKey } : {}),
            }),
          ),
        );
        found.push(...(out.Items ?? []).map(toConnection));
        startKey = out.LastEvaluatedKey;
      } while (startKey);
      return found;
    }),
  );
  return shards.flat();
};
