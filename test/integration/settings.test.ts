import { beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { findUserIdByEmail } from '../../functions/data/user-repository';
import { api, freshCompany, type TestCompany } from './../helpers/fixtures';

let a: TestCompany;
let b: TestCompany;
let superToken: string;
beforeAll(async () => {
  [a, b] = await Promise.all([freshCompany(), freshCompany()]);
  const owner = await findUserIdByEmail('owner@zapdesk.local');
  superToken = await signAccessToken({ companyId: 1, userId: owner!.userId, profile: 'admin', super: true });
});

describe('company settings by column', () => {
  it("a new company reads every column with the spec's defaults", async () => {
    const res = await api(a.attendantToken).get(`/companySettings/${a.company.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      userRating: 'disabled',
      scheduleType: 'disabled',
      chatBotType: 'text',
      sendSignMessage: 'enabled',
      closeTicketOnTransfer: false,
      transferMessage: '',
    });
    // The spec's 26 columns, plus ours: the company's time zone and working hours (D90).
    expect(Object.keys(res.body)).toHaveLength(28);
  });

  it('an admin changes one column; everyone in the company reads it; another company does not change', async () => {
    const put = await api(a.adminToken).put('/companySettings', { column: 'scheduleType', data: 'queue' });
    expect(put.status).toBe(200);
    expect(put.body.scheduleType).toBe('queue');
    expect((await api(a.attendantToken).get('/companySettingOne', { column: 'scheduleType' })).body).toEqual({
      scheduleType: 'queue',
    });
    expect((await api(b.adminToken).get(`/companySettings/${b.company.id}`)).body.scheduleType).toBe('disabled');
  });

  it('an unknown column is a 400 naming the field, and a bad value is a 400 that writes nothing', async () => {
    const unknown = await api(a.adminToken).put('/companySettings', { column: 'isAdmin', data: 'enabled' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields[0].field).toBe('body.column');
    const one = await api(a.adminToken).get('/companySettingOne', { column: 'nope' });
    expect(one.status).toBe(400);
    expect(one.body.fields[0].field).toBe('query.column');
    const bad = await api(a.adminToken).put('/companySettings', { column: 'chatBotType', data: 'carousel' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('body.data');
    expect((await api(a.adminToken).get('/companySettingOne', { column: 'chatBotType' })).body).toEqual({
      chatBotType: 'text',
    });
  });

  it('a switch that sends a text needs the text, whichever of the two changes', async () => {
    const on = await api(a.adminToken).put('/companySettings', { column: 'sendMsgTransfTicket', data: 'enabled' });
    expect(on.status).toBe(400);
    expect(on.body.message).toContain('transferMessage');
    expect(
      (await api(a.adminToken).put('/companySettings', { column: 'transferMessage', data: 'Transferindo…' })).status,
    ).toBe(200);
    expect(
      (await api(a.adminToken).put('/companySettings', { column: 'sendMsgTransfTicket', data: 'enabled' })).status,
    ).toBe(200);
    const emptied = await api(a.adminToken).put('/companySettings', { column: 'transferMessage', data: '  ' });
    expect(emptied.status).toBe(400);
    expect((await api(a.adminToken).get('/companySettingOne', { column: 'transferMessage' })).body).toEqual({
      transferMessage: 'Transferindo…',
    });
  });

  it('an attendant cannot change settings; the platform owner can read any company', async () => {
    const denied = await api(a.attendantToken).put('/companySettings', { column: 'userRating', data: 'enabled' });
    expect(denied.status).toBe(403);
    const read = await api(superToken).get(`/companySettings/${a.company.id}`);
    expect(read.status).toBe(200);
    expect(read.body.scheduleType).toBe('queue');
  });
});

describe("the company's time zone and working hours (DESIGN §10, decisions D90)", () => {
  const day = (weekdayEn: string, a: [string, string], b: [string, string] = ['', '']) => ({
    weekday: weekdayEn,
    weekdayEn,
    startTimeA: a[0],
    endTimeA: a[1],
    startTimeB: b[0],
    endTimeB: b[1],
  });

  it('a new company works in America/Sao_Paulo, 08:00–12:00 and 13:00–18:00 every day', async () => {
    const res = await api(a.adminToken).get(`/companySettings/${a.company.id}`);
    expect(res.body.timezone).toBe('America/Sao_Paulo');
    expect(res.body.schedules).toHaveLength(7);
    expect(res.body.schedules[0]).toMatchObject({
      startTimeA: '08:00',
      endTimeA: '12:00',
      startTimeB: '13:00',
      endTimeB: '18:00',
    });
  });

  it('the time zone is an IANA zone; anything else is a 400 that changes nothing', async () => {
    const bad = await api(a.adminToken).put('/companySettings', { column: 'timezone', data: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect((await api(a.adminToken).get(`/companySettings/${a.company.id}`)).body.timezone).toBe('America/Sao_Paulo');
    const ok = await api(a.adminToken).put('/companySettings', { column: 'timezone', data: 'America/Manaus' });
    expect(ok.status).toBe(200);
    expect(ok.body.timezone).toBe('America/Manaus');
  });

  it("an admin sets the company's working hours; bad hours, other companies and attendants are refused", async () => {
    const schedules = [day('monday', ['09:00', '12:00'], ['14:00', '19:00']), day('saturday', ['09:00', '13:00'])];
    const res = await api(a.adminToken).put(`/companies/${a.company.id}/schedules`, { id: a.company.id, schedules });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: a.company.id, schedules });
    expect((await api(a.attendantToken).get(`/companySettings/${a.company.id}`)).body.schedules).toEqual(schedules);

    const bad = await api(a.adminToken).put(`/companies/${a.company.id}/schedules`, {
      schedules: [day('monday', ['9h', '12:00'])],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('body.schedules.0.startTimeA');
    expect((await api(a.adminToken).put(`/companies/${b.company.id}/schedules`, { schedules })).status).toBe(404);
    expect((await api(a.attendantToken).put(`/companies/${a.company.id}/schedules`, { schedules })).status).toBe(403);
    expect((await api(superToken).put(`/companies/${b.company.id}/schedules`, { schedules })).status).toBe(200);
    expect((await api(a.adminToken).get(`/companySettings/${a.company.id}`)).body.schedules).toEqual(schedules);
  });
});

describe('platform settings by key', () => {
  it('branding is public; an emptied app name falls back to the default', async () => {
    expect((await api(superToken).put('/settings/appName', { key: 'appName', value: 'Atende Já' })).status).toBe(200);
    expect((await api().get('/public-settings/appName')).body).toEqual({ key: 'appName', value: 'Atende Já' });
    await api(superToken).put('/settings/appName', { key: 'appName', value: '' });
    expect((await api().get('/public-settings/appName', { token: 'x' })).body.value).toBe('ZapDesk');
    expect((await api().get('/public-settings/primaryColorDark')).body.value).toBe('#39ACE7');
  });

  it('secrets are stored but never read back in clear, and are not public', async () => {
    const put = await api(superToken).put('/settings/stripeSecretKey', {
      key: 'stripeSecretKey',
      value: 'sk_live_abcdef9876',
    });
    expect(put.body).toEqual({ key: 'stripeSecretKey', value: '••••9876', masked: true });
    const all = await api(superToken).get('/settings');
    expect(all.body.find((s: { key: string }) => s.key === 'stripeSecretKey')).toEqual(put.body);
    expect(JSON.stringify(all.body)).not.toContain('abcdef');
    expect((await api(a.adminToken).get('/setting/stripeSecretKey')).status).toBe(403);
    expect((await api().get('/public-settings/stripeSecretKey')).status).toBe(404);
    expect((await api().get('/public-settings/whatever')).status).toBe(404);
  });

  it('values are checked against each key, and unknown keys are refused', async () => {
    const bad = await api(superToken).put('/settings/downloadLimit', { key: 'downloadLimit', value: '100' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('body.value');
    expect((await api(superToken).put('/settings/evil', { key: 'evil', value: 'x' })).status).toBe(400);
    expect((await api(a.attendantToken).get('/setting/downloadLimit')).body).toEqual({
      key: 'downloadLimit',
      value: '64',
    });
  });
});

describe('plans', () => {
  it('the public list has only public plans, without a token', async () => {
    const res = await api().get('/plans/list');
    expect(res.status).toBe(200);
    const names = (res.body as { name: string; isPublic: boolean }[]).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['Básico', 'Profissional']));
    expect(names).not.toContain('Plataforma');
  });

  it("a company reads its own plan with the use* flags, not another company's", async () => {
    const own = await api(a.attendantToken).get(`/companies/listPlan/${a.company.id}`);
    expect(own.status).toBe(200);
    expect(own.body.plan).toMatchObject({ id: 1, useCampaigns: expect.any(Boolean), useKanban: expect.any(Boolean) });
    expect((await api(a.attendantToken).get(`/companies/listPlan/${b.company.id}`)).status).toBe(404);
  });
});
