import * as z from 'zod';
import {
  createFlowBody,
  createFlowCampaignBody,
  duplicateFlowBody,
  flowContentUploadBody,
  flowSingleUploadBody,
  flowTestPositionQuery,
  saveFlowDocumentBody,
  startFlowTestBody,
  updateFlowBody,
  updateFlowCampaignBody,
} from '../../contracts/flows';
import { pagingQuery } from '../../core/paging';
import {
  createCompanyFlow,
  deleteCompanyFlow,
  duplicateCompanyFlow,
  getFlowDocument,
  listCompanyFlows,
  saveCompanyFlowDocument,
  showFlow,
  updateCompanyFlow,
} from '../../core/flows/flow-service';
import {
  createCompanyFlowCampaign,
  deleteCompanyFlowCampaign,
  listCompanyFlowCampaigns,
  showFlowCampaign,
  updateCompanyFlowCampaign,
} from '../../core/flows/flow-campaign-service';
import { createFlowUploads } from '../../core/flows/flow-media-service';
import { flowTestPosition, startFlowTest } from '../../core/flows/flow-test-service';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';

/**
 * Conversation flows and phrase campaigns (administration §2 Flow builder, Campaigns by phrase; §7 the
 * calls; decisions D138–D142). The spec's forms also send `companyId`: ignored, the tenant is the token's.
 */
const idParam = z.object({ id: z.coerce.number().int().positive() });

export const handlers: AreaHandlers = {
  'list-flows': defineRoute({
    query: z.object({ ...pagingQuery, searchParam: z.string().trim().max(100).optional() }),
    handle: async ({ auth, query }) => listCompanyFlows(auth!, query),
  }),
  'get-flow': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => showFlow(auth!, params.id),
  }),
  'create-flow': defineRoute({
    body: createFlowBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyFlow(auth!, body)),
  }),
  'update-flow': defineRoute({
    body: updateFlowBody,
    handle: async ({ auth, body }) => updateCompanyFlow(auth!, body),
  }),
  'delete-flow': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyFlow(auth!, params.id);
      return { message: 'Fluxo excluído com sucesso' };
    },
  }),
  'duplicate-flow': defineRoute({
    body: duplicateFlowBody,
    handle: async ({ auth, body }) => respond(201, await duplicateCompanyFlow(auth!, body.flowId)),
  }),
  'get-flow-document': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => getFlowDocument(auth!, params.id),
  }),
  'save-flow-document': defineRoute({
    body: saveFlowDocumentBody,
    handle: async ({ auth, body }) => saveCompanyFlowDocument(auth!, body),
  }),
  // Media uploads (decisions D159): presigned PUTs under the flow's prefix; the save checks the bytes.
  'upload-flow-content': defineRoute({
    body: flowContentUploadBody,
    handle: async ({ auth, body }) => ({ data: await createFlowUploads(auth!, body.idFlow, body.medias) }),
  }),
  'upload-flow-image': defineRoute({
    body: flowSingleUploadBody,
    handle: async ({ auth, body }) => {
      const [upload] = await createFlowUploads(auth!, body.idFlow, [{ ...body.medias[0]!, type: 'img' }]);
      return { ...upload!, name: upload!.key };
    },
  }),
  'upload-flow-audio': defineRoute({
    body: flowSingleUploadBody,
    handle: async ({ auth, body }) => {
      const [upload] = await createFlowUploads(auth!, body.idFlow, [{ ...body.medias[0]!, type: 'audio' }]);
      return { ...upload!, name: upload!.key };
    },
  }),
  // Trying a flow on the phone simulator (decisions D160).
  'start-flow-test': defineRoute({
    body: startFlowTestBody,
    handle: async ({ auth, body }) => startFlowTest(auth!, body),
  }),
  'get-flow-test-position': defineRoute({
    params: idParam,
    query: flowTestPositionQuery,
    handle: async ({ auth, params, query }) => flowTestPosition(auth!, params.id, query),
  }),

  'list-flow-campaigns': defineRoute({
    handle: async ({ auth }) => listCompanyFlowCampaigns(auth!),
  }),
  'get-flow-campaign': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => showFlowCampaign(auth!, params.id),
  }),
  'create-flow-campaign': defineRoute({
    body: createFlowCampaignBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyFlowCampaign(auth!, body)),
  }),
  'update-flow-campaign': defineRoute({
    body: updateFlowCampaignBody,
    handle: async ({ auth, body }) => updateCompanyFlowCampaign(auth!, body),
  }),
  'delete-flow-campaign': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyFlowCampaign(auth!, params.id);
      return { message: 'Frase deletada' };
    },
  }),
};

export const handler = createAreaHandler('flows', handlers);
