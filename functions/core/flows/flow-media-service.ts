import { randomUUID } from 'node:crypto';
import {
  FLOW_MEDIA_RULES,
  flowMediaProblem,
  type ContentElement,
  type FlowDocument,
  type FlowMediaKind,
  type FlowMediaUpload,
  type FlowProblem,
} from '../../contracts/flows';
import { flowNotFound, getFlow } from '../../data/flow-repository';
import { deleteMediaObject, headMediaObject, presignedUploadUrl, readMediaStart } from '../../data/media-store';
import type { AuthContext } from '../../shared/auth-context';
import { ValidationError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { detectAttachmentType, safeFileName } from '../media/attachments';

/**
 * Flow media uploads (administration §5, §7, §9; decisions D159, superseding D142). Two steps, like the
 * composer's presigned uploads (D72) and the file lists' byte checks (D88):
 *
 * 1. `POST /flowbuilder/content` (and the single-file `/img`, `/audio`) checks each file's name and declared
 *    size against its kind (the spec's texts: 'Arquivo é muito grande! 2MB máximo' …) and answers a
 *    presigned PUT under the flow's own prefix `c/<c>/flows/<flowId>/<uuid>/<name>` — signed for that
 *    content type and length, valid 15 minutes.
 * 2. Saving the document (`POST /flowbuilder/flow`) reads every file it names that the flow's latest version
 *    did not: its size from S3 and its type from its first bytes (never from the name or the browser). A
 *    file that is missing, too large or of another type refuses the save (400 naming the node, the spec's
 *    text) and a file that failed is deleted; nothing is written.
 */
export const FLOW_UPLOAD_URL_SECONDS = 900;

/** The content types a kind's bytes may be (read from the first bytes). */
const ACCEPTED_TYPES: Record<FlowMediaKind, readonly string[]> = {
  img: ['image/png', 'image/jpeg'],
  audio: ['audio/ogg', 'audio/mpeg'],
  video: ['video/mp4'],
};

const flowMediaPrefixOf = (companyId: number, flowId: number): string => `c/${companyId}/flows/${flowId}/`;

export interface MediaDescriptor {
  name: string;
  type: FlowMediaKind;
  size: number;
  contentType: string;
}

/** Presigned PUTs for files of the flow (refused all together, naming each file, when one cannot be taken). */
export const createFlowUploads = async (
  auth: AuthContext,
  flowId: number,
  medias: readonly MediaDescriptor[],
): Promise<FlowMediaUpload[]> => {
  const flow = await getFlow(auth.companyId, flowId);
  if (!flow) throw flowNotFound();
  const problems: FlowProblem[] = [];
  medias.forEach((m, i) => {
    const problem = flowMediaProblem(m.type, m.name, m.size);
    if (problem) problems.push({ field: `body.medias.${i}`, reason: `${m.name}: ${problem}` });
  });
  if (problems.length > 0) throw new ValidationError(problems, 'The files cannot be uploaded');
  const prefix = flowMediaPrefixOf(auth.companyId, flowId);
  return Promise.all(
    medias.map(async (m): Promise<FlowMediaUpload> => {
      const key = `${prefix}${randomUUID()}/${safeFileName(m.name)}`;
      return {
        key,
        original: m.name,
        type: m.type,
        uploadUrl: await presignedUploadUrl(key, m.contentType, m.size, FLOW_UPLOAD_URL_SECONDS),
        method: 'PUT',
        headers: { 'content-type': m.contentType },
        expiresIn: FLOW_UPLOAD_URL_SECONDS,
      };
    }),
  );
};

interface MediaReference {
  key: string;
  kind: FlowMediaKind;
  field: string;
  node: { id: string; type: string };
}

/** Every media file a document names, with the kind its card or node asks for and where it is. */
export const mediaReferences = (doc: FlowDocument): MediaReference[] => {
  const refs: MediaReference[] = [];
  doc.nodes.forEach((node, index) => {
    if (node.type === 'img' || node.type === 'audio' || node.type === 'video') {
      const url = (node.data as { url?: unknown }).url;
      if (typeof url === 'string' && url) {
        refs.push({ key: url, kind: node.type, field: `body.nodes.${index}.data.url`, node });
      }
    }
    if (node.type === 'singleBlock') {
      const elements = ((node.data as { elements?: unknown }).elements ?? []) as ContentElement[];
      if (!Array.isArray(elements)) return;
      elements.forEach((e, i) => {
        if ((e.type === 'img' || e.type === 'audio' || e.type === 'video') && typeof e.value === 'string' && e.value) {
          refs.push({ key: e.value, kind: e.type, field: `body.nodes.${index}.data.elements.${i}.value`, node });
        }
      });
    }
  });
  return refs;
};

/** Why a stored object cannot be a file of `kind` (the spec's text), or null when it can. */
const objectProblem = async (key: string, kind: FlowMediaKind): Promise<string | null> => {
  const head = await headMediaObject(key);
  if (!head || head.size === 0) return 'Delete os cards vazios(Imagem, Audio e Video)';
  const rule = FLOW_MEDIA_RULES[kind];
  if (head.size > rule.maxBytes) return rule.tooLarge;
  const detected = detectAttachmentType(await readMediaStart(key)).contentType;
  return ACCEPTED_TYPES[kind].includes(detected) ? null : rule.wrongType;
};

/**
 * The byte check of a save: every file of `doc` under the flow's prefix that `previous` (its latest version)
 * did not name is read; the problems name the node, and the files that failed are deleted (a file that is
 * merely missing has nothing to delete). Files of earlier versions were checked when they were first saved.
 */
export const checkNewFlowMedia = async (
  auth: AuthContext,
  flowId: number,
  doc: FlowDocument,
  previous: FlowDocument | null,
): Promise<FlowProblem[]> => {
  const prefix = flowMediaPrefixOf(auth.companyId, flowId);
  const known = new Set(previous ? mediaReferences(previous).map((r) => r.key) : []);
  const fresh = mediaReferences(doc).filter((r) => r.key.startsWith(prefix) && !known.has(r.key));
  const verdicts = new Map<string, string | null>();
  for (const ref of fresh) {
    const seen = `${ref.kind}\u0000${ref.key}`;
    if (!verdicts.has(seen)) verdicts.set(seen, await objectProblem(ref.key, ref.kind));
  }
  const problems: FlowProblem[] = [];
  const failed = new Set<string>();
  for (const ref of fresh) {
    const problem = verdicts.get(`${ref.kind}\u0000${ref.key}`);
    if (!problem) continue;
    problems.push({ field: ref.field, reason: `node ${ref.node.id} (${ref.node.type}): ${problem}` });
    failed.add(ref.key);
  }
  for (const key of failed) {
    await deleteMediaObject(key).catch((err: unknown) =>
      logger.warn('refused flow file not deleted', { companyId: auth.companyId, flowId, ...errorFields(err) }),
    );
  }
  return problems;
};
