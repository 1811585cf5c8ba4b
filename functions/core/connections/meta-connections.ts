import type { ConnectionView, FacebookConnectResult } from '../../contracts/connections';
import type { AuthContext } from '../../shared/auth-context';
import {
  announceSessionChange,
  canManageConnections,
  planConnectionLimit,
  requireChannelInPlan,
  requireManager,
  showConnection,
} from './connection-service';
import { Conflict, Forbidden } from '../../shared/errors';
import {
  createConnection,
  getConnection,
  setSessionState,
  type Connection,
  type ConnectionChannel,
} from '../../data/connection-repository';
import {
  deleteMetaLink,
  getMetaTarget,
  metaLinkItems,
  setMetaToken,
  type MetaTargetKind,
} from '../../data/meta-repository';
import { encryptToken } from '../../shared/token-cipher';

/**
 * POST /facebook (core spec §7 Connections; decisions D40): the browser's Facebook login gives a user id
 * and a short-lived user token; we exchange it for a long-lived one, list the pages the user manages (each
 * with its page token and linked Instagram business account), subscribe our app to each page's webhooks,
 * and make one `facebook` connection per page (and one `instagram` connection per linked account when
 * `addInstagram`). A page already connected in this company gets its new token instead of a second
 * connection; a page another company connected is skipped. Tokens are stored encrypted beside the
 * connection and never answered.
 */
/**
 * What connecting Meta pages and numbers asks of the Graph API: the port the channel adapter implements
 * (functions/channels/meta/graph-client.ts, opened by functions/channels/meta/meta-access.ts). Each opener
 * answers 503 ERR_META_NOT_CONFIGURED when the server has no Meta app; the services open it only after
 * their permission and plan checks, so a user without the right hears that first.
 */
export interface MetaConnectGraph {
  exchangeUserToken(userToken: string): Promise<string>;
  listPages(
    userId: string,
    userToken: string,
  ): Promise<{ id: string; name: string; accessToken: string; instagram?: { id: string; username?: string } }[]>;
  subscribePage(pageId: string, pageToken: string): Promise<void>;
  getCloudPhoneNumber(
    phoneNumberId: string,
    token: string,
  ): Promise<{ displayPhoneNumber: string; verifiedName: string }>;
  subscribeBusinessAccount(businessAccountId: string, token: string): Promise<void>;
}

export interface MetaGraphAccess {
  /** The Graph API with the app's secret (webhooks and sends need only that). */
  open(): Promise<MetaConnectGraph>;
  /** The same for the Facebook login, which also needs the app's id for the token exchange. */
  forLogin(): Promise<MetaConnectGraph>;
}

export interface MetaLink {
  channel: Extract<ConnectionChannel, 'facebook' | 'instagram' | 'whatsappapi'>;
  kind: MetaTargetKind;
  externalId: string;
  name: string;
  token: string;
  pageId?: string;
}

const connectionName = (name: string, fallback: string): string => {
  const trimmed = name.trim().slice(0, 50);
  return trimmed.length >= 2 ? trimmed : fallback.slice(0, 50);
};

/**
 * A new connection that is a Meta target, with its routing pointer and encrypted credentials in the
 * create transaction (the plan's seat too: 403 ERR_PLAN_LIMIT_CONNECTIONS when full). 409
 * ERR_META_ALREADY_CONNECTED when the page (account, number) became someone's meanwhile.
 */
export const createMetaConnection = async (
  companyId: number,
  link: MetaLink,
  options: { maxConnections?: number; number?: string } = {},
): Promise<Connection> => {
  const tokenCipher = await encryptToken(link.token);
  const { connection } = await createConnection(
    companyId,
    {
      name: connectionName(link.name, `${link.channel} ${link.externalId}`),
      channel: link.channel,
      status: 'CONNECTED',
      ...(options.number ? { number: options.number } : {}),
    },
    {
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
      extraItems: (whatsappId) =>
        metaLinkItems(companyId, whatsappId, {
          kind: link.kind,
          externalId: link.externalId,
          ...(link.pageId ? { pageId: link.pageId } : {}),
          tokenCipher,
          updatedAt: new Date().toISOString(),
        }),
      onExtraFailed: () =>
        new Conflict('ERR_META_ALREADY_CONNECTED', 'This Meta page or account is already connected', {
          externalId: link.externalId,
        }),
    },
  );
  return connection;
};

type Outcome =
  { outcome: 'created' | 'updated'; connection: Connection } | { outcome: 'skipped'; reason: 'connected-elsewhere' };

const connectOne = async (companyId: number, link: MetaLink, maxConnections?: number): Promise<Outcome> => {
  const existing = await getMetaTarget(link.kind, link.externalId);
  if (existing && existing.companyId !== companyId) return { outcome: 'skipped', reason: 'connected-elsewhere' };
  if (existing) {
    const connection = await getConnection(companyId, existing.whatsappId);
    if (connection) {
      await setMetaToken(companyId, connection.id, await encryptToken(link.token));
      const current =
        connection.status === 'CONNECTED'
          ? connection
          : await setSessionState(companyId, connection.id, { status: 'CONNECTED', at: new Date().toISOString() });
      return { outcome: 'updated', connection: current };
    }
    await deleteMetaLink(companyId, existing.whatsappId); // a pointer left by a deleted connection
  }
  const connection = await createMetaConnection(
    companyId,
    link,
    maxConnections === undefined ? {} : { maxConnections },
  );
  return { outcome: 'created', connection };
};

