import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { createContact } from '../../functions/data/contact-repository';
import { createTicket } from '../../functions/data/ticket-repository';
import { findUserIdByEmail } from '../../functions/data/user-repository';
import { api, freshCompany, TINY_PNG, type TestCompany } from '../helpers/fixtures';

/**
 * The platform owner's settings that act on the whole platform (issue 19 items 4 and 10; decisions D171,
 * D172): the whitelabel logos served through the public settings, and the download limit on attendants'
 * uploads.
 */
let t: TestCompany;
let superToken: string;
beforeAll(async () => {
  t = await freshCompany();
  const owner = await findUserIdByEmail('owner@zapdesk.local');
  superToken = await signAccessToken({ companyId: 1, userId: owner!.userId, profile: 'admin', super: true });
});

const logoForm = (mode: string, bytes: Buffer, filename: string, type = 'image/png') => {
  const form = new FormData();
  form.append('typeArch', 'logo');
  form.append('mode', mode);
  form.append('file', new Blob([bytes], { type }), filename);
  return form;
};

const publicSetting = async (key: string) => (await api().get(`/public-settings/${key}`)).body.value as string;

describe('POST /settings-whitelabel/logo', () => {
  it('stores the logo under the platform prefix and the public settings serve it, to anyone, at once', async () => {
    const res = await api(superToken).post('/settings-whitelabel/logo', logoForm('Dark', TINY_PNG, 'marca.png'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      key: 'appLogoDark',
      value: expect.stringMatching(/^platform\/branding\/dark\/[0-9a-f-]{36}\.png$/),
    });
    // Read without signing in, as the sign-in page does; the file itself is served under /media.
    expect(await publicSetting('appLogoDark')).toBe(res.body.value);
    const file = await fetch(`${inject('gatewayUrl')}/media/${res.body.value as string}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(TINY_PNG)).toBe(true);

    // A new one replaces it; the old file is gone.
    const again = await api(superToken).post('/settings-whitelabel/logo', logoForm('Dark', TINY_PNG, 'marca2.png'));
    expect(again.status).toBe(200);
    expect(await publicSetting('appLogoDark')).toBe(again.body.value);
    expect((await fetch(`${inject('gatewayUrl')}/media/${res.body.value as string}`)).status).toBe(404);
  });

  it('the favicon takes an ICO file', async () => {
    // An ICO header (reserved 0, type 1, one image) and a few bytes of body.
    const ico = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), Buffer.alloc(40, 7)]);
    const res = await api(superToken).post(
      '/settings-whitelabel/logo',
      logoForm('Favicon', ico, 'f.ico', 'image/x-icon'),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.value).toMatch(/^platform\/branding\/favicon\/.+\.ico$/);
    expect(await publicSetting('appLogoFavicon')).toBe(res.body.value);
  });

  it('refuses a wrong type, a too large file and a wrong mode with 400 naming the field, and changes nothing', async () => {
    const before = await publicSetting('appLogoLight');
    const script = Buffer.from('<script>alert(1)</script>');
    const renamed = await api(superToken).post('/settings-whitelabel/logo', logoForm('Light', script, 'logo.png'));
    expect(renamed.status).toBe(400);
    expect(renamed.body.fields).toEqual([{ field: 'body.file', reason: 'not a PNG, JPEG or WebP image' }]);

    const big = Buffer.concat([TINY_PNG, Buffer.alloc(1024 * 1024)]);
    const tooLarge = await api(superToken).post('/settings-whitelabel/logo', logoForm('Light', big, 'logo.png'));
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.fields).toEqual([{ field: 'body.file', reason: 'the file is larger than 1024 KB' }]);

    const ico = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), Buffer.alloc(40, 7)]);
    const icoLogo = await api(superToken).post('/settings-whitelabel/logo', logoForm('Light', ico, 'l.ico'));
    expect(icoLogo.status).toBe(400);
    expect(icoLogo.body.fields[0].field).toBe('body.file');

    const mode = await api(superToken).post('/settings-whitelabel/logo', logoForm('Sepia', TINY_PNG, 'logo.png'));
    expect(mode.status).toBe(400);
    expect(mode.body.fields[0]).toMatchObject({ field: 'body.mode', reason: 'one of Light, Dark, Favicon' });

    const noFile = new FormData();
    noFile.append('mode', 'Light');
    const missing = await api(superToken).post('/settings-whitelabel/logo', noFile);
    expect(missing.status).toBe(400);
    expect(missing.body.fields[0].field).toBe('body.file');

    expect(await publicSetting('appLogoLight')).toBe(before);
  });

  it("is the platform owner's: a company's admin gets 403 and the branding stays", async () => {
    const before = await publicSetting('appLogoLight');
    const res = await api(t.adminToken).post('/settings-whitelabel/logo', logoForm('Light', TINY_PNG, 'x.png'));
    expect(res.status).toBe(403);
    expect(await publicSetting('appLogoLight')).toBe(before);
  });
});

describe('the download limit on what attendants send', () => {
  const setLimit = async (mb: string) =>
    expect((await api(superToken).put('/settings/downloadLimit', { key: 'downloadLimit', value: mb })).status).toBe(
      200,
    );
  afterAll(() => setLimit('64'));

  const openTicket = async () => {
    const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const contact = await createContact(
      t.company.id,
      { name: `Cliente ${number.slice(-4)}`, number, isGroup: false, channel: 'whatsapp', whatsappId: 1 },
      [`wa#${number}`],
    );
    return createTicket(t.company.id, {
      status: 'open',
      queueId: null,
      userId: t.attendant.id,
      contactId: contact.id,
      whatsappId: 1,
      channel: 'whatsapp',
      isGroup: false,
      chatId: `${number}@s.whatsapp.net`,
      origin: 'active',
    });
  };

  it('an upload above the limit is refused with 400 naming it; the owner raising the limit lets it through', async () => {
    const ticket = await openTicket();
    const ask = (size: number) =>
      api(t.attendantToken).post(`/messages/uploads/${ticket.id}`, {
        filename: 'video.mp4',
        contentType: 'video/mp4',
        size,
      });
    await setLimit('32');
    const refused = await ask(40 * 1024 * 1024);
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual([
      { field: 'body.size', reason: 'the file is larger than the download limit of 32 MB' },
    ]);
    expect((await ask(20 * 1024 * 1024)).status).toBe(201);

    await setLimit('64');
    expect((await ask(40 * 1024 * 1024)).status).toBe(201);
  });
});
