import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { mapDynamoErrors } from './errors';
import { company, pad } from './keys';

/**
 * Phrase campaigns (docs/data-model.md §2.23; decisions D140): `pk = C#<c>#FLOWCAMPAIGN,
 * sk = FLOWCAMPAIGN#<pad id>`. The partition is small (a company has a handful), so the list and the
 * inbound matcher read it whole with one Query; writes are conditional on `updatedAt` as read.
 */
export interface FlowCampaign {
  id: number;
  companyId: number;
  name: string;
  phrase: string;
  flowId: number;
  whatsappId: number | null;
  status: boolean;
  createdAt: string;
  updatedAt: string;
}

export const flowCampaignPartition = (companyId: number): string => `${company(companyId)}#FLOWCAMPAIGN`;
export const flowCampaignKeys = (companyId: number, id: number) => ({
  pk: flowCampaignPartition(companyId),
  sk: `FLOWCAMPAIGN#${pad(id)}`,
});

const toFlowCampaign = (item: Record<string, unknown>): FlowCampaign => ({
  id: Number(item.id),
  companyId: Number(item.companyId),
  name: String(item.name),
  phrase: String(item.phrase),
  flowId: Number(item.flowId),
  whatsappId: item.whatsappId == null ? null : Number(item.whatsappId),
  status: item.status !== false,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

export const flowCampaignNotFound = () => new NotFound('ERR_FLOWCAMPAIGN_NOT_FOUND', 'Phrase campaign not found');
const changedMeanwhile = () => new Conflict('ERR_CONFLICT', 'The phrase campaign changed meanwhile, reload it');

export type NewFlowCampaign = Pick<FlowCampaign, 'name' | 'phrase' | 'flowId' | 'whatsappId' | 'status'>;

export const createFlowCampaign = async (companyId: number, input: NewFlowCampaign): Promise<FlowCampaign> => {
  const id = await nextId(companyId, 'flowCampaign');
  const at = new Date().toISOString();
  const campaign: FlowCampaign = { ...input, id, companyId, createdAt: at, updatedAt: at };
  await createItem({ ...flowCampaignKeys(companyId, id), type: 'FLOWCAMPAIGN', ...campaign });
  return campaign;
};

export const getFlowCampaign = async (companyId: number, id: number): Promise<FlowCampaign | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: flowCampaignKeys(companyId, id), ConsistentRead: true })),
  );
  return out.Item ? toFlowCampaign(out.Item) : null;
};

export const replaceFlowCampaign = async (current: FlowCampaign, next: NewFlowCampaign): Promise<FlowCampaign> => {
  const saved: FlowCampaign = { ...current, ...next, updatedAt: new Date().toISOString() };
  await mapDynamoErrors(
    () =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...flowCampaignKeys(current.companyId, current.id), type: 'FLOWCAMPAIGN', ...saved },
          ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
          ExpressionAttributeValues: { ':seen': current.updatedAt },
        }),
      ),
    changedMeanwhile,
  );
  return saved;
};

export const deleteFlowCampaign = async (current: FlowCampaign): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: flowCampaignKeys(current.companyId, current.id),
          ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
          ExpressionAttributeValues: { ':seen': current.updatedAt },
        }),
      ),
    changedMeanwhile,
  );
};

/** Every phrase campaign of the company, by id (the partition is small: at most `cap`). */
export const listFlowCampaigns = async (companyId: number, cap = 500): Promise<FlowCampaign[]> => {
  const found: FlowCampaign[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': flowCampaignPartition(companyId) },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    found.push(...(out.Items ?? []).map(toFlowCampaign));
    startKey = out.LastEvaluatedKey;
  } while (startKey && found.length < cap);
  return found.slice(0, cap);
};
