import {
  checkFlowDocument,
  documentMediaKeys,
  FLOW_MAX_DOCUMENT_BYTES,
  type FlowDocument,
  type FlowDocumentAnswer,
  type FlowNode,
  type FlowPage,
  type FlowProblem,
  type FlowView,
} from '../../contracts/flows';
import {
  createFlow,
  deleteFlow,
  flowNotFound,
  getFlow,
  getFlowVersion,
  listFlows,
  saveFlowVersion,
  updateFlow,
  type Flow,
} from '../../data/flow-repository';
import { deleteFlowCampaign, listFlowCampaigns } from '../../data/flow-campaign-repository';
import { deleteMediaObject, getMediaObject, headMediaObject, putMediaObject } from '../../data/media-store';
import { listQueues } from '../../data/queue-repository';
import type { AuthContext } from '../../shared/auth-context';
import { ValidationError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { CHANGED_OR_BUSY, withRetry } from '../../shared/retry';
import { fetchPage, type PagingInput } from '../paging';
import { checkNewFlowMedia } from './flow-media-service';
import { maskFlowSecrets, sealFlowSecrets } from './flow-secrets';

/**
 * Flows (administration §2 Flow builder, §3 Flow and Flow document, §5, §7; decisions D138): the list,
 * create / rename / switch / delete / duplicate, and the document the visual editor saves. Every save is a
 * new immutable version (the flow's `version` moves to it); a run keeps the version it started on (D139).
 * Admins only (the route table); another company's flow is a 404 like a missing one.
 */
export const FLOW_PAGE_SIZE = 20;

export const toFlowView = (f: Flow): FlowView => ({
  id: f.id,
  name: f.name,
  active: f.active,
  version: f.version,
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
});

/** The media prefix of a flow's files (data-model §1.8). */
export const flowMediaPrefix = (companyId: number, flowId: number): string => `c/${companyId}/flows/${flowId}/`;

const findFlow = async (auth: AuthContext, id: number): Promise<Flow> => {
  const flow = await getFlow(auth.companyId, id);
  if (!flow) throw flowNotFound();
  return flow;
};

export const listCompanyFlows = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined },
): Promise<FlowPage> => {
  const page = await fetchPage(q, FLOW_PAGE_SIZE, (cursor) =>
    listFlows(auth.companyId, { search: q.searchParam, limit: FLOW_PAGE_SIZE, cursor }),
  );
  return {
    flows: page.items.map(toFlowView),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

export const showFlow = async (auth: AuthContext, id: number): Promise<FlowView> =>
  toFlowView(await findFlow(auth, id));

export const createCompanyFlow = async (auth: AuthContext, input: { name: string }): Promise<FlowView> =>
  toFlowView(await createFlow(auth.companyId, input.name));

export const updateCompanyFlow = async (
  auth: AuthContext,
  input: { flowId: number; name?: string | undefined; active?: boolean | undefined },
): Promise<FlowView> =>
  toFlowView(
    await withRetry(CHANGED_OR_BUSY, async () => {
      const current = await findFlow(auth, input.flowId);
      return updateFlow(current, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
      });
    }),
  );

/** Every media key any version of the flow references (deleting the flow deletes them). */
const allMediaKeys = async (flow: Flow): Promise<string[]> => {
  const keys = new Set<string>();
  for (let v = 1; v <= flow.version; v += 1) {
    const version = await getFlowVersion(flow.companyId, flow.id, v);
    if (version) for (const key of documentMediaKeys(version)) keys.add(key);
  }
  return [...keys].filter((k) => k.startsWith(flowMediaPrefix(flow.companyId, flow.id)));
};

/**
 * Deletes a flow, its versions and its files, and the phrase campaigns that start it (the spec's warning:
 * "Todas as integrações relacionados serão perdidos"). A run on it meanwhile ends at its next step and
 * hands the ticket to its queue (D139).
 */
export const deleteCompanyFlow = async (auth: AuthContext, id: number): Promise<void> => {
  const flow = await findFlow(auth, id);
  const media = await allMediaKeys(flow);
  await deleteFlow(flow);
  for (const campaign of await listFlowCampaigns(auth.companyId)) {
    if (campaign.flowId !== id) continue;
    await deleteFlowCampaign(campaign).catch((err: unknown) =>
      logger.warn('phrase campaign of a deleted flow left', { companyId: auth.companyId, ...errorFields(err) }),
    );
  }
  for (const key of media) {
    await deleteMediaObject(key).catch((err: unknown) =>
      logger.warn('flow file not deleted', { companyId: auth.companyId, flowId: id, ...errorFields(err) }),
    );
  }
};

/** A copy's name: the original's with " (cópia)", kept within the 50 characters a name may have. */
const copyName = (name: string): string => {
  const suffix = ' (cópia)';
  return `${name.slice(0, 50 - suffix.length)}${suffix}`;
};

/** Rewrites every media key of `doc` through `rename`. */
const withMedia = (doc: FlowDocument, rename: (key: string) => string): FlowDocument => ({
  connections: doc.connections,
  nodes: doc.nodes.map((node): FlowNode => {
    if (node.type === 'img' || node.type === 'audio' || node.type === 'video') {
      const url = (node.data as { url?: unknown }).url;
      return typeof url === 'string' ? { ...node, data: { ...node.data, url: rename(url) } } : node;
    }
    if (node.type === 'singleBlock') {
      const elements = (node.data as { elements?: { type: string; value: unknown }[] }).elements ?? [];
      return {
        ...node,
        data: {
          ...node.data,
          elements: elements.map((e) =>
            (e.type === 'img' || e.type === 'audio' || e.type === 'video') && typeof e.value === 'string'
              ? { ...e, value: rename(e.value) }
              : e,
          ),
        },
      };
    }
    return node;
  }),
});

/**
 * Duplicates a flow: a new flow named "<name> (cópia)" whose first version is the original's latest
 * document, with its own copy of every file (so deleting one flow never breaks the other).
 */
export const duplicateCompanyFlow = async (auth: AuthContext, flowId: number): Promise<FlowView> => {
  const original = await findFlow(auth, flowId);
  const latest = await getFlowVersion(auth.companyId, original.id, original.version);
  const copy = await createFlow(auth.companyId, copyName(original.name));
  if (!original.active) await updateFlow(copy, { active: false });
  if (!latest) return toFlowView({ ...copy, active: original.active });
  const from = flowMediaPrefix(auth.companyId, original.id);
  const to = flowMediaPrefix(auth.companyId, copy.id);
  const renamed = new Map<string, string>();
  for (const key of documentMediaKeys(latest)) {
    if (!key.startsWith(from) || renamed.has(key)) continue;
    const head = await headMediaObject(key);
    if (!head) continue;
    const target = `${to}${key.slice(from.length)}`;
    await putMediaObject(target, await getMediaObject(key), head.contentType);
    renamed.set(key, target);
  }
  const fresh = (await getFlow(auth.companyId, copy.id)) ?? copy;
  const saved = await saveFlowVersion(
    fresh,
    withMedia(latest, (key) => renamed.get(key) ?? key),
  );
  return toFlowView({ ...fresh, version: saved.version, updatedAt: saved.savedAt });
};

export const getFlowDocument = async (auth: AuthContext, id: number): Promise<FlowDocumentAnswer> => {
  const flow = await findFlow(auth, id);
  const version = await getFlowVersion(auth.companyId, id, flow.version);
  return {
    flow: {
      ...toFlowView(flow),
      flow: version ? { nodes: maskFlowSecrets(version.nodes), connections: version.connections } : null,
    },
  };
};

/**
 * The checks a save needs beyond the document's own rules: the queues ticket nodes name exist in the
 * company; media keys are this flow's own files; the document fits one item.
 */
const companyProblems = async (auth: AuthContext, flowId: number, doc: FlowDocument): Promise<FlowProblem[]> => {
  const problems: FlowProblem[] = [];
  const bytes = Buffer.byteLength(JSON.stringify(doc));
  if (bytes > FLOW_MAX_DOCUMENT_BYTES) {
    problems.push({
      field: 'body.nodes',
      reason: `the document is ${bytes} bytes, at most ${FLOW_MAX_DOCUMENT_BYTES}`,
    });
  }
  const ticketNodes = doc.nodes.map((node, index) => ({ node, index })).filter(({ node }) => node.type === 'ticket');
  if (ticketNodes.length > 0) {
    const queues = new Set((await listQueues(auth.companyId)).map((q) => q.id));
    for (const { node, index } of ticketNodes) {
      if (!queues.has(Number((node.data as { queueId?: unknown }).queueId))) {
        problems.push({
          field: `body.nodes.${index}.data.queueId`,
          reason: `node ${node.id} (ticket): Adicione uma fila`,
        });
      }
    }
  }
  const prefix = flowMediaPrefix(auth.companyId, flowId);
  doc.nodes.forEach((node, index) => {
    for (const key of documentMediaKeys({ nodes: [node], connections: [] })) {
      if (!key.startsWith(prefix)) {
        problems.push({
          field: `body.nodes.${index}.data`,
          reason: `node ${node.id} (${node.type}): file ${key} is not this flow's`,
        });
      }
    }
  });
  return problems;
};

/** POST /flowbuilder/flow: checks the document, then saves it as the flow's next version. */
export const saveCompanyFlowDocument = async (
  auth: AuthContext,
  input: { idFlow: number; nodes: FlowNode[]; connections: FlowDocument['connections'] },
): Promise<FlowDocumentAnswer> => {
  const given: FlowDocument = { nodes: input.nodes, connections: input.connections };
  const before = await findFlow(auth, input.idFlow);
  const previous = before.version > 0 ? await getFlowVersion(auth.companyId, before.id, before.version) : null;
  const problems = [...checkFlowDocument(given), ...(await companyProblems(auth, input.idFlow, given))];
  // The openai nodes' keys sealed (a mask sent back keeps the previous version's key).
  const { doc, problems: secretProblems } = await sealFlowSecrets(given, previous);
  problems.push(...secretProblems);
  if (problems.length === 0) {
    // The files this save adds are read only once the rest holds (a refused file is deleted, D159).
    problems.push(...(await checkNewFlowMedia(auth, input.idFlow, doc, previous)));
  }
  if (problems.length > 0) throw new ValidationError(problems.slice(0, 50), 'The flow cannot be saved');
  const { flow, saved } = await withRetry(CHANGED_OR_BUSY, async () => {
    const current = await findFlow(auth, input.idFlow);
    const version = await saveFlowVersion(current, doc);
    return { flow: current, saved: version };
  });
  return {
    flow: {
      ...toFlowView({ ...flow, version: saved.version, updatedAt: saved.savedAt }),
      flow: { nodes: maskFlowSecrets(saved.nodes), connections: saved.connections },
    },
  };
};
