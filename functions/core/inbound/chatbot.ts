import type { ChatbotOption } from '../../contracts/queues';
import { searchForm } from '../../data/keys';

/**
 * The chatbot of the inbound pipeline (admin spec §2 Queues; core §5 Chatbot; decisions D91): a pure function
 * from the ticket's bot state and the customer's answer to the bot's replies and the ticket's next state, so
 * every rule is a table test and the pipeline only carries it out.
 *
 * Two stages, both on a pending ticket nobody handles yet:
 * - **queues**: the connection has several queues and the ticket none — the connection's greeting with the
 *   numbered queue menu; the answer (a number, or the queue's name) puts the ticket in that queue;
 * - **chatbot**: the ticket's queue has an option tree — the queue's greeting with the numbered options of
 *   the current level; the answer (number or option name, case- and accent-insensitive) chooses one, and
 *   its kind decides: `text` answers its message (and opens its sub-options, if any), `queue` moves the
 *   ticket (and enters that queue's own menu, if it has one), `attendent` gives it to a user, `integration`
 *   and `file` answer their message and hand the ticket to the queue's people (their areas plug in later).
 *   An option with `closeTicket` closes the ticket after its message.
 * Navigation: `#` goes back one level, `0` to the start. An answer that matches nothing re-prompts with the
 * menu; after `maxUseBotQueues` invalid answers the bot stops and the ticket waits for a person.
 *
 * Every menu is a numbered text; the decision also describes it (`menu`) so a channel that can draw
 * buttons or a list does so when the company's `chatBotType` asks (decisions D132). A choice's id is what
 * the customer would type for it, so a pressed button and a typed answer are read the same way.
 */
export type BotStage = 'queues' | 'chatbot';

export interface BotState {
  stage: BotStage | null;
  /** Option ids from the queue's root to the current level (chatbot stage). */
  path: number[];
  /** Invalid answers so far (the spec's amountUsedBotQueues). */
  attempts: number;
}

export interface BotQueue {
  id: number;
  name: string;
  greetingMessage: string;
  chatbots: readonly ChatbotOption[];
  /** The queue's file list, sent with its greeting when a ticket enters the queue (decisions D93). */
  fileListId?: number | null;
}

export interface BotInput {
  /** The ticket was opened by this message. */
  isNew: boolean;
  ticket: { status: string; userId: number | null; queueId: number | null };
  state: BotState;
  body: string;
  connection: { greetingMessage: string; queueIds: readonly number[]; maxUseBotQueues: number };
  /** The connection's queues that exist, in the connection's order. */
  queues: ReadonlyMap<number, BotQueue>;
  settings: { sendGreetingMessageOneQueues: string };
  texts: BotTexts;
}

/** The bot's own words (the company's language comes with i18n of server texts later; pt today). */
export interface BotTexts {
  invalidOption: string;
  back: string;
  start: string;
  /** The back and to-start choices when the menu is drawn as buttons or a list. */
  backChoice: string;
  startChoice: string;
  /** Above drawn choices when the menu has no text of its own, and the label of a list's button. */
  choose: string;
  listButton: string;
}

export const DEFAULT_BOT_TEXTS: BotTexts = {
  invalidOption: 'Opção inválida, por favor escolha uma das opções abaixo.',
  back: 'Digite *#* para voltar ao menu anterior',
  start: 'Digite *0* para voltar ao menu inicial',
  backChoice: 'Voltar',
  startChoice: 'Menu inicial',
  choose: 'Escolha uma opção:',
  listButton: 'Ver opções',
};

/**
 * The menu the decision's last reply carries, for channels that draw choices (decisions D132): the text
 * above them and the choices, each with the id a customer would type for it (its number, `#`, `0`).
 */
export interface BotMenu {
  intro: string;
  button: string;
  choices: { id: string; title: string }[];
}

export interface BotDecision {
  replies: string[];
  /** The ticket's next state; undefined when nothing changes. */
  next?: {
    state: BotState;
    queueId?: number;
    /** Given to this user (status open). */
    userId?: number;
    close?: boolean;
    /** What the ticket log records (`queue` on a queue change, `chatBot` on a bot step). */
    log: 'queue' | 'chatBot';
  };
  /** The greeting was sent as part of the menu (the plain greeting must not go out too). */
  greeted: boolean;
  /** File lists whose message and files go out after the replies, in order (decisions D93). */
  files?: number[];
  /** The last reply is this menu (decisions D132). */
  menu?: BotMenu;
  /** A chosen option of kind integration: this integration answers from now on (decisions D162). */
  integrationId?: number;
}

const NONE: BotDecision = { replies: [], greeted: false };
const idle = (attempts = 0): BotState => ({ stage: null, path: [], attempts });

const numbered = (names: readonly string[]): string => names.map((n, i) => `*${i + 1}* - ${n}`).join('\n');
const join = (...parts: string[]): string =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');

