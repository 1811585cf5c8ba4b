import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { FlowConnection, FlowDocument, FlowNode } from '../contracts/flows';
import { Conflict, NotFound } from '../shared/errors';
import { batchWriteAll } from './batch-write';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';
import { transactWrite } from './transactions';

/**
 * Flows (docs/data-model.md §2.28; decisions D138):
 * - the flow: `pk = C#<c>#FLOW, sk = FLOW#<pad id>`, by name on gsi1 `C#<c>#FLOW` → `<sf name>#<pad id>`;
 *   `version` is the number of its latest saved document (0 before the first save);
 * - each saved document is an immutable version: `pk = C#<c>#FLOW#<pad id>, sk = V#<pad version>` with the
 *   nodes and connections. A save writes version n + 1 and moves the flow's `version` from n in one
 *   transaction; a run keeps the version it started on, which never changes (D139).
 */
export interface Flow {
  id: number;
  companyId: number;
  name: string;
  active: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface FlowVersion extends FlowDocument {
  flowId: number;
  companyId: number;
  version: number;
  savedAt: string;
}

export const flowPartition = (companyId: number): string => `${company(companyId)}#FLOW`;
export const flowKeys = (companyId: number, id: number) => ({ pk: flowPartition(companyId), sk: `FLOW#${pad(id)}` });
export const flowVersionPartition = (companyId: number, id: number): string => `${flowPartition(companyId)}#${pad(id)}`;
export const flowVersionKeys = (companyId: number, id: number, version: number) => ({
  pk: flowVersionPartition(companyId, id),
  sk: `V#${pad(version)}`,
});
const indexKeys = (f: Pick<Flow, 'companyId' | 'id' | 'name'>) => ({
  gsi1pk: flowPartition(f.companyId),
  gsi1sk: `${searchForm(f.name)}#${pad(f.id)}`,
});

const toFlow = (item: Record<string, unknown>): Flow => ({
  id: Number(item.id),
  companyId: Number(item.companyId),
  name: String(item.name),
  active: item.active !== false,
  version: Number(item.version ?? 0),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

export const flowNotFound = () => new NotFound('ERR_FLOW_NOT_FOUND', 'Flow not found');
const changedMeanwhile = () => new Conflict('ERR_CONFLICT', 'The flow changed meanwhile, reload it');

export const createFlow = async (companyId: number, name: string, now = new Date()): Promise<Flow> => {
  const id = await nextId(companyId, 'flow');
  const at = now.toISOString();
  const flow: Flow = { id, companyId, name, active: true, version: 0, createdAt: at, updatedAt: at };
  await createItem({ ...flowKeys(companyId, id), ...indexKeys(flow), type: 'FLOW', ...flow });
  return flow;
};

export const getFlow = async (companyId: number, id: number): Promise<Flow | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: flowKeys(companyId, id), ConsistentRead: true })),
  );
  return out.Item ? toFlow(out.Item) : null;
};

/** Renames or switches a flow, conditional on it being as the caller read it. */
export const updateFlow = async (current: Flow, changes: Partial<Pick<Flow, 'name' | 'active'>>): Promise<Flow> => {
  const next: Flow = { ...current, ...changes, updatedAt: new Date().toISOString() };
  await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: flowKeys(current.companyId, current.id),
          UpdateExpression: 'SET #name = :name, active = :active, updatedAt = :at, gsi1sk = :g1sk',
          ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: {
            ':name': next.name,
            ':active': next.active,
            ':at': next.updatedAt,
            ':g1sk': indexKeys(next).gsi1sk,
            ':seen': current.updatedAt,
          },
        }),
      ),
    changedMeanwhile,
  );
  return next;
};

/**
 * Saves a document as the flow's next version: Put `V#<n+1>` (new) and move the flow's `version` from n,
 * together. 409 ERR_CONFLICT when another save won meanwhile (the caller reads again and retries).
 */
export const saveFlowVersion = async (current: Flow, doc: FlowDocument, now = new Date()): Promise<FlowVersion> => {
  const version = current.version + 1;
  const at = now.toISOString();
  const saved: FlowVersion = {
    flowId: current.id,
    companyId: current.companyId,
    version,
    savedAt: at,
    nodes: doc.nodes,
    connections: doc.connections,
  };
  await transactWrite(
    [
      {
        Put: {
          Item: { ...flowVersionKeys(current.companyId, current.id, version), type: 'FLOWVERSION', ...saved },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          Key: flowKeys(current.companyId, current.id),
          UpdateExpression: 'SET version = :v, updatedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND version = :seen',
          ExpressionAttributeValues: { ':v': version, ':at': at, ':seen': current.version },
        },
      },
    ],
    changedMeanwhile,
  );
  return saved;
};

const toVersion = (item: Record<string, unknown>): FlowVersion => ({
  flowId: Number(item.flowId),
  companyId: Number(item.companyId),
  version: Number(item.version),
  savedAt: String(item.savedAt),
  nodes: item.nodes as FlowNode[],
  connections: (item.connections ?? []) as FlowConnection[],
});

/** One saved version (immutable: any read of it is as good as a consistent one). */
export const getFlowVersion = async (companyId: number, id: number, version: number): Promise<FlowVersion | null> => {
  if (version < 1) return null;
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: flowVersionKeys(companyId, id, version) })),
  );
  return out.Item ? toVersion(out.Item) : null;
};

/** A page of the company's flows: newest first, or by name prefix when searching. O(page). */
export const listFlows = async (
  companyId: number,
  q: { search?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<Flow>> => {
  const partition = flowPartition(companyId);
  const prefix = q.search ? searchForm(q.search) : '';
  const page = prefix
    ? await queryPage<Record<string, unknown>>({
        scope: `${partition}#name#${prefix}`,
        index: 'gsi1',
        partition,
        sortPrefix: prefix,
        limit: q.limit,
        cursor: q.cursor,
      })
    : await queryPage<Record<string, unknown>>({
        scope: `${partition}#id`,
        partition,
        sortPrefix: 'FLOW#',
        limit: q.limit,
        cursor: q.cursor,
        descending: true,
      });
  return { ...page, items: page.items.map(toFlow) };
};

/** Deletes the flow (conditional on it being as read), then its versions, a page at a time. */
export const deleteFlow = async (current: Flow): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: flowKeys(current.companyId, current.id),
          ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
          ExpressionAttributeValues: { ':seen': current.updatedAt },
        }),
      ),
    changedMeanwhile,
  );
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': flowVersionPartition(current.companyId, current.id) },
          ProjectionExpression: 'pk, sk',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    await batchWriteAll(
      (out.Items ?? []).map((i) => ({ DeleteRequest: { Key: { pk: String(i.pk), sk: String(i.sk) } } })),
    );
    startKey = out.LastEvaluatedKey;
  } while (startKey);
};
