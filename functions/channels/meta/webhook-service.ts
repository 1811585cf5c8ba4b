import { createHash } from 'node:crypto';
import { config } from '../../shared/config';
import { BadRequest, DomainError, Forbidden, Unauthorized } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { detectAttachmentType, safeFileName } from '../../core/media/attachments';
import { metaAppSecret } from '../../shared/secrets';
import { putMediaObject } from '../../data/media-store';
import { downloadLimitBytes } from '../../core/settings/global-settings';
import { tooLargeMediaText } from '../whatsapp/baileys-inbound';
import { getMetaCredentials, getMetaTargets, type MetaTarget } from '../../data/meta-repository';
import { enqueueInbound, type InboundEventInput } from '../inbound';
import { graphApi, type GraphApi } from './graph-client';
import { isValidMetaSignature, verificationChallenge } from './signature';
import { decryptToken } from '../../shared/token-cipher';
import { mapMetaWebhook, type MetaDraft } from './webhook-mappers';

/**
 * Meta's webhooks (DESIGN §6 "Meta"; decisions D40): the GET handshake and the signed POSTs of Messenger,
 * Instagram and the WhatsApp Cloud API. A POST is checked against `X-Hub-Signature-256` before anything is
 * read or stored; its events are routed through the `META#…` pointers, their media stored under the
 * company's prefix, and each one enqueued for the inbound pipeline, which is idempotent by provider id (so
 * Meta's retries store nothing twice).
 */
export class MetaNotConfigured extends DomainError {
  constructor() {
    super(503, 'ERR_META_NOT_CONFIGURED', 'The Meta app (secret, verify token) is not configured on this server');
  }
}

export const requireMetaSecret = async (): Promise<string> => {
  const secret = await metaAppSecret();
  if (!secret) throw new MetaNotConfigured();
  return secret;
};

/** GET handshake: the challenge to echo, or 403 when the token is not ours. */
export const verifyMetaWebhook = (query: Record<string, string | undefined>): string => {
  const verifyToken = config().META_VERIFY_TOKEN;
  if (!verifyToken) throw new MetaNotConfigured();
  const challenge = verificationChallenge(query, verifyToken);
  if (challenge === null) throw new Forbidden('ERR_NO_PERMISSION', 'Webhook verification failed');
  return challenge;
};

const extensionOf = (mimetype: string): string => {
  const sub =
    mimetype
      .split('/')[1]
      ?.split(';')[0]
      ?.replace(/[^a-z0-9]/gi, '') ?? '';
  return sub ? `.${sub.slice(0, 10)}` : '';
};

/** Stores a draft's media and completes its content; a download that fails leaves a text in its place. */
const withMedia = async (
  draft: MetaDraft,
  target: MetaTarget,
  graph: GraphApi,
  cloudToken: () => Promise<string>,
): Promise<MetaDraft['event']> => {
  const event = draft.event;
  if (!draft.media || event.kind !== 'message') return event;
  const content = event.content as { type: string; body?: string; filename?: string };
  try {
    const source = draft.media.source;
    let downloaded: { bytes: Buffer; contentType: string };
    let mimetype = draft.media.mimetype;
    if (source.kind === 'url') {
      downloaded = await graph.download(source.url);
    } else {
      const token = await cloudToken();
      const media = await graph.getCloudMedia(source.mediaId, token);
      mimetype ??= media.mimeType;
      downloaded = await graph.download(media.url, token);
    }
    mimetype = (mimetype ?? downloaded.contentType).split(';')[0]!.trim() || 'application/octet-stream';
    const filename = safeFileName(draft.media.filename ?? `${content.type}${extensionOf(mimetype)}`);
    const limit = await downloadLimitBytes();
    if (downloaded.bytes.byteLength > limit) {
      // Above the download limit: not stored; the message names the file and says why (D172).
      return { ...event, content: { type: 'text', body: tooLargeMediaText(filename, limit, content.body) } };
    }
    const hash = createHash('sha256').update(event.providerMessageId).digest('hex').slice(0, 32);
    const mediaKey = `c/${target.companyId}/inbound/${target.whatsappId}/${hash}/${filename}`;
    await putMediaObject(mediaKey, downloaded.bytes, detectAttachmentType(downloaded.bytes).contentType);
    return {
      ...event,
      content: { ...content, mediaKey, mimetype, filename, size: downloaded.bytes.byteLength },
    } as MetaDraft['event'];
  } catch (err) {
    logger.warn('meta attachment not stored', {
      companyId: target.companyId,
      whatsappId: target.whatsappId,
      ...errorFields(err),
    });
    return { ...event, content: { type: 'text', body: content.body || `[${content.type}]` } };
  }
};

/**
 * A signed webhook POST. 401 (and nothing read further) without a valid signature; events for pages,
 * accounts or numbers no company connected are ignored (logged), since Meta sends an app's webhooks for
 * every page that ever subscribed it.
 */
export const receiveMetaWebhook = async (
  rawBody: Buffer | undefined,
  signature: string | undefined,
): Promise<{ enqueued: number; ignored: number }> => {
  const secret = await requireMetaSecret();
  const body = rawBody ?? Buffer.alloc(0);
  if (!isValidMetaSignature(body, signature, secret)) {
    throw new Unauthorized('ERR_INVALID_SIGNATURE', 'X-Hub-Signature-256 is missing or wrong');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    throw new BadRequest('ERR_MALFORMED_JSON', 'Malformed JSON body', [{ field: 'body', reason: 'not valid JSON' }]);
  }
  const drafts = mapMetaWebhook(payload, { appId: config().META_APP_ID });
  if (drafts.length === 0) return { enqueued: 0, ignored: 0 };
  const targets = await getMetaTargets(drafts.map((d) => d.target));
  const graph = graphApi(secret);
  const tokens = new Map<string, Promise<string>>();
  let enqueued = 0;
  let ignored = 0;
  const unknown = new Set<string>();
  for (const draft of drafts) {
    const key = `${draft.target.kind}#${draft.target.id}`;
    const target = targets.get(key);
    if (!target) {
      ignored += 1;
      unknown.add(key);
      continue;
    }
    const cloudToken = () => {
      const id = `${target.companyId}#${target.whatsappId}`;
      let token = tokens.get(id);
      if (!token) {
        token = getMetaCredentials(target.companyId, target.whatsappId).then((c) => {
          if (!c) throw new Error('no Meta credentials for the connection');
          return decryptToken(c.tokenCipher);
        });
        tokens.set(id, token);
      }
      return token;
    };
    const event = await withMedia(draft, target, graph, cloudToken);
    await enqueueInbound({ ...event, companyId: target.companyId, whatsappId: target.whatsappId } as InboundEventInput);
    enqueued += 1;
  }
  if (unknown.size > 0) logger.info('meta webhook for unknown targets ignored', { targets: [...unknown], ignored });
  return { enqueued, ignored };
};
