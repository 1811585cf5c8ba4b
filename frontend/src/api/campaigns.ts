import type {
  CampaignPage,
  CampaignReportView,
  CampaignStatus,
  CampaignVariantReport,
  CampaignView,
  CreateCampaignBody,
  UpdateCampaignBody,
} from '@contracts/campaigns';
import type { CampaignSettingsView, SaveCampaignSettingsBody } from '@contracts/campaign-settings';
import type { ContactListView } from '@contracts/contact-lists';
import { api } from './transport';

/**
 * Campaigns, their report and the campaign settings (administration spec "Campaigns", §7; server:
 * functions/http/campaigns and functions/http/settings; decisions D117, D133–D136). The wire shapes are the
 * server's contracts (functions/contracts/campaigns.ts, campaign-settings.ts).
 */
export type Campaign = CampaignView;
export type CampaignReport = CampaignReportView;
export type CampaignVariant = CampaignVariantReport;
export type CampaignSettings = CampaignSettingsView;
export type { CampaignPage, CampaignStatus };
export type CampaignInput = Omit<CreateCampaignBody, 'companyId' | 'status'>;

interface CallOptions {
  signal?: AbortSignal;
}

const campaignPath = (id: number) => `/campaigns/${encodeURIComponent(String(id))}`;

/** GET /campaigns {searchParam, pageNumber, cursor}: newest first, or by name. */
export const listCampaigns = (
  query: { searchParam?: string; pageNumber?: number; cursor?: string } = {},
  options: CallOptions = {},
): Promise<CampaignPage> =>
  api().get<CampaignPage>('/campaigns', {
    ...options,
    query: { searchParam: query.searchParam || undefined, pageNumber: query.pageNumber, cursor: query.cursor },
  });

export const getCampaign = (id: number, options: CallOptions = {}): Promise<Campaign> =>
  api().get<Campaign>(campaignPath(id), options);

/** GET /campaigns/{id}/report: progress and the figures per message variant. */
export const getCampaignReport = (id: number, options: CallOptions = {}): Promise<CampaignReport> =>
  api().get<CampaignReport>(`${campaignPath(id)}/report`, options);

export const createCampaign = (body: CampaignInput): Promise<Campaign> => api().post<Campaign>('/campaigns', body);

export const updateCampaign = (id: number, body: Omit<UpdateCampaignBody, 'companyId' | 'status'>): Promise<Campaign> =>
  api().put<Campaign>(campaignPath(id), body);

export const deleteCampaign = (id: number): Promise<{ message: string }> =>
  api().delete<{ message: string }>(campaignPath(id));

/** POST /campaigns/{id}/cancel: EM_ANDAMENTO → CANCELADA. */
export const cancelCampaign = (id: number): Promise<Campaign> => api().post<Campaign>(`${campaignPath(id)}/cancel`);

/** POST /campaigns/{id}/restart: CANCELADA → EM_ANDAMENTO. */
export const restartCampaign = (id: number): Promise<Campaign> => api().post<Campaign>(`${campaignPath(id)}/restart`);

/** POST /campaigns/{id}/media-upload (multipart `file`). */
export const uploadCampaignMedia = (id: number, file: File): Promise<Campaign> => {
  const form = new FormData();
  form.append('file', file, file.name);
  return api().post<Campaign>(`${campaignPath(id)}/media-upload`, form);
};

export const deleteCampaignMedia = (id: number): Promise<Campaign> =>
  api().delete<Campaign>(`${campaignPath(id)}/media-upload`);

/** GET /contact-lists/list: every contact list by name (the dialog's select). */
export const listAllContactLists = (options: CallOptions = {}): Promise<ContactListView[]> =>
  api().get<ContactListView[]>('/contact-lists/list', options);

/** GET /campaign-settings. */
export const getCampaignSettings = (options: CallOptions = {}): Promise<CampaignSettings> =>
  api().get<CampaignSettings>('/campaign-settings', options);

/** POST /campaign-settings {settings}: the keys sent change; answers the whole settings. */
export const saveCampaignSettings = (settings: SaveCampaignSettingsBody['settings']): Promise<CampaignSettings> =>
  api().post<CampaignSettings>('/campaign-settings', { settings });

/** Administration §4: the form is editable when INATIVA, CANCELADA, or PROGRAMADA more than an hour ahead. */
export const isCampaignEditable = (c: Pick<Campaign, 'status' | 'scheduledAt'>, now = Date.now()): boolean =>
  c.status === 'INATIVA' ||
  c.status === 'CANCELADA' ||
  (c.status === 'PROGRAMADA' && c.scheduledAt !== null && Date.parse(c.scheduledAt) - now > 3600_000);
