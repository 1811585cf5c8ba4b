import type {
  CreateFlowCampaignBody,
  FlowCampaignDetail,
  FlowCampaignList,
  FlowCampaignView,
  FlowContentUploadAnswer,
  FlowContentUploadBody,
  FlowDocumentAnswer,
  FlowMediaKind,
  FlowPage,
  FlowView,
  FlowTestPosition,
  FlowTestStart,
  SaveFlowDocumentBody,
  StartFlowTestBody,
} from '@contracts/flows';
import { api } from './transport';

/**
 * Conversation flows and phrase campaigns (administration spec §2 Flow builder, Campaigns by phrase; server:
 * functions/http/flows; decisions D138–D141). The wire shapes are the server's contract
 * (functions/contracts/flows.ts), which the visual editor's document also follows.
 */
export type Flow = FlowView;
export type FlowCampaign = FlowCampaignView;
export type { FlowPage, FlowDocumentAnswer, FlowTestPosition, FlowTestStart };

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

// ------------------------------------------------------------------- the visual editor (decisions D159, D160)

export interface FlowMediaFile {
  /** The card's kind: img, audio or video. */
  type: FlowMediaKind;
  file: File;
}

/**
 * Uploads the files of content cards (decisions D159): POST /flowbuilder/content for presigned PUTs under
 * the flow's prefix, then one PUT of each file's bytes. Answers each file's key (the card's `value`), in
 * order. The save that names the keys checks their bytes on the server.
 */
export const uploadFlowMedia = async (flowId: number, files: readonly FlowMediaFile[]): Promise<string[]> => {
  if (files.length === 0) return [];
  const answer = await api().post<FlowContentUploadAnswer>('/flowbuilder/content', {
    idFlow: flowId,
    medias: files.map(({ type, file }) => ({
      name: file.name,
      type,
      size: file.size,
      contentType: file.type || 'application/octet-stream',
    })),
  } satisfies FlowContentUploadBody);
  await Promise.all(
    answer.data.map(async (upload, i) => {
      const res = await fetch(upload.uploadUrl, {
        method: upload.method,
        headers: upload.headers,
        body: files[i]!.file,
      });
      if (!res.ok) throw new Error(`upload of ${files[i]!.file.name} failed (${res.status})`);
    }),
  );
  return answer.data.map((u) => u.key);
};

/** POST /flowbuilder/test {flowId, whatsappId}: the flow becomes the simulated connection's welcome flow. */
export const startFlowTest = (body: StartFlowTestBody): Promise<FlowTestStart> =>
  api().post<FlowTestStart>('/flowbuilder/test', body);

/** GET /flowbuilder/test/{flowId}?whatsappId&number: where the test customer's run is. */
export const getFlowTestPosition = (
  flowId: number,
  query: { whatsappId: number; number: string },
  options: CallOptions = {},
): Promise<FlowTestPosition> =>
  api().get<FlowTestPosition>(`/flowbuilder/test/${encodeURIComponent(String(flowId))}`, {
    ...options,
    query: { whatsappId: String(query.whatsappId), number: query.number },
  });
