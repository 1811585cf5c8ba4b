import { createHash, randomInt } from 'node:crypto';
import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { ConnectionChannel, ConnectionStatus } from '../contracts/connections';
import { BadRequest, Conflict, DomainError, Forbidden, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { companyKeys } from './company-repository';
import { nextId } from './counter-repository';
import { mapDynamoErrors, type ConditionalFailure } from './errors';
import { company, pad } from './keys';
import { queryPage, type Page } from './query-page';
import type { ScheduleEntry } from './queue-repository';
import { leaseKeys } from './wa-lease-repository';

/**
 * WhatsApp connection (docs/data-model.md §2.9). Items:
 * - connection `pk = C#<c>#WHATSAPP, sk = WHATSAPP#<pad id>`, on gsi2 `WHATSAPPS` → `<pad c>#<pad id>`
 *   (the platform owner's overview of every company's connections);
 * - default pointer `pk = C#<c>#WHATSAPP, sk = DEFAULT` (whatsappId): `isDefault` on the wire is derived
 *   from it, so "exactly one default per company" holds by construction — making a connection the
 *   default is one compare-and-swap of this item, never two flags to keep in step;
 * - id pointer `pk = WHATSAPPID#<pad id>, sk = WHATSAPPID` (companyId): ids come from the platform counter
 *   `whatsapp`, and the super routes and the worker name a connection by id alone;
 * - API-token lookup `pk = APIKEY#<sha256(token)>, sk = APIKEY` (companyId, whatsappId) for the external API;
 * - plan usage `pk = C#<c>#USAGE, sk = whatsapps` (attribute `n`), moved in the create and delete
 *   transactions like the users' count, so the plan's `connections` limit cannot be overshot.
 */
export type { ConnectionChannel, ConnectionStatus } from '../contracts/connections';
/**
 * What the API asks the WhatsApp workers to do (the `worker-control` queue, decisions D24); `scan` is the
 * phone simulator's "the QR code was scanned" (simulator driver only).
 */
export type SessionCommand = 'start' | 'new-qr' | 'disconnect' | 'restart' | 'scan';

export interface Connection {
  id: number;
  companyId: number;
  name: string;
  number: string;
  channel: ConnectionChannel;
  status: ConnectionStatus;
  /** Derived from the DEFAULT pointer; never stored on the connection item. */
  isDefault: boolean;
  token: string;
  qrcode: string;
  retries: number;
  queueIds: number[];
  schedules: ScheduleEntry[];
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  sendIdQueue: number | null;
  timeSendQueue: number;
  maxUseBotQueues: number;
  maxUseBotQueuesNPS: number;
  timeUseBotQueues: number;
  provider: 'beta' | 'stable';
  expiresTicket: number;
  expiresTicketNPS: number;
  expiresInactiveMessage: string;
  timeInactiveMessage: number;
  inactiveMessage: string;
  whenExpiresTicket: '0' | '1';
  timeCreateNewTicket: number;
  allowGroup: boolean;
  groupAsTicket: 'enabled' | 'disabled';
  /** Media key of the greeting attachment (`c/<c>/connections/<id>/…`); the wire shows its URL. */
  greetingMediaAttachment: string | null;
  importOldMessages: string | null;
  importRecentMessages: string | null;
  importOldMessagesGroups: boolean;
  closedTicketsPostImported: boolean;
  /** '' | preparing | running | renderButtonCloseTickets (data/message-import-repository.ts, decisions D78). */
  statusImportMessages: string;
  /** When the running (or last) import of old messages began; null when none shows. */
  importStartedAt?: string | null;
  collectiveVacationStart: string | null;
  collectiveVacationEnd: string | null;
  collectiveVacationMessage: string;
  integrationId: number | null;
  promptId: number | null;
  flowIdWelcome: number | null;
  flowIdNotPhrase: number | null;
  createdAt: string;
  updatedAt: string;
  /** Bumped by every admin edit; admin updates are conditional on it (status writes are not). */
  version: number;
  /** The last session command the API asked for, and when: workers drop older, reordered commands. */
  sessionCommand?: SessionCommand;
  sessionCommandAt?: string;
}

/** Spec core §3 / §9: the week with two shifts, 08:00–12:00 and 13:00–18:00, every day. */
export const WEEKDAYS: readonly { weekday: string; weekdayEn: string }[] = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday' },
  { weekday: 'Sábado', weekdayEn: 'saturday' },
  { weekday: 'Domingo', weekdayEn: 'sunday' },
];

