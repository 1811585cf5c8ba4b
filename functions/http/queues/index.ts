import * as z from 'zod';
import {
  createChatbotBodySchema,
  createQueueBodySchema,
  updateChatbotBodySchema,
  updateQueueBodySchema,
} from '../../contracts/queues';
import {
  createChatbot,
  createCompanyQueue,
  deleteChatbot,
  deleteCompanyQueue,
  listCompanyQueues,
  showChatbot,
  showQueue,
  updateChatbot,
  updateCompanyQueue,
} from '../../core/queues/queue-service';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';

const idParams = z.object({ id: z.coerce.number().int().positive() });

export const handlers: AreaHandlers = {
  'list-queues': defineRoute({
    query: z.object({ companyId: z.unknown().optional() }),
    handle: async ({ auth }) => listCompanyQueues(auth!),
  }),
  'get-queue': defineRoute({
    params: idParams,
    handle: async ({ auth, params }) => showQueue(auth!, params.id),
  }),
  'create-queue': defineRoute({
    body: createQueueBodySchema,
    handle: async ({ auth, body }) => respond(201, await createCompanyQueue(auth!, body)),
  }),
  'update-queue': defineRoute({
    params: idParams,
    body: updateQueueBodySchema,
    handle: async ({ auth, params, body }) => updateCompanyQueue(auth!, params.id, body),
  }),
  'delete-queue': defineRoute({
    params: idParams,
    handle: async ({ auth, params }) => {
      await deleteCompanyQueue(auth!, params.id);
      return respond(200, { message: 'Queue deleted' });
    },
  }),
  'get-chatbot': defineRoute({
    params: idParams,
    handle: async ({ auth, params }) => showChatbot(auth!, params.id),
  }),
  'create-chatbot': defineRoute({
    body: createChatbotBodySchema,
    handle: async ({ auth, body }) => respond(201, await createChatbot(auth!, body)),
  }),
  'update-chatbot': defineRoute({
    params: idParams,
    body: updateChatbotBodySchema,
    handle: async ({ auth, params, body }) => updateChatbot(auth!, params.id, body),
  }),
  'delete-chatbot': defineRoute({
    params: idParams,
    handle: async ({ auth, params }) => {
      await deleteChatbot(auth!, params.id);
      return respond(200, { message: 'Chatbot option deleted' });
    },
  }),
};

export const handler = createAreaHandler('queues', handlers);
