import { addDays, instantOf, wallKey, wallOf, weekdayOf } from '../../functions/core/outbound/zoned-time';
import { createCompanyCampaign } from '../../functions/core/campaigns/campaign-service';
import { createCompanyFlowCampaign } from '../../functions/core/flows/flow-campaign-service';
import { createCompanyFlow, saveCompanyFlowDocument } from '../../functions/core/flows/flow-service';
import { createContactList, createContactListItem } from '../../functions/data/contact-list-repository';
import { createSchedule, newScheduleId } from '../../functions/data/schedule-repository';
import { setNotifier } from '../../functions/core/notifier';
import { realtimeNotifier } from '../../functions/realtime/publisher';
import type { AuthContext } from '../../functions/shared/auth-context';

/**
 * The demo company's automatic sends (README "Demo data"), so `/schedules`, `/contact-lists` and
 * `/campaigns` show something on first start:
 * - a monthly reminder to one of the demo's customers on the "WhatsApp Demo" connection, the first at 09:00
 *   São Paulo time on the next weekday, six times, moved to the business day before when it falls on a
 *   weekend or holiday (tipoDias 5; decisions D118–D120);
 * - a contact list of four customers and a campaign to it with two message variants, not started
 *   (INATIVA: it goes out when someone schedules it; decisions D133–D136);
 * - a flow (start → welcome text → menu → Vendas or Suporte) and a phrase campaign that starts it when a
 *   customer of "WhatsApp Demo" writes "quero atendimento" (decisions D138–D141);
 * - two bot flows on the local cloud's stand-ins (decisions D173, D174): "quero o robô" talks to the fake
 *   Typebot (`tchau` ends it) and "falar com a IA" to the fake OpenAI (asking for an `atendente` hands over),
 *   each then moving the ticket to a queue.
 */
export interface DemoAutomationInput {
  companyId: number;
  whatsappId: number;
  contact: { id: number; name: string; number: string };
  /** Customers for the campaign's contact list. */
  customers: readonly { name: string; number: string }[];
  /** Who scheduled it: the demo admin. */
  userId: number;
  queues: { vendas: number; suporte: number };
  /** The fake Typebot/n8n/Dialogflow server's base URL (infra/local/fake-integrations.ts). */
  integrationsUrl: string;
}

const ZONE = 'America/Sao_Paulo';