/** A menu drawn: the numbered text a customer reads anywhere, and its description for buttons and lists. */
interface Drawn {
  text: string;
  menu: BotMenu;
}

const draw = (intro: string, names: readonly string[], depth: number, texts: BotTexts): Drawn => ({
  text: join(intro, numbered(names), depth > 0 ? `${texts.back}\n${texts.start}` : ''),
  menu: {
    intro: intro.trim(),
    button: texts.listButton,
    choices: [
      ...names.map((title, i) => ({ id: String(i + 1), title })),
      ...(depth > 0
        ? [
            { id: '#', title: texts.backChoice },
            { id: '0', title: texts.startChoice },
          ]
        : []),
    ],
  },
});

/** Another text in front of a drawn menu (the connection's greeting before a queue's, an "invalid option"). */
const preface = (before: string, drawn: Drawn): Drawn => ({
  text: join(before, drawn.text),
  menu: { ...drawn.menu, intro: join(before, drawn.menu.intro) },
});

/** The option list of a level, or the options at `path` (null when the path no longer exists). */
const levelAt = (tree: readonly ChatbotOption[], path: readonly number[]): readonly ChatbotOption[] | null => {
  let level = tree;
  for (const id of path) {
    const option = level.find((o) => o.id === id);
    if (!option) return null;
    level = option.options;
  }
  return level;
};

/** The chosen entry: by number (1-based) or by name, case- and accent-insensitive. */
export const choose = <T extends { name: string }>(entries: readonly T[], body: string): T | null => {
  const answer = body.trim();
  if (/^\d+$/.test(answer)) return entries[Number(answer) - 1] ?? null;
  const wanted = searchForm(answer);
  return wanted ? (entries.find((e) => searchForm(e.name) === wanted) ?? null) : null;
};

const queueMenu = (input: BotInput): { drawn: Drawn; entries: BotQueue[] } => {
  const entries = input.connection.queueIds.flatMap((id) => input.queues.get(id) ?? []);
  return {
    drawn: draw(
      '',
      entries.map((q) => q.name),
      0,
      input.texts,
    ),
    entries,
  };
};

const chatbotMenu = (intro: string, level: readonly ChatbotOption[], depth: number, texts: BotTexts): Drawn =>
  draw(
    intro,
    level.map((o) => o.name),
    depth,
    texts,
  );

/** A decision whose only reply is a drawn menu. */
const menuReply = (drawn: Drawn): Pick<BotDecision, 'replies' | 'menu'> => ({
  replies: [drawn.text],
  menu: drawn.menu,
});

/** A queue's file list, as the decision's `files` (absent when the queue has none). */
const queueFiles = (queue: BotQueue): { files?: number[] } =>
  queue.fileListId == null ? {} : { files: [queue.fileListId] };

const withMenu = <T extends object>(drawn: Drawn, rest: T) => ({ replies: [drawn.text], drawn, ...rest });

/** Entering a queue: its greeting, and its root menu when it has a tree; its file list follows. */
const enterQueue = (
  queue: BotQueue,
  texts: BotTexts,
  attempts = 0,
): { replies: string[]; state: BotState; files?: number[]; drawn?: Drawn } =>
  queue.chatbots.length > 0
    ? withMenu(chatbotMenu(queue.greetingMessage, queue.chatbots, 0, texts), {
        state: { stage: 'chatbot', path: [], attempts },
        ...queueFiles(queue),
      })
    : {
        replies: queue.greetingMessage.trim() ? [queue.greetingMessage.trim()] : [],
        state: idle(attempts),
        ...queueFiles(queue),
      };

export const decideBot = (input: BotInput): BotDecision => {
  const decision = decide(input);
  // A menu with no text of its own gets the bot's "choose" line above its drawn choices.
  return decision.menu && !decision.menu.intro
    ? { ...decision, menu: { ...decision.menu, intro: input.texts.choose } }
    : decision;
};

