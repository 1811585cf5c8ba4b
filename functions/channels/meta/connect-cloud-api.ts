import type { AuthContext } from '../../core/auth-context';
import {
  announceSessionChange,
  planConnectionLimit,
  requireChannelInPlan,
  requireManager,
  showConnection,
  type ConnectionView,
} from '../../core/connections/connection-service';
import { Conflict } from '../../core/errors';
import { getConnection } from '../../data/connection-repository';
import { deleteMetaLink, getMetaTarget } from '../../data/meta-repository';
import { createMetaConnection } from './connect-pages';
import { graphApi } from './graph-client';
import { requireMetaSecret } from './webhook-service';

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

export const connectCloudApiNumber = async (auth: AuthContext, input: CloudApiInput): Promise<ConnectionView> => {
  requireManager(auth);
  requireChannelInPlan(auth, 'whatsappapi');
  const secret = await requireMetaSecret();
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
  const graph = graphApi(secret);
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