export const defaultSchedules = (): ScheduleEntry[] =>
  WEEKDAYS.map((d) => ({ ...d, startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' }));

/** The spec's connection defaults (core §3, §9). */
export const CONNECTION_DEFAULTS = {
  number: '',
  qrcode: '',
  retries: 0,
  queueIds: [] as number[],
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  ratingMessage: '',
  sendIdQueue: null,
  timeSendQueue: 0,
  maxUseBotQueues: 3,
  maxUseBotQueuesNPS: 3,
  timeUseBotQueues: 0,
  provider: 'beta',
  expiresTicket: 0,
  expiresTicketNPS: 0,
  expiresInactiveMessage: '',
  timeInactiveMessage: 0,
  inactiveMessage: '',
  whenExpiresTicket: '0',
  timeCreateNewTicket: 0,
  allowGroup: false,
  groupAsTicket: 'disabled',
  greetingMediaAttachment: null,
  importOldMessages: null,
  importRecentMessages: null,
  importOldMessagesGroups: false,
  closedTicketsPostImported: false,
  statusImportMessages: '',
  importStartedAt: null,
  collectiveVacationStart: null,
  collectiveVacationEnd: null,
  collectiveVacationMessage: '',
  integrationId: null,
  promptId: null,
  flowIdWelcome: null,
  flowIdNotPhrase: null,
} as const satisfies Partial<Connection>;

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The connection token (spec: 30 random alphanumeric characters), uniform over the 62 symbols. */
export const newConnectionToken = (): string =>
  Array.from({ length: 30 }, () => TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)]).join('');

export const connectionPartition = (companyId: number): string => `${company(companyId)}#WHATSAPP`;
export const connectionKeys = (companyId: number, id: number) => ({
  pk: connectionPartition(companyId),
  sk: `WHATSAPP#${pad(id)}`,
});
export const connectionIndexKeys = (companyId: number, id: number) => ({
  gsi2pk: 'WHATSAPPS',
  gsi2sk: `${pad(companyId)}#${pad(id)}`,
});
export const defaultConnectionKeys = (companyId: number) => ({ pk: connectionPartition(companyId), sk: 'DEFAULT' });
export const connectionIdKeys = (id: number) => ({ pk: `WHATSAPPID#${pad(id)}`, sk: 'WHATSAPPID' });
export const apiTokenKeys = (token: string) => ({
  pk: `APIKEY#${createHash('sha256').update(token).digest('base64url')}`,
  sk: 'APIKEY',
});
export const connectionUsageKeys = (companyId: number) => ({ pk: `${company(companyId)}#USAGE`, sk: 'whatsapps' });

const toConnection = (item: Record<string, unknown>, defaultId: number | null): Connection => {
  const { pk: _pk, sk: _sk, gsi2pk: _a, gsi2sk: _b, type: _t, ...rest } = item;
  return { ...(rest as unknown as Connection), isDefault: Number(rest.id) === defaultId };
};

/** A write lost the race for the DEFAULT pointer: read it again and retry. Never leaves this module. */
class DefaultMoved extends DomainError {
  constructor() {
    super(409, 'ERR_CONFLICT', 'The default connection changed meanwhile');
  }
}

/** Compare-and-swap attempts on the DEFAULT pointer before giving up with a 409 (reload and try again). */
const DEFAULT_ATTEMPTS = 8;

const withDefaultRetries = async <T>(attempt: () => Promise<T>): Promise<T> => {
  for (let n = 1; ; n += 1) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof DefaultMoved) || n >= DEFAULT_ATTEMPTS) {
        if (err instanceof DefaultMoved) throw new Conflict('ERR_CONFLICT', 'Too many parallel changes, try again');
        throw err;
      }
    }
  }
};

