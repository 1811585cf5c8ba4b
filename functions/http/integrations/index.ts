import * as z from 'zod';
import {
  createIntegrationBody,
  createPromptBody,
  listIntegrationsQuery,
  listPromptsQuery,
  testSessionBody,
  updateIntegrationBody,
  updatePromptBody,
} from '../../contracts/integrations';
import {
  createCompanyIntegration,
  deleteCompanyIntegration,
  listCompanyIntegrations,
  showIntegration,
  testDialogflowSession,
  updateCompanyIntegration,
} from '../../core/integrations/integration-service';
import {
  createCompanyPrompt,
  deleteCompanyPrompt,
  listCompanyPrompts,
  showPrompt,
  updateCompanyPrompt,
} from '../../core/integrations/prompt-service';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';

/**
 * Queue integrations (plan flag useIntegrations) and AI prompts (plan flag useOpenAi): admin routes
 * (functions/routes.ts; administration spec §7; decisions D162–D165).
 */
const idParam = z.object({ id: z.coerce.number().int().positive() });

export const handlers: AreaHandlers = {
  'list-queue-integrations': defineRoute({
    query: listIntegrationsQuery,
    handle: async ({ auth, query }) => listCompanyIntegrations(auth!, query),
  }),
  'get-queue-integration': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => showIntegration(auth!, params.id),
  }),
  'create-queue-integration': defineRoute({
    body: createIntegrationBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyIntegration(auth!, body)),
  }),
  'update-queue-integration': defineRoute({
    params: idParam,
    body: updateIntegrationBody,
    handle: async ({ auth, params, body }) => updateCompanyIntegration(auth!, params.id, body),
  }),
  'delete-queue-integration': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyIntegration(auth!, params.id);
      return respond(200, { message: 'Integration deleted' });
    },
  }),
  'test-queue-integration-session': defineRoute({
    body: testSessionBody,
    handle: async ({ auth, body }) => testDialogflowSession(auth!, body),
  }),
  'list-prompts': defineRoute({
    query: listPromptsQuery,
    handle: async ({ auth, query }) => listCompanyPrompts(auth!, query),
  }),
  'get-prompt': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => showPrompt(auth!, params.id),
  }),
  'create-prompt': defineRoute({
    body: createPromptBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyPrompt(auth!, body)),
  }),
  'update-prompt': defineRoute({
    params: idParam,
    body: updatePromptBody,
    handle: async ({ auth, params, body }) => updateCompanyPrompt(auth!, params.id, body),
  }),
  'delete-prompt': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyPrompt(auth!, params.id);
      return respond(200, { message: 'Prompt deleted' });
    },
  }),
};

export const handler = createAreaHandler('integrations', handlers);
