import type { CreateUserBody, UpdateUserBody, UserName, UserPage, UserView } from '@contracts/users';
import { api } from './transport';

/**
 * A user as the users API answers it (the server's contract, functions/contracts/users.ts `UserView`): the
 * fields of core spec §3 User with the queues by name and colour; never the password.
 */
export type User = UserView;
export type { UserPage };

/** The fields an update may send (functions/contracts/users.ts `updateUserBody`). */
export type UserInput = UpdateUserBody;

/** A create needs name, e-mail and password (the server fills the rest with the spec's defaults). */
export type NewUserInput = CreateUserBody;

export interface ListUsersQuery {
  /** Word-prefix name search, accent- and case-insensitive (D5). */
  searchParam?: string;
  /** From 1, as the spec's list sends it. */
  pageNumber?: number;
  /** The previous answer's `nextCursor`; the server then skips no pages for `pageNumber`. */
  cursor?: string;
}

/** Image types the avatar upload accepts (the server refuses others with a 400). */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

interface CallOptions {
  signal?: AbortSignal;
}

const userPath = (id: number) => `/users/${encodeURIComponent(String(id))}`;

/** GET /users {searchParam, pageNumber, cursor}: one page of the company's users by name (admins only). */
export const listUsers = (query: ListUsersQuery = {}, options: CallOptions = {}): Promise<UserPage> =>
  api().get<UserPage>('/users', {
    ...options,
    query: { searchParam: query.searchParam || undefined, pageNumber: query.pageNumber, cursor: query.cursor },
  });

/** GET /users/list: id and name of every user of the company (any signed-in user). */
export const listUserNames = (options: CallOptions = {}): Promise<UserName[]> =>
  api().get<UserName[]>('/users/list', options);

/** GET /users/{id}: admins read anyone of their company, a plain user only themself. */
export const getUser = (id: number, options: CallOptions = {}): Promise<User> => api().get<User>(userPath(id), options);

/** POST /users (admins): answers the created user. */
export const createUser = (input: NewUserInput): Promise<User> => api().post<User>('/users', input);

/** PUT /users/{id}: only the fields sent change; a plain user may not send the admin-only ones (spec §6). */
export const updateUser = (id: number, input: UserInput): Promise<User> => api().put<User>(userPath(id), input);

/** DELETE /users/{id} (admins; never oneself). */
export const deleteUser = async (id: number): Promise<void> => {
  await api().delete<unknown>(userPath(id));
};

/**
 * POST /users/{id}/media-upload as multipart/form-data with the spec's fields `userId`, `typeArch` = 'user'
 * and `profileImage` (the file); answers the updated user, `profileImage` included. The transport hands the
 * FormData to the adapter untouched and Amplify sends it with the browser's multipart boundary.
 */
export const uploadAvatar = (id: number, file: File): Promise<User> => {
  const form = new FormData();
  form.append('userId', String(id));
  form.append('typeArch', 'user');
  form.append('profileImage', file, file.name);
  return api().post<User>(`${userPath(id)}/media-upload`, form);
};

/**
 * The address of a stored avatar: the server answers the `/media/...` path (docs/data-model.md §1.8), or a
 * full URL; a bare key is taken as relative to the runtime config's media base.
 */
export const avatarUrl = (profileImage: string | null | undefined, mediaBase: string): string | undefined => {
  if (!profileImage) return undefined;
  if (/^(https?:|blob:|data:|\/)/.test(profileImage)) return profileImage;
  return `${mediaBase}/${profileImage.split('/').map(encodeURIComponent).join('/')}`;
};