export const connectFacebookPages = async (
  auth: AuthContext,
  input: { facebookUserId: string; facebookUserToken: string; addInstagram: boolean },
  meta: MetaGraphAccess,
): Promise<FacebookConnectResult> => {
  if (!canManageConnections(auth)) throw new Forbidden('ERR_NO_PERMISSION', 'Connections are managed by admins');
  if (auth.planFlags.useFacebook === false) {
    throw new Forbidden('ERR_NO_PERMISSION', 'The plan does not include facebook connections');
  }
  if (input.addInstagram && auth.planFlags.useInstagram === false) {
    throw new Forbidden('ERR_NO_PERMISSION', 'The plan does not include instagram connections');
  }
  // The token exchange names our app: the adapter refuses (503) when the app's id or secret is missing.
  const graph = await meta.forLogin();
  const userToken = await graph.exchangeUserToken(input.facebookUserToken);
  const pages = await graph.listPages(input.facebookUserId, userToken);

  const maxConnections = await planConnectionLimit(auth.companyId);
  const result: FacebookConnectResult = { created: [], updated: [], skipped: [] };
  const record = async (link: MetaLink) => {
    const done = await connectOne(auth.companyId, link, maxConnections);
    if (done.outcome === 'skipped') {
      result.skipped.push({ channel: link.channel, externalId: link.externalId, name: link.name, reason: done.reason });
      return;
    }
    await announceSessionChange(done.connection);
    result[done.outcome].push(await showConnection(auth, done.connection.id));
  };
  for (const page of pages) {
    // Subscribed first: a page whose webhooks cannot be switched on would be a connection that never hears.
    await graph.subscribePage(page.id, page.accessToken);
    await record({ channel: 'facebook', kind: 'page', externalId: page.id, name: page.name, token: page.accessToken });
    if (input.addInstagram && page.instagram) {
      await record({
        channel: 'instagram',
        kind: 'ig',
        externalId: page.instagram.id,
        name: page.instagram.username ?? page.name,
        token: page.accessToken,
        pageId: page.id,
      });
    }
  }
  return result;
};

/**
 * POST /whatsapp/cloud-api (decisions D76): a WhatsApp Cloud API number (channel `whatsappapi`) becomes a
 * connection. The spec has no call for it (its product knows only Baileys, Facebook and Instagram); an
 * admin who set the number up in Meta's WhatsApp Manager gives its phone number id and a permanent
 * (system user) access token, optionally the WhatsApp Business Account id to subscribe our app to its
 * webhooks. The token is checked by reading the number with it before anything is stored; the number's
 * display phone becomes the connection's number; the token is stored encrypted beside the connection
 * (D40) and never answered or logged.
 */
export interface CloudApiInput {
  name?: string | undefined;
  phoneNumberId: string;
  accessToken: string;
  businessAccountId?: string | undefined;
}

export const connectCloudApiNumber = async (
  auth: AuthContext,
  input: CloudApiInput,
  meta: MetaGraphAccess,
): Promise<ConnectionView> => {
  requireManager(auth);
  requireChannelInPlan(auth, 'whatsappapi');
  const graph = await meta.open();
  const existing = await getMetaTarget('waphone', input.phoneNumberId);
  if (existing) {
    const stillThere =
      existing.companyId === auth.companyId && (await getConnection(auth.companyId, existing.whatsappId));
    // Another company's number answers like any other taken one: its owner is never named.
    if (stillThere || existing.companyId !== auth.companyId) {
      throw new Conflict('ERR_META_ALREADY_CONNECTED', 'This WhatsApp number is already connected', {
        externalId: input.phoneNumberId,
      });
    }
    await deleteMetaLink(auth.companyId, existing.whatsappId); // a pointer left by a deleted connection
  }
  const phone = await graph.getCloudPhoneNumber(input.phoneNumberId, input.accessToken);
  if (input.businessAccountId) await graph.subscribeBusinessAccount(input.businessAccountId, input.accessToken);

  const maxConnections = await planConnectionLimit(auth.companyId);
  const number = phone.displayPhoneNumber.replace(/\D/g, '');
  const connection = await createMetaConnection(
    auth.companyId,
    {
      channel: 'whatsappapi',
      kind: 'waphone',
      externalId: input.phoneNumberId,
      name: input.name?.trim() || phone.verifiedName || number,
      token: input.accessToken,
    },
    { ...(maxConnections === undefined ? {} : { maxConnections }), number },
  );
  await announceSessionChange(connection);
  return showConnection(auth, connection.id);
};
