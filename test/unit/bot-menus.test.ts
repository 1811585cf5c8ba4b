import { describe, expect, it } from 'vitest';
import { cloudMessage, pageMessage } from '../../functions/channels/meta/graph-client';
import { mapMetaWebhook } from '../../functions/channels/meta/webhook-mappers';
import type { ChatbotOption } from '../../functions/contracts/queues';
import { decideBot, DEFAULT_BOT_TEXTS, type BotInput, type BotQueue } from '../../functions/core/inbound/chatbot';
import { answerOf, menuOf, storedContent, type MenuContent } from '../../functions/core/pipeline/message-content';

/**
 * Bot menus drawn by the channel (decisions D132): the chatbot describes each menu it sends; the Cloud API
 * draws it as buttons or a list, Messenger and Instagram as quick replies, within Meta's limits; the
 * customer's press comes back as the choice's id, which the bot reads before the text.
 */
const opt = (id: number, name: string, options: ChatbotOption[] = []): ChatbotOption => ({
  id,
  name,
  queueType: 'text',
  greetingMessage: '',
  closeTicket: false,
  optQueueId: null,
  optUserId: null,
  optIntegrationId: null,
  optFileId: null,
  options,
});
const support: BotQueue = {
  id: 2,
  name: 'Suporte',
  greetingMessage: '',
  chatbots: [opt(10, 'Internet', [opt(11, 'Sem conexão'), opt(12, 'Lenta')]), opt(20, 'Outros')],
};
const base = (over: Partial<BotInput> = {}): BotInput => ({
  isNew: false,
  ticket: { status: 'pending', userId: null, queueId: null },
  state: { stage: null, path: [], attempts: 0 },
  body: '',
  connection: { greetingMessage: 'Olá!', queueIds: [1, 2], maxUseBotQueues: 3 },
  queues: new Map([
    [1, { id: 1, name: 'Vendas', greetingMessage: 'Vendas aqui', chatbots: [] }],
    [2, support],
  ]),
  settings: { sendGreetingMessageOneQueues: 'enabled' },
  texts: DEFAULT_BOT_TEXTS,
  ...over,
});
const inSupport = (path: number[]): Partial<BotInput> => ({
  ticket: { status: 'pending', userId: null, queueId: 2 },
  state: { stage: 'chatbot', path, attempts: 0 },
});

describe('the chatbot describes the menus it sends', () => {
  it("the queue menu: the greeting above, one choice per queue numbered as the text's lines", () => {
    const d = decideBot(base({ isNew: true }));
    expect(d.replies).toEqual(['Olá!\n\n*1* - Vendas\n*2* - Suporte']);
    expect(d.menu).toEqual({
      intro: 'Olá!',
      button: 'Ver opções',
      choices: [
        { id: '1', title: 'Vendas' },
        { id: '2', title: 'Suporte' },
      ],
    });
  });

  it('a sub-level adds the back and to-start choices; a menu without text gets the "choose" line', () => {
    const d = decideBot(base({ ...inSupport([]), body: '1' }));
    expect(d.menu).toEqual({
      intro: DEFAULT_BOT_TEXTS.choose,
      button: DEFAULT_BOT_TEXTS.listButton,
      choices: [
        { id: '1', title: 'Sem conexão' },
        { id: '2', title: 'Lenta' },
        { id: '#', title: DEFAULT_BOT_TEXTS.backChoice },
        { id: '0', title: DEFAULT_BOT_TEXTS.startChoice },
      ],
    });
    // Pressing "back" sends its id, which the bot reads as the typed '#'.
    expect(decideBot(base({ ...inSupport([10]), body: '#' })).next?.state.path).toEqual([]);
  });

  it('an invalid answer re-draws the menu under the invalid-option line; a plain text reply carries no menu', () => {
    const d = decideBot(base({ ...inSupport([]), body: 'nada disso' }));
    expect(d.menu?.intro).toBe(DEFAULT_BOT_TEXTS.invalidOption);
    expect(d.menu?.choices.map((c) => c.id)).toEqual(['1', '2']);
    expect(decideBot(base({ ...inSupport([]), body: '2' })).menu).toBeUndefined();
  });
});

