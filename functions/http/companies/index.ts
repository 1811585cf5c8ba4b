import * as z from 'zod';
import { createCompanyBodySchema, updateCompanyBodySchema } from '../../contracts/companies';
import {
  createPlatformCompany,
  deletePlatformCompany,
  listCompanyPage,
  showCompany,
  updatePlatformCompany,
} from '../../core/companies/company-service';
import { pagingQuery } from '../../core/paging';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';

/** The `companies` area: the platform owner's companies (decisions D155–D157). */
const idParams = z.object({ id: z.coerce.number().int().positive() });
const listQuery = z.object({ searchParam: z.string().trim().max(100).optional(), ...pagingQuery });

const list = defineRoute({ query: listQuery, handle: async ({ query }) => listCompanyPage(query) });

export const handlers: AreaHandlers = {
  'list-companies-plan': list,
  'list-companies': list,
  'list-all-companies': list,
  'get-company': defineRoute({ params: idParams, handle: async ({ params }) => showCompany(params.id) }),
  'create-company': defineRoute({
    body: createCompanyBodySchema,
    handle: async ({ body }) => respond(201, await createPlatformCompany(body)),
  }),
  'update-company': defineRoute({
    params: idParams,
    body: updateCompanyBodySchema,
    handle: async ({ params, body }) => updatePlatformCompany(params.id, body),
  }),
  'delete-company': defineRoute({
    params: idParams,
    handle: async ({ params }) => {
      await deletePlatformCompany(params.id);
      return respond(200, { message: 'Company deleted' });
    },
  }),
};

export const handler = createAreaHandler('companies', handlers);
