import * as z from 'zod';
import { listCompanyQueues, showQueue } from '../../core/queues/queue-service';
import { createAreaHandler, defineRoute, type AreaHandlers } from '../stack';

export const handlers: AreaHandlers = {
  'list-queues': defineRoute({
    query: z.object({ companyId: z.unknown().optional() }),
    handle: async ({ auth }) => listCompanyQueues(auth!),
  }),
  'get-queue': defineRoute({
    params: z.object({ id: z.coerce.number().int().positive() }),
    handle: async ({ auth, params }) => showQueue(auth!, params.id),
  }),
};

export const handler = createAreaHandler('queues', handlers);
