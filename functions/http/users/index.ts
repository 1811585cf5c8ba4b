import * as z from 'zod';
import { BadRequest } from '../../shared/errors';
import { createUserBody, updateUserBody } from '../../contracts/users';
import { pagingQuery } from '../../core/paging';
import {
  createCompanyUser,
  deleteCompanyUser,
  listCompanyUserNames,
  listCompanyUsers,
  showUser,
  updateCompanyUser,
  uploadUserAvatar,
} from '../../core/users/user-service';
import {
  createAreaHandler,
  defineRoute,
  isUploadedFile,
  respond,
  type AreaHandlers,
  type UploadedFile,
} from '../stack';

const idParam = z.object({ id: z.coerce.number().int().positive() });

/** A file part of a multipart body; any other value (a text part, nothing) is the reason named. */
const filePart = z.custom<UploadedFile>(isUploadedFile, { error: 'Required: an image file' });

export const handlers: AreaHandlers = {
  'list-users': defineRoute({
    query: z.object({ ...pagingQuery, searchParam: z.string().trim().max(100).optional() }),
    handle: async ({ auth, query }) => listCompanyUsers(auth!, query),
  }),
  'list-user-names': defineRoute({ handle: async ({ auth }) => listCompanyUserNames(auth!) }),
  'get-user': defineRoute({ params: idParam, handle: async ({ auth, params }) => showUser(auth!, params.id) }),
  'create-user': defineRoute({
    body: createUserBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyUser(auth!, body)),
  }),
  'update-user': defineRoute({
    params: idParam,
    body: updateUserBody,
    handle: async ({ auth, params, body }) => updateCompanyUser(auth!, params.id, body),
  }),
  'delete-user': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyUser(auth!, params.id);
      return respond(200, { message: 'User deleted' });
    },
  }),
  // The spec's multipart form {userId, typeArch: 'user', profileImage}; answers the user (profileImage URL).
  'upload-user-avatar': defineRoute({
    params: idParam,
    bodyType: 'multipart',
    maxBodyBytes: 3 * 1024 * 1024,
    body: z.object(
      {
        userId: z.coerce.number().int().positive().optional(),
        typeArch: z.literal('user', { error: "must be 'user'" }).optional(),
        profileImage: filePart,
      },
      { error: 'Required: a multipart form with profileImage' },
    ),
    handle: async ({ auth, params, body }) => {
      if (body.userId !== undefined && body.userId !== params.id) {
        throw new BadRequest('ERR_VALIDATION', 'userId does not match the path', [
          { field: 'body.userId', reason: `must be ${params.id}` },
        ]);
      }
      return uploadUserAvatar(auth!, params.id, body.profileImage);
    },
  }),
};

export const handler = createAreaHandler('users', handlers);