export const seedDemoAutomation = async (input: DemoAutomationInput): Promise<void> => {
  // The services announce what they make, as a Lambda would (nobody is connected yet: nothing goes out).
  setNotifier(realtimeNotifier);
  const today = wallOf(new Date(), ZONE);
  let day = addDays(`${today.year}-${String(today.month).padStart(2, '0')}-${String(today.day).padStart(2, '0')}`, 1);
  while ([0, 6].includes(weekdayOf(day))) day = addDays(day, 1);
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const at = instantOf({ year, month, day: date, hour: 9, minute: 0 }, ZONE);
  const local = wallKey(wallOf(at, ZONE));
  const stamp = new Date().toISOString();
  await createSchedule({
    id: await newScheduleId(input.companyId),
    companyId: input.companyId,
    body: 'Olá! Passando para lembrar da sua revisão mensal. Responda esta mensagem para agendar.',
    contactId: input.contact.id,
    contactName: input.contact.name,
    contactNumber: input.contact.number,
    sendAt: at.toISOString(),
    sendAtLocal: local,
    startLocal: local,
    occurrenceIndex: 0,
    status: 'PENDENTE',
    sentAt: null,
    openTicket: 'disabled',
    ticketUserId: null,
    queueId: null,
    statusTicket: 'closed',
    intervalo: 3,
    valorIntervalo: 1,
    enviarQuantasVezes: 6,
    tipoDias: 5,
    assinar: false,
    mediaPath: null,
    mediaName: null,
    mediaType: null,
    mediaSize: null,
    whatsappId: input.whatsappId,
    userId: input.userId,
    sentCount: 0,
    missedCount: 0,
    lastError: null,
    ticketId: null,
    ticketFor: null,
    dueAt: at.toISOString(),
    heldUntil: null,
    claimedAt: null,
    claimToken: null,
    createdAt: stamp,
    updatedAt: stamp,
  });

  const list = await createContactList(input.companyId, 'Clientes da demonstração');
  for (const c of input.customers.slice(0, 4)) {
    await createContactListItem(input.companyId, { contactListId: list.id, name: c.name, number: c.number, email: '' });
  }
  const admin: AuthContext = {
    companyId: input.companyId,
    userId: input.userId,
    profile: 'admin',
    super: false,
    userFlags: {},
    planFlags: { useCampaigns: true },
  };
  await createCompanyCampaign(admin, {
    name: 'Promoção de fim de ano',
    message1: 'Olá {nome}! Nossa promoção de fim de ano começou: 20% em toda a loja até sexta.',
    message2: 'Oi {nome}, tudo bem? Separamos 20% de desconto para você até sexta. Quer ver as novidades?',
    contactListId: list.id,
    whatsappId: input.whatsappId,
    openTicket: 'disabled',
    statusTicket: 'closed',
  });

  const flow = await createCompanyFlow(admin, { name: 'Atendimento inicial' });
  const spot = (x: number, y: number) => ({ x, y });
  await saveCompanyFlowDocument(admin, {
    idFlow: flow.id,
    nodes: [
      { id: 'start', type: 'start', position: spot(0, 0), data: {} },
      {
        id: 'welcome',
        type: 'singleBlock',
        position: spot(280, 0),
        data: {
          seq: ['message1'],
          elements: [
            { number: 'message1', type: 'message', value: 'Olá! Que bom falar com você pela Demo Atendimento.' },
          ],
        },
      },
      {
        id: 'menu',
        type: 'menu',
        position: spot(560, 0),
        data: {
          message: 'Como podemos ajudar?',
          arrayOption: [
            { number: 1, value: 'Quero comprar' },
            { number: 2, value: 'Preciso de suporte' },
          ],
        },
      },
      { id: 'sales', type: 'ticket', position: spot(880, -80), data: { queueId: input.queues.vendas, name: 'Vendas' } },
      {
        id: 'support',
        type: 'ticket',
        position: spot(880, 80),
        data: { queueId: input.queues.suporte, name: 'Suporte' },
      },
    ],
    connections: [
      { source: 'start', target: 'welcome' },
      { source: 'welcome', target: 'menu' },
      { source: 'menu', sourceHandle: 'a1', target: 'sales' },
      { source: 'menu', sourceHandle: 'a2', target: 'support' },
    ],
  });
  await createCompanyFlowCampaign(admin, {
    name: 'Quero atendimento',
    phrase: 'quero atendimento',
    flowId: flow.id,
    whatsappId: input.whatsappId,
  });

  // The bots, on the local cloud's stand-ins: a Typebot and the AI assistant, each handing over to a queue.
  const bots = [
    {
      name: 'Robô Typebot (demonstração)',
      phrase: 'quero o robô',
      bot: {
        id: 'typebot',
        type: 'typebot' as const,
        data: {
          name: 'Typebot da demonstração',
          urlN8N: `${input.integrationsUrl}/typebot/ok-demo`,
          typebotSlug: 'demo',
          typebotExpires: 5,
          typebotDelayMessage: 1000,
          typebotKeywordFinish: 'sair',
        },
      },
      queue: { id: input.queues.vendas, name: 'Vendas' },
    },
    {
      name: 'Assistente com IA (demonstração)',
      phrase: 'falar com a ia',
      bot: {
        id: 'openai',
        type: 'openai' as const,
        data: {
          name: 'Assistente da demonstração',
          apiKey: 'sk-demo-local-fake',
          prompt:
            'Você é o assistente virtual da Demo Atendimento. Responda dúvidas sobre pedidos e entregas com ' +
            'educação e em poucas palavras.',
          voice: 'texto',
          maxTokens: 100,
          temperature: 1,
          maxMessages: 10,
        },
      },
      queue: { id: input.queues.suporte, name: 'Suporte' },
    },
  ];
  for (const b of bots) {
    const botFlow = await createCompanyFlow(admin, { name: b.name });
    await saveCompanyFlowDocument(admin, {
      idFlow: botFlow.id,
      nodes: [
        { id: 'start', type: 'start', position: spot(0, 0), data: {} },
        { ...b.bot, position: spot(280, 0) },
        { id: 'queue', type: 'ticket', position: spot(560, 0), data: { queueId: b.queue.id, name: b.queue.name } },
      ],
      connections: [
        { source: 'start', target: b.bot.id },
        { source: b.bot.id, target: 'queue' },
      ],
    });
    await createCompanyFlowCampaign(admin, {
      name: b.name,
      phrase: b.phrase,
      flowId: botFlow.id,
      whatsappId: input.whatsappId,
    });
  }
};
