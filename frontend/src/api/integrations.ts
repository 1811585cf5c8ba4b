import type {
  PromptPage,
  PromptView,
  QueueIntegrationPage,
  QueueIntegrationView,
  TestSessionResult,
} from '@contracts/integrations';
import { api } from './transport';

/**
 * Queue integrations and AI prompts (administration spec §2, §7; server: functions/http/integrations;
 * decisions D162–D165). The shapes are the server's, imported as types only. Secrets come back masked.
 */
export type {
  IntegrationType,
  PromptPage,
  PromptView,
  PromptVoice,
  QueueIntegrationPage,
  QueueIntegrationView,
  TestSessionResult,
} from '@contracts/integrations';

/** The server's values (functions/contracts/integrations.ts), repeated here: the app imports no zod. */
export const SECRET_MASK = '********';
export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder'] as const;
export const PROMPT_VOICES = [
  'texto',
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
] as const;

interface CallOptions {
  signal?: AbortSignal;
}
type Query = { searchParam?: string; pageNumber?: number; cursor?: string };
const queryOf = (q: Query) => ({ searchParam: q.searchParam || undefined, pageNumber: q.pageNumber, cursor: q.cursor });

/** GET /queueIntegration/ {searchParam, pageNumber, cursor}: one page by name; without paging, all (selects). */
export const listQueueIntegrations = (q: Query = {}, options: CallOptions = {}): Promise<QueueIntegrationPage> =>
  api().get<QueueIntegrationPage>('/queueIntegration', { ...options, query: queryOf(q) });
export const createQueueIntegration = (input: Record<string, unknown>): Promise<QueueIntegrationView> =>
  api().post<QueueIntegrationView>('/queueIntegration', input);
export const updateQueueIntegration = (id: number, input: Record<string, unknown>): Promise<QueueIntegrationView> =>
  api().put<QueueIntegrationView>(`/queueIntegration/${id}`, input);
export const deleteQueueIntegration = (id: number): Promise<{ message: string }> =>
  api().delete<{ message: string }>(`/queueIntegration/${id}`);
export const testQueueIntegrationSession = (input: {
  projectName: string;
  jsonContent: string;
  language: string;
  integrationId?: number;
}): Promise<TestSessionResult> => api().post<TestSessionResult>('/queueIntegration/testSession', input);

/** GET /prompt {searchParam, pageNumber, cursor}; without paging, all (selects). */
export const listPrompts = (q: Query = {}, options: CallOptions = {}): Promise<PromptPage> =>
  api().get<PromptPage>('/prompt', { ...options, query: queryOf(q) });
export const createPrompt = (input: Record<string, unknown>): Promise<PromptView> =>
  api().post<PromptView>('/prompt', input);
export const updatePrompt = (id: number, input: Record<string, unknown>): Promise<PromptView> =>
  api().put<PromptView>(`/prompt/${id}`, input);
export const deletePrompt = (id: number): Promise<{ message: string }> =>
  api().delete<{ message: string }>(`/prompt/${id}`);
