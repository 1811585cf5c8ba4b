import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { listenLocal } from './listen-local';

/**
 * Local stand-ins for the queue integrations' providers (decisions D162, D174), one server for all, started by
 * the local cloud (cloud.ts: `npm start` and the tests) and pointed at by DIALOGFLOW_API_URL / GOOGLE_TOKEN_URL (Dialogflow) or by an integration's
 * URL (n8n/webhook, Typebot). The path's `<mode>` scripts the answer: `ok`, `timeout` (never answers in
 * time), `5xx` (500) or `slow` (answers after 4 s, past the test cloud's timeout).
 *
 * - POST /hook/<mode> — n8n/webhook: verifies `x-zapdesk-signature` (HMAC-SHA256 of
 *   `<timestamp>.<deliveryId>.<body>` under FAKE_WEBHOOK_SECRET), refuses a bad one with 401, records each
 *   delivery, answers `{reply: 'Webhook recebeu: <message>'}` (and `handoff: true` when the customer
 *   asks for an `atendente`).
 * - POST /typebot/<mode>/api/v1/typebots/<slug>/startChat and …/api/v1/sessions/<id>/continueChat —
 *   Typebot: a greeting bubble, then `Typebot: <text>`; `tchau` ends the bot (no input asked).
 * - POST /google/token — the JWT-bearer grant; POST /dialogflow/projects/<p>/agent/sessions/<s>:detectIntent —
 *   `Dialogflow: <text>`; the project's name is the mode (`ok-…`, `5xx-…`, …).
 * - GET /__fake/deliveries — every webhook delivery, typebot and dialogflow call, in order.
 */
export const FAKE_WEBHOOK_SECRET = 'fake-webhook-secret-0123456789';

export interface FakeDelivery {
  kind: 'webhook' | 'typebot-start' | 'typebot-continue' | 'token' | 'dialogflow';
  path: string;
  deliveryId?: string;
  signatureValid?: boolean;
  body: unknown;
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const validSignature = (header: string, timestamp: string, deliveryId: string, body: string): boolean => {
  const expected = `sha256=${createHmac('sha256', FAKE_WEBHOOK_SECRET).update(`${timestamp}.${deliveryId}.${body}`).digest('hex')}`;
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
};

const bubble = (text: string) => ({
  type: 'text',
  content: { type: 'richText', richText: [{ type: 'p', children: [{ text }] }] },
});

export const startFakeIntegrations = async (port = 0): Promise<{ url: string; stop: () => Promise<void> }> => {
  const deliveries: FakeDelivery[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      const raw = await readBody(req);
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'GET' && url.pathname === '/__fake/deliveries') return json(200, deliveries);
      const parsed = (() => {
        try {
          return JSON.parse(raw) as Record<string, unknown>;
        } catch {
          return {} as Record<string, unknown>;
        }
      })();
      const scripted = async (mode: string): Promise<boolean> => {
        if (mode.startsWith('timeout')) {
          await new Promise((r) => setTimeout(r, 15_000));
          json(504, {});
          return true;
        }
        if (mode.startsWith('5xx')) {
          json(500, { error: 'broken' });
          return true;
        }
        if (mode.startsWith('slow')) await new Promise((r) => setTimeout(r, 4_000));
        return false;
      };
      const hook = /^\/hook\/([\w-]+)$/.exec(url.pathname);
      if (req.method === 'POST' && hook) {
        const deliveryId = String(req.headers['x-zapdesk-delivery'] ?? '');
        const signatureValid = validSignature(
          String(req.headers['x-zapdesk-signature'] ?? ''),
          String(req.headers['x-zapdesk-timestamp'] ?? ''),
          deliveryId,
          raw,
        );
        deliveries.push({ kind: 'webhook', path: url.pathname, deliveryId, signatureValid, body: parsed });
        if (await scripted(hook[1]!)) return;
        if (!signatureValid) return json(401, { error: 'bad signature' });
        const message = String(parsed.message ?? '');
        return json(200, {
          reply: `Webhook recebeu: ${message}`,
          ...(/atendente/i.test(message) ? { handoff: true } : {}),
        });
      }
      const start = /^\/typebot\/([\w-]+)\/api\/v1\/typebots\/([\w-]+)\/startChat$/.exec(url.pathname);
      if (req.method === 'POST' && start) {
        deliveries.push({ kind: 'typebot-start', path: url.pathname, body: parsed });
        if (await scripted(start[1]!)) return;
        const text = String((parsed.message as { text?: string } | undefined)?.text ?? '');
        return json(200, {
          sessionId: `sess-${Math.random().toString(36).slice(2, 10)}`,
          messages: [bubble('Olá, eu sou o Typebot!'), ...(text ? [bubble(`Typebot: ${text}`)] : [])],
          input: { type: 'text input' },
        });
      }
      const cont = /^\/typebot\/([\w-]+)\/api\/v1\/sessions\/([\w-]+)\/continueChat$/.exec(url.pathname);
      if (req.method === 'POST' && cont) {
        deliveries.push({ kind: 'typebot-continue', path: url.pathname, body: parsed });
        if (await scripted(cont[1]!)) return;
        const text = String((parsed.message as { text?: string } | undefined)?.text ?? '');
        const done = /tchau/i.test(text);
        return json(200, {
          messages: [bubble(done ? 'Até logo!' : `Typebot: ${text}`)],
          ...(done ? {} : { input: { type: 'text input' } }),
        });
      }
      if (req.method === 'POST' && url.pathname === '/google/token') {
        const form = new URLSearchParams(raw);
        const assertion = form.get('assertion') ?? '';
        const claims = (() => {
          try {
            return JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
              iss?: string;
            };
          } catch {
            return {};
          }
        })();
        deliveries.push({
          kind: 'token',
          path: url.pathname,
          body: { grant_type: form.get('grant_type'), iss: claims.iss },
        });
        if (
          form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' ||
          assertion.split('.').length !== 3
        ) {
          return json(400, { error: 'invalid_grant' });
        }
        return json(200, { access_token: `fake-token-${claims.iss ?? ''}`, expires_in: 3600, token_type: 'Bearer' });
      }
      const detect = /^\/dialogflow\/projects\/([\w-]+)\/agent\/sessions\/([^/]+):detectIntent$/.exec(url.pathname);
      if (req.method === 'POST' && detect) {
        deliveries.push({ kind: 'dialogflow', path: url.pathname, body: parsed });
        if (!String(req.headers.authorization ?? '').startsWith('Bearer fake-token-')) return json(401, {});
        if (await scripted(detect[1]!)) return;
        const text = String((parsed.queryInput as { text?: { text?: string } } | undefined)?.text?.text ?? '');
        return json(200, {
          responseId: 'r1',
          queryResult: {
            queryText: text,
            fulfillmentText: `Dialogflow: ${text}`,
            fulfillmentMessages: [{ text: { text: [`Dialogflow: ${text}`] } }],
          },
        });
      }
      json(404, { error: 'not found' });
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
export const fakeIntegrations = (url: string) => ({
  deliveries: async (): Promise<FakeDelivery[]> => (await (await fetch(`${url}/__fake/deliveries`)).json()) as never,
});
