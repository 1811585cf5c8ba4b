import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { config } from '../../shared/config';
import { BadRequest, Unauthorized } from '../../shared/errors';
import { secretKey } from '../../shared/secrets';
import {
  brl,
  PaymentProviderError,
  sameText,
  type ChargeHandle,
  type ChargeRequest,
  type ChargeState,
  type CreatedCharge,
  type PaymentNotice,
  type PaymentProvider,
  type WebhookRequest,
} from './payment-provider';

/**
 * PIX through Efí (decisions D153): its PIX API over OAuth2 client credentials and mTLS with the account's
 * .p12 certificate, with node's https and the pfx (no SDK). Calls used:
 * - `POST /oauth/token` (Basic client_id:client_secret, `{grant_type: client_credentials}`) → access_token;
 * - `PUT /v2/webhook/{chave}` `{webhookUrl}` with `x-skip-mtls-checking: true` (our URL carries an hmac);
 * - `PUT /v2/cob/{txid}` `{calendario, devedor, valor: {original}, chave, solicitacaoPagador}` → the charge
 *   (`status: ATIVA`, `loc.id`, `pixCopiaECola`); `GET /v2/loc/{id}/qrcode` → `{qrcode, imagemQrcode}`;
 * - `PATCH /v2/cob/{txid}` `{valor: {original}}` revises the amount; `GET /v2/cob/{txid}` → its `status`
 *   (ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP).
 * Efí posts paid PIX to `<webhookUrl>/pix` as `{pix: [{endToEndId, txid, chave, valor, horario}]}`.
 */
export interface EfiCredentials {
  clientId: string;
  clientSecret: string;
  pixKey: string;
  /** The .p12 certificate (mTLS); required by Efí's https API, not by the local fake. */
  certificate?: Buffer;
}

const TIMEOUT_MS = 10_000;

/** No PIX certificate installed (POST /settings/cert-upload, decisions D169): Efí is not called. */
export const efiCertificateMissing = () =>
  new BadRequest('ERR_EFI_CERTIFICATE_MISSING', 'Efí needs the PIX certificate (.p12): upload it in Settings');

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const call = (
  base: string,
  credentials: EfiCredentials,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
    // Efí's API accepts only mTLS with the account's .p12: without one we do not call it at all.
    if (url.protocol === 'https:' && !credentials.certificate) return reject(efiCertificateMissing());
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method,
        timeout: TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}),
          ...options.headers,
        },
        ...(url.protocol === 'https:' && credentials.certificate
          ? { pfx: credentials.certificate, passphrase: '' }
          : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Record<string, unknown> = {};
          try {
            body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
          } catch {
            body = { raw: text.slice(0, 200) };
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('Efí request timed out')));
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });

/** The hmac our Efí webhook URL carries (`?hmac=`): Efí's documented guard when mTLS is not checked by us. */
export const efiWebhookHmac = async (): Promise<string> =>
  createHmac('sha256', await secretKey('webhook'))
    .update('efi-pix-webhook')
    .digest('base64url');

const STATUS: Record<string, ChargeState['status']> = {
  ATIVA: 'open',
  CONCLUIDA: 'paid',
  REMOVIDA_PELO_USUARIO_RECEBEDOR: 'closed',
  REMOVIDA_PELO_PSP: 'closed',
};

export const efiProvider = (credentials: EfiCredentials, base = config().EFI_API_URL): PaymentProvider => {
  let token: { value: string; until: number } | undefined;
  let webhookRegistered = false;

  const accessToken = async (): Promise<string> => {
    if (token && token.until > Date.now()) return token.value;
    const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64');
    const res = await call(base, credentials, 'POST', 'oauth/token', {
      body: { grant_type: 'client_credentials' },
      headers: { authorization: `Basic ${basic}` },
    });
    if (res.status !== 200 || typeof res.body.access_token !== 'string') {
      throw new PaymentProviderError('Efí refused the credentials');
    }
    const seconds = Number(res.body.expires_in ?? 3600);
    token = { value: res.body.access_token, until: Date.now() + Math.max(60, seconds - 60) * 1000 };
    return token.value;
  };

  const authed = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await call(base, credentials, method, path, {
      body,
      headers: { authorization: `Bearer ${await accessToken()}`, ...headers },
    });
    if (res.status >= 400) {
      throw new PaymentProviderError(`Efí answered ${res.status} to ${method} ${path.split('/')[1]}`);
    }
    return res.body;
  };

  const registerWebhook = async (): Promise<void> => {
    const publicBase = config().PAYMENT_WEBHOOK_BASE_URL;
    if (webhookRegistered || !publicBase) return;
    const webhookUrl = `${publicBase.replace(/\/$/, '')}/webhooks/efi?hmac=${await efiWebhookHmac()}&ignorar=`;
    await authed(
      'PUT',
      `v2/webhook/${encodeURIComponent(credentials.pixKey)}`,
      { webhookUrl },
      {
        'x-skip-mtls-checking': 'true',
      },
    );
    webhookRegistered = true;
  };

  const amountOf = (cob: Record<string, unknown>): number =>
    Number((cob.valor as { original?: string } | undefined)?.original ?? 0);

  return {
    name: 'efi',
    async createCharge(request: ChargeRequest): Promise<CreatedCharge> {
      await registerWebhook();
      const digits = request.payer.document.replace(/\D/g, '');
      const cob = await authed('PUT', `v2/cob/${request.reference}`, {
        calendario: { expiracao: 3600 * 24 * 3 },
        ...(digits.length === 11 || digits.length === 14
          ? { devedor: { [digits.length === 11 ? 'cpf' : 'cnpj']: digits, nome: request.payer.name.slice(0, 200) } }
          : {}),
        valor: { original: brl(request.amount) },
        chave: credentials.pixKey,
        solicitacaoPagador: request.description.slice(0, 140),
      });
      const locId = (cob.loc as { id?: number } | undefined)?.id;
      const qr = locId === undefined ? {} : await authed('GET', `v2/loc/${locId}/qrcode`);
      const code = typeof qr.qrcode === 'string' ? qr.qrcode : String(cob.pixCopiaECola ?? '');
      return {
        chargeId: String(cob.txid ?? request.reference),
        amount: amountOf(cob),
        qrcode: {
          qrcode: code,
          ...(typeof qr.imagemQrcode === 'string' ? { imagemQrcode: qr.imagemQrcode } : {}),
        },
      };
    },
    async updateChargeAmount(charge: ChargeHandle, amount: number): Promise<null> {
      await authed('PATCH', `v2/cob/${charge.chargeId}`, { valor: { original: brl(amount) } });
      return null;
    },
    async getCharge({ chargeId }: ChargeHandle): Promise<ChargeState> {
      const cob = await authed('GET', `v2/cob/${chargeId}`);
      return { chargeId, status: STATUS[String(cob.status)] ?? 'open', amount: amountOf(cob) };
    },
    async parseWebhook(request: WebhookRequest): Promise<PaymentNotice[]> {
      const given = request.query.hmac ?? '';
      if (!given || !sameText(given, await efiWebhookHmac()))
        throw new Unauthorized('ERR_INVALID_SIGNATURE', 'Bad webhook hmac');
      let body: { pix?: { endToEndId?: unknown; txid?: unknown }[] };
      try {
        body = JSON.parse(request.rawBody || '{}') as typeof body;
      } catch {
        return [];
      }
      return (Array.isArray(body.pix) ? body.pix : [])
        .filter((p) => typeof p.txid === 'string' && typeof p.endToEndId === 'string')
        .map((p) => ({ eventId: String(p.endToEndId), chargeId: String(p.txid) }));
    },
  };
};
