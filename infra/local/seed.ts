import { hashPassword } from '../../functions/core/passwords';
import { createCompany, getCompany } from '../../functions/data/company-repository';
import { createPlan, type Plan } from '../../functions/data/plan-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { nextId } from '../../functions/data/counter-repository';
import type { ChatbotOption } from '../../functions/contracts/queues';
import { createTag } from '../../functions/data/tag-repository';
import { LOCAL_FAKE_PORTS } from './cloud';
import { seedDemoAutomation } from './seed-automation';
import { seedDemoHistory } from './seed-history';
import { createUser } from '../../functions/data/user-repository';

/**
 * Demo data for the local cloud, written once on first start through the product's own repositories:
 * the platform owner's company 1 (due 2999-12-31, spec §9) with its super admin, the plans, and a demo
 * company with an admin, two attendants, two queues, tags (two of them kanban lanes), a simulator
 * connection and two weeks of worked tickets (seed-history.ts). A second start finds company 1 and writes
 * nothing.
 */
export interface SeedResult {
  seeded: boolean;
  logins: { role: string; email: string; password: string }[];
}

export const DEMO_PASSWORD = 'Zapdesk@2026';

const LOGINS = [
  { role: 'platform owner (super admin, company 1)', email: 'owner@zapdesk.local', password: DEMO_PASSWORD },
  { role: 'demo company admin', email: 'admin@demo.zapdesk.local', password: DEMO_PASSWORD },
  { role: 'demo attendant (Vendas)', email: 'ana@demo.zapdesk.local', password: DEMO_PASSWORD },
  { role: 'demo attendant (Suporte)', email: 'bruno@demo.zapdesk.local', password: DEMO_PASSWORD },
];

const allFeatures = {
  useWhatsapp: true,
  useFacebook: true,
  useInstagram: true,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
} satisfies Partial<Plan>;

const inDays = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** `integrationsUrl`: the fake Typebot the demo's bot flow talks to (decisions D174). */
export const seedDemoData = async (options: { integrationsUrl?: string } = {}): Promise<SeedResult> => {
  if (await getCompany(1)) return { seeded: false, logins: LOGINS };

  const platformPlan = await createPlan({
    name: 'Plataforma',
    users: 999,
    connections: 999,
    queues: 999,
    amount: 0,
    isPublic: false,
    ...allFeatures,
  });
  await createPlan({
    name: 'Básico',
    users: 3,
    connections: 1,
    queues: 3,
    amount: 49,
    isPublic: true,
    ...allFeatures,
    useCampaigns: false,
    useOpenAi: false,
    useIntegrations: false,
    useExternalApi: false,
  });
  const professional = await createPlan({
    name: 'Profissional',
    users: 10,
    connections: 3,
    queues: 10,
    amount: 149,
    isPublic: true,
    ...allFeatures,
  });

  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const owner = await createCompany({
    name: 'ZapDesk',
    email: 'owner@zapdesk.local',
    phone: '',
    document: '',
    planId: platformPlan.id,
    status: true,
    recurrence: 'ANUAL',
    dueDate: '2999-12-31',
  });
  if (owner.id !== 1) throw new Error(`the platform company must be company 1, got ${owner.id}: reset .data/`);
  await createUser(owner.id, {
    name: 'Dona da Plataforma',
    email: LOGINS[0]!.email,
    passwordHash,
    profile: 'admin',
    super: true,
  });

  const demo = await createCompany({
    name: 'Demo Atendimento',
    email: 'admin@demo.zapdesk.local',
    phone: '5511999990000',
    document: '',
    // Every area on (campaigns, schedules, integrations…), so the demo can show each of them.
    planId: professional.id,
    status: true,
    recurrence: 'MENSAL',
    dueDate: inDays(30),
  });
  const vendas = await createQueue(demo.id, {
    name: 'Vendas',
    color: '#2e7d32',
    orderQueue: 1,
    greetingMessage: 'Olá! Em que podemos ajudar na sua compra?',
  });
  // Suporte answers with a chatbot menu (decisions D89, D91): a customer picks a topic, or goes to Vendas.
  const bot = async (
    name: string,
    greetingMessage: string,
    extra: Partial<ChatbotOption> = {},
  ): Promise<ChatbotOption> => ({
    id: await nextId(demo.id, 'chatbot'),
    name,
    queueType: 'text',
    greetingMessage,
    closeTicket: false,
    optQueueId: null,
    optUserId: null,
    optIntegrationId: null,
    optFileId: null,
    options: [],
    ...extra,
  });
  const suporte = await createQueue(demo.id, {
    name: 'Suporte',
    color: '#1565c0',
    orderQueue: 2,
    greetingMessage: 'Olá! Conte-nos o que aconteceu.',
    chatbots: [
      await bot('Internet', 'Sobre a sua internet:', {
        options: [
          await bot('Sem conexão', 'Desligue o roteador por 30 segundos e ligue de novo. Se não voltar, responda *#*.'),
          await bot('Conexão lenta', 'Faça um teste em velocidade.zapdesk.local e nos envie o resultado.'),
        ],
      }),
      await bot('Segunda via do boleto', 'Enviaremos a segunda via em instantes.'),
      await bot('Comprar um plano', 'Vou te passar para o time de Vendas.', {
        queueType: 'queue',
        optQueueId: vendas.id,
      }),
    ],
  });
  const demoAdmin = await createUser(demo.id, {
    name: 'Administradora Demo',
    email: LOGINS[1]!.email,
    passwordHash,
    profile: 'admin',
    queueIds: [vendas.id, suporte.id],
    showDashboard: 'enabled',
  });
  const ana = await createUser(demo.id, {
    name: 'Ana Atendente',
    email: LOGINS[2]!.email,
    passwordHash,
    profile: 'user',
    queueIds: [vendas.id],
  });
  const bruno = await createUser(demo.id, {
    name: 'Bruno Atendente',
    email: LOGINS[3]!.email,
    passwordHash,
    profile: 'user',
    queueIds: [suporte.id],
  });

  // Tags, two of them kanban lanes (decisions D100–D102): /tags, /Kanban and /TagsKanban have something to show.
  await createTag(demo.id, { name: 'Cliente VIP', color: '#ad1457', kanban: 0 });
  const proposal = await createTag(demo.id, { name: 'Proposta enviada', color: '#ef6c00', kanban: 1 });
  await createTag(demo.id, {
    name: 'Novo lead',
    color: '#00838f',
    kanban: 1,
    timeLane: 24,
    nextLaneId: proposal.id,
    greetingMessageLane: 'Obrigado pelo contato! Já separamos as melhores opções para você.',
  });

  // A simulator connection on both queues and two weeks of worked tickets: the dashboard, /reports and
  // /contacts have history (seed-history.ts).
  const history = await seedDemoHistory({
    companyId: demo.id,
    queues: { vendas: vendas.id, suporte: suporte.id },
    attendants: { vendas: ana.id, suporte: bruno.id },
  });
  // What acts on its own: a scheduled message, a campaign, a flow and its phrase (seed-automation.ts).
  await seedDemoAutomation({
    companyId: demo.id,
    whatsappId: history.whatsappId,
    contact: history.contacts[0]!,
    customers: history.contacts.slice(1),
    userId: demoAdmin.id,
    queues: { vendas: vendas.id, suporte: suporte.id },
    integrationsUrl: options.integrationsUrl ?? `http://127.0.0.1:${LOCAL_FAKE_PORTS.integrations}`,
  });

  return { seeded: true, logins: LOGINS };
};
