import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  FAKE_ASAAS_CREDENTIALS,
  FAKE_MERCADOPAGO_CREDENTIALS,
  FAKE_STRIPE_CREDENTIALS,
} from '../../functions/core/billing/fake-credentials';
import { mercadoPagoSignature } from '../../functions/core/billing/mercadopago-provider';
import { stripeSignature } from '../../functions/core/billing/stripe-provider';
import { listenLocal } from './listen-local';

/**
 * A local stand-in for the payment providers (DESIGN §10; decisions D153): the subset of Efí's PIX API the
 * adapter calls (functions/core/billing/efi-provider.ts), with Efí's shapes, and control routes that play
 * the payer. The local cloud starts it and points EFI_API_URL at it when no real provider URL is given;
 * the tests use it through those control routes.
 *
 * Efí subset: `POST /oauth/token` (Basic client credentials), `PUT /v2/webhook/{chave}`, `PUT /v2/cob/{txid}`,
 * `PATCH /v2/cob/{txid}`, `GET /v2/cob/{txid}`, `GET /v2/loc/{id}/qrcode`. A paid charge is posted, as Efí
 * does, to the registered webhook URL with `/pix` appended: `{pix: [{endToEndId, txid, chave, valor, horario}]}`.
 *
 * Controls:
 * - `POST /__fake/efi/pay/{txid}` `{webhook?: 'send' | 'drop'}` — the payer pays the charge's current amount;
 *   the webhook goes out unless dropped. Answers `{endToEndId, delivered}` (the webhook's HTTP status).
 * - `POST /__fake/efi/resend/{txid}` — the paid charge's webhook delivered again (a provider retry).
 * - `GET /__fake/efi/cob/{txid}` — the charge as stored; `GET /__fake/efi/webhook` — the registered URL.
 *
 * The card providers (decisions D167), each checking the fake credentials (functions/core/billing/
 * fake-credentials.ts) and signing its webhooks exactly as the real one does:
 * - Stripe: `POST /v1/checkout/sessions` (form), `GET /v1/checkout/sessions/{id}`, `POST …/{id}/expire`;
 *   webhooks to `<webhookBaseUrl>/webhooks/stripe` with `Stripe-Signature`.
 * - Asaas: `POST /v3/customers`, `POST /v3/payments`, `PUT` and `GET /v3/payments/{id}`; webhooks to
 *   `<webhookBaseUrl>/webhooks/asaas` with the `asaas-access-token` header.
 * - Mercado Pago: `POST` and `PUT /checkout/preferences[/{id}]`, `GET /v1/payments/{id}`,
 *   `GET /v1/payments/search?external_reference=`; webhooks to the preference's `notification_url` with
 *   `?data.id=<payment>&type=payment`, `x-request-id` and `x-signature`.
 * Controls, `{provider}` one of stripe, asaas, mercadopago and `{id}` our charge id (the session, the
 * payment, the preference's external reference):
 * - `POST /__fake/{provider}/pay/{id}` `{webhook?: 'send' | 'drop'}` — the payer pays the charge's current
 *   amount; the provider's first event and then its paid event go out unless dropped; answers
 *   `{eventId, delivered}` (the paid event's id and HTTP status);
 * - `POST /__fake/{provider}/resend/{id}` — every event of the charge delivered again, newest first (a
 *   provider's retries arriving out of order); answers `{delivered: [statuses]}`;
 * - `GET /__fake/{provider}/charge/{id}` — the charge as stored; `GET /__fake/pay/{provider}/{id}` — the
 *   payer's page (a person in the local cloud presses "Pagar" there).
 */
export const FAKE_EFI = { clientId: 'fake-efi-client', clientSecret: 'fake-efi-secret' } as const;

interface Cob {
  txid: string;
  revisao: number;
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
  valor: { original: string };
  chave: string;
  loc: { id: number; location: string; tipoCob: 'cob' };
  calendario: { criacao: string; expiracao: number };
  devedor?: Record<string, string>;
  solicitacaoPagador?: string;
  pixCopiaECola: string;
  pix?: { endToEndId: string; txid: string; valor: string; chave: string; horario: string }[];
}

