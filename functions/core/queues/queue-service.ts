import type { ChatbotOption, QueueAdminView, QueueView } from '../../contracts/queues';
import { getCompany } from '../../data/company-repository';
import { listConnections, updateConnection } from '../../data/connection-repository';
import { getIntegration } from '../../data/integration-repository';
import { getFileList } from '../../data/file-list-repository';
import { getPlan } from '../../data/plan-repository';
import {
  createQueue as storeNewQueue,
  deleteQueue as removeQueue,
  getQueue,
  listQueues,
  updateQueue as storeQueue,
  type Queue,
  type QueueChanges,
} from '../../data/queue-repository';
import { nextId } from '../../data/counter-repository';
import { ReadScope } from '../../data/read-scope';
import { getUser, listUserQueueIds, updateUser } from '../../data/user-repository';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, Conflict, NotFound, type FieldError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';
import { everyone, publish } from '../notifier';
import { routingSettings } from '../settings/company-settings';
import { enqueueQueueRemoval } from './queue-removal';
import {
  findOption,
  flatten,
  normaliseTree,
  pruneTree,
  type ChatbotOptionInput,
  type TreeTargets,
} from './chatbot-tree';

/**
 * Queues (departments): every signed-in user reads them (the new-ticket, transfer and accept dialogs, core §7
 * "Other": GET /queue, GET /queue/{id}); admins create, edit and delete them with their chatbot option tree
 * (admin spec §2 Queues, §3, §5, §7; decisions D89). Ordered by `orderQueue`, then name.
 */
const toView = (q: Queue): QueueView => ({
  id: q.id,
  name: q.name,
  color: q.color,
  orderQueue: q.orderQueue ?? null,
  greetingMessage: q.greetingMessage ?? '',
  outOfHoursMessage: q.outOfHoursMessage ?? '',
  schedules: q.schedules ?? [],
});

const toAdminView = (q: Queue): QueueAdminView => ({
  ...toView(q),
  closeTicket: q.closeTicket ?? false,
  ativarRoteador: q.ativarRoteador ?? false,
  tempoRoteador: q.tempoRoteador ?? 0,
  integrationId: q.integrationId ?? null,
  fileListId: q.fileListId ?? null,
  chatbots: q.chatbots ?? [],
});

const isManager = (auth: AuthContext) => auth.profile === 'admin' || auth.super;
const viewFor = (auth: AuthContext, q: Queue): QueueView | QueueAdminView =>
  isManager(auth) ? toAdminView(q) : toView(q);

const byOrder = (a: QueueView, b: QueueView) =>
  (a.orderQueue ?? Infinity) - (b.orderQueue ?? Infinity) || a.name.localeCompare(b.name);

export const listCompanyQueues = async (auth: AuthContext): Promise<(QueueView | QueueAdminView)[]> =>
  (await listQueues(auth.companyId)).map((q) => viewFor(auth, q)).sort(byOrder);

const findQueue = async (companyId: number, id: number): Promise<Queue> => {
  const queue = await getQueue(companyId, id);
  if (!queue) throw new NotFound('ERR_QUEUE_NOT_FOUND', 'Queue not found');
  return queue;
};

export const showQueue = async (auth: AuthContext, id: number): Promise<QueueView | QueueAdminView> =>
  viewFor(auth, await findQueue(auth.companyId, id));

/** `company-{id}-queue` to everyone in the company: every dialog that offers queues follows the list. */
const announce = async (
  companyId: number,
  event: { action: 'create' | 'update'; queue: QueueAdminView } | { action: 'delete'; queueId: number },
): Promise<void> => {
  try {
    await publish(companyId, { channel: 'queue', ...event }, everyone);
  } catch (err) {
    logger.warn('queue event not sent', { companyId, ...errorFields(err) });
  }
};

// --------------------------------------------------------------------------------------- create and edit

export interface QueueInput {
  name?: string | undefined;
  color?: string | undefined;
  orderQueue?: number | null | undefined;
  greetingMessage?: string | undefined;
  outOfHoursMessage?: string | undefined;
  closeTicket?: boolean | undefined;
  ativarRoteador?: boolean | undefined;
  tempoRoteador?: number | undefined;
  integrationId?: number | null | undefined;
  fileListId?: number | null | undefined;
  schedules?: Queue['schedules'] | undefined;
  chatbots?: ChatbotOptionInput[] | undefined;
}

