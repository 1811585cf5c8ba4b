import type { UserName, UserPage, UserView } from '../../contracts/users';
import { USER_FLAGS, type AuthContext } from '../../shared/auth-context';
import { randomUUID } from 'node:crypto';
import { BadRequest, Forbidden, NotFound } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import type { SameKeys } from '../../shared/same-keys';
import { detectImageType } from '../media/images';
import { fetchPage, type PagingInput } from '../paging';
import { hashPassword } from '../passwords';
import { getCompany } from '../../data/company-repository';
import { getPlan } from '../../data/plan-repository';
import { getConnection } from '../../data/connection-repository';
import { listQueues } from '../../data/queue-repository';
import { deleteMediaObject, mediaUrl, putMediaObject } from '../../data/media-store';
import { isOnline } from '../../data/user-presence-repository';
import type { ChannelAction } from '../../contracts/realtime';
import { adminsAnd, publish } from '../notifier';
import {
  createUser,
  deleteUser,
  getUser,
  listUserNames,
  listUsers,
  updateUser,
  type User,
  type UserChanges,
} from '../../data/user-repository';

/**
 * Users of a company (core spec §3 User, §5 user rules, §6 permissions). Admins manage everyone in their
 * company; a plain user reads and edits only themself, and never the fields that only admins set.
 */
export const USER_PAGE_SIZE = 20;

/** Only admins change these (spec §6: profile, queues, connection, work hours, permissions). */
export const ADMIN_ONLY_FIELDS = [
  'profile',
  'queueIds',
  'whatsappId',
  'startWork',
  'endWork',
  ...USER_FLAGS,
] as const satisfies readonly (keyof User)[];

/** The view is the stored user without its password hash, plus its queues (UserView, the wire contract). */
const _sameKeys: SameKeys<Omit<User, 'passwordHash'> & Pick<UserView, 'queues'>, UserView> = true;

const isAdmin = (auth: AuthContext) => auth.profile === 'admin' || auth.super;

const viewsOf = async (companyId: number, users: User[]): Promise<UserView[]> => {
  const queues = new Map((await listQueues(companyId)).map((q) => [q.id, { id: q.id, name: q.name, color: q.color }]));
  // Internal fields (docs/data-model.md §2.6) never leave the server: the hash, the session id, presence time.
  return users.map((stored) => {
    const {
      passwordHash: _secret,
      sessionId: _session,
      lastSeenAt,
      ...u
    } = stored as User & {
      sessionId?: string;
      lastSeenAt?: string;
    };
    return {
      ...u,
      // Stored as the media key; callers get the URL browsers load it from.
      profileImage: u.profileImage ? mediaUrl(u.profileImage) : null,
      online: isOnline(lastSeenAt),
      queues: (u.queueIds ?? []).flatMap((id) => queues.get(id) ?? []),
    };
  });
};

/** A stored user as callers see it (also the `user` of the auth answers). */
export const viewOf = async (user: User): Promise<UserView> => (await viewsOf(user.companyId, [user]))[0]!;

/** Another company's user id answers exactly like a missing one. */
const findInCompany = async (auth: AuthContext, id: number): Promise<User> => {
  const user = await getUser(auth.companyId, id);
  if (!user) throw new NotFound('ERR_NO_USER_FOUND', 'User not found');
  return user;
};

/**
 * `company-{id}-user` (core spec §7): the users list of every admin, and the user's own tabs, follow
 * changes live. Best effort: the change is stored; a failed fan-out only costs liveness.
 */
const announceUser = async (
  companyId: number,
  userId: number,
  event: { action: ChannelAction<'user'>; [k: string]: unknown },
) => {
  try {
    await publish(companyId, { channel: 'user', ...event }, adminsAnd([userId]));
  } catch (err) {
    logger.warn('user event not sent', { companyId, userId, ...errorFields(err) });
  }
};

export const listCompanyUsers = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined },
): Promise<UserPage> => {
  const page = await fetchPage(q, USER_PAGE_SIZE, (cursor) =>
    listUsers(auth.companyId, { search: q.searchParam, limit: USER_PAGE_SIZE, cursor }),
  );
  return {
    users: await viewsOf(auth.companyId, page.items),
    hasMore: page.hasMore,
    ...(page.nextCursor ? ({ nextCursor: page.nextCursor } satisfies Partial<UserPage>) : {}),
  };
};

export const listCompanyUserNames = (auth: AuthContext): Promise<UserName[]> => listUserNames(auth.companyId);

export const showUser = async (auth: AuthContext, id: number): Promise<UserView> => {
  const user = await findInCompany(auth, id);
  if (!isAdmin(auth) && user.id !== auth.userId) throw new Forbidden();
  return viewOf(user);
};

export type UserInput = Omit<UserChanges, 'passwordHash'> & { password?: string };

/** A user's default connection (`whatsappId`) must be one of the company's connections. */
const checkConnection = async (companyId: number, whatsappId: number | null | undefined) => {
  if (whatsappId === null || whatsappId === undefined) return;
  if (!(await getConnection(companyId, whatsappId))) {
    throw new BadRequest('ERR_VALIDATION', 'Unknown connection', [
      { field: 'body.whatsappId', reason: `no connection ${whatsappId}` },
    ]);
  }
};