const failedAt = (failure: ConditionalFailure, index: number): boolean =>
  failure.reasons?.[index] === 'ConditionalCheckFailed';

/** The company's default connection id (consistent read), or null when it has none. */
export const getDefaultConnectionId = async (companyId: number): Promise<number | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: defaultConnectionKeys(companyId), ConsistentRead: true })),
  );
  return out.Item ? Number(out.Item.whatsappId) : null;
};

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The write on the DEFAULT pointer that goes with a change: become the default (the pointer must still
 * hold what we read: compare-and-swap), or only require that a default exists and is still `current`.
 */
const defaultPointerWrite = (
  companyId: number,
  id: number,
  current: number | null,
  makeDefault: boolean,
): TransactItem =>
  current === null
    ? {
        Put: {
          TableName: tableName(),
          Item: { ...defaultConnectionKeys(companyId), type: 'WHATSAPP_DEFAULT', companyId, whatsappId: id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      }
    : makeDefault
      ? {
          Put: {
            TableName: tableName(),
            Item: { ...defaultConnectionKeys(companyId), type: 'WHATSAPP_DEFAULT', companyId, whatsappId: id },
            ConditionExpression: 'whatsappId = :old',
            ExpressionAttributeValues: { ':old': current },
          },
        }
      : {
          ConditionCheck: {
            TableName: tableName(),
            Key: defaultConnectionKeys(companyId),
            ConditionExpression: 'whatsappId = :old',
            ExpressionAttributeValues: { ':old': current },
          },
        };

export type NewConnection = Pick<Connection, 'name' | 'channel' | 'status'> &
  Partial<Omit<Connection, 'id' | 'companyId' | 'isDefault' | 'createdAt' | 'updatedAt' | 'version'>>;

export interface DefaultChange {
  /** The connection that was the default before this write, when this write took the default from it. */
  previousDefaultId: number | null;
}

/**
 * Creates a connection, its id pointer and API-token lookup, and counts it against the plan, all or
 * nothing. The company's first connection becomes its default; `makeDefault` takes the default from the
 * current one in the same transaction. 403 ERR_PLAN_LIMIT_CONNECTIONS when the plan is full.
 */
export const createConnection = async (
  companyId: number,
  input: NewConnection,
  options: {
    maxConnections?: number;
    makeDefault?: boolean;
    /**
     * More writes in the same transaction, given the new id (a Meta connection's `META#…` routing pointer
     * and credentials, meta-repository.ts); a failed condition among them is `onExtraFailed`'s error.
     */
    extraItems?: (id: number) => TransactItem[];
    onExtraFailed?: () => DomainError;
  } = {},
): Promise<{ connection: Connection } & DefaultChange> => {
  const id = await nextId(null, 'whatsapp');
  const now = new Date().toISOString();
  const { isDefault: _ignored, ...fields } = input as NewConnection & { isDefault?: boolean };
  const stored: Omit<Connection, 'isDefault'> = {
    ...CONNECTION_DEFAULTS,
    queueIds: [],
    schedules: defaultSchedules(),
    token: newConnectionToken(),
    ...fields,
    id,
    companyId,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const limited = options.maxConnections !== undefined;
  return withDefaultRetries(async () => {
    const current = await getDefaultConnectionId(companyId);
    const becomesDefault = current === null || options.makeDefault === true;
    await transactWrite(
      [
        {
          Update: {
            Key: connectionUsageKeys(companyId),
            UpdateExpression: 'ADD n :one',
            ...(limited ? { ConditionExpression: 'attribute_not_exists(n) OR n < :max' } : {}),
            ExpressionAttributeValues: { ':one': 1, ...(limited ? { ':max': options.maxConnections } : {}) },
          },
        },
        {
          Put: {
            Item: {
              ...connectionKeys(companyId, id),
              ...connectionIndexKeys(companyId, id),
              type: 'WHATSAPP',
              ...stored,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            Item: { ...connectionIdKeys(id), type: 'WHATSAPPID', companyId, whatsappId: id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            Item: { ...apiTokenKeys(stored.token), type: 'APIKEY', companyId, whatsappId: id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        defaultPointerWrite(companyId, id, current, becomesDefault),
        ...(options.extraItems?.(id) ?? []),
      ],
      (failure) =>
        failedAt(failure, 0)
          ? new Forbidden('ERR_PLAN_LIMIT_CONNECTIONS', 'The plan allows no more connections', {
              limit: options.maxConnections,
            })
          : failedAt(failure, 4)
            ? new DefaultMoved()
            : options.onExtraFailed && (failure.reasons ?? []).slice(5).includes('ConditionalCheckFailed')
              ? options.onExtraFailed()
              : new Conflict('ERR_CONFLICT', 'Connection id or token already taken, try again'),
    );
    return {
      connection: { ...stored, isDefault: becomesDefault },
      previousDefaultId: becomesDefault ? current : null,
    };
  });
};

const batchGet = async (keys: { pk: string; sk: string }[]): Promise<Record<string, unknown>[]> => {
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(i, i + 100);
    for (let round = 0; pending && pending.length > 0 && round < 5; round += 1) {
      const request: Record<string, unknown>[] = pending;
      const out = await mapDynamoErrors(() =>
        db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: request, ConsistentRead: true } } })),
      );
      found.push(...((out.Responses?.[tableName()] ?? []) as Record<string, unknown>[]));
      pending = out.UnprocessedKeys?.[tableName()]?.Keys as Record<string, unknown>[] | undefined;
    }
    if (pending && pending.length > 0) throw new Error('BatchGet left keys unprocessed after retries');
  }
  return found;
};

/** One connection of a company (with `isDefault`), or null. One BatchGet of the item and the pointer. */
export const getConnection = async (companyId: number, id: number): Promise<Connection | null> => {
  const items = await batchGet([connectionKeys(companyId, id), defaultConnectionKeys(companyId)]);
  const item = items.find((i) => i.sk === connectionKeys(companyId, id).sk);
  const pointer = items.find((i) => i.sk === 'DEFAULT');
  return item ? toConnection(item, pointer ? Number(pointer.whatsappId) : null) : null;
};

/** Which company owns a connection id (the platform-wide pointer), or null. */
export const getConnectionCompanyId = async (id: number): Promise<number | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: connectionIdKeys(id) })),
  );
  return out.Item ? Number(out.Item.companyId) : null;
};

