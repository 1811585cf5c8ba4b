import { describe, expect, it } from 'vitest';
import type { ChatbotOption } from '../../functions/contracts/queues';
import { decideBot, DEFAULT_BOT_TEXTS, type BotInput, type BotQueue } from '../../functions/core/inbound/chatbot';

/** The chatbot's table (decisions D91): state + answer → replies and the ticket's next state. */
const opt = (id: number, name: string, extra: Partial<ChatbotOption> = {}): ChatbotOption => ({
  id,
  name,
  queueType: 'text',
  greetingMessage: `Sobre ${name}`,
  closeTicket: false,
  optQueueId: null,
  optUserId: null,
  optIntegrationId: null,
  optFileId: null,
  options: [],
  ...extra,
});

const sales: BotQueue = { id: 1, name: 'Vendas', greetingMessage: 'Bem-vindo às Vendas!', chatbots: [] };
const support: BotQueue = {
  id: 2,
  name: 'Suporte',
  greetingMessage: 'Suporte técnico.',
  chatbots: [
    opt(10, 'Internet', {
      options: [
        opt(11, 'Sem conexão', { options: [opt(12, 'Reiniciar roteador', { greetingMessage: 'Desligue e ligue.' })] }),
        opt(13, 'Lenta'),
      ],
    }),
    opt(20, 'Falar com vendas', { queueType: 'queue', optQueueId: 1, greetingMessage: 'Transferindo para vendas' }),
    opt(30, 'Falar com a Ana', { queueType: 'attendent', optUserId: 7, greetingMessage: 'A Ana já vem' }),
    opt(40, 'Encerrar', { closeTicket: true, greetingMessage: 'Até logo!' }),
  ],
};

const base = (over: Partial<BotInput> = {}): BotInput => ({
  isNew: false,
  ticket: { status: 'pending', userId: null, queueId: null },
  state: { stage: null, path: [], attempts: 0 },
  body: '',
  connection: { greetingMessage: 'Olá! Escolha um setor:', queueIds: [1, 2], maxUseBotQueues: 3 },
  queues: new Map([
    [1, sales],
    [2, support],
  ]),
  settings: { sendGreetingMessageOneQueues: 'enabled' },
  texts: DEFAULT_BOT_TEXTS,
  ...over,
});
const inSupport = (path: number[], attempts = 0): Partial<BotInput> => ({
  ticket: { status: 'pending', userId: null, queueId: 2 },
  state: { stage: 'chatbot', path, attempts },
});

describe('chatbot: the queue menu', () => {
  it('a new ticket on a connection with several queues gets the greeting and the numbered queues', () => {
    const d = decideBot(base({ isNew: true }));
    expect(d.replies).toEqual(['Olá! Escolha um setor:\n\n*1* - Vendas\n*2* - Suporte']);
    expect(d.next).toMatchObject({ state: { stage: 'queues', path: [] } });
    expect(d.greeted).toBe(true);
  });

  it.each([
    ['1', 1],
    ['vendas', 1],
    ['  SUPORTE ', 2],
  ])('the answer %j picks queue %i', (body, queueId) => {
    const d = decideBot(base({ body, state: { stage: 'queues', path: [], attempts: 0 } }));
    expect(d.next?.queueId).toBe(queueId);
    expect(d.next?.log).toBe('queue');
  });

  it('a queue without a tree answers its greeting and the bot ends; one with a tree opens its menu', () => {
    const toSales = decideBot(base({ body: '1', state: { stage: 'queues', path: [], attempts: 0 } }));
    expect(toSales.replies).toEqual(['Bem-vindo às Vendas!']);
    expect(toSales.next?.state.stage).toBeNull();
    const toSupport = decideBot(base({ body: '2', state: { stage: 'queues', path: [], attempts: 0 } }));
    expect(toSupport.replies[0]).toBe(
      'Suporte técnico.\n\n*1* - Internet\n*2* - Falar com vendas\n*3* - Falar com a Ana\n*4* - Encerrar',
    );
    expect(toSupport.next?.state).toEqual({ stage: 'chatbot', path: [], attempts: 0 });
  });

  it('an answer that matches nothing re-prompts, and after maxUseBotQueues the bot stops for a person', () => {
    const first = decideBot(base({ body: '9', state: { stage: 'queues', path: [], attempts: 0 } }));
    expect(first.replies).toEqual([`${DEFAULT_BOT_TEXTS.invalidOption}\n\n*1* - Vendas\n*2* - Suporte`]);
    expect(first.next?.state).toEqual({ stage: 'queues', path: [], attempts: 1 });
    const last = decideBot(base({ body: 'oi', state: { stage: 'queues', path: [], attempts: 2 } }));
    expect(last.replies).toEqual([]);
    expect(last.next?.state).toEqual({ stage: null, path: [], attempts: 3 });
  });

  it('a single queue: straight into its menu, the greeting kept unless sendGreetingMessageOneQueues is off', () => {
    const one = { connection: { greetingMessage: 'Olá!', queueIds: [2], maxUseBotQueues: 3 } };
    const ticket = { status: 'pending', userId: null, queueId: 2 };
    expect(decideBot(base({ ...one, ticket, isNew: true })).replies[0]).toMatch(
      /^Olá!\n\nSuporte técnico\.\n\n\*1\* - Internet/,
    );
    const silent = decideBot(
      base({ ...one, ticket, isNew: true, settings: { sendGreetingMessageOneQueues: 'disabled' } }),
    );
    expect(silent.replies[0]).toMatch(/^Suporte técnico\./);
  });

  it('does nothing once a person holds the ticket, or on a ticket without bot state', () => {
    expect(
      decideBot(
        base({
          body: '1',
          ticket: { status: 'open', userId: 3, queueId: null },
          state: { stage: 'queues', path: [], attempts: 0 },
        }),
      ).replies,
    ).toEqual([]);
    expect(decideBot(base({ body: '1' }))).toEqual({ replies: [], greeted: false });
  });
});

