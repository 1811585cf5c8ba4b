import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem, createItemsTogether } from './create-items';
import { mapDynamoErrors } from './errors';
import { pad, searchForm } from './keys';
import { transactWrite } from './transactions';
import { Conflict, NotFound } from '../shared/errors';

/** Plans are platform items (not tenant data): `pk = PLAN, sk = PLAN#<pad id>`. */
export interface Plan {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  amount: number;
  isPublic: boolean;
  useWhatsapp: boolean;
  useFacebook: boolean;
  useInstagram: boolean;
  useCampaigns: boolean;
  useSchedules: boolean;
  useInternalChat: boolean;
  useExternalApi: boolean;
  useKanban: boolean;
  useOpenAi: boolean;
  useIntegrations: boolean;
  createdAt: string;
  updatedAt: string;
}

export const planKeys = (id: number) => ({ pk: 'PLAN', sk: `PLAN#${pad(id)}` });

const toPlan = (item: Record<string, unknown>): Plan => {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as unknown as Plan;
};

export const createPlan = async (input: Omit<Plan, 'id' | 'createdAt' | 'updatedAt'>): Promise<Plan> => {
  const id = await nextId(null, 'plan');
  const now = new Date().toISOString();
  const plan: Plan = { ...input, id, createdAt: now, updatedAt: now };
  await createItem({ ...planKeys(id), ...plan });
  return plan;
};

export const getPlan = async (id: number, options: { consistent?: boolean } = {}): Promise<Plan | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new GetCommand({ TableName: tableName(), Key: planKeys(id), ConsistentRead: options.consistent === true }),
    ),
  );
  return out.Item ? toPlan(out.Item) : null;
};

/** All plans in id order. The platform has tens of plans: one Query on a small partition. */
export const listPlans = async (): Promise<Plan[]> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'PLAN' },
      }),
    ),
  );
  return (out.Items ?? []).map(toPlan);
};

/** The unique-name guard (docs/data-model.md §2.2): `PLANNAME#<searchForm name>`, holding the plan's id. */
export const planNameKeys = (name: string) => ({ pk: `PLANNAME#${searchForm(name)}`, sk: 'PLANNAME' });

/** A taken name (administration §8: the operation failed, check for a duplicate name). */
export const planNameTaken = () =>
  new Conflict('ERR_PLAN_NAME_ALREADY_EXISTS', 'Não foi possível realizar a operação', { hint: 'duplicate name' });
export const planNotFound = () => new NotFound('ERR_NO_PLAN_FOUND', 'Plan not found');

export type PlanInput = Omit<Plan, 'id' | 'createdAt' | 'updatedAt'>;

/** A plan and its name guard in one transaction (decisions D151): a taken name writes nothing. */
export const createPlanNamed = async (input: PlanInput): Promise<Plan> => {
  const id = await nextId(null, 'plan');
  const now = new Date().toISOString();
  const plan: Plan = { ...input, id, createdAt: now, updatedAt: now };
  await createItemsTogether(
    [
      { ...planKeys(id), ...plan },
      { ...planNameKeys(plan.name), planId: id },
    ],
    (f) => (f.reasons?.[1] === 'ConditionalCheckFailed' ? planNameTaken() : new Conflict()),
  );
  return plan;
};

/**
 * Changes a plan; a rename moves its guard in the same transaction (the new name must be free, the old
 * guard must still be this plan's). `expectedUpdatedAt` makes a concurrent edit fail as a Conflict.
 */
export const updatePlanItem = async (before: Plan, changes: Partial<PlanInput>): Promise<Plan> => {
  const after: Plan = { ...before, ...changes, updatedAt: new Date().toISOString() };
  const renamed = searchForm(after.name) !== searchForm(before.name);
  await transactWrite(
    [
      {
        Put: {
          Item: { ...planKeys(before.id), ...after },
          ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
          ExpressionAttributeValues: { ':seen': before.updatedAt },
        },
      },
      ...(renamed
        ? [
            {
              Put: {
                Item: { ...planNameKeys(after.name), planId: before.id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Delete: {
                Key: planNameKeys(before.name),
                ConditionExpression: 'attribute_not_exists(pk) OR planId = :id',
                ExpressionAttributeValues: { ':id': before.id },
              },
            },
          ]
        : []),
    ],
    (f) => (f.reasons?.[1] === 'ConditionalCheckFailed' ? planNameTaken() : new Conflict()),
  );
  return after;
};

/** Removes a plan and its name guard together. */
export const deletePlanItem = async (plan: Plan): Promise<void> => {
  await transactWrite(
    [
      { Delete: { Key: planKeys(plan.id), ConditionExpression: 'attribute_exists(pk)' } },
      {
        Delete: {
          Key: planNameKeys(plan.name),
          ConditionExpression: 'attribute_not_exists(pk) OR planId = :id',
          ExpressionAttributeValues: { ':id': plan.id },
        },
      },
    ],
    () => planNotFound(),
  );
};

/**
 * The ids of companies on a plan, at most `limit`: a Query of the super's company index (gsi1 `COMPANIES`)
 * filtered by planId — O(companies), only on the owner's plan edits and deletes (decisions D151).
 */
export const companiesOnPlan = async (planId: number, limit = Number.POSITIVE_INFINITY): Promise<number[]> => {
  const ids: number[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          FilterExpression: 'planId = :plan',
          ExpressionAttributeValues: { ':pk': 'COMPANIES', ':plan': planId },
          ProjectionExpression: 'id',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    ids.push(...(out.Items ?? []).map((i) => Number(i.id)));
    startKey = out.LastEvaluatedKey;
  } while (startKey && ids.length < limit);
  return ids.slice(0, limit);
};
