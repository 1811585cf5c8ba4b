import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { efiProvider } from '../../functions/core/billing/efi-provider';
import { FAKE_EFI_CREDENTIALS } from '../../functions/core/billing/fake-credentials';
import { readEfiCertificate } from '../../functions/core/settings/payment-certificate';
import { getGlobalSetting, getSettingFile } from '../../functions/data/settings-repository';
import { findUserIdByEmail } from '../../functions/data/user-repository';
import { isSealed } from '../../functions/shared/token-cipher';
import { api, freshCompany } from '../helpers/fixtures';

/**
 * The platform owner's payment settings (core §5 "Certificate upload", §7; decisions D167–D169): the PIX
 * certificate is accepted as .p12 only, stored sealed, never served back; the card providers' webhook
 * secrets are write-only like every payment credential.
 */
let superToken: string;

/** Bytes shaped like a PKCS#12 file (a DER SEQUENCE) with random content. */
const p12Bytes = () => Buffer.concat([Buffer.from([0x30, 0x82, 0x04, 0x00]), randomBytes(1020)]);
const certForm = (bytes: Buffer, name: string) => {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  return form;
};

beforeAll(async () => {
  const owner = await findUserIdByEmail('owner@zapdesk.local');
  superToken = await signAccessToken({ companyId: 1, userId: owner!.userId, profile: 'admin', super: true });
});

describe('the PIX certificate upload', () => {
  it('accepts only a .p12 with a destination, for the platform owner only', async () => {
    const pem = await api(superToken).post(
      '/settings/cert-upload?ref=certificadoEfi',
      certForm(Buffer.from('-----BEGIN CERTIFICATE-----'), 'cert.pem'),
    );
    expect(pem.status).toBe(400);
    expect(pem.body.fields).toEqual([{ field: 'body.file', reason: 'Use somente arquivos em formato p12!' }]);
    // Named .p12 but not one (text, not DER).
    const fake = await api(superToken).post(
      '/settings/cert-upload?ref=certificadoEfi',
      certForm(Buffer.from('hello'), 'cert.p12'),
    );
    expect(fake.status).toBe(400);
    expect(fake.body.fields[0].reason).toBe('Use somente arquivos em formato p12!');
    const noRef = await api(superToken).post('/settings/cert-upload', certForm(p12Bytes(), 'cert.p12'));
    expect(noRef.status).toBe(400);
    expect(noRef.body.fields).toEqual([{ field: 'query.ref', reason: 'Escolha um destino!' }]);
    const otherRef = await api(superToken).post('/settings/cert-upload?ref=logo', certForm(p12Bytes(), 'cert.p12'));
    expect(otherRef.status).toBe(400);
    const noFile = await api(superToken).post('/settings/cert-upload?ref=certificadoEfi', new FormData());
    expect(noFile.status).toBe(400);
    expect(noFile.body.fields).toEqual([{ field: 'body.file', reason: 'Escolha um arquivo!' }]);
    const big = Buffer.concat([p12Bytes(), randomBytes(60 * 1024)]);
    const tooBig = await api(superToken).post('/settings/cert-upload?ref=certificadoEfi', certForm(big, 'big.p12'));
    expect(tooBig.status).toBe(400);

    const company = await freshCompany();
    const byAdmin = await api(company.adminToken).post(
      '/settings/cert-upload?ref=certificadoEfi',
      certForm(p12Bytes(), 'cert.p12'),
    );
    expect(byAdmin.status).toBe(403);
    expect((await api(company.adminToken).get('/settings/cert-upload')).status).toBe(403);
  });

  it('stores the certificate sealed and never serves it back; the Efí adapter reads it in clear', async () => {
    const bytes = p12Bytes();
    const up = await api(superToken).post('/settings/cert-upload?ref=certificadoEfi', certForm(bytes, 'efi-prod.p12'));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toEqual({ mensagem: 'Arquivo Anexado' });

    const stored = (await getSettingFile('certificadoEfi'))!;
    expect(isSealed(stored.sealed)).toBe(true);
    expect(stored.sealed).not.toContain(bytes.toString('base64').slice(0, 40));
    expect((await readEfiCertificate())?.pfx.equals(bytes)).toBe(true);

    const status = await api(superToken).get('/settings/cert-upload');
    expect(status.status).toBe(200);
    expect(status.body).toEqual([
      {
        destination: 'certificadoEfi',
        installed: true,
        fileName: 'efi-prod.p12',
        size: bytes.length,
        uploadedAt: stored.uploadedAt,
      },
    ]);
    const everything = JSON.stringify((await api(superToken).get('/settings')).body);
    expect(everything).not.toContain(stored.sealed.slice(0, 40));
    expect(everything).not.toContain('certificadoEfi');
  });

  it('without a certificate the Efí adapter refuses to call Efí with a clear code', async () => {
    const efi = efiProvider(FAKE_EFI_CREDENTIALS, 'https://127.0.0.1:9');
    await expect(
      efi.createCharge({
        reference: 'zd0000000001abc',
        amount: 10,
        description: 'x',
        payer: { name: 'a', document: '' },
      }),
    ).rejects.toMatchObject({ status: 400, code: 'ERR_EFI_CERTIFICATE_MISSING' });
  });
});

describe('the card providers’ credentials', () => {
  it('keeps the webhook secrets write-only and validates the offered providers', async () => {
    // Mercado Pago: no other file sets its access token, so its payments keep using the fake meanwhile.
    const put = await api(superToken).put('/settings/mercadoPagoWebhookSecret', {
      key: 'mercadoPagoWebhookSecret',
      value: 'mp-secret-abcdef9Z1x',
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ key: 'mercadoPagoWebhookSecret', value: '••••9Z1x', masked: true });
    expect(isSealed((await getGlobalSetting('mercadoPagoWebhookSecret'))!.value)).toBe(true);
    expect((await api(superToken).get('/setting/mercadoPagoWebhookSecret')).body.value).toBe('••••9Z1x');
    expect((await api(superToken).put('/settings/mercadoPagoWebhookSecret', { value: '' })).status).toBe(200);

    const bad = await api(superToken).put('/settings/paymentProviders', { value: 'efi,paypal' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([{ field: 'body.value', reason: 'efi, stripe, asaas, mercadopago' }]);
  });
});