const checkQueues = async (companyId: number, queueIds: number[] | undefined) => {
  if (!queueIds || queueIds.length === 0) return;
  const known = new Set((await listQueues(companyId)).map((q) => q.id));
  const unknown = queueIds.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new BadRequest('ERR_VALIDATION', 'Unknown queue', [
      { field: 'body.queueIds', reason: `no queue ${unknown.join(', ')}` },
    ]);
  }
};

export const createCompanyUser = async (
  auth: AuthContext,
  input: UserInput & Required<Pick<UserInput, 'name' | 'email' | 'password' | 'profile'>>,
): Promise<UserView> => {
  await checkQueues(auth.companyId, input.queueIds);
  await checkConnection(auth.companyId, input.whatsappId);
  const company = await getCompany(auth.companyId);
  const plan = company ? await getPlan(company.planId) : null;
  const { password, ...fields } = input;
  const user = await createUser(
    auth.companyId,
    { ...fields, passwordHash: await hashPassword(password) },
    plan ? { maxUsers: plan.users } : {},
  );
  const view = await viewOf(user);
  await announceUser(auth.companyId, user.id, { action: 'create', user: view });
  return view;
};

export const updateCompanyUser = async (auth: AuthContext, id: number, input: UserInput): Promise<UserView> => {
  const current = await findInCompany(auth, id);
  if (!isAdmin(auth)) {
    if (current.id !== auth.userId) throw new Forbidden();
    const touched = ADMIN_ONLY_FIELDS.filter(
      (f) => input[f] !== undefined && JSON.stringify(input[f]) !== JSON.stringify(current[f]),
    );
    if (touched.length > 0) throw new Forbidden('ERR_NO_PERMISSION', `Only admins change ${touched.join(', ')}`);
  }
  await checkQueues(auth.companyId, input.queueIds);
  // Only a new choice is checked: a connection deleted since must not block unrelated edits.
  if (input.whatsappId !== current.whatsappId) await checkConnection(auth.companyId, input.whatsappId);
  const { password, ...fields } = input;
  const changes: UserChanges = { ...fields, ...(password ? { passwordHash: await hashPassword(password) } : {}) };
  const view = await viewOf(await updateUser(auth.companyId, id, changes));
  await announceUser(auth.companyId, id, { action: 'update', user: view });
  return view;
};

export const deleteCompanyUser = async (auth: AuthContext, id: number): Promise<void> => {
  if (id === auth.userId) {
    throw new BadRequest('ERR_CANNOT_DELETE_SELF', 'You cannot delete your own user', [
      { field: 'params.id', reason: 'is you' },
    ]);
  }
  const user = await findInCompany(auth, id);
  await deleteUser(auth.companyId, id);
  await announceUser(auth.companyId, id, { action: 'delete', userId: id });
  if (user.profileImage) {
    await deleteMediaObject(user.profileImage).catch((err: unknown) =>
      logger.warn('avatar of a deleted user not removed', {
        companyId: auth.companyId,
        userId: id,
        ...errorFields(err),
      }),
    );
  }
};

/** Largest avatar accepted (the route's body limit leaves room for the multipart envelope). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

const invalidImage = (reason: string) =>
  new BadRequest('ERR_INVALID_IMAGE', 'The avatar must be a PNG, JPEG, GIF or WebP image up to 2 MB', [
    { field: 'body.profileImage', reason },
  ]);

/**
 * Stores a new avatar (core spec §7 `POST /users/{id}/media-upload`): admins for anyone in their company, a
 * plain user for themself. The object gets a new random key each time (immutable caching, unguessable
 * URL); the user item then points at it, and the previous object is removed.
 */
export const uploadUserAvatar = async (
  auth: AuthContext,
  id: number,
  file: { bytes: Buffer; filename: string },
): Promise<UserView> => {
  const current = await findInCompany(auth, id);
  if (!isAdmin(auth) && current.id !== auth.userId) throw new Forbidden();
  if (file.bytes.byteLength === 0) throw invalidImage('is empty');
  if (file.bytes.byteLength > AVATAR_MAX_BYTES) throw invalidImage('is larger than 2 MB');
  const type = detectImageType(file.bytes);
  if (!type) throw invalidImage('is not a PNG, JPEG, GIF or WebP image');

  const key = `c/${auth.companyId}/users/${id}/${randomUUID()}.${type.extension}`;
  await putMediaObject(key, file.bytes, type.contentType);
  let updated: User;
  try {
    updated = await updateUser(auth.companyId, id, { profileImage: key });
  } catch (err) {
    await deleteMediaObject(key).catch(() => undefined); // nothing points at it: leave no orphan
    throw err;
  }
  if (current.profileImage && current.profileImage !== key) {
    await deleteMediaObject(current.profileImage).catch((err: unknown) =>
      logger.warn('old avatar not deleted', { companyId: auth.companyId, userId: id, ...errorFields(err) }),
    );
  }
  const view = await viewOf(updated);
  await announceUser(auth.companyId, id, { action: 'update', user: view });
  return view;
};
