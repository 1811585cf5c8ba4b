import { config } from '../../config';
import type { AuthContext } from '../../core/auth-context';
import {
  announceSessionChange,
  canManageConnections,
  planConnectionLimit,
  showConnection,
  type ConnectionView,
} from '../../core/connections/connection-service';
import { Conflict, Forbidden } from '../../core/errors';
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
import { graphApi } from './graph-client';
import { encryptToken } from './token-cipher';
import { MetaNotConfigured, requireMetaSecret } from './webhook-service';

/**
 * POST /facebook (core spec §7 Connections; decisions D40): the browser's Facebook login gives a user id
 * and a short-lived user token; we exchange it for a long-lived one, list the pages the user manages (each
 * with its page token and linked Instagram business account), subscribe our app to each page's webhooks,
 * and make one `facebook` connection per page (and one `instagram` connection per linked account when
 * `addInstagram`). A page already connected in this company gets its new token instead of a second
 * connection; a page another company connected is skipped. Tokens are stored encrypted beside the
 * connection and never answered.
 */
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

export interface FacebookConnectResult {
  created: ConnectionView[];
  updated: ConnectionView[];
  skipped: { channel: MetaLink['channel']; externalId: string; name: string; reason: string }[];
}

export const connectFacebookPages = async (
  auth: AuthContext,
  input: { facebookUserId: string; facebookUserToken: string; addInstagram: boolean },
): Promise<FacebookConnectResult> => {
  if (!canManageConnections(auth)) throw new Forbidden('ERR_NO_PERMISSION', 'Connections are managed by admins');
  if (auth.planFlags.useFacebook === false) {
    throw new Forbidden('ERR_NO_PERMISSION', 'The plan does not include facebook connections');
  }
  if (input.addInstagram && auth.planFlags.useInstagram === false) {
    throw new Forbidden('ERR_NO_PERMISSION', 'The plan does not include instagram connections');
  }
  const secret = await requireMetaSecret();
  // The token exchange names our app: without its id Meta would refuse with a puzzling message.
  if (!config().META_APP_ID) throw new MetaNotConfigured();
  const graph = graphApi(secret);
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
