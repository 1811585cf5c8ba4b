import * as z from 'zod';
import { companyPlan, listPublicPlans } from '../../core/plans/plan-service';
import {
  columnSchema,
  getCompanySettingOne,
  getCompanySettings,
  updateCompanySchedules,
  updateCompanySetting,
} from '../../core/settings/company-settings';
import { scheduleEntrySchema } from '../../contracts/queues';
import {
  globalKeySchema,
  listSettings,
  readPublicSetting,
  readSetting,
  writeSetting,
} from '../../core/settings/global-settings';
import { createAreaHandler, defineRoute, isUploadedFile, type AreaHandlers, type UploadedFile } from '../stack';
import { certificateStatus, uploadCertificate } from '../../core/settings/payment-certificate';
import { LOGO_MODES, uploadWhitelabelLogo } from '../../core/settings/whitelabel-logo';
import { saveCampaignSettingsBody } from '../../contracts/campaign-settings';
import { getCompanyCampaignSettings, saveCompanyCampaignSettings } from '../../core/outbound/campaign-settings';

/** The `settings` area: company settings by column, platform settings by key, branding, plans. */
const companyIdParam = z.object({ companyId: z.coerce.number().int().positive() });

export const handlers: AreaHandlers = {
  // Campaign settings (decisions D117).
  'get-campaign-settings': defineRoute({ handle: async ({ auth }) => getCompanyCampaignSettings(auth!) }),
  'save-campaign-settings': defineRoute({
    body: saveCampaignSettingsBody,
    handle: async ({ auth, body }) => saveCompanyCampaignSettings(auth!, body.settings),
  }),
  'get-company-settings': defineRoute({
    params: companyIdParam,
    handle: async ({ auth, params }) => getCompanySettings(auth!, params.companyId),
  }),
  'get-company-setting-one': defineRoute({
    query: z.object({ column: columnSchema }),
    handle: async ({ auth, query }) => getCompanySettingOne(auth!, query.column),
  }),
  'update-company-setting': defineRoute({
    body: z.object({ column: columnSchema, data: z.unknown() }),
    handle: async ({ auth, body }) => updateCompanySetting(auth!, body.column, body.data),
  }),
  'list-settings': defineRoute({ handle: async () => listSettings() }),
  'get-setting': defineRoute({
    params: z.object({ key: globalKeySchema }),
    handle: async ({ auth, params }) => readSetting(auth!, params.key),
  }),
  'update-setting': defineRoute({
    params: z.object({ key: globalKeySchema }),
    // The spec's client sends {key, value}; the path names the key.
    body: z.object({ key: z.string().optional(), value: z.unknown() }),
    handle: async ({ params, body }) => writeSetting(params.key, body.value),
  }),
  // POST /settings/cert-upload?ref=certificadoEfi, multipart `file` (core §7; decisions D169).
  'upload-certificate': defineRoute({
    bodyType: 'multipart',
    maxBodyBytes: 256 * 1024,
    query: z.object({ ref: z.string().max(50).optional() }),
    body: z.object({ file: z.custom<UploadedFile>(isUploadedFile, { error: 'Escolha um arquivo!' }).optional() }),
    handle: async ({ query, body }) => uploadCertificate(query.ref, body.file),
  }),
  'get-certificate-status': defineRoute({ handle: async () => certificateStatus() }),
  'get-public-setting': defineRoute({
    params: z.object({ key: z.string().max(100) }),
    query: z.object({ token: z.string().max(500).optional() }),
    handle: async ({ params }) => readPublicSetting(params.key),
  }),
  // The spec's multipart {typeArch logo, mode Light|Dark|Favicon, file}; answers the setting it set.
  'upload-whitelabel-logo': defineRoute({
    bodyType: 'multipart',
    maxBodyBytes: 4 * 1024 * 1024,
    body: z.object(
      {
        typeArch: z.string().max(50).optional(),
        mode: z.enum(LOGO_MODES, { error: 'one of Light, Dark, Favicon' }),
        file: z.custom<UploadedFile>(isUploadedFile, { error: 'Required: a file' }),
      },
      { error: 'Required: a multipart form with mode and file' },
    ),
    handle: async ({ body }) => uploadWhitelabelLogo(body.mode, body.file),
  }),
  'update-company-schedules': defineRoute({
    params: z.object({ id: z.coerce.number().int().positive() }),
    body: z.object({ id: z.unknown().optional(), schedules: z.array(scheduleEntrySchema).max(7) }),
    handle: async ({ auth, params, body }) => updateCompanySchedules(auth!, params.id, body.schedules),
  }),
  'list-public-plans': defineRoute({ handle: async () => listPublicPlans() }),
  'get-company-plan': defineRoute({
    params: companyIdParam,
    handle: async ({ auth, params }) => companyPlan(auth!, params.companyId),
  }),
};

export const handler = createAreaHandler('settings', handlers);
