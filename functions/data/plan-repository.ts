import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { mapDynamoErrors } from './errors';
import { pad } from './keys';

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

export const getPlan = async (id: number): Promise<Plan | null> => {
  const out = await mapDynamoErrors(() => db().send(new GetCommand({ TableName: tableName(), Key: planKeys(id) })));
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
