import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { readPlatformSecret } from '../../functions/core/settings/global-settings';
import { getGlobalSetting, putGlobalSetting } from '../../functions/data/settings-repository';
import { findUserIdByEmail } from '../../functions/data/user-repository';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';

/** The platform's AI key (core §3 Global settings; decisions D158): sealed at rest, masked when read. */
let superToken: string;
let tenant: TestCompany;
let before: string | undefined;
beforeAll(async () => {
  const owner = await findUserIdByEmail('owner@zapdesk.local');
  superToken = await signAccessToken({ companyId: 1, userId: owner!.userId, profile: 'admin', super: true });
  tenant = await freshCompany();
  before = (await getGlobalSetting('openAiKey'))?.value;
});
afterAll(async () => {
  await putGlobalSetting('openAiKey', before ?? '');
});

describe('the AI key', () => {
  it('is stored sealed, answered masked, and used in clear by the services', async () => {
    const secret = `sk-proj-${Math.random().toString(36).slice(2)}Zx91`;
    const put = await api(superToken).put('/settings/openAiKey', { key: 'openAiKey', value: secret });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ key: 'openAiKey', value: '••••Zx91', masked: true });

    const stored = (await getGlobalSetting('openAiKey'))!.value;
    expect(stored).not.toContain(secret.slice(8, 20));
    expect(stored).toMatch(/^v1\./);

    const all = await api(superToken).get('/settings');
    expect(all.body.find((s: { key: string }) => s.key === 'openAiKey')).toEqual(put.body);
    expect((await api(superToken).get('/setting/openAiKey')).body).toEqual(put.body);
    expect((await api(tenant.adminToken).get('/setting/openAiKey')).status).toBe(403);
    expect((await api().get('/public-settings/openAiKey')).status).toBe(404);
    expect(await readPlatformSecret('openAiKey')).toBe(secret);
  });

  it('emptied, it is not set (no ciphertext of nothing)', async () => {
    expect((await api(superToken).put('/settings/openAiKey', { key: 'openAiKey', value: '' })).body).toEqual({
      key: 'openAiKey',
      value: '',
    });
    expect((await getGlobalSetting('openAiKey'))!.value).toBe('');
    expect(await readPlatformSecret('openAiKey')).toBe('');
  });
});

describe('the payment credentials', () => {
  it('are sealed at rest like the AI key, answered masked and read in clear by the services', async () => {
    // stripeSecretKey: no adapter reads it yet, so other files' payments are not disturbed.
    const previous = (await getGlobalSetting('stripeSecretKey'))?.value ?? '';
    try {
      const secret = `sk_live_${Math.random().toString(36).slice(2)}Q7w2`;
      const put = await api(superToken).put('/settings/stripeSecretKey', { key: 'stripeSecretKey', value: secret });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ key: 'stripeSecretKey', value: '••••Q7w2', masked: true });
      const stored = (await getGlobalSetting('stripeSecretKey'))!.value;
      expect(stored).toMatch(/^v1\./);
      expect(stored).not.toContain(secret.slice(8, 16));
      expect(await readPlatformSecret('stripeSecretKey')).toBe(secret);
    } finally {
      await putGlobalSetting('stripeSecretKey', previous);
    }
  });
});
