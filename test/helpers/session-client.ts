import { request } from 'node:http';
import { inject } from 'vitest';
import type { ApiResponse } from './fixtures';

/**
 * A browser as the auth calls see it: one client address and a cookie jar. Requests leave from a loopback
 * address of the test's choosing (Linux routes all of 127/8 to the loopback device), so each test file's
 * logins count against its own per-IP rate limit and never against other files' 127.0.0.1.
 */
export const randomLoopback = (): string =>
  `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;

export interface SessionClient {
  /** The jar's cookies (`name=value`), as the browser would send them to /api/auth. */
  cookies: Map<string, string>;
  call: (method: string, path: string, options?: { body?: unknown; token?: string }) => Promise<ApiResponse>;
}

export const sessionClient = (localAddress = randomLoopback()): SessionClient => {
  const base = new URL(`${inject('gatewayUrl')}/api`);
  const cookies = new Map<string, string>();
  const call: SessionClient['call'] = (method, path, options = {}) =>
    new Promise((resolve, reject) => {
      const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          path: `${base.pathname}${path}`,
          method,
          localAddress,
          headers: {
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
            ...(cookies.size > 0 ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            for (const line of res.headers['set-cookie'] ?? []) {
              const [pair = '', ...attrs] = line.split(';').map((p) => p.trim());
              const eq = pair.indexOf('=');
              const name = pair.slice(0, eq);
              const cleared = attrs.some((a) => /^max-age=0$/i.test(a));
              if (cleared || pair.slice(eq + 1) === '') cookies.delete(name);
              else cookies.set(name, pair.slice(eq + 1));
            }
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              // not JSON: keep the text
            }
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) {
              if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
            }
            resolve({ status: res.statusCode ?? 0, headers, body });
          });
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  return { cookies, call };
};