/**
 * Every connection of a company in id order, with `isDefault`. One consistent Query of the company's
 * connection partition (its connections and the DEFAULT pointer), which the plan's limit keeps small.
 */
export const listConnections = async (
  companyId: number,
  filter: { channel?: ConnectionChannel | undefined } = {},
): Promise<Connection[]> => {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': connectionPartition(companyId) },
          ConsistentRead: true,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    items.push(...((out.Items ?? []) as Record<string, unknown>[]));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  const pointer = items.find((i) => i.sk === 'DEFAULT');
  const defaultId = pointer ? Number(pointer.whatsappId) : null;
  return items
    .filter((i) => String(i.sk).startsWith('WHATSAPP#'))
    .map((i) => toConnection(i, defaultId))
    .filter((c) => !filter.channel || c.channel === filter.channel);
};

/** A page of every company's connections, ordered by company then id (gsi2 `WHATSAPPS`). O(page). */
export const listAllConnections = async (q: {
  limit: number;
  cursor?: string | undefined;
}): Promise<Page<Connection>> => {
  const page = await queryPage<Record<string, unknown>>({
    scope: 'WHATSAPPS',
    index: 'gsi2',
    partition: 'WHATSAPPS',
    limit: q.limit,
    cursor: q.cursor,
  });
  const companyIds = [...new Set(page.items.map((i) => Number(i.companyId)))];
  const pointers = await batchGet(companyIds.map(defaultConnectionKeys));
  const defaults = new Map(pointers.map((p) => [Number(p.companyId), Number(p.whatsappId)]));
  return {
    ...page,
    items: page.items.map((i) => toConnection(i, defaults.get(Number(i.companyId)) ?? null)),
  };
};

