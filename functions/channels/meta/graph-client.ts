import type { MenuContent } from '../../core/pipeline/message-content';
import { config } from '../../shared/config';
import { DomainError } from '../../shared/errors';

/**
 * The Graph API port (STYLE 5; decisions D40): everything ZapDesk asks Meta, behind one interface, so the
 * services never build URLs and tests swap the base URL for a local fake (test/helpers/fake-graph.ts).
 * Tokens travel in the `Authorization` header or the query Meta requires, and never reach a log line.
 */
export interface MetaPage {
  id: string;
  name: string;
  /** The page access token (long-lived when obtained with a long-lived user token). */
  accessToken: string;
  instagram?: { id: string; username?: string };
}

/** What a send is: text, or one attachment Meta fetches from a URL. */
export type MetaOutgoing =
  /** `menu`: a bot menu drawn as buttons, a list or quick replies where it fits (decisions D132). */
  | { type: 'text'; text: string; menu?: MenuContent }
  | { type: 'image' | 'video' | 'audio' | 'file'; url: string; caption?: string; filename?: string };

export interface GraphApi {
  /** A short-lived user token for a long-lived one (60 days). */
  exchangeUserToken(userToken: string): Promise<string>;
  /** The pages the user manages, with their page tokens and linked Instagram business accounts. */
  listPages(userId: string, userToken: string): Promise<MetaPage[]>;
  /** Subscribes our app to the page's webhook fields (messages, reactions, reads, deliveries, edits). */
  subscribePage(pageId: string, pageToken: string): Promise<void>;
  /** Messenger / Instagram send (`/me/messages` with the page token): Meta's message id. */
  sendPageMessage(pageToken: string, recipientId: string, message: MetaOutgoing): Promise<string>;
  /** WhatsApp Cloud API send (`/{phone-number-id}/messages`): Meta's message id (`wamid.…`). */
  sendCloudMessage(phoneNumberId: string, token: string, to: string, message: MetaOutgoing): Promise<string>;
  /** A Cloud API phone number as its token sees it (a wrong token is Graph's OAuth error). */
  getCloudPhoneNumber(
    phoneNumberId: string,
    token: string,
  ): Promise<{ displayPhoneNumber: string; verifiedName: string }>;
  /** Subscribes our app to a WhatsApp Business Account's webhooks. */
  subscribeBusinessAccount(businessAccountId: string, token: string): Promise<void>;
  /** Cloud API media: the short-lived download URL and type of a media id. */
  getCloudMedia(mediaId: string, token: string): Promise<{ url: string; mimeType: string }>;
  /** Downloads an attachment (Messenger CDN URLs need no token; Cloud API URLs need the bearer). */
  download(url: string, token?: string): Promise<{ bytes: Buffer; contentType: string }>;
}

/**
 * A Graph API refusal, with Meta's own message so the caller knows what to fix (an expired login, a
 * missing permission). 400 for OAuth/permission errors the user can act on, 502 for the rest.
 */
export class GraphError extends DomainError {
  constructor(
    readonly graphStatus: number,
    graphMessage: string,
    readonly graphCode?: number,
  ) {
    const userFixable = graphStatus === 400 || graphStatus === 401 || graphStatus === 403;
    super(userFixable ? 400 : 502, 'ERR_META_GRAPH', graphMessage, {
      details: { graphStatus, graphMessage, ...(graphCode === undefined ? {} : { graphCode }) },
    });
  }
}

/**
 * Graph's "too fast" answers (decisions D166): HTTP 429, or the throttling codes Meta documents for the
 * Graph API (4 app, 17 user, 32 page, 613 call rate), Messenger/Instagram (80007) and the WhatsApp Cloud API
 * (130429 throughput, 131048 spam rate, 131056 pair rate) — Meta often sends them with HTTP 400.
 */
const GRAPH_THROTTLE_CODES: ReadonlySet<number> = new Set([4, 17, 32, 613, 80007, 130429, 131048, 131056]);

export const isGraphThrottle = (err: unknown): err is GraphError =>
  err instanceof GraphError &&
  (err.graphStatus === 429 || (err.graphCode !== undefined && GRAPH_THROTTLE_CODES.has(err.graphCode)));

/** Largest attachment we download from Meta (Messenger allows 25 MB; the Cloud API 100 MB for documents). */
export const MAX_META_DOWNLOAD_BYTES = 25 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