const decide = (input: BotInput): BotDecision => {
  const { ticket, state, texts, connection } = input;
  if (ticket.status !== 'pending' || ticket.userId !== null) return NONE;
  const menu = queueMenu(input);

  // A new ticket: the queue menu, or straight into its queue's bot.
  if (input.isNew) {
    if (ticket.queueId === null && menu.entries.length > 1) {
      return {
        ...menuReply(preface(connection.greetingMessage, menu.drawn)),
        next: { state: { stage: 'queues', path: [], attempts: 0 }, log: 'chatBot' },
        greeted: true,
      };
    }
    const queue = ticket.queueId === null ? undefined : input.queues.get(ticket.queueId);
    if (!queue) return NONE;
    // A ticket that starts in a queue without a tree: the greeting is the plain one, the queue's files follow.
    if (queue.chatbots.length === 0) return { ...NONE, ...queueFiles(queue) };
    const greeting = input.settings.sendGreetingMessageOneQueues === 'disabled' ? '' : connection.greetingMessage;
    const entered = enterQueue(queue, texts);
    return {
      ...menuReply(preface(greeting, entered.drawn!)),
      next: { state: entered.state, log: 'chatBot' },
      greeted: true,
      ...(entered.files ? { files: entered.files } : {}),
    };
  }

  if (state.stage === null) return NONE;
  const invalid = (reprompt: Drawn): BotDecision => {
    const attempts = state.attempts + 1;
    if (attempts >= connection.maxUseBotQueues) {
      // Too many wrong answers: the bot stops and the ticket waits for a person.
      return { replies: [], next: { state: idle(attempts), log: 'chatBot' }, greeted: false };
    }
    return {
      ...menuReply(preface(texts.invalidOption, reprompt)),
      next: { state: { ...state, attempts }, log: 'chatBot' },
      greeted: false,
    };
  };

  if (state.stage === 'queues') {
    if (ticket.queueId !== null) return NONE; // a person put it in a queue meanwhile
    const queue = choose(menu.entries, input.body);
    if (!queue) return invalid(menu.drawn);
    const entered = enterQueue(queue, texts, state.attempts);
    return {
      replies: entered.replies,
      ...(entered.drawn ? { menu: entered.drawn.menu } : {}),
      next: { state: entered.state, queueId: queue.id, log: 'queue' },
      greeted: false,
      ...(entered.files ? { files: entered.files } : {}),
    };
  }

  // The chatbot stage of the ticket's queue.
  const queue = ticket.queueId === null ? undefined : input.queues.get(ticket.queueId);
  if (!queue) return { replies: [], next: { state: idle(state.attempts), log: 'chatBot' }, greeted: false };
  const answer = input.body.trim();
  const level = levelAt(queue.chatbots, state.path);
  if (level === null || answer === '0') {
    return {
      ...menuReply(chatbotMenu(queue.greetingMessage, queue.chatbots, 0, texts)),
      next: { state: { stage: 'chatbot', path: [], attempts: state.attempts }, log: 'chatBot' },
      greeted: false,
    };
  }
  if (answer === '#') {
    const path = state.path.slice(0, -1);
    const parent =
      path.length === 0 ? null : levelAt(queue.chatbots, path.slice(0, -1))?.find((o) => o.id === path.at(-1));
    return {
      ...menuReply(
        chatbotMenu(
          parent ? parent.greetingMessage : queue.greetingMessage,
          levelAt(queue.chatbots, path) ?? [],
          path.length,
          texts,
        ),
      ),
      next: { state: { ...state, path }, log: 'chatBot' },
      greeted: false,
    };
  }
  const option = choose(level, answer);
  if (!option) return invalid(chatbotMenu('', level, state.path.length, texts));

  const reply = option.greetingMessage.trim();
  const close = option.closeTicket;
  switch (option.queueType) {
    case 'text': {
      if (option.options.length > 0) {
        const path = [...state.path, option.id];
        return {
          ...menuReply(chatbotMenu(reply, option.options, path.length, texts)),
          next: {
            state: { stage: 'chatbot', path, attempts: state.attempts },
            log: 'chatBot',
            ...(close ? { close } : {}),
          },
          greeted: false,
        };
      }
      return {
        replies: reply ? [reply] : [],
        next: { state: close ? idle(state.attempts) : state, log: 'chatBot', ...(close ? { close } : {}) },
        greeted: false,
      };
    }
    case 'queue': {
      const target = option.optQueueId === null ? undefined : input.queues.get(option.optQueueId);
      if (!target)
        return { replies: reply ? [reply] : [], next: { state: idle(state.attempts), log: 'chatBot' }, greeted: false };
      const entered = enterQueue(target, texts, state.attempts);
      return {
        replies: [reply, ...entered.replies].filter(Boolean),
        ...(entered.drawn ? { menu: entered.drawn.menu } : {}),
        next: { state: entered.state, queueId: target.id, log: 'queue', ...(close ? { close } : {}) },
        greeted: false,
        ...(entered.files ? { files: entered.files } : {}),
      };
    }
    case 'attendent':
      return {
        replies: reply ? [reply] : [],
        next: {
          state: idle(state.attempts),
          ...(option.optUserId === null ? {} : { userId: option.optUserId }),
          log: 'chatBot',
          ...(close ? { close } : {}),
        },
        greeted: false,
      };
    case 'file':
      // Its message, then the file list's message and files (D93); then the queue's people.
      return {
        replies: reply ? [reply] : [],
        next: { state: idle(state.attempts), log: 'chatBot', ...(close ? { close } : {}) },
        greeted: false,
        ...(option.optFileId === null ? {} : { files: [option.optFileId] }),
      };
    default:
      // integration: its message, then the integration answers (D162); without one, the queue's people.
      return {
        replies: reply ? [reply] : [],
        next: { state: idle(state.attempts), log: 'chatBot', ...(close ? { close } : {}) },
        greeted: false,
        ...(option.optIntegrationId && !close ? { integrationId: option.optIntegrationId } : {}),
      };
  }
};