describe("the customer's press is read by its id", () => {
  it('a pressed choice is stored with its id; the bot reads the id, the ticket shows the title', () => {
    const stored = storedContent({ type: 'text', body: 'Computadores e periféri…', choiceId: '2' });
    expect(stored.body).toBe('Computadores e periféri…');
    expect(answerOf(stored)).toBe('2');
    expect(answerOf(storedContent({ type: 'text', body: 'Vendas' }))).toBe('Vendas');
  });

  it('Cloud API button and list replies and Messenger quick replies carry the id', () => {
    const cloud = (message: Record<string, unknown>) =>
      mapMetaWebhook({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '1',
            changes: [
              {
                field: 'messages',
                value: {
                  metadata: { phone_number_id: '106540352242922' },
                  messages: [{ from: '16505551234', id: 'wamid.X', timestamp: '1735689600', ...message }],
                },
              },
            ],
          },
        ],
      })[0]?.event;
    expect(
      cloud({ type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: '3', title: 'Redes' } } }),
    ).toMatchObject({ content: { type: 'text', body: 'Redes', choiceId: '3' } });
    expect(
      cloud({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: '#', title: 'Voltar' } } }),
    ).toMatchObject({ content: { type: 'text', body: 'Voltar', choiceId: '#' } });
    const [page] = mapMetaWebhook({
      object: 'page',
      entry: [
        {
          id: '1061234567890',
          time: 1_735_689_600_000,
          messaging: [
            {
              sender: { id: '7012345678901234' },
              recipient: { id: '1061234567890' },
              timestamp: 1_735_689_600_000,
              message: { mid: 'm_1', text: 'Vendas', quick_reply: { payload: '1' } },
            },
          ],
        },
      ],
    });
    expect(page?.event).toMatchObject({ content: { type: 'text', body: 'Vendas', choiceId: '1' } });
  });
});

describe("Meta's drawings of a menu, within its limits", () => {
  const menu = (count: number, style: 'list' | 'button' = 'button', intro = 'Escolha:'): MenuContent => ({
    style,
    intro,
    button: 'Ver opções',
    choices: Array.from({ length: count }, (_, i) => ({ id: String(i + 1), title: `Opção ${i + 1}` })),
  });
  const text = (m: MenuContent) => ({ type: 'text' as const, text: 'o texto numerado', menu: m });

  it('Cloud API: buttons up to three choices, a list up to ten, numbered text beyond', () => {
    expect(cloudMessage(text(menu(3)))).toMatchObject({ type: 'interactive', interactive: { type: 'button' } });
    expect(cloudMessage(text(menu(4)))).toMatchObject({ type: 'interactive', interactive: { type: 'list' } });
    expect(cloudMessage(text(menu(2, 'list')))).toMatchObject({ interactive: { type: 'list' } });
    expect(cloudMessage(text(menu(11, 'list')))).toEqual({
      type: 'text',
      text: { body: 'o texto numerado', preview_url: false },
    });
    // The interactive body holds 1024 characters: a longer greeting keeps the whole text.
    expect(cloudMessage(text(menu(2, 'list', 'x'.repeat(1025))))).toMatchObject({ type: 'text' });
  });

  it('Messenger and Instagram: quick replies up to thirteen, titles cut at twenty characters', () => {
    const drawn = pageMessage(text({ ...menu(2), choices: [{ id: '1', title: 'Atendimento ao consumidor' }] }));
    expect(drawn).toEqual({
      text: 'Escolha:',
      quick_replies: [{ content_type: 'text', title: 'Atendimento ao cons…', payload: '1' }],
    });
    expect(pageMessage(text(menu(14)))).toEqual({ text: 'o texto numerado' });
  });

  it('a stored message gives its menu back; other data is no menu', () => {
    expect(menuOf(JSON.stringify({ menu: menu(2) }))).toEqual(menu(2));
    expect(menuOf(JSON.stringify({ choiceId: '1' }))).toBeNull();
    expect(menuOf('not json')).toBeNull();
    expect(menuOf(undefined)).toBeNull();
  });
});