/**
 * What the tree's and the queue's targets may name: this company's queues (`self` included when editing),
 * users, integrations and file lists. Integrations and file lists come with their areas; until a company
 * has any, options and queues cannot point at one (a dangling id is never stored).
 */
const targetsFor = async (
  companyId: number,
  queues: readonly Queue[],
  referenced: { userIds: number[]; integrationIds: number[]; fileIds: number[] },
  selfId?: number,
): Promise<TreeTargets> => {
  const users = await Promise.all([...new Set(referenced.userIds)].map((id) => getUser(companyId, id)));
  return {
    queueIds: new Set([...queues.map((q) => q.id), ...(selfId === undefined ? [] : [selfId])]),
    userIds: new Set(users.flatMap((u) => (u ? [u.id] : []))),
    integrationIds: new Set(await existingIntegrations(companyId, referenced.integrationIds)),
    fileIds: new Set(await existingFileLists(companyId, referenced.fileIds)),
  };
};

/** The company's queue integrations among `ids` (decisions D162). */
const existingIntegrations = async (companyId: number, ids: number[]): Promise<number[]> =>
  (await Promise.all([...new Set(ids)].map((id) => getIntegration(companyId, id)))).flatMap((i) => (i ? [i.id] : []));
/** The company's file lists among `ids`. */
const existingFileLists = async (companyId: number, ids: number[]): Promise<number[]> =>
  (await Promise.all([...new Set(ids)].map((id) => getFileList(companyId, id)))).flatMap((l) => (l ? [l.id] : []));

const referencedIn = (input: readonly ChatbotOptionInput[]) => {
  const all: ChatbotOptionInput[] = [];
  const walk = (options: readonly ChatbotOptionInput[]) =>
    options.forEach((o) => {
      all.push(o);
      walk(o.options ?? []);
    });
  walk(input);
  const ids = (pick: (o: ChatbotOptionInput) => number | null | undefined) =>
    all.flatMap((o) => (typeof pick(o) === 'number' ? [pick(o)!] : []));
  return {
    userIds: ids((o) => o.optUserId),
    integrationIds: ids((o) => o.optIntegrationId),
    fileIds: ids((o) => o.optFileId),
  };
};

/** A chatbot id generator that reserves ids from the company's counter only for the options that need one. */
const idsFrom = async (companyId: number, count: number): Promise<() => number> => {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) ids.push(await nextId(companyId, 'chatbot'));
  return () => {
    const id = ids.shift();
    if (id === undefined) throw new Error('chatbot ids exhausted');
    return id;
  };
};

const countNew = (input: readonly ChatbotOptionInput[], previous: readonly ChatbotOption[]): number => {
  const known = new Set(flatten(previous).map((o) => o.id));
  let n = 0;
  const walk = (options: readonly ChatbotOptionInput[]) =>
    options.forEach((o) => {
      if (o.id === undefined || !known.has(o.id)) n += 1;
      walk(o.options ?? []);
    });
  walk(input);
  return n;
};

/**
 * The queue after `input`, checked against the spec's rules and the company's data: the out-of-hours message
 * when the company checks hours per queue (scheduleType `queue`), the integration and file list named, and the
 * chatbot tree. Every problem at once, as one 400 with its fields.
 */
const prepare = async (
  companyId: number,
  input: QueueInput,
  current: Queue | null,
  queues: readonly Queue[],
): Promise<QueueChanges> => {
  const problems: FieldError[] = [];
  const merged = { ...(current ?? {}), ...input };
  const { scheduleType } = await routingSettings(new ReadScope(), companyId);
  if (scheduleType === 'queue' && (merged.outOfHoursMessage ?? '').trim() === '') {
    problems.push({ field: 'body.outOfHoursMessage', reason: 'required while service hours are checked per queue' });
  }
  const tree = input.chatbots ?? null;
  const referenced = referencedIn(tree ?? []);
  if (typeof input.integrationId === 'number') referenced.integrationIds.push(input.integrationId);
  if (typeof input.fileListId === 'number') referenced.fileIds.push(input.fileListId);
  const targets = await targetsFor(companyId, queues, referenced, current?.id);
  if (typeof input.integrationId === 'number' && !targets.integrationIds.has(input.integrationId)) {
    problems.push({ field: 'body.integrationId', reason: 'no such integration' });
  }
  if (typeof input.fileListId === 'number' && !targets.fileIds.has(input.fileListId)) {
    problems.push({ field: 'body.fileListId', reason: 'no such file list' });
  }
  const changes: QueueChanges = {};
  for (const [key, value] of Object.entries(input)) {
    if (key !== 'chatbots' && value !== undefined) (changes as Record<string, unknown>)[key] = value;
  }
  if (typeof changes.name === 'string') changes.name = changes.name.trim();
  if (typeof changes.color === 'string') changes.color = changes.color.trim();
  if (tree) {
    const previous = current?.chatbots ?? [];
    const nextId = await idsFrom(companyId, countNew(tree, previous));
    const { tree: normalised, problems: treeProblems } = normaliseTree(tree, targets, previous, nextId);
    problems.push(...treeProblems);
    changes.chatbots = normalised;
  }
  if (problems.length > 0) throw new BadRequest('ERR_VALIDATION', 'Invalid queue', problems);
  return changes;
};

