import * as z from 'zod';
import { createCampaignBody, updateCampaignBody } from '../../contracts/campaigns';
import { pagingQuery } from '../../core/paging';
import {
  campaignReport,
  cancelCampaign,
  createCompanyCampaign,
  deleteCampaignMedia,
  deleteCompanyCampaign,
  listCompanyCampaigns,
  restartCampaign,
  showCampaign,
  updateCompanyCampaign,
  uploadCampaignMedia,
} from '../../core/campaigns/campaign-service';
import {
  createAreaHandler,
  defineRoute,
  isUploadedFile,
  respond,
  type AreaHandlers,
  type UploadedFile,
} from '../stack';

/**
 * Campaigns (administration §2 Campaigns, §7 Campaigns; decisions D133–D136). The spec's form also sends
 * `companyId` and `status`: dropped, the tenant comes from the token and the status from the server.
 */
const strip = <T extends { companyId?: unknown; status?: unknown }>({ companyId: _c, status: _s, ...rest }: T) => rest;

const idParam = z.object({ id: z.coerce.number().int().positive() });
const filePart = z.custom<UploadedFile>(isUploadedFile, { error: 'Required: a file' });

export const handlers: AreaHandlers = {
  'list-campaigns': defineRoute({
    query: z.object({ ...pagingQuery, searchParam: z.string().trim().max(100).optional() }),
    handle: async ({ auth, query }) => listCompanyCampaigns(auth!, query),
  }),
  'get-campaign': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => showCampaign(auth!, params.id),
  }),
  'get-campaign-report': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => campaignReport(auth!, params.id),
  }),
  'create-campaign': defineRoute({
    body: createCampaignBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyCampaign(auth!, strip(body))),
  }),
  'update-campaign': defineRoute({
    params: idParam,
    body: updateCampaignBody,
    handle: async ({ auth, params, body }) => updateCompanyCampaign(auth!, params.id, strip(body)),
  }),
  'delete-campaign': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyCampaign(auth!, params.id);
      return respond(200, { message: 'Campaign deleted' });
    },
  }),
  'cancel-campaign': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => cancelCampaign(auth!, params.id),
  }),
  'restart-campaign': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => restartCampaign(auth!, params.id),
  }),
  'upload-campaign-media': defineRoute({
    params: idParam,
    bodyType: 'multipart',
    maxBodyBytes: 5 * 1024 * 1024,
    body: z.object({ file: filePart }, { error: 'Required: a multipart form with file' }),
    handle: async ({ auth, params, body }) => uploadCampaignMedia(auth!, params.id, body.file),
  }),
  'delete-campaign-media': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => deleteCampaignMedia(auth!, params.id),
  }),
};

export const handler = createAreaHandler('campaigns', handlers);