const graphUrl = (path: string, query: Record<string, string> = {}): string => {
  const url = new URL(`${config().GRAPH_API_URL.replace(/\/$/, '')}/${path.replace(/^\//, '')}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
};

const call = async <T>(
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; query?: Record<string, string>; body?: unknown } = {},
): Promise<T> => {
  let res: Response;
  try {
    res = await fetch(graphUrl(path, options.query), {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new GraphError(599, `Graph API unreachable: ${err instanceof Error ? err.name : 'error'}`);
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = {};
  }
  if (!res.ok) {
    const error = (json as { error?: { message?: string; code?: number } }).error;
    throw new GraphError(res.status, error?.message ?? `Graph API answered ${res.status}`, error?.code);
  }
  return json as T;
};

/** Meta's limits for drawn choices (Cloud API buttons and lists, Messenger quick replies). */
export const MENU_LIMITS = {
  buttons: 3,
  buttonTitle: 20,
  rows: 10,
  rowTitle: 24,
  rowDescription: 72,
  body: 1024,
  quickReplies: 13,
  quickReplyTitle: 20,
} as const;

const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** Messenger and Instagram: a menu as quick replies under its intro; too many choices stay numbered text. */
export const pageMessage = (message: MetaOutgoing) => {
  if (message.type !== 'text') {
    return { attachment: { type: message.type, payload: { url: message.url, is_reusable: false } } };
  }
  const menu = message.menu;
  if (!menu || menu.choices.length > MENU_LIMITS.quickReplies) return { text: message.text };
  return {
    text: menu.intro,
    quick_replies: menu.choices.map((c) => ({
      content_type: 'text',
      title: cut(c.title, MENU_LIMITS.quickReplyTitle),
      payload: c.id,
    })),
  };
};

/**
 * The Cloud API: a menu as reply buttons (`button`, up to 3 choices) or a list (up to 10 rows; a `button`
 * menu with more choices is a list too); a longer menu, or an intro over the body limit, stays numbered text.
 * Titles over Meta's limits are cut (a list row keeps the whole title in its description); the reply comes
 * back with the choice's id, so a cut title still chooses right.
 */
const cloudMenu = (menu: MenuContent) => {
  if (menu.intro.length > MENU_LIMITS.body || menu.choices.length > MENU_LIMITS.rows) return null;
  const body = { text: menu.intro };
  if (menu.style === 'button' && menu.choices.length <= MENU_LIMITS.buttons) {
    return {
      type: 'button',
      body,
      action: {
        buttons: menu.choices.map((c) => ({
          type: 'reply',
          reply: { id: c.id, title: cut(c.title, MENU_LIMITS.buttonTitle) },
        })),
      },
    };
  }
  return {
    type: 'list',
    body,
    action: {
      button: cut(menu.button, MENU_LIMITS.buttonTitle),
      sections: [
        {
          rows: menu.choices.map((c) => ({
            id: c.id,
            title: cut(c.title, MENU_LIMITS.rowTitle),
            ...(c.title.length > MENU_LIMITS.rowTitle ? { description: cut(c.title, MENU_LIMITS.rowDescription) } : {}),
          })),
        },
      ],
    },
  };
};

export const cloudMessage = (message: MetaOutgoing) => {
  if (message.type === 'text') {
    const interactive = message.menu ? cloudMenu(message.menu) : null;
    return interactive
      ? { type: 'interactive', interactive }
      : { type: 'text', text: { body: message.text, preview_url: false } };
  }
  const type = message.type === 'file' ? 'document' : message.type;
  return {
    type,
    [type]: {
      link: message.url,
      ...(message.caption && type !== 'audio' ? { caption: message.caption } : {}),
      ...(message.filename && type === 'document' ? { filename: message.filename } : {}),
    },
  };
};

/** The fetch implementation of the port, against GRAPH_API_URL. */
export const fetchGraphApi = (appId: string, appSecret: string): GraphApi => ({
  async exchangeUserToken(userToken) {
    const out = await call<{ access_token?: string }>('GET', 'oauth/access_token', {
      query: {
        grant_type: 'fb_exchange_token',
        client_id: appId,
        client_secret: appSecret,
        fb_exchange_token: userToken,
      },
    });
    if (!out.access_token) throw new GraphError(502, 'Graph API gave no long-lived token');
    return out.access_token;
  },

  async listPages(userId, userToken) {
    const pages: MetaPage[] = [];
    let after: string | undefined;
    for (let round = 0; round < 20; round += 1) {
      const out = await call<{
        data?: {
          id: string;
          name?: string;
          access_token?: string;
          instagram_business_account?: { id: string; username?: string };
        }[];
        paging?: { cursors?: { after?: string }; next?: string };
      }>('GET', `${encodeURIComponent(userId)}/accounts`, {
        token: userToken,
        query: {
          fields: 'id,name,access_token,instagram_business_account{id,username}',
          limit: '100',
          ...(after ? { after } : {}),
        },
      });
      for (const p of out.data ?? []) {
        if (!p.access_token) continue; // a page the user cannot manage messages of
        pages.push({
          id: p.id,
          name: p.name ?? p.id,
          accessToken: p.access_token,
          ...(p.instagram_business_account ? { instagram: p.instagram_business_account } : {}),
        });
      }
      after = out.paging?.next ? out.paging.cursors?.after : undefined;
      if (!after) break;
    }
    return pages;
  },

  async subscribePage(pageId, pageToken) {
    await call('POST', `${encodeURIComponent(pageId)}/subscribed_apps`, {
      token: pageToken,
      query: {
        subscribed_fields:
          'messages,messaging_postbacks,message_reads,message_deliveries,message_reactions,message_edits',
      },
    });
  },

  async sendPageMessage(pageToken, recipientId, message) {
    const out = await call<{ message_id?: string }>('POST', 'me/messages', {
      token: pageToken,
      body: { recipient: { id: recipientId }, messaging_type: 'RESPONSE', message: pageMessage(message) },
    });
    if (!out.message_id) throw new GraphError(502, 'Graph API gave no message id');
    return out.message_id;
  },

  async sendCloudMessage(phoneNumberId, token, to, message) {
    const out = await call<{ messages?: { id: string }[] }>('POST', `${encodeURIComponent(phoneNumberId)}/messages`, {
      token,
      body: { messaging_product: 'whatsapp', recipient_type: 'individual', to, ...cloudMessage(message) },
    });
    const id = out.messages?.[0]?.id;
    if (!id) throw new GraphError(502, 'Graph API gave no message id');
    return id;
  },

  async getCloudPhoneNumber(phoneNumberId, token) {
    const out = await call<{ display_phone_number?: string; verified_name?: string }>(
      'GET',
      encodeURIComponent(phoneNumberId),
      { token, query: { fields: 'display_phone_number,verified_name' } },
    );
    if (!out.display_phone_number) throw new GraphError(400, 'This id is not a WhatsApp Cloud API phone number');
    return { displayPhoneNumber: out.display_phone_number, verifiedName: out.verified_name ?? '' };
  },

  async subscribeBusinessAccount(businessAccountId, token) {
    await call('POST', `${encodeURIComponent(businessAccountId)}/subscribed_apps`, { token });
  },

  async getCloudMedia(mediaId, token) {
    const out = await call<{ url?: string; mime_type?: string }>('GET', encodeURIComponent(mediaId), { token });
    if (!out.url) throw new GraphError(502, 'Graph API gave no media URL');
    return { url: out.url, mimeType: out.mime_type ?? 'application/octet-stream' };
  },

  async download(url, token) {
    let res: Response;
    try {
      res = await fetch(url, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        signal: AbortSignal.timeout(TIMEOUT_MS * 2),
      });
    } catch (err) {
      throw new GraphError(599, `attachment unreachable: ${err instanceof Error ? err.name : 'error'}`);
    }
    if (!res.ok) throw new GraphError(res.status, `attachment download answered ${res.status}`);
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > MAX_META_DOWNLOAD_BYTES) throw new GraphError(413, 'attachment too large');
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.byteLength > MAX_META_DOWNLOAD_BYTES) throw new GraphError(413, 'attachment too large');
    return { bytes, contentType: res.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream' };
  },
});

let override: GraphApi | undefined;

/** The process's Graph API client (tests may replace it for fault injection). */
export const graphApi = (appSecret: string): GraphApi =>
  override ?? fetchGraphApi(config().META_APP_ID ?? '', appSecret);

export const setGraphApiForTests = (replacement: GraphApi | undefined): void => {
  override = replacement;
};
