import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../core/errors';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItemsTogether } from './create-items';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';

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

export const createUser = async (companyId: number, input: NewUser): Promise<User> => {
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
  await createItemsTogether(
    [
      { ...emailKeys(user.email), companyId, userId: id },
      {
        ...userKeys(companyId, id),
        gsi1pk: `${company(companyId)}#USER`,
        gsi1sk: `${searchForm(user.name)}#${pad(id)}`,
        ...user,
      },
    ],
    () => new Conflict('ERR_EMAIL_ALREADY_EXISTS', 'An account with this e-mail already exists'),
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