/** Names of the given companies (for the platform owner's overview), one BatchGet per 100. */
export const getCompanyNames = async (companyIds: number[]): Promise<Map<number, string>> => {
  const items = await batchGet([...new Set(companyIds)].map(companyKeys));
  return new Map(items.map((i) => [Number(i.id), String(i.name)]));
};

/** What an admin edit may change; the token, status, QR and number belong to the session side. */
export type ConnectionChanges = Partial<
  Omit<Connection, 'id' | 'companyId' | 'isDefault' | 'token' | 'channel' | 'createdAt' | 'updatedAt' | 'version'>
>;

const setExpression = (changes: Record<string, unknown>) => {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  return {
    sets: entries.map((_, i) => `#f${i} = :v${i}`),
    names: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
    values: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
  };
};

/**
 * Applies an admin edit to the connection as it was read (`current`): conditional on its `version`, so
 * two admins never silently overwrite each other (409 ERR_CONFLICT: reload). `makeDefault` moves the
 * DEFAULT pointer in the same transaction (compare-and-swap, retried when another change won the race).
 * Session fields the worker writes meanwhile (status, QR) are not touched unless `changes` names them.
 */
export const updateConnection = async (
  current: Connection,
  changes: ConnectionChanges,
  options: { makeDefault?: boolean } = {},
): Promise<{ connection: Connection } & DefaultChange> => {
  const { companyId, id } = current;
  const now = new Date().toISOString();
  const { sets, names, values } = setExpression(changes);
  return withDefaultRetries(async () => {
    const pointer = options.makeDefault ? await getDefaultConnectionId(companyId) : null;
    const movesDefault = options.makeDefault === true && pointer !== id;
    await transactWrite(
      [
        {
          Update: {
            Key: connectionKeys(companyId, id),
            UpdateExpression: `SET ${[...sets, 'updatedAt = :now', 'version = version + :one'].join(', ')}`,
            ConditionExpression: 'version = :version',
            ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
            ExpressionAttributeValues: { ...values, ':now': now, ':one': 1, ':version': current.version },
          },
        },
        ...(movesDefault ? [defaultPointerWrite(companyId, id, pointer, true)] : []),
      ],
      (failure) =>
        failedAt(failure, 1)
          ? new DefaultMoved()
          : new Conflict('ERR_CONFLICT', 'The connection changed meanwhile, reload and try again'),
    );
    const next = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    return {
      connection: {
        ...current,
        ...next,
        isDefault: current.isDefault || movesDefault,
        updatedAt: now,
        version: current.version + 1,
      },
      previousDefaultId: movesDefault ? pointer : null,
    };
  });
};

/**
 * Removes a connection with its pointers and its plan seat, all or nothing. The default connection may
 * only go when it is the company's last one (decisions D23): with others left, the caller must first make
 * another one the default (400 ERR_NO_OTHER_WHATSAPP). The usage count serialises this with creates, and
 * the DEFAULT pointer with "make default" calls, so no race leaves connections without a default.
 */
