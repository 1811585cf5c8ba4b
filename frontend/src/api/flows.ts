import type {
  CreateFlowCampaignBody,
  FlowCampaignDetail,
  FlowCampaignList,
  FlowCampaignView,
  FlowDocumentAnswer,
  FlowPage,
  FlowView,
  SaveFlowDocumentBody,
} from '@contracts/flows';
import { api } from './transport';

/**
 * Conversation flows and phrase campaigns (administration spec §2 Flow builder, Campaigns by phrase; server:
 * functions/http/flows; decisions D138–D141). The wire shapes are the server's contract
 * (functions/contracts/flows.ts), which the visual editor's document also follows.
 */
export type Flow = FlowView;
export type FlowCampaign = FlowCampaignView;
export type { FlowPage, FlowDocumentAnswer };

interface CallOptions {
  signal?: AbortSignal;
}

/** GET /flowbuilder {searchParam, pageNumber, cursor}: one page, newest first (by name when searching). */
export const listFlows = (
  query: { searchParam?: string; pageNumber?: number; cursor?: string } = {},
  options: CallOptions = {},
): Promise<FlowPage> =>
  api().get<FlowPage>('/flowbuilder', {
    ...options,
    query: { searchParam: query.searchParam || undefined, pageNumber: query.pageNumber, cursor: query.cursor },
  });

/** Every flow, page after page (the selects of the phrase-campaign and connection dialogs); at most 10 pages. */
export const listAllFlows = async (options: CallOptions = {}): Promise<Flow[]> => {
  const flows: Flow[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 10; i += 1) {
    const page = await listFlows(cursor ? { cursor } : {}, options);
    flows.push(...page.flows);
    if (!page.hasMore || !page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return flows;
};

export const createFlow = (name: string): Promise<Flow> => api().post<Flow>('/flowbuilder', { name });

/** PUT /flowbuilder {flowId, name, active}. */
export const updateFlow = (flowId: number, input: { name?: string; active?: boolean }): Promise<Flow> =>
  api().put<Flow>('/flowbuilder', { flowId, ...input });

export const deleteFlow = (id: number): Promise<{ message: string }> =>
  api().delete<{ message: string }>(`/flowbuilder/${encodeURIComponent(String(id))}`);

export const duplicateFlow = (flowId: number): Promise<Flow> => api().post<Flow>('/flowbuilder/duplicate', { flowId });

export const getFlowDocument = (id: number, options: CallOptions = {}): Promise<FlowDocumentAnswer> =>
  api().get<FlowDocumentAnswer>(`/flowbuilder/flow/${encodeURIComponent(String(id))}`, options);

/** POST /flowbuilder/flow {idFlow, nodes, connections}: saves the next version. */
export const saveFlowDocument = (body: SaveFlowDocumentBody): Promise<FlowDocumentAnswer> =>
  api().post<FlowDocumentAnswer>('/flowbuilder/flow', body);

/** GET /flowcampaign: every phrase campaign of the company (`flow` in the answer, §3). */
export const listFlowCampaigns = async (options: CallOptions = {}): Promise<FlowCampaign[]> =>
  (await api().get<FlowCampaignList>('/flowcampaign', options)).flow;

export const getFlowCampaign = async (id: number, options: CallOptions = {}): Promise<FlowCampaign> =>
  (await api().get<FlowCampaignDetail>(`/flowcampaign/${encodeURIComponent(String(id))}`, options)).details;

export type FlowCampaignInput = Omit<CreateFlowCampaignBody, 'whatsappId'> & { whatsappId: number | null };

export const createFlowCampaign = (input: FlowCampaignInput): Promise<FlowCampaign> =>
  api().post<FlowCampaign>('/flowcampaign', input);

export const updateFlowCampaign = (id: number, input: FlowCampaignInput & { status: boolean }): Promise<FlowCampaign> =>
  api().put<FlowCampaign>('/flowcampaign', { id, ...input });

export const deleteFlowCampaign = (id: number): Promise<{ message: string }> =>
  api().delete<{ message: string }>(`/flowcampaign/${encodeURIComponent(String(id))}`);
