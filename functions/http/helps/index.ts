import * as z from 'zod';
import { createHelpBody, updateHelpBody } from '../../contracts/helps';
import {
  createPlatformHelp,
  deletePlatformHelp,
  listAllHelps,
  listHelpPage,
  updatePlatformHelp,
} from '../../core/helps/help-service';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';

/** Help entries (core §7 "Other", administration "Help", §7; decisions D146). Bodies: functions/contracts/helps.ts. */
const idParam = z.object({ id: z.coerce.number().int().positive() });

export const handlers: AreaHandlers = {
  // The spec's `params` (searchParam, pageNumber) are accepted; the short list is one page.
  'list-helps': defineRoute({
    query: z.object({ searchParam: z.string().max(100).optional(), pageNumber: z.string().max(10).optional() }),
    handle: async ({ auth }) => listHelpPage(auth!),
  }),
  'list-all-helps': defineRoute({
    handle: async ({ auth }) => listAllHelps(auth!),
  }),
  'create-help': defineRoute({
    body: createHelpBody,
    handle: async ({ body }) => respond(201, await createPlatformHelp(body)),
  }),
  'update-help': defineRoute({
    params: idParam,
    body: updateHelpBody,
    handle: async ({ params, body }) => updatePlatformHelp(params.id, body),
  }),
  'delete-help': defineRoute({
    params: idParam,
    handle: async ({ params }) => {
      await deletePlatformHelp(params.id);
      return respond(200, { message: 'Help deleted' });
    },
  }),
};

export const handler = createAreaHandler('helps', handlers);
