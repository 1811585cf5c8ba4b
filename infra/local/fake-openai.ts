import { createServer, type IncomingMessage, type Server } from 'node:http';
import { listenLocal } from './listen-local';

/**
 * A local stand-in for OpenAI's audio transcription API (tests never reach OpenAI; decisions D53). One per
 * local cloud (cloud.ts, decisions D174: `npm start` and the tests) and pointed at by OPENAI_API_URL. Test files run in other processes and read what it received over HTTP (`fakeOpenAi(url)`).
 *
 * - POST /audio/transcriptions (multipart: file, model) with `Authorization: Bearer <key>` → `{text}`, the
 *   text being `Transcrição de <filename> (<bytes> bytes)`; a key starting with `sk-refused` answers 401
 *   as OpenAI does for an invalid key.
 * - GET /__fake/calls → every transcription call: the key, the model, the file's name and size.
 * - POST /chat/completions (decisions D164) → `Assistente: <the last user message>` and, when a user message
 *   asks for an `atendente`, the handoff phrase instead. Keys script failures: `sk-timeout…` never answers
 *   (the caller's timeout ends it), `sk-5xx…` answers 500, `sk-slow…` answers after 4 s.
 * - POST /audio/speech → a small Ogg file (`OggS` …) for the text, the voice recorded.
 * - GET /__fake/chats, /__fake/speech → what those received (key, model, messages, max_tokens, voice, input).
 */
export interface FakeChatCall {
  apiKey: string;
  model: string;
  messages: { role: string; content: string }[];
  max_tokens: number;
  temperature: number;
}
export interface FakeSpeechCall {
  apiKey: string;
  model: string;
  voice: string;
  input: string;
}
export const FAKE_HANDOFF_PHRASE = 'Ação: Transferir para o setor de atendimento';
export interface FakeTranscriptionCall {
  apiKey: string;
  model: string;
  filename: string;
  size: number;
}

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export const startFakeOpenAi = async (port = 0): Promise<{ url: string; stop: () => Promise<void> }> => {
  const calls: FakeTranscriptionCall[] = [];
  const chats: FakeChatCall[] = [];
  const speech: FakeSpeechCall[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      const raw = await readBody(req);
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'GET' && url.pathname === '/__fake/calls') return json(200, calls);
      if (req.method === 'GET' && url.pathname === '/__fake/chats') return json(200, chats);
      if (req.method === 'GET' && url.pathname === '/__fake/speech') return json(200, speech);
      if (req.method === 'POST' && (url.pathname === '/chat/completions' || url.pathname === '/audio/speech')) {
        const apiKey = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
        if (apiKey.startsWith('sk-timeout')) {
          await new Promise((r) => setTimeout(r, 15_000));
          return json(504, { error: { message: 'too late' } });
        }
        if (apiKey.startsWith('sk-5xx')) return json(500, { error: { message: 'The server had an error' } });
        if (apiKey.startsWith('sk-slow')) await new Promise((r) => setTimeout(r, 4_000));
        if (url.pathname === '/audio/speech') {
          speech.push({ apiKey, model: String(body.model), voice: String(body.voice), input: String(body.input) });
          res.writeHead(200, { 'content-type': 'audio/ogg' });
          res.end(Buffer.concat([Buffer.from('OggS'), Buffer.alloc(200, 1)]));
          return;
        }
        const messages = (body.messages ?? []) as { role: string; content: string }[];
        chats.push({
          apiKey,
          model: String(body.model),
          messages,
          max_tokens: Number(body.max_tokens),
          temperature: Number(body.temperature),
        });
        const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
        const content = /atendente/i.test(lastUser) ? FAKE_HANDOFF_PHRASE : `Assistente: ${lastUser}`;
        return json(200, {
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: String(body.model),
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        });
      }
      if (req.method === 'POST' && url.pathname === '/audio/transcriptions') {
        const apiKey = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!apiKey || apiKey.startsWith('sk-refused')) {
          return json(401, {
            error: { message: `Incorrect API key provided: ${apiKey.slice(0, 6)}…`, code: 'invalid_api_key' },
          });
        }
        const form = await new Response(raw, {
          headers: { 'content-type': req.headers['content-type'] ?? '' },
        }).formData();
        const file = form.get('file');
        if (!file || typeof file === 'string') return json(400, { error: { message: 'file is required' } });
        const size = (await file.arrayBuffer()).byteLength;
        calls.push({ apiKey, model: String(form.get('model') ?? ''), filename: file.name, size });
        return json(200, { text: `Transcrição de ${file.name} (${size} bytes)` });
      }
      json(404, { error: { message: 'not found' } });
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  const local = await listenLocal(server, port);
  base = local.url;
  return local;
};

/** Reads what the fake received (from a test file's process). */
export const fakeOpenAi = (url: string) => ({
  calls: async (): Promise<FakeTranscriptionCall[]> => (await (await fetch(`${url}/__fake/calls`)).json()) as never,
  chats: async (): Promise<FakeChatCall[]> => (await (await fetch(`${url}/__fake/chats`)).json()) as never,
  speech: async (): Promise<FakeSpeechCall[]> => (await (await fetch(`${url}/__fake/speech`)).json()) as never,
});