export const deleteConnection = async (companyId: number, id: number): Promise<Connection> =>
  withDefaultRetries(async () => {
    const current = await getConnection(companyId, id);
    if (!current) throw new NotFound('ERR_NO_WAPP_FOUND', 'Connection not found');
    const pointerWrite: TransactItem = current.isDefault
      ? {
          Delete: {
            TableName: tableName(),
            Key: defaultConnectionKeys(companyId),
            ConditionExpression: 'whatsappId = :id',
            ExpressionAttributeValues: { ':id': id },
          },
        }
      : {
          ConditionCheck: {
            TableName: tableName(),
            Key: defaultConnectionKeys(companyId),
            ConditionExpression: 'attribute_not_exists(whatsappId) OR whatsappId <> :id',
            ExpressionAttributeValues: { ':id': id },
          },
        };
    await transactWrite(
      [
        {
          Update: {
            Key: connectionUsageKeys(companyId),
            UpdateExpression: 'ADD n :minus',
            // The default leaves only as the last connection: the count must be exactly one.
            ...(current.isDefault ? { ConditionExpression: 'n = :one' } : {}),
            ExpressionAttributeValues: { ':minus': -1, ...(current.isDefault ? { ':one': 1 } : {}) },
          },
        },
        {
          Delete: {
            Key: connectionKeys(companyId, id),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        { Delete: { Key: connectionIdKeys(id) } },
        { Delete: { Key: apiTokenKeys(current.token) } },
        pointerWrite,
      ],
      (failure) =>
        failedAt(failure, 4)
          ? new DefaultMoved()
          : failedAt(failure, 1)
            ? new NotFound('ERR_NO_WAPP_FOUND', 'Connection not found')
            : new BadRequest('ERR_NO_OTHER_WHATSAPP', 'Make another connection the default before deleting this one', [
                { field: 'params.id', reason: 'is the default connection and others exist' },
              ]),
    );
    return current;
  });

/**
 * Session side of a connection (what the worker writes too): status, QR, retries, and the session command
 * just requested. Not versioned, so it never conflicts with an admin edit. 404 when the connection is gone.
 */
export const setSessionState = async (
  companyId: number,
  id: number,
  state: {
    /** Left as it is when absent (a command that changes nothing visible, like the simulator's scan). */
    status?: ConnectionStatus;
    qrcode?: string;
    retries?: number;
    command?: SessionCommand;
    at: string;
  },
): Promise<Connection> => {
  const { sets, names, values } = setExpression({
    status: state.status,
    qrcode: state.qrcode,
    retries: state.retries,
    sessionCommand: state.command,
    sessionCommandAt: state.command ? state.at : undefined,
    updatedAt: state.at,
  });
  const out = await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: connectionKeys(companyId, id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    () => new NotFound('ERR_NO_WAPP_FOUND', 'Connection not found'),
  );
  return toConnection(out.Attributes ?? {}, await getDefaultConnectionId(companyId));
};

/**
 * Points the greeting attachment at a new media key (or none). Returns the connection after the change and
 * the key it replaced, exactly (ALL_OLD), so the caller deletes the right object even when two uploads race.
 */
export const setGreetingMedia = async (
  companyId: number,
  id: number,
  key: string | null,
): Promise<{ connection: Connection; previousKey: string | null }> => {
  const now = new Date().toISOString();
  const out = await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: connectionKeys(companyId, id),
          UpdateExpression: 'SET greetingMediaAttachment = :key, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':key': key, ':now': now },
          ReturnValues: 'ALL_OLD',
        }),
      ),
    () => new NotFound('ERR_NO_WAPP_FOUND', 'Connection not found'),
  );
  const old = toConnection(out.Attributes ?? {}, await getDefaultConnectionId(companyId));
  return {
    connection: { ...old, greetingMediaAttachment: key, updatedAt: now },
    previousKey: old.greetingMediaAttachment ?? null,
  };
};

/** The company's plan seats in use (the usage count the create and delete transactions keep). */
export const countConnections = async (companyId: number): Promise<number> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: connectionUsageKeys(companyId), ConsistentRead: true })),
  );
  return Number(out.Item?.n ?? 0);
};

/** Which connection an external-API token belongs to (for the messages API), or null. */
export const findConnectionByToken = async (
  token: string,
): Promise<{ companyId: number; whatsappId: number } | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: apiTokenKeys(token) })),
  );
  return out.Item ? { companyId: Number(out.Item.companyId), whatsappId: Number(out.Item.whatsappId) } : null;
};

/** What the WhatsApp worker writes on a connection (decisions D24): never `version`, never admin fields. */
export interface WorkerSessionState {
  status: ConnectionStatus;
  qrcode?: string;
  retries?: number;
  number?: string;
}

