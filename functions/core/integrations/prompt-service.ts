import {
  SECRET_MASK,
  type CreatePromptInput,
  type PromptEvent,
  type PromptPage,
  type PromptView,
  type UpdatePromptInput,
} from '../../contracts/integrations';
import { listConnections } from '../../data/connection-repository';
import {
  createPrompt,
  deletePrompt,
  getPrompt,
  listPrompts,
  promptNotFound,
  savePrompt,
  type NewPrompt,
  type Prompt,
} from '../../data/integration-repository';
import { getQueue, listQueues, type Queue } from '../../data/queue-repository';
import type { AuthContext } from '../../shared/auth-context';
import { Conflict, ValidationError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';
import { decryptSecret, encryptSecret } from '../../shared/token-cipher';
import { managers, publish } from '../notifier';
import { fetchPage } from '../paging';

/**
 * AI prompts (administration spec §2 "AI prompts", §3 "Prompt", §5, §7, §9; decisions D164): CRUD for the
 * company's admins behind the plan flag useOpenAi (the route table checks both). The API key (and the
 * voice key) are stored encrypted and never returned: views carry SECRET_MASK, and a write that sends the
 * mask back (or leaves the key out) keeps the stored one. Events: `company-{id}-prompt`.
 */
export const PROMPT_PAGE_SIZE = 20;
export const PROMPT_LIST_MAX = 500;
const SECRET = 'integration-secret' as const;

export const toPromptView = (p: Prompt, queue: Pick<Queue, 'id' | 'name' | 'color'> | null): PromptView => ({
  id: p.id,
  name: p.name,
  prompt: p.prompt,
  voice: p.voice,
  voiceKey: p.voiceKeyCipher ? SECRET_MASK : null,
  voiceRegion: p.voiceRegion,
  maxTokens: p.maxTokens,
  temperature: p.temperature,
  apiKey: SECRET_MASK,
  queueId: p.queueId,
  queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
  maxMessages: p.maxMessages,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

const announce = async (companyId: number, event: PromptEvent): Promise<void> => {
  try {
    await publish(companyId, { channel: 'prompt', ...event }, managers);
  } catch (err) {
    logger.warn('prompt event not sent', { companyId, action: event.action, ...errorFields(err) });
  }
};

const findPrompt = async (companyId: number, id: number): Promise<Prompt> => {
  const found = await getPrompt(companyId, id);
  if (!found) throw promptNotFound();
  return found;
};

const queueOf = async (companyId: number, queueId: number): Promise<Queue> => {
  const queue = await getQueue(companyId, queueId);
  if (!queue) throw new ValidationError([{ field: 'body.queueId', reason: 'Informe o setor' }]);
  return queue;
};

const sealed = async (value: string | null | undefined, stored: string | null): Promise<string | null> => {
  if (value === undefined || value === SECRET_MASK) return stored;
  if (value === null || value.trim() === '') return null;
  return encryptSecret(SECRET, value.trim());
};

const withQueues = async (companyId: number, prompts: Prompt[]): Promise<PromptView[]> => {
  const queues = prompts.length > 0 ? new Map((await listQueues(companyId)).map((q) => [q.id, q])) : new Map();
  return prompts.map((p) => toPromptView(p, queues.get(p.queueId) ?? null));
};

export const listCompanyPrompts = async (
  auth: AuthContext,
  q: { searchParam?: string | undefined; pageNumber?: number | undefined; cursor?: string | undefined },
): Promise<PromptPage> => {
  if (q.pageNumber === undefined && q.cursor === undefined) {
    const all: Prompt[] = [];
    let cursor: string | undefined;
    do {
      const page = await listPrompts(auth.companyId, { search: q.searchParam, limit: 100, cursor });
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor && all.length < PROMPT_LIST_MAX);
    return { prompts: await withQueues(auth.companyId, all), hasMore: cursor !== undefined };
  }
  const page = await fetchPage({ pageNumber: q.pageNumber ?? 1, cursor: q.cursor }, PROMPT_PAGE_SIZE, (cursor) =>
    listPrompts(auth.companyId, { search: q.searchParam, limit: PROMPT_PAGE_SIZE, cursor }),
  );
  return {
    prompts: await withQueues(auth.companyId, page.items),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

export const showPrompt = async (auth: AuthContext, id: number): Promise<PromptView> => {
  const prompt = await findPrompt(auth.companyId, id);
  return toPromptView(prompt, await getQueue(auth.companyId, prompt.queueId));
};

export const createCompanyPrompt = async (auth: AuthContext, input: CreatePromptInput): Promise<PromptView> => {
  if (input.apiKey === SECRET_MASK) throw new ValidationError([{ field: 'body.apiKey', reason: 'Obrigatório' }]);
  const queue = await queueOf(auth.companyId, input.queueId);
  const fields: NewPrompt = {
    name: input.name,
    prompt: input.prompt,
    voice: input.voice,
    voiceKeyCipher: await sealed(input.voiceKey, null),
    voiceRegion: input.voiceRegion?.trim() || null,
    maxTokens: input.maxTokens,
    temperature: input.temperature,
    apiKeyCipher: (await sealed(input.apiKey, null))!,
    queueId: queue.id,
    maxMessages: input.maxMessages,
  };
  const created = await createPrompt(auth.companyId, fields);
  const view = toPromptView(created, queue);
  await announce(auth.companyId, { action: 'create', prompt: view });
  return view;
};

export const updateCompanyPrompt = async (
  auth: AuthContext,
  id: number,
  input: UpdatePromptInput,
): Promise<PromptView> => {
  const { saved, queue } = await withRetry(CHANGED_MEANWHILE, async () => {
    const current = await findPrompt(auth.companyId, id);
    const queue = await queueOf(auth.companyId, input.queueId ?? current.queueId);
    const apiKeyCipher = await sealed(input.apiKey, current.apiKeyCipher);
    if (!apiKeyCipher) throw new ValidationError([{ field: 'body.apiKey', reason: 'Obrigatório' }]);
    const saved = await savePrompt(current, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.prompt !== undefined ? { prompt: input.prompt } : {}),
      ...(input.voice !== undefined ? { voice: input.voice } : {}),
      voiceKeyCipher: await sealed(input.voiceKey, current.voiceKeyCipher),
      ...(input.voiceRegion !== undefined ? { voiceRegion: input.voiceRegion?.trim() || null } : {}),
      ...(input.maxTokens !== undefined ? { maxTokens: input.maxTokens } : {}),
      ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
      ...(input.maxMessages !== undefined ? { maxMessages: input.maxMessages } : {}),
      apiKeyCipher,
      queueId: queue.id,
    });
    return { saved, queue };
  });
  const view = toPromptView(saved, queue);
  await announce(auth.companyId, { action: 'update', prompt: view });
  return view;
};

/** `DELETE /prompt/{id}`: refused with 409 ERR_PROMPT_IN_USE while a connection's promptId points at it. */
export const deleteCompanyPrompt = async (auth: AuthContext, id: number): Promise<void> => {
  const { companyId } = auth;
  await withRetry(CHANGED_MEANWHILE, async () => {
    const current = await findPrompt(companyId, id);
    const using = (await listConnections(companyId)).filter((c) => c.promptId === id);
    if (using.length > 0) {
      throw new Conflict('ERR_PROMPT_IN_USE', 'Connections use this prompt: remove it from them first', {
        connections: using.map((c) => ({ id: c.id, name: c.name })),
        names: using.map((c) => c.name).join(', '),
      });
    }
    await deletePrompt(current);
  });
  await announce(companyId, { action: 'delete', promptId: id });
};

/** The prompt's API key opened, for a call (never for a view). */
export const openPromptKey = (p: Prompt): Promise<string> => decryptSecret(SECRET, p.apiKeyCipher);