const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export interface FakePaymentProvider {
  url: string;
  stop: () => Promise<void>;
}

type CardName = 'stripe' | 'asaas' | 'mercadopago';

/** A card provider's charge as the fake keeps it; `record` is what its API answers. */
interface CardCharge {
  provider: CardName;
  id: string;
  amount: number;
  paid: boolean;
  closed: boolean;
  record: Record<string, unknown>;
  /** Deliveries made for it (replayed by `resend`). */
  events: { url: string; headers: Record<string, string>; body: string }[];
  notificationUrl?: string;
}

const hex = (n: number) => randomBytes(n).toString('hex');

export const startFakePaymentProvider = async (
  port = 0,
  options: { webhookBaseUrl?: string } = {},
): Promise<FakePaymentProvider> => {
  const cards = new Map<string, CardCharge>();
  const mpPayments = new Map<string, Record<string, unknown>>();
  let selfUrl = '';
  const cardKey = (provider: CardName, id: string) => `${provider}:${id}`;

  const post = async (url: string, headers: Record<string, string>, body: string): Promise<number> => {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      await res.text();
      return res.status;
    } catch {
      return 0;
    }
  };

  /**
   * A provider's event for a charge, signed as that provider signs it: `early` is the one it sends first
   * (Stripe's payment_intent.created, Asaas' PAYMENT_CREATED, Mercado Pago's payment.created), `paid` the
   * paid one (checkout.session.completed, PAYMENT_RECEIVED, payment.updated).
   */
  const cardEvent = (
    charge: CardCharge,
    kind: 'early' | 'paid',
  ): { url: string; headers: Record<string, string>; body: string } => {
    const base = options.webhookBaseUrl?.replace(/\/$/, '') ?? '';
    if (charge.provider === 'stripe') {
      const body = JSON.stringify({
        id: `evt_${hex(12)}`,
        object: 'event',
        type: kind === 'paid' ? 'checkout.session.completed' : 'payment_intent.created',
        created: Math.floor(Date.now() / 1000),
        data: {
          object:
            kind === 'paid' ? charge.record : { id: `pi_${hex(12)}`, object: 'payment_intent', status: 'processing' },
        },
      });
      return {
        url: `${base}/webhooks/stripe`,
        headers: { 'stripe-signature': stripeSignature(FAKE_STRIPE_CREDENTIALS.webhookSecret, body) },
        body,
      };
    }
    if (charge.provider === 'asaas') {
      const body = JSON.stringify({
        id: `evt_${hex(16)}&${Date.now()}`,
        event: kind === 'paid' ? 'PAYMENT_RECEIVED' : 'PAYMENT_CREATED',
        dateCreated: new Date().toISOString().replace('T', ' ').slice(0, 19),
        payment: { object: 'payment', ...charge.record, ...(kind === 'paid' ? {} : { status: 'PENDING' }) },
      });
      return {
        url: `${base}/webhooks/asaas`,
        headers: { 'asaas-access-token': FAKE_ASAAS_CREDENTIALS.webhookToken },
        body,
      };
    }
    const paymentId = String(charge.record.paymentId);
    const requestId = `${hex(4)}-${hex(2)}-${hex(2)}-${hex(2)}-${hex(6)}`;
    const ts = String(Date.now());
    const body = JSON.stringify({
      id: Number.parseInt(hex(5), 16),
      live_mode: false,
      type: 'payment',
      action: kind === 'paid' ? 'payment.updated' : 'payment.created',
      api_version: 'v1',
      date_created: new Date().toISOString(),
      data: { id: paymentId },
    });
    return {
      url: `${charge.notificationUrl ?? `${base}/webhooks/mercadopago`}?data.id=${paymentId}&type=payment`,
      headers: {
        'x-request-id': requestId,
        'x-signature': mercadoPagoSignature(FAKE_MERCADOPAGO_CREDENTIALS.webhookSecret, paymentId, requestId, ts),
      },
      body,
    };
  };

  const payCard = (charge: CardCharge): void => {
    charge.paid = true;
    if (charge.provider === 'stripe') {
      charge.record = { ...charge.record, status: 'complete', payment_status: 'paid' };
    } else if (charge.provider === 'asaas') {
      charge.record = { ...charge.record, status: 'RECEIVED', paymentDate: new Date().toISOString().slice(0, 10) };
    } else {
      const paymentId = String(Number.parseInt(hex(5), 16));
      const payment = {
        id: Number(paymentId),
        status: 'approved',
        status_detail: 'accredited',
        transaction_amount: charge.amount,
        currency_id: 'BRL',
        external_reference: charge.id,
        date_approved: new Date().toISOString(),
      };
      mpPayments.set(paymentId, payment);
      charge.record = { ...charge.record, paymentId };
    }
  };

  const cardAuthorized = (provider: CardName, req: IncomingMessage): boolean => {
    if (provider === 'stripe') return req.headers.authorization === `Bearer ${FAKE_STRIPE_CREDENTIALS.secretKey}`;
    if (provider === 'asaas') return req.headers.access_token === FAKE_ASAAS_CREDENTIALS.apiKey;
    return req.headers.authorization === `Bearer ${FAKE_MERCADOPAGO_CREDENTIALS.accessToken}`;
  };

  /** The card providers' API and controls; false when the path is none of theirs. */
  const cardRoute = async (req: IncomingMessage, res: ServerResponse, url: URL, raw: string): Promise<boolean> => {
    const path = url.pathname;
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(JSON.stringify(value));
      return true;
    };
    // Controls.
    let m = /^\/__fake\/(stripe|asaas|mercadopago)\/(pay|resend|charge)\/([\w.-]{1,100})$/.exec(path);
    if (m) {
      const charge = cards.get(cardKey(m[1] as CardName, m[3]!));
      if (!charge) return json(404, { error: 'unknown charge' });
      if (m[2] === 'charge') return json(200, { ...charge, events: charge.events.length });
      if (req.method !== 'POST') return json(405, {});
      if (m[2] === 'pay') {
        if (charge.paid || charge.closed) return json(409, { error: 'charge is not open' });
        payCard(charge);
        const early = cardEvent(charge, 'early');
        const paid = cardEvent(charge, 'paid');
        charge.events.push(early, paid);
        const drop = raw && (JSON.parse(raw) as { webhook?: string }).webhook === 'drop';
        if (!drop) await post(early.url, early.headers, early.body);
        const delivered = drop ? 0 : await post(paid.url, paid.headers, paid.body);
        return json(200, { eventId: (JSON.parse(paid.body) as { id: unknown }).id, delivered });
      }
      const delivered: number[] = [];
      for (const event of [...charge.events].reverse())
        delivered.push(await post(event.url, event.headers, event.body));
      return json(200, { delivered });
    }
    m = /^\/__fake\/pay\/(stripe|asaas|mercadopago)\/([\w.-]{1,100})$/.exec(path);
    if (m && req.method === 'GET') {
      const charge = cards.get(cardKey(m[1] as CardName, m[2]!));
      if (!charge) return json(404, { error: 'unknown charge' });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>Fake ${m[1]}</title><p>R$ ${charge.amount.toFixed(2)} — ${charge.paid ? 'pago' : 'em aberto'}</p>` +
          `<button onclick="fetch('/__fake/${m[1]}/pay/${charge.id}',{method:'POST'}).then(()=>location.reload())">Pagar</button>`,
      );
      return true;
    }

    const provider: CardName | null = path.startsWith('/v1/checkout/')
      ? 'stripe'
      : path.startsWith('/v3/')
        ? 'asaas'
        : path.startsWith('/checkout/preferences') || path.startsWith('/v1/payments')
          ? 'mercadopago'
          : null;
    if (!provider) return false;
    if (!cardAuthorized(provider, req))
      return json(401, { error: { message: 'Invalid API key', type: 'invalid_request_error' } });
    const body = (
      provider === 'stripe' ? Object.fromEntries(new URLSearchParams(raw)) : raw ? JSON.parse(raw) : {}
    ) as Record<string, unknown>;

    if (provider === 'stripe') {
      if (path === '/v1/checkout/sessions' && req.method === 'POST') {
        const cents = Number(body['line_items[0][price_data][unit_amount]']);
        if (!Number.isInteger(cents) || cents <= 0 || body.mode !== 'payment')
          return json(400, { error: { message: 'Invalid line item', type: 'invalid_request_error' } });
        const id = `cs_test_${hex(24)}`;
        const record = {
          id,
          object: 'checkout.session',
          mode: 'payment',
          amount_total: cents,
          currency: String(body['line_items[0][price_data][currency]'] ?? 'brl'),
          client_reference_id: body.client_reference_id ?? null,
          metadata: { reference: body['metadata[reference]'] ?? '' },
          status: 'open',
          payment_status: 'unpaid',
          success_url: body.success_url,
          url: `${selfUrl}/__fake/pay/stripe/${id}`,
        };
        cards.set(cardKey('stripe', id), {
          provider,
          id,
          amount: cents / 100,
          paid: false,
          closed: false,
          record,
          events: [],
        });
        return json(200, record);
      }
      m = /^\/v1\/checkout\/sessions\/(cs_[\w]+)(\/expire)?$/.exec(path);
      const charge = m ? cards.get(cardKey('stripe', m[1]!)) : undefined;
      if (!m || !charge)
        return json(404, { error: { message: 'No such checkout.session', type: 'invalid_request_error' } });
      if (m[2] && req.method === 'POST') {
        if (charge.record.status !== 'open')
          return json(400, { error: { message: 'Session is not open', type: 'invalid_request_error' } });
        charge.closed = true;
        charge.record = { ...charge.record, status: 'expired', url: null };
        return json(200, charge.record);
      }
      return json(200, charge.record);
    }

    if (provider === 'asaas') {
      if (path === '/v3/customers' && req.method === 'POST') {
        if (typeof body.name !== 'string' || typeof body.cpfCnpj !== 'string')
          return json(400, { errors: [{ code: 'invalid_object', description: 'name and cpfCnpj required' }] });
        return json(200, { object: 'customer', id: `cus_${hex(6)}`, name: body.name, cpfCnpj: body.cpfCnpj });
      }
      if (path === '/v3/payments' && req.method === 'POST') {
        const value = Number(body.value);
        if (!(value > 0) || typeof body.customer !== 'string' || typeof body.dueDate !== 'string')
          return json(400, {
            errors: [{ code: 'invalid_value', description: 'value, customer and dueDate required' }],
          });
        const id = `pay_${hex(8)}`;
        const record = {
          object: 'payment',
          id,
          customer: body.customer,
          value,
          billingType: body.billingType ?? 'UNDEFINED',
          status: 'PENDING',
          dueDate: body.dueDate,
          description: body.description ?? null,
          externalReference: body.externalReference ?? null,
          invoiceUrl: `${selfUrl}/__fake/pay/asaas/${id}`,
          deleted: false,
        };
        cards.set(cardKey('asaas', id), {
          provider,
          id,
          amount: value,
          paid: false,
          closed: false,
          record,
          events: [],
        });
        return json(200, record);
      }
      m = /^\/v3\/payments\/(pay_\w+)$/.exec(path);
      const charge = m ? cards.get(cardKey('asaas', m[1]!)) : undefined;
      if (!charge) return json(404, { errors: [{ code: 'not_found', description: 'Cobrança não encontrada' }] });
      if (req.method === 'PUT') {
        if (charge.record.status !== 'PENDING')
          return json(400, {
            errors: [{ code: 'invalid_action', description: 'Só é possível alterar cobranças pendentes' }],
          });
        const value = Number(body.value);
        if (!(value > 0)) return json(400, { errors: [{ code: 'invalid_value', description: 'value' }] });
        charge.amount = value;
        charge.record = { ...charge.record, value };
      }
      return json(200, charge.record);
    }

    // Mercado Pago.
    if (path === '/checkout/preferences' && req.method === 'POST') {
      const [item] = (body.items as { unit_price?: number }[] | undefined) ?? [];
      const reference = body.external_reference;
      if (!item || !(Number(item.unit_price) > 0) || typeof reference !== 'string')
        return json(400, { message: 'items and external_reference required', error: 'bad_request', status: 400 });
      const id = `${Number.parseInt(hex(4), 16)}-${hex(4)}-${hex(2)}-${hex(2)}-${hex(6)}`;
      const record = {
        id,
        items: body.items,
        external_reference: reference,
        notification_url: body.notification_url ?? null,
        init_point: `${selfUrl}/__fake/pay/mercadopago/${reference}`,
      };
      cards.set(cardKey('mercadopago', reference), {
        provider,
        id: reference,
        amount: Number(item.unit_price),
        paid: false,
        closed: false,
        record,
        events: [],
        ...(typeof body.notification_url === 'string' ? { notificationUrl: body.notification_url } : {}),
      });
      return json(201, record);
    }
    m = /^\/checkout\/preferences\/([\w-]+)$/.exec(path);
    if (m) {
      const charge = [...cards.values()].find((c) => c.provider === 'mercadopago' && c.record.id === m![1]);
      if (!charge) return json(404, { message: 'preference not found', status: 404 });
      if (req.method === 'PUT') {
        const [item] = (body.items as { unit_price?: number }[] | undefined) ?? [];
        if (charge.paid) return json(400, { message: 'preference already paid', status: 400 });
        if (item && Number(item.unit_price) > 0) {
          charge.amount = Number(item.unit_price);
          charge.record = { ...charge.record, items: body.items };
        }
      }
      return json(200, charge.record);
    }
    if (path === '/v1/payments/search' && req.method === 'GET') {
      const reference = url.searchParams.get('external_reference');
      const results = [...mpPayments.values()].filter((p) => p.external_reference === reference);
      return json(200, { paging: { total: results.length, limit: 30, offset: 0 }, results });
    }
    m = /^\/v1\/payments\/(\d+)$/.exec(path);
    const payment = m ? mpPayments.get(m[1]!) : undefined;
    return payment ? json(200, payment) : json(404, { message: 'Payment not found', status: 404 });
  };

  const cobs = new Map<string, Cob>();
  const tokens = new Set<string>();
  let webhookUrl: string | undefined;
  let nextLoc = 1;

  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(JSON.stringify(value));
  };

  const deliver = async (cob: Cob): Promise<number> => {
    if (!webhookUrl || !cob.pix) return 0;
    try {
      const res = await fetch(`${webhookUrl}/pix`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pix: cob.pix.map((p) => ({ ...p, infoPagador: 'Pagamento de teste' })) }),
      });
      await res.text();
      return res.status;
    } catch {
      return 0;
    }
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = await readBody(req);
      const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      const body = (raw && !isForm ? JSON.parse(raw) : {}) as Record<string, unknown>;
      const path = url.pathname;
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'GET, POST',
          'access-control-allow-headers': 'content-type',
        });
        return res.end();
      }

      if (await cardRoute(req, res, url, raw)) return;

      // Controls (the payer).
      let m = /^\/__fake\/efi\/(pay|resend)\/([A-Za-z0-9]{26,35})$/.exec(path);
      if (m && req.method === 'POST') {
        const cob = cobs.get(m[2]!);
        if (!cob) return json(res, 404, { error: 'unknown txid' });
        if (m[1] === 'pay') {
          if (cob.status !== 'ATIVA') return json(res, 409, { error: `charge is ${cob.status}` });
          const endToEndId = `E${randomBytes(15).toString('hex')}`.slice(0, 32);
          cob.status = 'CONCLUIDA';
          cob.pix = [
            {
              endToEndId,
              txid: cob.txid,
              valor: cob.valor.original,
              chave: cob.chave,
              horario: new Date().toISOString(),
            },
          ];
          const delivered = body.webhook === 'drop' ? 0 : await deliver(cob);
          return json(res, 200, { endToEndId, delivered });
        }
        return json(res, 200, { delivered: await deliver(cob) });
      }
      m = /^\/__fake\/efi\/cob\/([A-Za-z0-9]{26,35})$/.exec(path);
      if (m && req.method === 'GET') {
        const cob = cobs.get(m[1]!);
        return cob ? json(res, 200, cob) : json(res, 404, { error: 'unknown txid' });
      }
      if (path === '/__fake/efi/webhook' && req.method === 'GET')
        return json(res, 200, { webhookUrl: webhookUrl ?? null });

      // Efí's API.
      if (path === '/oauth/token' && req.method === 'POST') {
        const basic = Buffer.from(`${FAKE_EFI.clientId}:${FAKE_EFI.clientSecret}`).toString('base64');
        if (req.headers.authorization !== `Basic ${basic}` || body.grant_type !== 'client_credentials') {
          return json(res, 401, { error: 'invalid_client', error_description: 'Invalid or inactive credentials' });
        }
        const token = randomBytes(24).toString('hex');
        tokens.add(token);
        return json(res, 200, {
          access_token: token,
          token_type: 'Bearer',
          expires_in: 3600,
          scope: 'cob.read cob.write',
        });
      }
      const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!tokens.has(bearer)) return json(res, 401, { nome: 'nao_autorizado', mensagem: 'Requisição não autorizada' });

      m = /^\/v2\/webhook\/([^/]+)$/.exec(path);
      if (m && req.method === 'PUT') {
        if (typeof body.webhookUrl !== 'string') return json(res, 400, { nome: 'json_invalido' });
        webhookUrl = body.webhookUrl;
        return json(res, 200, { webhookUrl });
      }
      m = /^\/v2\/cob\/([A-Za-z0-9]{26,35})$/.exec(path);
      if (m) {
        const txid = m[1]!;
        const existing = cobs.get(txid);
        const valor = body.valor as { original?: string } | undefined;
        if (req.method === 'PUT') {
          if (existing) return json(res, 400, { nome: 'txid_duplicado', mensagem: 'txid already used' });
          if (!valor?.original || !/^\d{1,10}\.\d{2}$/.test(valor.original) || typeof body.chave !== 'string') {
            return json(res, 400, { nome: 'json_invalido', mensagem: 'Campo valor.original ou chave inválido' });
          }
          const loc = nextLoc++;
          const cob: Cob = {
            txid,
            revisao: 0,
            status: 'ATIVA',
            valor: { original: valor.original },
            chave: body.chave,
            loc: { id: loc, location: `fake-pix.local/qr/v2/${loc}`, tipoCob: 'cob' },
            calendario: {
              criacao: new Date().toISOString(),
              expiracao: Number((body.calendario as { expiracao?: number })?.expiracao ?? 3600),
            },
            ...(body.devedor ? { devedor: body.devedor as Record<string, string> } : {}),
            ...(typeof body.solicitacaoPagador === 'string' ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
            pixCopiaECola: `00020101021226830014BR.GOV.BCB.PIX2561fake-pix.local/qr/v2/${loc}5204000053039865405${valor.original}6304FAKE`,
          };
          cobs.set(txid, cob);
          return json(res, 201, cob);
        }
        if (!existing)
          return json(res, 404, { nome: 'cobranca_nao_encontrada', mensagem: 'Nenhuma cobrança encontrada' });
        if (req.method === 'GET') return json(res, 200, existing);
        if (req.method === 'PATCH') {
          if (existing.status !== 'ATIVA')
            return json(res, 400, { nome: 'cobranca_nao_ativa', mensagem: 'Cobrança não está ATIVA' });
          if (valor?.original) {
            if (!/^\d{1,10}\.\d{2}$/.test(valor.original)) return json(res, 400, { nome: 'json_invalido' });
            existing.valor = { original: valor.original };
          }
          if (body.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') existing.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
          existing.revisao += 1;
          return json(res, 200, existing);
        }
      }
      m = /^\/v2\/loc\/(\d+)\/qrcode$/.exec(path);
      if (m && req.method === 'GET') {
        const cob = [...cobs.values()].find((c) => c.loc.id === Number(m![1]));
        if (!cob) return json(res, 404, { nome: 'location_nao_encontrada' });
        return json(res, 200, {
          qrcode: cob.pixCopiaECola,
          imagemQrcode: TINY_PNG,
          linkVisualizacao: `http://fake-pix.local/v/${cob.loc.id}`,
        });
      }
      json(res, 404, { nome: 'nao_encontrado', mensagem: `${req.method} ${path}` });
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  const local = await listenLocal(server, port);
  selfUrl = local.url;
  return local;
};