const planQueueLimit = async (companyId: number): Promise<number | undefined> => {
  const company = await getCompany(companyId);
  const plan = company ? await getPlan(company.planId) : null;
  return plan?.queues;
};

export const createCompanyQueue = async (
  auth: AuthContext,
  input: QueueInput & { name: string; color: string },
): Promise<QueueAdminView> => {
  const queues = await listQueues(auth.companyId);
  // The new queue's own id is reserved first, so an option may send customers to the queue being created.
  const id = await nextId(auth.companyId, 'queue');
  const changes = await prepare(auth.companyId, input, null, [...queues, { id } as Queue]);
  const limit = await planQueueLimit(auth.companyId);
  const queue = await storeNewQueue(
    auth.companyId,
    { ...changes, name: input.name.trim(), color: input.color.trim() },
    { id, ...(limit === undefined ? {} : { maxQueues: limit }) },
  );
  const view = toAdminView(queue);
  await announce(auth.companyId, { action: 'create', queue: view });
  return view;
};

export const updateCompanyQueue = async (auth: AuthContext, id: number, input: QueueInput): Promise<QueueAdminView> => {
  const queue = await withRetry(CHANGED_MEANWHILE, async () => {
    const [current, queues] = await Promise.all([findQueue(auth.companyId, id), listQueues(auth.companyId)]);
    return storeQueue(current, await prepare(auth.companyId, input, current, queues));
  });
  const view = toAdminView(queue);
  await announce(auth.companyId, { action: 'update', queue: view });
  return view;
};

// ---------------------------------------------------------------------------------------------- delete

/**
 * Deletes a queue (decisions D89). Options of other queues' chatbots that send customers to it must be
 * changed first (409 ERR_QUEUE_IN_USE names those queues); users and connections simply stop listing it
 * (and a connection's redirect to it is cleared); its tickets leave it — they stay where they are in their
 * life and become tickets without a queue — through a job, since a queue may hold many.
 */
export const deleteCompanyQueue = async (auth: AuthContext, id: number): Promise<void> => {
  await withRetry(CHANGED_MEANWHILE, async () => {
    const [current, queues] = await Promise.all([findQueue(auth.companyId, id), listQueues(auth.companyId)]);
    const users = queues.filter(
      (q) => q.id !== id && flatten(q.chatbots ?? []).some((o) => o.queueType === 'queue' && o.optQueueId === id),
    );
    if (users.length > 0) {
      throw new Conflict('ERR_QUEUE_IN_USE', 'Chatbot options of other queues send customers to this queue', {
        queues: users.map((q) => ({ id: q.id, name: q.name })),
      });
    }
    await removeQueue(current);
  });
  await unlinkQueue(auth.companyId, id);
  await enqueueQueueRemoval({ companyId: auth.companyId, queueId: id });
  await announce(auth.companyId, { action: 'delete', queueId: id });
};

/** Users and connections stop naming a deleted queue. */
const unlinkQueue = async (companyId: number, queueId: number): Promise<void> => {
  const users = (await listUserQueueIds(companyId)).filter((u) => u.queueIds.includes(queueId));
  for (const user of users) {
    await updateUser(companyId, user.id, { queueIds: user.queueIds.filter((q) => q !== queueId) });
  }
  for (const connection of await listConnections(companyId)) {
    const named = connection.queueIds.includes(queueId) || connection.sendIdQueue === queueId;
    if (!named) continue;
    await withRetry(CHANGED_MEANWHILE, async () => {
      const current = (await listConnections(companyId)).find((c) => c.id === connection.id);
      if (!current) return;
      await updateConnection(current, {
        queueIds: current.queueIds.filter((q) => q !== queueId),
        ...(current.sendIdQueue === queueId ? { sendIdQueue: null, timeSendQueue: 0 } : {}),
      });
    });
  }
};

