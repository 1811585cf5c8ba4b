import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export const startFakePaymentProvider = async (port = 0): Promise<FakePaymentProvider> => {
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
      const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
      const path = url.pathname;
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'GET, POST',
          'access-control-allow-headers': 'content-type',
        });
        return res.end();
      }

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
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
