import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for OpenAI's audio transcription API (tests never reach OpenAI; decisions D53). One per
 * test run, started by the test cloud (test-cloud.ts) beside the fake Graph API and pointed at by
 * OPENAI_API_URL. Test files run in other processes and read what it received over HTTP (`fakeOpenAi(url)`).
 *
 * - POST /audio/transcriptions (multipart: file, model) with `Authorization: Bearer <key>` → `{text}`, the
 *   text being `Transcrição de <filename> (<bytes> bytes)`; a key starting with `sk-refused` answers 401
 *   as OpenAI does for an invalid key.
 * - GET /__fake/calls → every transcription call: the key, the model, the file's name and size.
 */
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

export const startFakeOpenAi = async (): Promise<{ url: string; stop: () => Promise<void> }> => {
  const calls: FakeTranscriptionCall[] = [];
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** Reads what the fake received (from a test file's process). */
export const fakeOpenAi = (url: string) => ({
  calls: async (): Promise<FakeTranscriptionCall[]> => (await (await fetch(`${url}/__fake/calls`)).json()) as never,
});