// --------------------------------------------------------------------------------- chatbot options (/chatbot)

/** The queue whose tree holds option `id`, and the option. A company has few queues: one Query reads them. */
const findChatbot = async (companyId: number, id: number) => {
  for (const queue of await listQueues(companyId)) {
    const found = findOption(queue.chatbots ?? [], id);
    if (found) return { queue, ...found };
  }
  throw new NotFound('ERR_CHATBOT_NOT_FOUND', 'Chatbot option not found');
};

export const showChatbot = async (auth: AuthContext, id: number): Promise<ChatbotOption & { queueId: number }> => {
  const { queue, option } = await findChatbot(auth.companyId, id);
  return { ...option, queueId: queue.id };
};

const toInput = (o: ChatbotOption): ChatbotOptionInput => ({ ...o, options: o.options.map(toInput) });

/** Rewrites one queue's tree through the same checks as the queue dialog's save. */
const rewriteTree = async (
  auth: AuthContext,
  queueId: number,
  change: (tree: ChatbotOptionInput[]) => ChatbotOptionInput[],
): Promise<Queue> => {
  const queue = await withRetry(CHANGED_MEANWHILE, async () => {
    const [current, queues] = await Promise.all([findQueue(auth.companyId, queueId), listQueues(auth.companyId)]);
    const chatbots = change((current.chatbots ?? []).map(toInput));
    return storeQueue(current, await prepare(auth.companyId, { chatbots }, current, queues));
  });
  await announce(auth.companyId, { action: 'update', queue: toAdminView(queue) });
  return queue;
};

/** POST /chatbot: a new option at the root of a queue's tree (`queueId`) or under another option (`chatbotId`). */
export const createChatbot = async (
  auth: AuthContext,
  input: ChatbotOptionInput & { queueId?: number | undefined; chatbotId?: number | undefined },
): Promise<ChatbotOption & { queueId: number }> => {
  const { queueId: rootOf, chatbotId: parentId, ...option } = input;
  const parent = parentId === undefined ? null : await findChatbot(auth.companyId, parentId);
  const queueId = parent?.queue.id ?? rootOf;
  if (queueId === undefined) {
    throw new BadRequest('ERR_VALIDATION', 'A queue or a parent option is required', [
      { field: 'body.queueId', reason: 'required without chatbotId' },
    ]);
  }
  const before = new Set(flatten((await findQueue(auth.companyId, queueId)).chatbots ?? []).map((o) => o.id));
  const add = (tree: ChatbotOptionInput[]): ChatbotOptionInput[] =>
    parent === null
      ? [...tree, { ...option, id: undefined }]
      : tree.map((o) =>
          o.id === parent.option.id
            ? { ...o, options: [...(o.options ?? []), { ...option, id: undefined }] }
            : { ...o, options: add(o.options ?? []) },
        );
  const queue = await rewriteTree(auth, queueId, add);
  const created = flatten(queue.chatbots).find((o) => !before.has(o.id) && o.name === option.name.trim());
  return { ...created!, queueId: queue.id };
};

/** PUT /chatbot/{id}: the option's fields (and, when given, its sub-options). */
export const updateChatbot = async (
  auth: AuthContext,
  id: number,
  input: Partial<ChatbotOptionInput>,
): Promise<ChatbotOption & { queueId: number }> => {
  const { queue } = await findChatbot(auth.companyId, id);
  const replace = (tree: ChatbotOptionInput[]): ChatbotOptionInput[] =>
    tree.map((o) =>
      o.id === id
        ? { ...o, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)), id }
        : { ...o, options: replace(o.options ?? []) },
    );
  const stored = await rewriteTree(auth, queue.id, replace);
  return { ...findOption(stored.chatbots, id)!.option, queueId: stored.id };
};

/** DELETE /chatbot/{id}: the option and its sub-options. */
export const deleteChatbot = async (auth: AuthContext, id: number): Promise<void> => {
  const { queue } = await findChatbot(auth.companyId, id);
  await rewriteTree(auth, queue.id, (tree) => pruneTree(tree, (o) => o.id === id));
};
