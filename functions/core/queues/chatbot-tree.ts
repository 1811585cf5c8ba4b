import {
  CHATBOT_KINDS,
  MAX_BREADTH,
  MAX_DEPTH,
  MAX_NODES,
  type ChatbotKind,
  type ChatbotOption,
  type ChatbotOptionInput,
} from '../../contracts/queues';

export {
  CHATBOT_KINDS,
  MAX_BREADTH,
  MAX_DEPTH,
  MAX_NODES,
  type ChatbotKind,
  type ChatbotOption,
  type ChatbotOptionInput,
};

/**
 * A queue's chatbot option tree (admin spec §2 Queues, §3 Chatbot option; decisions D89): nested options of
 * kinds text, attendent, queue, integration and file, each with its bot message (`greetingMessage`) and, by
 * kind, a target. The tree is stored whole inside its queue item, so the routing engine reads it with the
 * queue it already reads, and one conditional write changes it atomically.
 *
 * Bounds (a clear 400 past them): at most MAX_DEPTH levels, MAX_BREADTH options under one parent and
 * MAX_NODES options in the whole tree — a menu a customer can read on a phone, and an item far under
 * DynamoDB's 400 KB.
 */
export interface TreeProblem {
  field: string;
  reason: string;
}

/** What the tree's targets must name: the company's queues, users, integrations and file lists. */
export interface TreeTargets {
  queueIds: ReadonlySet<number>;
  userIds: ReadonlySet<number>;
  integrationIds: ReadonlySet<number>;
  fileIds: ReadonlySet<number>;
}

const TARGET_OF: Record<
  Exclude<ChatbotKind, 'text'>,
  { field: keyof ChatbotOption; set: keyof TreeTargets; what: string }
> = {
  queue: { field: 'optQueueId', set: 'queueIds', what: 'queue' },
  attendent: { field: 'optUserId', set: 'userIds', what: 'user' },
  integration: { field: 'optIntegrationId', set: 'integrationIds', what: 'integration' },
  file: { field: 'optFileId', set: 'fileIds', what: 'file list' },
};

/**
 * Checks a submitted tree and gives it its stored shape: ids kept where the option had one in `previous`
 * (the stored tree), new ids from `nextId` otherwise; every target checked against the company's. Answers
 * the tree, or the problems with their field paths (`body.chatbots.0.options.2.optQueueId`).
 */
export const normaliseTree = (
  input: readonly ChatbotOptionInput[],
  targets: TreeTargets,
  previous: readonly ChatbotOption[],
  nextId: () => number,
  path = 'body.chatbots',
): { tree: ChatbotOption[]; problems: TreeProblem[] } => {
  const known = new Set(flatten(previous).map((o) => o.id));
  const problems: TreeProblem[] = [];
  let nodes = 0;
  const used = new Set<number>();
  const walk = (options: readonly ChatbotOptionInput[], depth: number, at: string): ChatbotOption[] => {
    if (options.length > MAX_BREADTH) problems.push({ field: at, reason: `at most ${MAX_BREADTH} options` });
    return options.map((o, i) => {
      const here = `${at}.${i}`;
      nodes += 1;
      if (depth > MAX_DEPTH) problems.push({ field: here, reason: `at most ${MAX_DEPTH} levels` });
      const queueType = o.queueType ?? 'text';
      const children = o.options ?? [];
      const greetingMessage = (o.greetingMessage ?? '').trim();
      if (children.length > 0 && greetingMessage === '') {
        problems.push({
          field: `${here}.greetingMessage`,
          reason: 'a bot message is needed to move to the next level',
        });
      }
      const option: ChatbotOption = {
        id: o.id !== undefined && known.has(o.id) && !used.has(o.id) ? o.id : nextId(),
        name: o.name.trim(),
        queueType,
        greetingMessage,
        closeTicket: o.closeTicket ?? false,
        optQueueId: null,
        optUserId: null,
        optIntegrationId: null,
        optFileId: null,
        options: [],
      };
      used.add(option.id);
      if (queueType !== 'text') {
        const { field, set, what } = TARGET_OF[queueType];
        const value = o[field as keyof ChatbotOptionInput] as number | null | undefined;
        if (value === null || value === undefined) {
          problems.push({ field: `${here}.${field}`, reason: `a ${what} is required for this kind of option` });
        } else if (!targets[set].has(value)) {
          problems.push({ field: `${here}.${field}`, reason: `no such ${what}` });
        } else {
          (option[field] as number) = value;
        }
      }
      option.options = walk(children, depth + 1, `${here}.options`);
      return option;
    });
  };
  const tree = walk(input, 1, path);
  if (nodes > MAX_NODES) problems.push({ field: path, reason: `at most ${MAX_NODES} options in a tree` });
  return { tree, problems };
};

/** Every option of a tree, depth first. */
export const flatten = (tree: readonly ChatbotOption[]): ChatbotOption[] =>
  tree.flatMap((o) => [o, ...flatten(o.options)]);

/** The option with `id` and the path of options that leads to it, or null. */
export const findOption = (
  tree: readonly ChatbotOption[],
  id: number,
): { option: ChatbotOption; parents: ChatbotOption[] } | null => {
  for (const option of tree) {
    if (option.id === id) return { option, parents: [] };
    const inner = findOption(option.options, id);
    if (inner) return { option: inner.option, parents: [option, ...inner.parents] };
  }
  return null;
};

/** The tree without the options that match `drop` (their sub-options go with them). */
export const pruneTree = <T extends { options?: T[] | undefined }>(tree: readonly T[], drop: (o: T) => boolean): T[] =>
  tree.filter((o) => !drop(o)).map((o) => ({ ...o, options: pruneTree(o.options ?? [], drop) }));
