import * as z from 'zod';

/**
 * Queue integrations and AI prompts (administration spec §2 "Queue integrations", "AI prompts", §3 "Queue
 * integration", "Prompt", §5, §7, §9; decisions D162–D165). The HTTP handlers validate with these schemas;
 * the browser imports the types only.
 *
 * Secrets (a Dialogflow service account's private key, a webhook's signing secret, a prompt's API key) are
 * stored encrypted and never leave the server: a view carries SECRET_MASK where one is set, and a write that
 * sends SECRET_MASK back (or leaves the field out) keeps the stored one.
 */
export const SECRET_MASK = '********';

export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** §2: Dialogflow's languages, as the dialog lists them ('Portugues', 'Inglês', 'Español'). */
export const DIALOGFLOW_LANGUAGES = ['pt-BR', 'en', 'es'] as const;

/** §9: typebot defaults: delay 1000 ms, expires 1 (minute). */
export const TYPEBOT_DEFAULT_DELAY_MS = 1000;
export const TYPEBOT_DEFAULT_EXPIRES_MINUTES = 1;

/** §5: name 2 to 50 characters ('Too Short!' / 'Too Long!'), required ('Required'). */
const integrationName = z
  .string({ error: 'Required' })
  .trim()
  .min(1, { error: 'Required', abort: true })
  .min(2, 'Too Short!')
  .max(50, 'Too Long!');

const optionalText = (max: number) => z.string({ error: 'must be a text' }).trim().max(max, 'Too Long!').nullish();
const httpUrl = z
  .string({ error: 'Required' })
  .trim()
  .min(1, { error: 'Required', abort: true })
  .max(2000, 'Too Long!')
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http or https URL');

const integrationFields = {
  name: integrationName,
  type: z.enum(INTEGRATION_TYPES, { error: 'must be one of dialogflow, n8n, webhook, typebot, flowbuilder' }),
  projectName: optionalText(200),
  /** The service account's JSON (Dialogflow): its private key is kept encrypted. */
  jsonContent: z.string({ error: 'must be a text' }).max(20_000, 'Too Long!').nullish(),
  language: z.enum(DIALOGFLOW_LANGUAGES, { error: 'must be pt-BR, en or es' }).nullish(),
  urlN8N: httpUrl.nullish(),
  typebotSlug: optionalText(200),
  typebotExpires: z.coerce.number({ error: 'must be a number' }).int().min(0).max(10_080).nullish(),
  typebotKeywordFinish: optionalText(100),
  typebotKeywordRestart: optionalText(100),
  typebotRestartMessage: optionalText(4000),
  typebotUnknownMessage: optionalText(4000),
  typebotDelayMessage: z.coerce.number({ error: 'must be a number' }).int().min(0).max(60_000).nullish(),
  /** Ours (D163): the company's flow a `flowbuilder` integration hands the customer to. */
  flowId: z.coerce.number({ error: 'must be a flow id' }).int().positive().nullish(),
  /** Ours (D162): the HMAC key of an n8n/webhook delivery's signature; generated when not given. */
  webhookSecret: z.string({ error: 'must be a text' }).max(200, 'Too Long!').nullish(),
  companyId: z.unknown().optional(),
};

/** `POST /queueIntegration`: the type's own required fields are checked by the service (they depend on it). */
export const createIntegrationBody = z.object(integrationFields);
/** `PUT /queueIntegration/{id}`: the fields sent change. */
export const updateIntegrationBody = z.object(integrationFields).partial();

/** `GET /queueIntegration/` {searchParam, pageNumber}; without pageNumber nor cursor: the whole list (selects). */
export const listIntegrationsQuery = z.object({
  searchParam: z.string().trim().max(100).optional(),
  pageNumber: z.coerce.number().int().min(1).optional(),
  cursor: z.string().min(1).max(2048).optional(),
  companyId: z.unknown().optional(),
});

/** `POST /queueIntegration/testSession` (projectName, jsonContent, language): a Dialogflow round trip. */
export const testSessionBody = z.object({
  projectName: z.string({ error: 'Required' }).trim().min(1, 'Required').max(200),
  jsonContent: z.string({ error: 'Required' }).min(1, 'Required').max(20_000),
  language: z.enum(DIALOGFLOW_LANGUAGES, { error: 'must be pt-BR, en or es' }).default('pt-BR'),
  /** Ours: the integration whose stored key to use when the dialog shows the masked JSON. */
  integrationId: z.coerce.number().int().positive().optional(),
});

export type CreateIntegrationInput = z.output<typeof createIntegrationBody>;
export type UpdateIntegrationInput = z.output<typeof updateIntegrationBody>;
export type TestSessionInput = z.output<typeof testSessionBody>;

