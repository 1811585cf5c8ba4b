import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Meta's Graph API (DESIGN §6: tests never reach Meta). One per test run, started by
 * the test cloud (test-cloud.ts) in the process that runs the handlers, and pointed at by GRAPH_API_URL.
 * Test files live in other processes, so it is controlled over HTTP under `/__fake/…` (`fakeGraph(url)`):
 * register a Facebook user with pages, register attachment bytes, make a path fail, read the calls made.
 * State is shared by every test file of the run: tests use ids of their own and filter the calls by them.
 *
 * Graph endpoints served:
 * - GET  /oauth/access_token?grant_type=fb_exchange_token&fb_exchange_token=T → `LL-T` (a token starting
 *   with `expired` answers Graph's OAuth error 190);
 * - GET  /{user-id}/accounts and /me/accounts (bearer `LL-T`) → the registered user's pages;
 * - POST /{page-id}/subscribed_apps → `{success: true}`;
 * - POST /me/messages → `{recipient_id, message_id: 'm_…'}`;
 * - POST /{phone-number-id}/messages → `{messages: [{id: 'wamid.…'}]}`;
 * - GET  /{media-id} → `{url, mime_type}` of registered media; GET /__media/{id} → its bytes;
 * - GET  /{phone-number-id}?fields=… (bearer: the number's registered token) → `{id, display_phone_number,
 *   verified_name}`; another token → OAuth error 190 (a WhatsApp Cloud API number, decisions D76).
 */
export interface FakePage {
  id: string;
  name: string;
  access_token: string;
  instagram_business_account?: { id: string; username?: string };
}

export interface FakeGraphCall {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization?: string;
  body?: unknown;
}

interface State {
  users: Map<string, { userId: string; pages: FakePage[] }>;
  media: Map<string, { bytes: Buffer; contentType: string }>;
  phones: Map<string, { token: string; display: string; name: string }>;
  /** `match` against the path, query and body; `times` left (absent: every later call). */
  failures: { match: string; status: number; message: string; code: number; times?: number }[];
  calls: FakeGraphCall[];
}

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export const startFakeGraph = async (): Promise<{ url: string; stop: () => Promise<void> }> => {
  const state: State = { users: new Map(), media: new Map(), phones: new Map(), failures: [], calls: [] };
  let base = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      const raw = await readBody(req);
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : undefined;
      const path = url.pathname;

      // Control API
      if (path === '/__fake/users' && req.method === 'POST') {
        const u = body as { userId: string; userToken: string; pages: FakePage[] };
        state.users.set(`LL-${u.userToken}`, { userId: u.userId, pages: u.pages });
        return json(200, { ok: true });
      }
      if (path === '/__fake/media' && req.method === 'POST') {
        const m = body as { id: string; base64: string; contentType: string };
        state.media.set(m.id, { bytes: Buffer.from(m.base64, 'base64'), contentType: m.contentType });
        return json(200, { url: `${base}/__media/${m.id}` });
      }
      if (path === '/__fake/phones' && req.method === 'POST') {
        const p = body as { id: string; token: string; display: string; name: string };
        state.phones.set(p.id, { token: p.token, display: p.display, name: p.name });
        return json(200, { ok: true });
      }
      if (path === '/__fake/failures' && req.method === 'POST') {
        state.failures.push(body as State['failures'][number]);
        return json(200, { ok: true });
      }
      if (path === '/__fake/calls' && req.method === 'GET') {
        const contains = url.searchParams.get('contains') ?? '';
        return json(
          200,
          state.calls.filter((c) => JSON.stringify(c).includes(contains)),
        );
      }
      if (path.startsWith('/__media/')) {
        const media = state.media.get(decodeURIComponent(path.slice('/__media/'.length)));
        if (!media) return json(404, { error: { message: 'no such media' } });
        res.writeHead(200, { 'content-type': media.contentType, 'content-length': String(media.bytes.byteLength) });
        return res.end(media.bytes);
      }

      // Graph API
      const query = Object.fromEntries(url.searchParams);
      const authorization = req.headers.authorization;
      state.calls.push({
        method: req.method ?? 'GET',
        path,
        query: Object.fromEntries(Object.entries(query).filter(([k]) => k !== 'client_secret')),
        ...(authorization ? { authorization } : {}),
        ...(body === undefined ? {} : { body }),
      });
      const target = `${path}?${url.searchParams} ${raw.toString('utf8')}`;
      const failure = state.failures.find((f) => target.includes(f.match) && f.times !== 0);
      if (failure) {
        if (failure.times !== undefined) failure.times -= 1;
        return json(failure.status, {
          error: { message: failure.message, type: 'OAuthException', code: failure.code },
        });
      }
      const bearer = authorization?.replace(/^Bearer /, '') ?? query.access_token;

      if (path === '/oauth/access_token') {
        const token = query.fb_exchange_token ?? '';
        if (query.grant_type !== 'fb_exchange_token' || !query.client_secret || token.startsWith('expired')) {
          return json(400, {
            error: {
              message: 'Error validating access token: Session has expired.',
              type: 'OAuthException',
              code: 190,
            },
          });
        }
        return json(200, { access_token: `LL-${token}`, token_type: 'bearer', expires_in: 5_184_000 });
      }
      const accounts = /^\/([^/]+)\/accounts$/.exec(path);
      if (accounts && req.method === 'GET') {
        const user = bearer ? state.users.get(bearer) : undefined;
        if (!user || (user.userId !== accounts[1] && accounts[1] !== 'me')) {
          return json(400, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
        }
        return json(200, { data: user.pages, paging: { cursors: { before: 'a', after: 'b' } } });
      }
      if (/^\/[^/]+\/subscribed_apps$/.test(path) && req.method === 'POST') return json(200, { success: true });
      if (path === '/me/messages' && req.method === 'POST') {
        const recipient = (body?.recipient as { id?: string } | undefined)?.id ?? '';
        return json(200, { recipient_id: recipient, message_id: `m_${randomUUID().replace(/-/g, '')}` });
      }
      if (/^\/[^/]+\/messages$/.test(path) && req.method === 'POST') {
        return json(200, {
          messaging_product: 'whatsapp',
          contacts: [{ input: body?.to, wa_id: body?.to }],
          messages: [{ id: `wamid.${Buffer.from(randomUUID()).toString('base64url')}` }],
        });
      }
      const phone = /^\/([^/]+)$/.exec(path);
      if (phone && req.method === 'GET' && state.phones.has(phone[1]!)) {
        const p = state.phones.get(phone[1]!)!;
        if (bearer !== p.token) {
          return json(401, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
        }
        return json(200, { id: phone[1], display_phone_number: p.display, verified_name: p.name });
      }
      const media = /^\/([^/]+)$/.exec(path);
      if (media && req.method === 'GET' && state.media.has(media[1]!)) {
        const m = state.media.get(media[1]!)!;
        return json(200, { id: media[1], url: `${base}/__media/${media[1]}`, mime_type: m.contentType });
      }
      return json(404, { error: { message: `Unknown path ${path}`, type: 'GraphMethodException', code: 100 } });
    })().catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** The test side: drives the fake the test cloud started (its URL comes from `inject('fakeGraphUrl')`). */
export const fakeGraph = (url: string) => {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.json() as Promise<Record<string, unknown>>;
  };
  return {
    url,
    addUser: (userId: string, userToken: string, pages: FakePage[]) =>
      post('/__fake/users', { userId, userToken, pages }),
    /** Registers bytes under an id: a Cloud API media id, and `<url>/__media/<id>` for Messenger attachments. */
    addMedia: async (id: string, bytes: Buffer, contentType: string) =>
      String((await post('/__fake/media', { id, base64: bytes.toString('base64'), contentType })).url),
    /** Registers a WhatsApp Cloud API phone number id that answers to `token`. */
    addPhoneNumber: (id: string, token: string, display: string, name: string) =>
      post('/__fake/phones', { id, token, display, name }),
    /**
     * Every later Graph call whose path, query or body contains `match` fails with Graph's error shape
     * (only the next `times` such calls when given).
     */
    failOn: (match: string, status: number, message: string, code = 100, times?: number) =>
      post('/__fake/failures', { match, status, message, code, ...(times === undefined ? {} : { times }) }),
    calls: async (contains: string): Promise<FakeGraphCall[]> =>
      (await fetch(`${url}/__fake/calls?contains=${encodeURIComponent(contains)}`)).json() as Promise<FakeGraphCall[]>,
  };
};