describe("chatbot: walking a queue's tree", () => {
  it('three levels deep by number and by name; sub-menus offer # and 0', () => {
    const l1 = decideBot(base({ ...inSupport([]), body: '1' }));
    expect(l1.replies[0]).toBe(
      `Sobre Internet\n\n*1* - Sem conexão\n*2* - Lenta\n\n${DEFAULT_BOT_TEXTS.back}\n${DEFAULT_BOT_TEXTS.start}`,
    );
    expect(l1.next?.state.path).toEqual([10]);
    const l2 = decideBot(base({ ...inSupport([10]), body: 'sem conexao' }));
    expect(l2.next?.state.path).toEqual([10, 11]);
    const l3 = decideBot(base({ ...inSupport([10, 11]), body: '1' }));
    expect(l3.replies).toEqual(['Desligue e ligue.']);
    expect(l3.next?.state.path).toEqual([10, 11]);
  });

  it('# goes back one level with its menu; 0 goes to the start', () => {
    const back = decideBot(base({ ...inSupport([10, 11]), body: '#' }));
    expect(back.next?.state.path).toEqual([10]);
    expect(back.replies[0]).toMatch(/^Sobre Internet\n\n\*1\* - Sem conexão/);
    const start = decideBot(base({ ...inSupport([10, 11]), body: '0' }));
    expect(start.next?.state.path).toEqual([]);
    expect(start.replies[0]).toMatch(/^Suporte técnico\.\n\n\*1\* - Internet/);
  });

  it('an invalid answer re-prompts the current level', () => {
    const d = decideBot(base({ ...inSupport([10]), body: '7' }));
    expect(d.replies[0]).toMatch(new RegExp(`^${DEFAULT_BOT_TEXTS.invalidOption}\\n\\n\\*1\\* - Sem conexão`));
    expect(d.next?.state).toEqual({ stage: 'chatbot', path: [10], attempts: 1 });
  });

  it('a queue option moves the ticket and answers its message and the new queue greeting', () => {
    const d = decideBot(base({ ...inSupport([]), body: '2' }));
    expect(d.replies).toEqual(['Transferindo para vendas', 'Bem-vindo às Vendas!']);
    expect(d.next).toMatchObject({ queueId: 1, log: 'queue', state: { stage: null } });
  });

  it('an attendant option gives the ticket to that user; a closing option closes after its message', () => {
    expect(decideBot(base({ ...inSupport([]), body: '3' })).next).toMatchObject({ userId: 7, state: { stage: null } });
    const close = decideBot(base({ ...inSupport([]), body: 'encerrar' }));
    expect(close.replies).toEqual(['Até logo!']);
    expect(close.next).toMatchObject({ close: true, state: { stage: null } });
  });

  it('a path whose option was deleted meanwhile starts over at the root', () => {
    const d = decideBot(base({ ...inSupport([99]), body: '1' }));
    expect(d.next?.state.path).toEqual([]);
    expect(d.replies[0]).toMatch(/^Suporte técnico\./);
  });
});

describe('chatbot: file lists (decisions D93)', () => {
  const withFiles = base({
    queues: new Map([
      [1, { ...sales, fileListId: 70 }],
      [
        2,
        {
          ...support,
          chatbots: [
            ...support.chatbots,
            opt(50, 'Catálogo', { queueType: 'file', optFileId: 80, greetingMessage: 'Segue:' }),
          ],
        },
      ],
    ]),
  });

  it('a file option answers its message, then its file list; the bot ends', () => {
    const d = decideBot({ ...withFiles, ...inSupport([]), body: '5' });
    expect(d.replies).toEqual(['Segue:']);
    expect(d.files).toEqual([80]);
    expect(d.next).toMatchObject({ state: { stage: null }, log: 'chatBot' });
  });

  it("entering a queue by the menu sends the queue's file list after its greeting", () => {
    const d = decideBot({ ...withFiles, state: { stage: 'queues', path: [], attempts: 0 }, body: 'vendas' });
    expect(d.replies).toEqual(['Bem-vindo às Vendas!']);
    expect(d.files).toEqual([70]);
    expect(d.next).toMatchObject({ queueId: 1, log: 'queue' });
  });

  it("a new ticket that starts in a queue without a tree gets the queue's file list", () => {
    const d = decideBot({
      ...withFiles,
      isNew: true,
      ticket: { status: 'pending', userId: null, queueId: 1 },
      connection: { greetingMessage: 'Olá!', queueIds: [1], maxUseBotQueues: 3 },
    });
    expect(d).toEqual({ replies: [], greeted: false, files: [70] });
  });

  it('a queue without a file list sends none', () => {
    const d = decideBot(base({ state: { stage: 'queues', path: [], attempts: 0 }, body: 'vendas' }));
    expect(d.files).toBeUndefined();
  });
});