export interface QueueIntegrationView {
  id: number;
  name: string;
  type: IntegrationType;
  projectName: string | null;
  /** The service account's JSON with `private_key` as SECRET_MASK, or null. */
  jsonContent: string | null;
  language: string | null;
  urlN8N: string | null;
  typebotSlug: string | null;
  typebotExpires: number | null;
  typebotKeywordFinish: string | null;
  typebotKeywordRestart: string | null;
  typebotRestartMessage: string | null;
  typebotUnknownMessage: string | null;
  typebotDelayMessage: number | null;
  flowId: number | null;
  /** SECRET_MASK where a signing secret is set (n8n, webhook), else null. */
  webhookSecret: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface QueueIntegrationPage {
  queueIntegrations: QueueIntegrationView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** `POST /queueIntegration/testSession`: what the agent answered, or why it failed. */
export interface TestSessionResult {
  success: boolean;
  message: string;
}

export type QueueIntegrationEvent =
  { action: 'create' | 'update'; queueIntegration: QueueIntegrationView } | { action: 'delete'; integrationId: number };

// -------------------------------------------------------------------------------------------- prompts

/** §3: 'texto' (answer in text) or one of the fifteen Brazilian Portuguese neural voices. */
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
export type PromptVoice = (typeof PROMPT_VOICES)[number];

/** §9: prompt defaults. */
export const PROMPT_DEFAULTS = { maxTokens: 100, temperature: 1, maxMessages: 10 } as const;

/** §5: name 5 to 100 characters ('Muito curto!' / 'Muito longo!', 'Obrigatório'). */
const promptName = z
  .string({ error: 'Obrigatório' })
  .trim()
  .min(1, { error: 'Obrigatório', abort: true })
  .min(5, 'Muito curto!')
  .max(100, 'Muito longo!');

const promptFields = {
  name: promptName,
  /** §5: at least 50 characters. */
  prompt: z
    .string({ error: 'Obrigatório' })
    .trim()
    .min(1, { error: 'Obrigatório', abort: true })
    .min(50, 'Muito curto!')
    .max(10_000, 'Muito longo!'),
  voice: z.enum(PROMPT_VOICES, { error: 'must be texto or one of the pt-BR voices' }).default('texto'),
  voiceKey: z.string({ error: 'must be a text' }).max(500).nullish(),
  voiceRegion: z.string({ error: 'must be a text' }).max(100).nullish(),
  maxTokens: z.coerce.number({ error: 'Obrigatório' }).int().min(10).max(4096).default(PROMPT_DEFAULTS.maxTokens),
  temperature: z.coerce.number({ error: 'Obrigatório' }).min(0).max(2).default(PROMPT_DEFAULTS.temperature),
  apiKey: z.string({ error: 'Obrigatório' }).trim().min(1, 'Obrigatório').max(500),
  /** §5: 'Informe o setor' without a queue. */
  queueId: z.coerce.number({ error: 'Informe o setor' }).int().positive('Informe o setor'),
  maxMessages: z.coerce.number({ error: 'Obrigatório' }).int().min(1).max(50).default(PROMPT_DEFAULTS.maxMessages),
  companyId: z.unknown().optional(),
};

export const createPromptBody = z.object(promptFields);
export const updatePromptBody = z.object(promptFields).partial().extend({
  voice: promptFields.voice.removeDefault().optional(),
  maxTokens: promptFields.maxTokens.removeDefault().optional(),
  temperature: promptFields.temperature.removeDefault().optional(),
  maxMessages: promptFields.maxMessages.removeDefault().optional(),
});

export const listPromptsQuery = z.object({
  searchParam: z.string().trim().max(100).optional(),
  pageNumber: z.coerce.number().int().min(1).optional(),
  cursor: z.string().min(1).max(2048).optional(),
  companyId: z.unknown().optional(),
});

export type CreatePromptInput = z.output<typeof createPromptBody>;
export type UpdatePromptInput = z.output<typeof updatePromptBody>;

export interface PromptView {
  id: number;
  name: string;
  prompt: string;
  voice: PromptVoice;
  voiceKey: string | null;
  voiceRegion: string | null;
  maxTokens: number;
  temperature: number;
  /** Always SECRET_MASK: the key is stored encrypted and never returned. */
  apiKey: string;
  queueId: number;
  queue: { id: number; name: string; color: string } | null;
  maxMessages: number;
  createdAt: string;
  updatedAt: string;
}

export interface PromptPage {
  prompts: PromptView[];
  hasMore: boolean;
  nextCursor?: string;
}

export type PromptEvent = { action: 'create' | 'update'; prompt: PromptView } | { action: 'delete'; promptId: number };
