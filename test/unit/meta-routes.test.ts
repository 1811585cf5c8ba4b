import { afterEach, describe, expect, it } from 'vitest';
import { metaSignature } from '../../functions/channels/meta/signature';
import { resetConfigForTests } from '../../functions/shared/config';
import { resetSecretsForTests } from '../../functions/shared/secrets';
import { handler } from '../../functions/http/connections';
import { httpEvent, lambdaContext } from '../helpers/http-event';

/** The Meta webhook routes through the real handler stack: raw bodies, text replies, configuration (D40). */
const META = { META_APP_SECRET: 'unit-meta-app-secret', META_VERIFY_TOKEN: 'unit-verify-token', META_APP_ID: '1' };

const configure = (env: Record<string, string | undefined>) => {
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfigForTests();
  resetSecretsForTests();
};

const inherited = {
  META_APP_SECRET: process.env.META_APP_SECRET,
  META_APP_SECRET_ARN: process.env.META_APP_SECRET_ARN,
  META_VERIFY_TOKEN: process.env.META_VERIFY_TOKEN,
  META_APP_ID: process.env.META_APP_ID,
};
afterEach(() => configure(inherited));

const call = async (...args: Parameters<typeof httpEvent>) => {
  const res = await handler(httpEvent(...args), lambdaContext());
  return { status: res.statusCode, headers: res.headers ?? {}, body: res.body ?? '' };
};

describe('Meta webhook routes', () => {
  it('answer 503 ERR_META_NOT_CONFIGURED while the Meta app is not configured', async () => {
    // `npm test` starts the integration cloud in the parent process first, whose env (the test Meta app)
    // the unit workers inherit: clear it.
    configure({ META_APP_SECRET: undefined, META_APP_SECRET_ARN: undefined, META_VERIFY_TOKEN: undefined });
    const get = await call('GET', '/webhooks/meta', {
      query: { 'hub.mode': 'subscribe', 'hub.verify_token': 'x', 'hub.challenge': 'c' },
    });
    expect(get.status).toBe(503);
    expect(JSON.parse(get.body).error).toBe('ERR_META_NOT_CONFIGURED');
    const post = await call('POST', '/webhooks/meta', { body: '{}' });
    expect(post.status).toBe(503);
    expect(JSON.parse(post.body).error).toBe('ERR_META_NOT_CONFIGURED');
  });

  it('echo the challenge as text/plain', async () => {
    configure(META);
    const res = await call('GET', '/webhooks/meta', {
      query: { 'hub.mode': 'subscribe', 'hub.verify_token': 'unit-verify-token', 'hub.challenge': '8675309' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toBe('8675309');
  });

  it('check the signature over the exact bytes, whatever the content type claims', async () => {
    configure(META);
    // Spacing a JSON re-serialisation would lose, and a content type the JSON routes would refuse.
    const raw = '{ "object" : "page",\n  "entry": [] }';
    const signature = metaSignature(Buffer.from(raw), META.META_APP_SECRET);
    const ok = await call('POST', '/webhooks/meta', {
      body: raw,
      headers: { 'content-type': 'text/plain', 'x-hub-signature-256': signature },
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ received: true });
    const reformatted = await call('POST', '/webhooks/meta', {
      body: JSON.stringify(JSON.parse(raw)),
      headers: { 'x-hub-signature-256': signature },
    });
    expect(reformatted.status).toBe(401);
    expect(JSON.parse(reformatted.body).error).toBe('ERR_INVALID_SIGNATURE');
  });
});
