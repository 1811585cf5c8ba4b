import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../shared/errors';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';

/**
 * Company: `pk = C#<id>, sk = COMPANY`; super listing by id on gsi1 (`COMPANIES`, `<pad id>`) and by
 * name on gsi2 (`COMPANIES`, `<searchForm name>#<pad id>`). Ids come from the platform counter, so the
 * first company created is company 1, the platform owner's.
 */
export type Recurrence = 'MENSAL' | 'BIMESTRAL' | 'TRIMESTRAL' | 'SEMESTRAL' | 'ANUAL';

export interface Company {
  id: number;
  name: string;
  email: string;
  phone: string;
  document: string;
  planId: number;
  status: boolean;
  recurrence: Recurrence;
  dueDate: string;
  createdAt: string;
  updatedAt: string;
  /** ISO time of a recent login of one of its users, at most an hour old (recordLogin). */
  lastLogin?: string;
}

export const companyKeys = (id: number) => ({ pk: company(id), sk: 'COMPANY' });

export const companyIndexKeys = (c: Pick<Company, 'id' | 'name'>) => ({
  gsi1pk: 'COMPANIES',
  gsi1sk: pad(c.id),
  gsi2pk: 'COMPANIES',
  gsi2sk: `${searchForm(c.name)}#${pad(c.id)}`,
});

const toCompany = (item: Record<string, unknown>): Company => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, ...rest } = item;
  return rest as unknown as Company;
};

export const createCompany = async (input: Omit<Company, 'id' | 'createdAt' | 'updatedAt'>): Promise<Company> => {
  const id = await nextId(null, 'company');
  const now = new Date().toISOString();
  const c: Company = { ...input, id, createdAt: now, updatedAt: now };
  await createItem({ ...companyKeys(id), ...companyIndexKeys(c), ...c });
  return c;
};

export const getCompany = async (id: number): Promise<Company | null> => {
  const out = await mapDynamoErrors(() => db().send(new GetCommand({ TableName: tableName(), Key: companyKeys(id) })));
  return out.Item ? toCompany(out.Item) : null;
};

/** lastLogin is written at most once an hour (docs/data-model.md §2.1): the item sits in two indexes. */
export const LAST_LOGIN_RESOLUTION_MS = 60 * 60 * 1000;

/**
 * Records a login on the company: one conditional UpdateItem (no read), skipped when lastLogin is less
 * than an hour old, so a call centre signing in 200 attendants rewrites the company item once.
 * `updatedAt` stays: lastLogin is not an edit, and must not fail an editor's optimistic check.
 */
export const recordLogin = async (companyId: number, now = new Date()): Promise<void> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: companyKeys(companyId),
          UpdateExpression: 'SET lastLogin = :now',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastLogin) OR lastLogin < :hourAgo)',
          ExpressionAttributeValues: {
            ':now': now.toISOString(),
            ':hourAgo': new Date(now.getTime() - LAST_LOGIN_RESOLUTION_MS).toISOString(),
          },
        }),
      ),
    );
  } catch (err) {
    if (!(err instanceof Conflict)) throw err;
  }
};