/**
 * The WhatsApp worker's status write, fenced twice in one transaction: the connection must still carry the
 * command the session runs under (`sessionCommandAt = generation`; a newer command from the API wins and
 * the worker goes to carry it out) and the lease must still be this holder's (`holder`, `fence`), so a
 * worker that lost the connection never writes over the next one. Answers what stopped the write.
 */
export const setHeldSessionState = async (
  companyId: number,
  id: number,
  holder: { taskId: string; fence: number },
  generation: string | null,
  state: WorkerSessionState,
): Promise<'written' | 'superseded' | 'lost'> => {
  const { sets, names, values } = setExpression({ ...state, updatedAt: new Date().toISOString() });
  for (let attempt = 1; ; attempt += 1) {
    try {
      await transactWrite(
        [
          {
            Update: {
              Key: connectionKeys(companyId, id),
              UpdateExpression: `SET ${sets.join(', ')}`,
              ConditionExpression:
                generation === null
                  ? 'attribute_exists(pk) AND attribute_not_exists(sessionCommandAt)'
                  : 'attribute_exists(pk) AND sessionCommandAt = :generation',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: {
                ...values,
                ...(generation === null ? {} : { ':generation': generation }),
              },
            },
          },
          {
            ConditionCheck: {
              Key: leaseKeys(companyId, id),
              ConditionExpression: 'holder = :me AND fence = :fence',
              ExpressionAttributeValues: { ':me': holder.taskId, ':fence': holder.fence },
            },
          },
        ],
        (failure) => new HeldWriteRefused(failedAt(failure, 1) ? 'lost' : 'superseded'),
      );
      return 'written';
    } catch (err) {
      if (err instanceof HeldWriteRefused) return err.outcome;
      // A transaction conflict (an admin edit at the same moment) is worth another try.
      if (err instanceof DomainError && err.status === 503 && attempt < 4) {
        await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
        continue;
      }
      throw err;
    }
  }
};

/** Why a held write was refused. Never leaves this module. */
class HeldWriteRefused extends DomainError {
  constructor(readonly outcome: 'superseded' | 'lost') {
    super(409, 'ERR_CONFLICT', `session write refused: ${outcome}`);
  }
}

/** The worker's view of a held connection: whether it still exists and the last command asked for. */
export interface SessionCommandState {
  companyId: number;
  id: number;
  sessionCommand?: SessionCommand;
  sessionCommandAt?: string;
}

/**
 * The session commands of many connections, for the worker's check of the connections it holds (one
 * consistent BatchGet per 100, reading three attributes). Keyed `<companyId>#<id>`; a deleted connection
 * is absent.
 */
export const getSessionCommands = async (
  connections: readonly { companyId: number; whatsappId: number }[],
): Promise<Map<string, SessionCommandState>> => {
  const found = new Map<string, SessionCommandState>();
  for (let i = 0; i < connections.length; i += 100) {
    let pending: Record<string, unknown>[] = connections
      .slice(i, i + 100)
      .map((c) => connectionKeys(c.companyId, c.whatsappId));
    for (let round = 0; pending.length > 0; round += 1) {
      if (round >= 6) throw new Error('BatchGet left connections unprocessed after retries');
      const request = pending;
      const out = await mapDynamoErrors(() =>
        db().send(
          new BatchGetCommand({
            RequestItems: {
              [tableName()]: {
                Keys: request,
                ConsistentRead: true,
                ProjectionExpression: 'companyId, id, sessionCommand, sessionCommandAt',
              },
            },
          }),
        ),
      );
      for (const item of out.Responses?.[tableName()] ?? []) {
        const state: SessionCommandState = {
          companyId: Number(item.companyId),
          id: Number(item.id),
          ...(item.sessionCommand ? { sessionCommand: item.sessionCommand as SessionCommand } : {}),
          ...(item.sessionCommandAt ? { sessionCommandAt: String(item.sessionCommandAt) } : {}),
        };
        found.set(`${state.companyId}#${state.id}`, state);
      }
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
};
