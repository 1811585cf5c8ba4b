/**
 * Runtime configuration, written at deploy time as `/config.json` beside index.html so that one build runs
 * in every stage (DESIGN §8). main.tsx loads it before rendering anything; nothing else fetches it.
 */
export interface RuntimeConfig {
  /** Absolute base URL of the HTTP API (the spec's paths are relative to it), e.g. https://app.example/api */
  apiBase: string;
  /** Absolute ws:// or wss:// URL of the WebSocket API. */
  wsUrl: string;
  /** Base URL for media files (may stay relative: the browser resolves it against the page). */
  mediaBase: string;
  /** Deployment stage name, shown on the status page (local, aws, ...). */
  stage: string;
  /**
   * The Meta app's id (digits) for the Facebook/Instagram login popup (decisions D81); absent where no Meta
   * app is configured (local runs), and then the login is offered disabled.
   */
  metaAppId?: string;
  /** Facebook's OAuth dialog; `DEFAULT_META_LOGIN_URL` unless config.json names another. */
  metaLoginUrl: string;
}

/** Facebook's OAuth dialog of the Graph API version the server calls (functions/shared/config.ts GRAPH_API_URL). */
export const DEFAULT_META_LOGIN_URL = 'https://www.facebook.com/v21.0/dialog/oauth';

export const CONFIG_PATH = '/config.json';

export class ConfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConfigError';
  }
}

const FIELDS = ['apiBase', 'wsUrl', 'mediaBase', 'stage'] as const;

/** Optional fields: absent (or null) is fine, anything else must have their shape. */
const META_APP_ID = /^\d{1,32}$/;

const optionalMetaAppId = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !META_APP_ID.test(value.trim())) {
    throw new ConfigError(`${CONFIG_PATH} metaAppId must be a string of digits (the Meta app's id)`);
  }
  return value.trim();
};

const optionalMetaLoginUrl = (value: unknown): string => {
  if (value === undefined || value === null) return DEFAULT_META_LOGIN_URL;
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value.trim()) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ConfigError(`${CONFIG_PATH} metaLoginUrl must be an absolute http(s) URL`);
  }
  return url.href;
};

const withoutTrailingSlash = (url: string): string => (url.length > 1 ? url.replace(/\/+$/, '') : url);

/** `/api` -> `https://host/api`; absolute URLs stay as they are. */
export const resolveHttpUrl = (url: string, origin: string): string => withoutTrailingSlash(new URL(url, origin).href);

/**
 * `/ws` -> `wss://host/ws` on an https page (`ws://` on http); `https://x/ws` -> `wss://x/ws`;
 * `ws(s)://` URLs stay as they are.
 */
export const resolveWsUrl = (url: string, origin: string): string => {
  const resolved = new URL(url, origin);
  if (resolved.protocol === 'https:') resolved.protocol = 'wss:';
  else if (resolved.protocol === 'http:') resolved.protocol = 'ws:';
  if (resolved.protocol !== 'ws:' && resolved.protocol !== 'wss:') {
    throw new ConfigError(`wsUrl must be a ws(s) or http(s) URL, got "${url}"`);
  }
  return withoutTrailingSlash(resolved.href);
};

/** Checks the shape of config.json and resolves its relative URLs against the page's origin. */
export const parseConfig = (raw: unknown, origin: string): RuntimeConfig => {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`${CONFIG_PATH} must be a JSON object`);
  }
  const record = raw as Record<string, unknown>;
  const missing = FIELDS.filter((f) => typeof record[f] !== 'string' || (record[f] as string).trim() === '');
  if (missing.length > 0) {
    throw new ConfigError(`${CONFIG_PATH} is missing ${missing.join(', ')} (each a non-empty string)`);
  }
  const value = (f: (typeof FIELDS)[number]) => (record[f] as string).trim();
  const metaAppId = optionalMetaAppId(record.metaAppId);
  const metaLoginUrl = optionalMetaLoginUrl(record.metaLoginUrl);
  try {
    return {
      apiBase: resolveHttpUrl(value('apiBase'), origin),
      wsUrl: resolveWsUrl(value('wsUrl'), origin),
      mediaBase: withoutTrailingSlash(value('mediaBase')),
      stage: value('stage'),
      ...(metaAppId ? { metaAppId } : {}),
      metaLoginUrl,
    };
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${CONFIG_PATH} holds an invalid URL`, { cause: err });
  }
};

/**
 * The `/config.json` request public/start-config.js began before the app's JavaScript ran (decisions D177),
 * as a fetch for loadConfig; taken once. Undefined when that script has not run: loadConfig fetches itself.
 */
export const takeEarlyConfigFetch = (): typeof fetch | undefined => {
  const holder = window as unknown as { __zapdeskConfigRequest?: Promise<Response> };
  const early = holder.__zapdeskConfigRequest;
  if (!early) return undefined;
  delete holder.__zapdeskConfigRequest;
  return () => early;
};

/** Fetches and parses `/config.json`; every failure is a ConfigError that says what went wrong. */
export const loadConfig = async (
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  origin: string = window.location.origin,
): Promise<RuntimeConfig> => {
  let response: Response;
  try {
    // Written at deploy time: never take it from a cache.
    response = await fetchImpl(CONFIG_PATH, { cache: 'no-store', headers: { accept: 'application/json' } });
  } catch (err) {
    throw new ConfigError(`${CONFIG_PATH} could not be fetched (network error)`, { cause: err });
  }
  if (!response.ok) throw new ConfigError(`${CONFIG_PATH} answered HTTP ${response.status}`);
  let raw: unknown;
  try {
    raw = await response.json();
  } catch (err) {
    throw new ConfigError(`${CONFIG_PATH} is not valid JSON`, { cause: err });
  }
  return parseConfig(raw, origin);
};
