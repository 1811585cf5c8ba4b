import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import type { PromptVoice } from '../../../contracts/integrations';
import { config } from '../../../shared/config';
import { IntegrationFailed, type BotReply } from '../port';

/**
 * The AI assistant's provider (decisions D164): the official `openai` package, its base URL from config
 * (OPENAI_API_URL), so the tests and the local cloud talk to a local fake. One client per API key per
 * process (the key is the company's own); the package's own retries are off — the port retries.
 *
 * The model answers as the prompt says, with the ticket's last messages as context; when it decides a
 * person must take over it writes HANDOFF_PHRASE (the system prompt tells it to), which moves the ticket to
 * people and is never sent to the customer. With a voice, the answer goes as speech (`audio.speech`).
 */
export const CHAT_MODEL = 'gpt-4o-mini';
export const SPEECH_MODEL = 'tts-1';
export const HANDOFF_PHRASE = 'Ação: Transferir para o setor de atendimento';

/** The fifteen pt-BR voices mapped onto the provider's own (D164): women's and men's voices alternate. */
const SPEECH_VOICES: Record<Exclude<PromptVoice, 'texto'>, string> = {
  'pt-BR-FranciscaNeural': 'nova',
  'pt-BR-AntonioNeural': 'onyx',
  'pt-BR-BrendaNeural': 'shimmer',
  'pt-BR-DonatoNeural': 'echo',
  'pt-BR-ElzaNeural': 'coral',
  'pt-BR-FabioNeural': 'fable',
  'pt-BR-GiovannaNeural': 'sage',
  'pt-BR-HumbertoNeural': 'ash',
  'pt-BR-JulioNeural': 'ballad',
  'pt-BR-LeilaNeural': 'alloy',
  'pt-BR-LeticiaNeural': 'nova',
  'pt-BR-ManuelaNeural': 'shimmer',
  'pt-BR-NicolauNeural': 'onyx',
  'pt-BR-ValerioNeural': 'echo',
  'pt-BR-YaraNeural': 'coral',
};

const clients = new Map<string, OpenAI>();
const clientFor = (apiKey: string, timeoutMs: number): OpenAI => {
  const id = `${createHash('sha256').update(apiKey).digest('hex')}:${timeoutMs}`;
  let client = clients.get(id);
  if (!client) {
    client = new OpenAI({ apiKey, baseURL: config().OPENAI_API_URL, timeout: timeoutMs, maxRetries: 0 });
    clients.set(id, client);
  }
  return client;
};

const failure = (err: unknown): IntegrationFailed => {
  if (err instanceof OpenAI.APIConnectionTimeoutError) return new IntegrationFailed('timeout');
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    return new IntegrationFailed(`answered ${err.status}`, err.status >= 400 && err.status < 500 && err.status !== 429);
  }
  return new IntegrationFailed(err instanceof Error ? err.name : 'failed');
};

export interface AssistantSettings {
  apiKey: string;
  prompt: string;
  voice: PromptVoice;
  maxTokens: number;
  temperature: number;
}

export interface ContextMessage {
  fromMe: boolean;
  body: string;
}

export const systemPrompt = (prompt: string, contactName: string): string =>
  `${prompt.trim()}\n\nO nome do cliente é ${contactName || 'cliente'}. Responda em até 300 caracteres. ` +
  `Se o cliente pedir para falar com um atendente, ou se você não souber ajudar, responda apenas "${HANDOFF_PHRASE}".`;

/** One answer: its text (or speech) and whether the model asked for a person. */
export const assistantAnswer = async (
  settings: AssistantSettings,
  context: readonly ContextMessage[],
  contactName: string,
  timeoutMs: number,
): Promise<{ replies: BotReply[]; handoff: boolean }> => {
  const client = clientFor(settings.apiKey, timeoutMs);
  let text: string;
  try {
    const completion = await client.chat.completions.create({
      model: CHAT_MODEL,
      max_tokens: settings.maxTokens,
      temperature: settings.temperature,
      messages: [
        { role: 'system', content: systemPrompt(settings.prompt, contactName) },
        ...context.map((m) => ({ role: m.fromMe ? ('assistant' as const) : ('user' as const), content: m.body })),
      ],
    });
    text = completion.choices[0]?.message?.content?.trim() ?? '';
  } catch (err) {
    throw failure(err);
  }
  if (text === '') throw new IntegrationFailed('answered without text');
  const handoff = text.toLowerCase().includes(HANDOFF_PHRASE.toLowerCase());
  const said = text.replace(new RegExp(HANDOFF_PHRASE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '').trim();
  if (said === '') return { replies: [], handoff };
  if (settings.voice === 'texto') return { replies: [{ text: said }], handoff };
  try {
    const speech = await client.audio.speech.create({
      model: SPEECH_MODEL,
      voice: SPEECH_VOICES[settings.voice],
      input: said,
      response_format: 'opus',
    });
    return {
      replies: [{ audio: { bytes: Buffer.from(await speech.arrayBuffer()), mimetype: 'audio/ogg; codecs=opus' } }],
      handoff,
    };
  } catch (err) {
    throw failure(err);
  }
};
