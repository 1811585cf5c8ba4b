import { createSign } from 'node:crypto';
import { config } from '../../../shared/config';
import { fetchJson, IntegrationFailed } from '../port';

/**
 * Dialogflow ES through its REST API (decisions D162): an OAuth2 access token from Google's token endpoint
 * by the JWT-bearer grant — a JWT signed RS256 with the service account's private key (node:crypto, no
 * client library) — then `projects/{project}/agent/sessions/{session}:detectIntent`. Both base URLs come
 * from config (GOOGLE_TOKEN_URL, DIALOGFLOW_API_URL), so the tests and the local cloud use a local fake.
 */
export interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  raw: Record<string, unknown>;
}

export const parseServiceAccount = (json: string): ServiceAccount | null => {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.client_email !== 'string' || r.client_email === '') return null;
  if (typeof r.private_key !== 'string' || r.private_key === '') return null;
  return { clientEmail: r.client_email, privateKey: r.private_key, raw: r };
};

const SCOPE = 'https://www.googleapis.com/auth/dialogflow';
const TIMEOUT_MS = 8_000;
const tokens = new Map<string, { token: string; until: number }>();

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

const accessToken = async (account: Omit<ServiceAccount, 'raw'>): Promise<string> => {
  const cached = tokens.get(account.clientEmail);
  if (cached && cached.until > Date.now() + 60_000) return cached.token;
  const tokenUrl = config().GOOGLE_TOKEN_URL;
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({
    iss: account.clientEmail,
    scope: SCOPE,
    aud: tokenUrl,
    iat: now,
    exp: now + 3600,
  })}`;
  let signature: string;
  try {
    signature = createSign('RSA-SHA256').update(unsigned).sign(account.privateKey, 'base64url');
  } catch {
    throw new IntegrationFailed('the service account private key is not a valid key', true);
  }
  const { body } = await fetchJson(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: `${unsigned}.${signature}`,
    }).toString(),
    timeoutMs: TIMEOUT_MS,
  });
  const b = body as { access_token?: unknown; expires_in?: unknown } | null;
  if (typeof b?.access_token !== 'string') throw new IntegrationFailed('no access token');
  tokens.set(account.clientEmail, {
    token: b.access_token,
    until: Date.now() + (typeof b.expires_in === 'number' ? b.expires_in : 3600) * 1000,
  });
  return b.access_token;
};

/** One detectIntent: the agent's fulfilment texts, in order. */
export const dialogflowDetectIntent = async (
  account: Omit<ServiceAccount, 'raw'>,
  target: { projectName: string; language: string; sessionId: string },
  text: string,
): Promise<string[]> => {
  const token = await accessToken(account);
  const base = config().DIALOGFLOW_API_URL.replace(/\/$/, '');
  const url = `${base}/projects/${encodeURIComponent(target.projectName)}/agent/sessions/${encodeURIComponent(target.sessionId)}:detectIntent`;
  const { body } = await fetchJson(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ queryInput: { text: { text: text.slice(0, 256), languageCode: target.language } } }),
    timeoutMs: TIMEOUT_MS,
  });
  const result = (body as { queryResult?: Record<string, unknown> } | null)?.queryResult;
  if (!result) throw new IntegrationFailed('no queryResult');
  const messages = Array.isArray(result.fulfillmentMessages) ? result.fulfillmentMessages : [];
  const texts = messages.flatMap((m: unknown) => {
    const t = (m as { text?: { text?: unknown } }).text?.text;
    return Array.isArray(t) ? t.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [];
  });
  if (texts.length > 0) return texts;
  return typeof result.fulfillmentText === 'string' && result.fulfillmentText.trim() !== ''
    ? [result.fulfillmentText]
    : [];
};
