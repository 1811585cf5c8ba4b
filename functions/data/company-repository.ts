import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';
import { transactWrite } from './transactions';

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
  /** Set when the platform owner deleted the company; its purge job then removes everything (D156). */
  deletedAt?: string;
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

// ------------------------------------------------------------------------------ the platform owner's list

/**
 * The platform's company-name guard (docs/data-model.md §1.3): `COMPANYNAME#<sf name> / COMPANYNAME` with the
 * owner's `companyId`, written in the same transaction as a company the platform owner creates or renames,
 * so two companies never share a name by accident (decisions D155).
 */
export const companyNameKeys = (name: string) => ({ pk: `COMPANYNAME#${searchForm(name)}`, sk: 'COMPANYNAME' });

export const companyNameConflict = () =>
  new Conflict('ERR_COMPANY_NAME_ALREADY_EXISTS', 'A company with this name already exists');

/**
 * Companies a page at a time: by name (gsi2, `begins_with` the search form) or by id (gsi1). A deleted
 * company (its purge pending or running) is left out.
 */
export const listCompanies = async (input: {
  search?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}): Promise<Page<Company>> => {
  const search = input.search ? searchForm(input.search) : '';
  const page = await queryPage({
    scope: `companies:${search}`,
    index: search ? 'gsi2' : 'gsi1',
    partition: 'COMPANIES',
    sortPrefix: search || undefined,
    limit: input.limit,
    cursor: input.cursor,
    filter: { expression: 'attribute_not_exists(deletedAt)' },
  });
  return { ...page, items: page.items.map(toCompany) };
};

export type CompanyChanges = Partial<
  Pick<Company, 'name' | 'email' | 'phone' | 'document' | 'planId' | 'status' | 'recurrence' | 'dueDate'>
>;

/**
 * Writes the platform owner's edit of a company; a new name swaps the name guard in the same transaction
 * (ERR_COMPANY_NAME_ALREADY_EXISTS when taken). A deleted company is not found.
 */
export const updateCompany = async (current: Company, changes: CompanyChanges): Promise<Company> => {
  const next: Company = { ...current, ...changes, updatedAt: new Date().toISOString() };
  const renamed = searchForm(next.name) !== searchForm(current.name);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const fields = { ...changes, updatedAt: next.updatedAt, ...companyIndexKeys(next) };
  const sets = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      names[`#${k}`] = k;
      values[`:${k}`] = v;
      return `#${k} = :${k}`;
    });
  await transactWrite(
    [
      {
        Update: {
          Key: companyKeys(current.id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
      ...(renamed
        ? [
            {
              Put: {
                Item: { ...companyNameKeys(next.name), companyId: current.id },
                ConditionExpression: 'attribute_not_exists(pk) OR companyId = :me',
                ExpressionAttributeValues: { ':me': current.id },
              },
            },
            {
              Delete: {
                Key: companyNameKeys(current.name),
                ConditionExpression: 'attribute_not_exists(pk) OR companyId = :me',
                ExpressionAttributeValues: { ':me': current.id },
              },
            },
          ]
        : []),
    ],
    (failure) => (failure.reasons?.[0] === 'ConditionalCheckFailed' ? new NotFound() : companyNameConflict()),
  );
  return next;
};

/**
 * The first step of deleting a company (decisions D156): `deletedAt` and `status: false` in one write, so
 * its logins, tokens and sockets stop at once; the purge job removes the rest. Answers false when the
 * company was already deleted.
 */
export const markCompanyDeleted = async (id: number, now = new Date()): Promise<boolean> => {
  try {
    await mapDynamoErrors(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: companyKeys(id),
          UpdateExpression: 'SET deletedAt = :now, #status = :off, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':now': now.toISOString(), ':off': false },
        }),
      ),
    );
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

/** The company's usage counters (`C#<c>#USAGE`: users, whatsapps, folder): one Query of a tiny partition. */
export interface CompanyUsage {
  users: number;
  whatsapps: number;
  folderSize: number;
  numberFileFolder: number;
  updatedAtFolder: string | null;
}

export const companyFolderKeys = (companyId: number) => ({ pk: `${company(companyId)}#USAGE`, sk: 'folder' });

export const getCompanyUsage = async (companyId: number): Promise<CompanyUsage> => {
  const out = await mapDynamoErrors(() =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `${company(companyId)}#USAGE` },
      }),
    ),
  );
  const by = new Map((out.Items ?? []).map((i) => [String(i.sk), i]));
  return {
    users: Number(by.get('users')?.n ?? 0),
    whatsapps: Number(by.get('whatsapps')?.n ?? 0),
    folderSize: Number(by.get('folder')?.bytes ?? 0),
    numberFileFolder: Number(by.get('folder')?.files ?? 0),
    updatedAtFolder: (by.get('folder')?.countedAt as string | undefined) ?? null,
  };
};

/**
 * The daily count of a company's media (decisions D156), written only while the company exists and is not
 * deleted (a condition on the company item in the same transaction), so a count racing the purge never
 * leaves an item behind. Answers false when the company is gone or deleted.
 */
export const putCompanyFolder = async (companyId: number, bytes: number, files: number, now = new Date()) => {
  try {
    await transactWrite([
      {
        ConditionCheck: {
          Key: companyKeys(companyId),
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
        },
      },
      {
        Update: {
          Key: companyFolderKeys(companyId),
          UpdateExpression: 'SET bytes = :b, files = :f, countedAt = :t, companyId = :c',
          ExpressionAttributeValues: { ':b': bytes, ':f': files, ':t': now.toISOString(), ':c': companyId },
        },
      },
    ]);
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};
