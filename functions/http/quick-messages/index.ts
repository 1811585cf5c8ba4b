import * as z from 'zod';
import { createQuickMessageBody, updateQuickMessageBody } from '../../contracts/quick-messages';
import { pagingQuery } from '../../core/paging';
import {
  createCompanyQuickMessage,
  deleteCompanyQuickMessage,
  deleteQuickMessageMedia,
  listComposerQuickMessages,
  listVisibleQuickMessages,
  showQuickMessage,
  updateCompanyQuickMessage,
  uploadQuickMessageMedia,
} from '../../core/quick-messages/quick-message-service';
import {
  createAreaHandler,
  defineRoute,
  isUploadedFile,
  respond,
  type AreaHandlers,
  type UploadedFile,
} from '../stack';

/**
 * Quick replies (administration spec "Quick replies"; one attachment). The bodies are the wire contract's
 * (functions/contracts/quick-messages.ts); the spec's form also sends `userId` and `companyId`, which are
 * dropped here: the owner and the tenant always come from the token.
 */
const strip = <T extends { userId?: unknown; companyId?: unknown }>({ userId: _u, companyId: _c, ...rest }: T) => rest;

const idParam = z.object({ id: z.coerce.number().int().positive() });
const filePart = z.custom<UploadedFile>(isUploadedFile, { error: 'Required: a file' });

export const handlers: AreaHandlers = {
  'list-quick-messages': defineRoute({
    query: z.object({ ...pagingQuery, searchParam: z.string().trim().max(100).optional() }),
    handle: async ({ auth, query }) => listVisibleQuickMessages(auth!, query),
  }),
  'list-composer-quick-messages': defineRoute({
    query: z.object({ companyId: z.unknown().optional(), userId: z.unknown().optional() }),
    handle: async ({ auth }) => listComposerQuickMessages(auth!),
  }),
  'get-quick-message': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => showQuickMessage(auth!, params.id),
  }),
  'create-quick-message': defineRoute({
    body: createQuickMessageBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyQuickMessage(auth!, strip(body))),
  }),
  'update-quick-message': defineRoute({
    params: idParam,
    body: updateQuickMessageBody,
    handle: async ({ auth, params, body }) => updateCompanyQuickMessage(auth!, params.id, strip(body)),
  }),
  'delete-quick-message': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyQuickMessage(auth!, params.id);
      return respond(200, { message: 'Quick message deleted' });
    },
  }),
  // The spec's multipart form {typeArch, file}; answers the reply.
  'upload-quick-message-media': defineRoute({
    params: idParam,
    bodyType: 'multipart',
    maxBodyBytes: 3 * 1024 * 1024,
    body: z.object(
      { typeArch: z.string().max(50).optional(), file: filePart },
      { error: 'Required: a multipart form with file' },
    ),
    handle: async ({ auth, params, body }) => uploadQuickMessageMedia(auth!, params.id, body.file),
  }),
  'delete-quick-message-media': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => deleteQuickMessageMedia(auth!, params.id),
  }),
};

export const handler = createAreaHandler('quick-messages', handlers);
