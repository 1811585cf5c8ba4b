import { createQueue } from '../../../functions/data/queue-repository';
import { signAccessToken } from '../../../functions/core/access-token';
import { findUserIdByEmail } from '../../../functions/data/user-repository';
import { createTag } from '../../../functions/data/tag-repository';
import { createUser, updateUser } from '../../../functions/data/user-repository';
import { login } from '../../../functions/core/auth/auth-service';
import { requestPasswordReset } from '../../../functions/core/auth/password-reset-service';
import { latestResetCode } from '../../helpers/outbox';
import { avatarForm, freshCompany, TINY_PNG, userWithPassword, type TestCompany } from '../../helpers/fixtures';
import { greetingForm, nonDefaultConnection, someConnection } from '../../helpers/connections';
import { inject } from 'vitest';
import { metaSignature } from '../../../functions/channels/meta/signature';
import { setSessionState } from '../../../functions/data/connection-repository';
import { fakeGraph } from '../../helpers/fake-graph';
import { createContact } from '../../../functions/data/contact-repository';
import { nextId } from '../../../functions/data/counter-repository';
import { createNote, noteWireId } from '../../../functions/data/note-repository';
import { createQuickMessage } from '../../../functions/data/quick-message-repository';
import { createFileList } from '../../../functions/data/file-list-repository';
import { createTicket } from '../../../functions/data/ticket-repository';
import { putMediaObject } from '../../../functions/data/media-store';
import { storeMessage } from '../../../functions/data/message-repository';
import { setCompanySetting } from '../../../functions/data/settings-repository';
import { newUlid } from '../../../functions/data/ulids';
import { randomUUID } from 'node:crypto';
import { createSchedule, newScheduleId } from '../../../functions/data/schedule-repository';
import { wallKey, wallOf } from '../../../functions/core/outbound/zoned-time';
import { putContactImport } from '../../../functions/data/contact-import-repository';
import { putExport } from '../../../functions/data/export-repository';
import { createContactList, createContactListItem } from '../../../functions/data/contact-list-repository';
import { createCampaign, newCampaignId, type Campaign } from '../../../functions/data/campaign-repository';
import { createFlow, saveFlowVersion } from '../../../functions/data/flow-repository';
import { createFlowCampaign } from '../../../functions/data/flow-campaign-repository';
import { createChat } from '../../../functions/data/chat-repository';
import { createAnnouncement } from '../../../functions/data/announcement-repository';
import { createHelp } from '../../../functions/data/help-repository';
import { createPlanNamed } from '../../../functions/data/plan-repository';
import { createPeriodInvoice } from '../../../functions/data/invoice-repository';
import { getCompany } from '../../../functions/data/company-repository';
import { efiWebhookHmac } from '../../../functions/core/billing/efi-provider';
import {
  FAKE_ASAAS_CREDENTIALS,
  FAKE_MERCADOPAGO_CREDENTIALS,
  FAKE_STRIPE_CREDENTIALS,
} from '../../../functions/core/billing/fake-credentials';
import { mercadoPagoSignature } from '../../../functions/core/billing/mercadopago-provider';
import { stripeSignature } from '../../../functions/core/billing/stripe-provider';
import { createIntegration, createPrompt } from '../../../functions/data/integration-repository';
import { createCompany } from '../../../functions/data/company-repository';

/**
 * The expected access table, one row per route of functions/routes.ts (the matrix tests fail when a route
 * has no row, so every issue that adds a route adds its row here). A row says which callers may use the
 * route, how to build a valid request for a caller's own company, and — for routes that name a record
 * by id — how to make such a record in another company, for the tenant-isolation test.
 */
export type Role = 'anonymous' | 'user' | 'admin' | 'super';
export const ROLES: readonly Role[] = ['anonymous', 'user', 'admin', 'super'];

export interface Caller {
  role: Role;
  token: string | undefined;
  /** The caller's company (company 1 for super). */
  companyId: number;
  /** The caller's own user id (0 for anonymous). */
  userId: number;
}

export interface RouteRequest {
  path: string;
  /** A `Cookie` header (the refresh call reads its token from the `jrt` cookie). */
  cookie?: string;
  /** More request headers (Meta's webhook signature). */
  headers?: Record<string, string>;
  body?: unknown;
  query?: Record<string, string>;
}

export interface AccessRow {
  allow: readonly Role[];
  request: (caller: Caller) => Promise<RouteRequest>;
  /**
   * Routes with an id in the path: a record of `owner`'s and the request that reaches it. Ids are numbered
   * per company, so the record must have an id the intruder's company does not have (make a new one
   * rather than reuse the fixture's first users).
   */
  foreign?: (owner: TestCompany) => Promise<RouteRequest>;
  /** The same request with an id that never existed, for comparing the 404 answers. */
  missing?: () => RouteRequest;
  /** Why a route with a path parameter names no tenant record (e.g. a platform setting's key). */
  notTenantData?: string;
}

const everyone: readonly Role[] = ['anonymous', 'user', 'admin', 'super'];
const signedIn: readonly Role[] = ['user', 'admin', 'super'];
const admins: readonly Role[] = ['admin', 'super'];
const superOnly: readonly Role[] = ['super'];

/** Routes keyed by a company id: the caller's own, another tenant's, or one that never existed. */
const byCompany = (
  path: (companyId: number | string) => string,
): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => ({ path: path(caller.companyId) }),
  foreign: async (owner) => ({ path: path(owner.company.id) }),
  missing: () => ({ path: path(999_999_999) }),
});

/** Routes keyed by a connection id: one of the caller's company, another tenant's, or one never made. */
const byConnection = (
  request: (id: number) => RouteRequest,
  make: (companyId: number) => Promise<{ id: number }> = someConnection,
): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await make(caller.companyId)).id),
  foreign: async (owner) => request((await make(owner.company.id)).id),
  missing: () => request(999_999_999),
});

const someQueue = (companyId: number) =>
  createQueue(companyId, {
    name: `Fila ${Math.random().toString(36).slice(2, 8)}`,
    color: `#${Math.floor(Math.random() * 0xffffff)
      .toString(16)
      .padStart(6, '0')}`,
  });
const uniqueName = (prefix: string) => `${prefix} ${Math.random().toString(36).slice(2, 8)}`;

/** A queue with one chatbot option, made directly in storage; the option's id comes from the company's counter. */
const someChatbot = async (companyId: number) => {
  const id = await nextId(companyId, 'chatbot');
  const queue = await createQueue(companyId, {
    name: uniqueName('Fila bot'),
    color: `#${Math.floor(Math.random() * 0xffffff)
      .toString(16)
      .padStart(6, '0')}`,
    chatbots: [
      {
        id,
        name: 'Financeiro',
        queueType: 'text',
        greetingMessage: 'Boletos: responda 1',
        closeTicket: false,
        optQueueId: null,
        optUserId: null,
        optIntegrationId: null,
        optFileId: null,
        options: [],
      },
    ],
  });
  return { queue, id };
};
const byChatbot = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someChatbot(caller.companyId)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'chatbot', 1000);
    return request((await someChatbot(owner.company.id)).id);
  },
  missing: () => request(999_999_999),
});
const byQueue = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someQueue(caller.companyId)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'queue', 1000);
    return request((await someQueue(owner.company.id)).id);
  },
  missing: () => request(999_999_999),
});
const uniqueEmail = () => `matrix-${Math.random().toString(36).slice(2, 10)}@test.local`;

/** A plain user of a company, made directly in storage (no plan limit: fixtures, not the API under test). */
const someUser = (companyId: number) =>
  createUser(companyId, { name: uniqueName('Pessoa'), email: uniqueEmail(), passwordHash: 'x', profile: 'user' });

/** A WhatsApp contact of a company, made directly in storage (a fresh number each time). */
const someContact = (companyId: number) => {
  const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  return createContact(
    companyId,
    { name: uniqueName('Contato'), number, isGroup: false, channel: 'whatsapp', whatsappId: null },
    [`wa#${number}`],
  );
};

/**
 * Contact ids are numbered per company: another company's contact is made after skipping 1,000 ids, so its
 * id is one the intruder's fresh company does not have.
 */
const foreignContact = async (owner: TestCompany) => {
  await nextId(owner.company.id, 'contact', 1000);
  return someContact(owner.company.id);
};

/** Routes keyed by a contact id: one of the caller's company, another tenant's, or one never made. */
const byContact = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someContact(caller.companyId)).id),
  foreign: async (owner) => request((await foreignContact(owner)).id),
  missing: () => request(999_999_999),
});

/** A contact spreadsheet uploaded by `userId` (D104): its import, not started, and the file in S3. */
const someContactImport = async (companyId: number, userId: number) => {
  const id = randomUUID();
  const key = `c/${companyId}/imports/${id}/contatos.csv`;
  const bytes = Buffer.from('nome;numero\nAna;5511987650001\n', 'utf8');
  await putMediaObject(key, bytes, 'text/csv');
  return putContactImport({ id, companyId, userId, fileName: 'contatos.csv', key, size: bytes.length });
};
const byContactImport = (
  request: (id: string) => RouteRequest,
): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someContactImport(caller.companyId, caller.userId)).id),
  foreign: async (owner) => request((await someContactImport(owner.company.id, owner.admin.id)).id),
  missing: () => request(randomUUID()),
});

/** An export of a user (never run: no job is queued for it), for the export routes (decisions D127). */
const someExport = async (companyId: number, userId: number) => {
  const id = randomUUID();
  return putExport({
    id,
    companyId,
    userId,
    kind: 'contacts',
    format: 'csv',
    fileName: 'contatos.csv',
    key: `c/${companyId}/exports/${id}/contatos.csv`,
    filters: {},
    auth: { companyId, userId, profile: 'user', super: false, userFlags: {}, planFlags: {} },
  });
};
const byExport = (request: (id: string) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someExport(caller.companyId, caller.userId)).id),
  foreign: async (owner) => request((await someExport(owner.company.id, owner.admin.id)).id),
  missing: () => request(randomUUID()),
});

/** Routes keyed by a tag id: the caller's own, another tenant's (an id the caller's company lacks), none. */
const byTag = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) =>
    request((await createTag(caller.companyId, { name: uniqueName('Tag'), color: '#123456', kanban: 1 })).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'tag', 1000);
    return request((await createTag(owner.company.id, { name: uniqueName('Alheia'), color: '#654321', kanban: 1 })).id);
  },
  missing: () => request(999_999_999),
});

/** An open ticket of a company for a fresh contact, assigned to `userId` (a plain user sees their own). */
const someTicket = async (companyId: number, userId: number | null) => {
  const contact = await someContact(companyId);
  return createTicket(companyId, {
    status: 'open',
    queueId: null,
    userId,
    contactId: contact.id,
    whatsappId: 1,
    channel: 'whatsapp',
    isGroup: false,
    origin: 'active',
  });
};

/** Another company's ticket, with an id (and contact id) the intruder's fresh company does not have. */
const foreignTicket = async (owner: TestCompany) => {
  await Promise.all([nextId(owner.company.id, 'ticket', 1000), nextId(owner.company.id, 'contact', 1000)]);
  return someTicket(owner.company.id, owner.admin.id);
};

/** Routes keyed by a ticket id: one assigned to the caller, another tenant's, or one never made. */
const byTicket = (
  request: (t: { id: number }) => RouteRequest,
): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request(await someTicket(caller.companyId, caller.userId || null)),
  foreign: async (owner) => request(await foreignTicket(owner)),
  missing: () => request({ id: 999_999_999 }),
});

/** A shared quick reply of the caller (any user may see and change a shared, unlocked one). */
const someQuickMessage = (companyId: number, userId: number) =>
  createQuickMessage(companyId, {
    shortcode: uniqueName('atalho'),
    message: 'Bom dia!',
    geral: true,
    visao: false,
    status: true,
    userId,
  });

/** Routes keyed by a quick-reply id: the caller's own, another tenant's (shared), or one never made. */
const byQuickMessage = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someQuickMessage(caller.companyId, caller.userId || 1)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'quickMessage', 1000);
    return request((await someQuickMessage(owner.company.id, owner.admin.id)).id);
  },
  missing: () => request(999_999_999),
});

/** Flows and phrase campaigns (D138, D140): ids of the owner's company moved past the intruder's. */
const someFlow = (companyId: number) => createFlow(companyId, uniqueName('Fluxo').slice(0, 50));
const byFlow = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someFlow(caller.companyId)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'flow', 1000);
    return request((await someFlow(owner.company.id)).id);
  },
  missing: () => request(999_999_999),
});
/** A flow with a saved first version (a start node), which a test run may walk. */
const someSavedFlow = async (companyId: number) => {
  const flow = await someFlow(companyId);
  await saveFlowVersion(flow, {
    nodes: [{ id: '1', type: 'start', position: { x: 0, y: 0 }, data: {} }],
    connections: [],
  });
  return flow;
};
const someFlowCampaign = async (companyId: number) =>
  createFlowCampaign(companyId, {
    name: uniqueName('Frase'),
    phrase: uniqueName('quero'),
    flowId: (await someFlow(companyId)).id,
    whatsappId: null,
    status: true,
  });
const byFlowCampaign = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someFlowCampaign(caller.companyId)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'flowCampaign', 1000);
    return request((await someFlowCampaign(owner.company.id)).id);
  },
  missing: () => request(999_999_999),
});

/** Contact lists and items (D122): ids of the owner's company moved past the intruder's. */
const someContactList = (companyId: number) => createContactList(companyId, uniqueName('Lista'));
const someContactListItem = async (companyId: number) =>
  createContactListItem(companyId, {
    contactListId: (await someContactList(companyId)).id,
    name: uniqueName('Pessoa'),
    number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    email: '',
  });
const byContactList = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someContactList(caller.companyId)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'contactList', 1000);
    return request((await someContactList(owner.company.id)).id);
  },
  missing: () => request(999_999_999),
});
const byContactListItem = (
  request: (id: number) => RouteRequest,
): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someContactListItem(caller.companyId)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'contactListItem', 1000);
    return request((await someContactListItem(owner.company.id)).id);
  },
  missing: () => request(999_999_999),
});
/** A campaign made directly in storage, in `status`, to an empty list on a new connection (nothing to send). */
const someCampaign = async (companyId: number, status: Campaign['status'] = 'INATIVA') => {
  const [list, connection] = await Promise.all([someContactList(companyId), someConnection(companyId)]);
  const stamp = new Date().toISOString();
  const campaign: Campaign = {
    id: await newCampaignId(companyId),
    companyId,
    name: uniqueName('Campanha'),
    message1: 'Olá {nome}',
    message2: '',
    message3: '',
    message4: '',
    message5: '',
    confirmationMessage1: '',
    confirmationMessage2: '',
    confirmationMessage3: '',
    confirmationMessage4: '',
    confirmationMessage5: '',
    status,
    confirmation: false,
    scheduledAt: null,
    completedAt: null,
    contactListId: list.id,
    tagListId: null,
    whatsappId: connection.id,
    userId: null,
    queueId: null,
    statusTicket: 'pending',
    openTicket: 'disabled',
    mediaKey: null,
    mediaName: null,
    mediaType: null,
    mediaSize: null,
    lastError: null,
    phase: 'materialize',
    audienceCursor: null,
    sendCursor: null,
    waveSeq: 0,
    dueAt: null,
    validContacts: 0,
    done: 0,
    delivered: 0,
    failed: 0,
    confirmationRequested: 0,
    confirmed: 0,
    read: 0,
    replied: 0,
    variantCounts: {},
    createdAt: stamp,
    updatedAt: stamp,
  };
  await createCampaign(campaign);
  return campaign;
};
const byCampaign = (
  request: (id: number) => RouteRequest,
  status: Campaign['status'] = 'INATIVA',
): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someCampaign(caller.companyId, status)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'campaign', 1000);
    return request((await someCampaign(owner.company.id, status)).id);
  },
  missing: () => request(999_999_999),
});
const campaignMediaForm = () => {
  const form = new FormData();
  form.append('file', new Blob([TINY_PNG], { type: 'image/png' }), 'oferta.png');
  return form;
};

/** A one-row csv in the spec's upload form (`file`). */
const contactListForm = () => {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('nome;numero\nAna;5511999990000\n')]), 'lista.csv');
  return form;
};

/** A pending schedule of `userId`'s, an hour ahead (administration §2 Schedules). */
const someSchedule = async (companyId: number, userId: number) => {
  const contact = await someContact(companyId);
  const id = await newScheduleId(companyId);
  const at = new Date(Math.ceil((Date.now() + 3600_000) / 60_000) * 60_000);
  const local = wallKey(wallOf(at, 'America/Sao_Paulo'));
  const stamp = new Date().toISOString();
  await createSchedule({
    id,
    companyId,
    body: 'Lembrete da consulta',
    contactId: contact.id,
    contactName: contact.name,
    contactNumber: contact.number,
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
    intervalo: 1,
    valorIntervalo: 0,
    enviarQuantasVezes: 1,
    tipoDias: 4,
    assinar: false,
    mediaPath: null,
    mediaName: null,
    mediaType: null,
    mediaSize: null,
    whatsappId: null,
    userId: userId || 1,
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
  return { id, contactId: contact.id };
};

const bySchedule = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someSchedule(caller.companyId, caller.userId)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'schedule', 1000);
    return request((await someSchedule(owner.company.id, owner.admin.id)).id);
  },
  missing: () => request(999_999_999),
});

/** The schedule attachment form: one png. */
const scheduleImageForm = () => {
  const form = new FormData();
  form.append('file', new Blob([TINY_PNG], { type: 'image/png' }), 'lembrete.png');
  return form;
};

/** The spec's attachment form {typeArch, file}. */
const quickMessageForm = () => {
  const form = new FormData();
  form.append('typeArch', 'quickMessage');
  form.append('file', new Blob([Buffer.from('%PDF-1.4 teste')], { type: 'application/pdf' }), 'tabela.pdf');
  return form;
};

/** An open WhatsApp ticket of a company on a connection of its own, assigned to `userId`, for message routes. */
const messageTicket = async (companyId: number, userId: number) => {
  const [connection, contact] = await Promise.all([someConnection(companyId), someContact(companyId)]);
  return createTicket(companyId, {
    status: 'open',
    queueId: null,
    userId: userId || null,
    contactId: contact.id,
    whatsappId: connection.id,
    channel: 'whatsapp',
    isGroup: false,
    chatId: `${contact.number}@s.whatsapp.net`,
    origin: 'active',
  });
};

/** Another company's message ticket, with ticket and contact ids the intruder's fresh company does not have. */
const foreignMessageTicket = async (owner: TestCompany) => {
  await Promise.all([nextId(owner.company.id, 'ticket', 1000), nextId(owner.company.id, 'contact', 1000)]);
  return messageTicket(owner.company.id, owner.admin.id);
};

const byMessageTicket = (
  request: (id: number) => RouteRequest,
): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await messageTicket(caller.companyId, caller.userId)).id),
  foreign: async (owner) => request((await foreignMessageTicket(owner)).id),
  missing: () => request(999_999_999),
});

/**
 * A message the user sent a moment ago on their ticket (an audio one, with the company's OpenAI key set, for
 * transcription), as its wire id.
 */
const ownMessage = async (
  companyId: number,
  userId: number,
  audio = false,
  ticket?: { id: number; contactId: number; whatsappId: number },
) => {
  const on = ticket ?? (await messageTicket(companyId, userId));
  const ulid = newUlid();
  const mediaKey = `c/${companyId}/tickets/${on.id}/${ulid}/voz.ogg`;
  if (audio) {
    await putMediaObject(mediaKey, Buffer.concat([Buffer.from('OggS'), Buffer.alloc(64)]), 'audio/ogg');
    await setCompanySetting(companyId, 'openAiKey', 'sk-matrix-key');
  }
  const createdAt = new Date().toISOString();
  await storeMessage(
    {
      ulid,
      companyId,
      ticketId: on.id,
      contactId: on.contactId,
      whatsappId: on.whatsappId,
      body: audio ? '' : 'Mensagem da matriz',
      mediaType: audio ? 'audio' : 'chat',
      ...(audio ? { mediaKey, mimetype: 'audio/ogg' } : {}),
      fromMe: true,
      isPrivate: false,
      isDeleted: false,
      isEdited: false,
      isForwarded: false,
      queueId: null,
      ack: 0,
      createdAt,
      userId: userId || null,
    },
    { lastMessage: 'Mensagem da matriz', updatedAt: createdAt, unread: 'reset' },
  );
  return `${on.id}-${ulid}`;
};

const byOwnMessage = (
  request: (id: string) => RouteRequest,
  audio = false,
): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request(await ownMessage(caller.companyId, caller.userId, audio)),
  foreign: async (owner) =>
    request(await ownMessage(owner.company.id, owner.admin.id, audio, await foreignMessageTicket(owner))),
  missing: () => request('999999999-01ARZ3NDEKTSV4RRFFQ69G5FAV'),
});

/** A file list of a company with one option (id 1) waiting for its file. */
const someFileList = (companyId: number) =>
  createFileList(companyId, {
    name: uniqueName('Lista'),
    message: 'Seguem os arquivos',
    userId: null,
    optionNames: ['Tabela'],
  });

/** Routes keyed by a file-list id: one of the caller's company, another tenant's, or one never made. */
const byFileList = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someFileList(caller.companyId)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'fileList', 1000);
    return request((await someFileList(owner.company.id)).id);
  },
  missing: () => request(999_999_999),
});

/** The spec's upload form {fileId, typeArch, files, mediaType, name, id}: a PDF for option 1. */
const fileListForm = (fileListId: number) => {
  const form = new FormData();
  form.append('fileId', String(fileListId));
  form.append('typeArch', 'fileList');
  form.append('files', new Blob([Buffer.from('%PDF-1.4 lista')], { type: 'application/pdf' }), 'tabela.pdf');
  form.append('mediaType', 'application/pdf');
  form.append('name', 'Tabela');
  form.append('id', '1');
  return form;
};

/** Internal chats (D145): one owned by `userId`, its only member; ids of the owner's company moved past the intruder's. */
const someChat = (companyId: number, userId: number) =>
  createChat(companyId, { uuid: randomUUID(), title: uniqueName('Chat'), ownerId: userId, memberIds: [userId] });
const byChat = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someChat(caller.companyId, caller.userId || 1)).chat.id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'chat', 1000);
    return request((await someChat(owner.company.id, owner.admin.id)).chat.id);
  },
  missing: () => request(999_999_999),
});
/** Announcements and help entries are the platform's, written for every company (D144, D146). */
const COMPANY_ADMIN = 'the platform owner manages every company by id; the routes are super-only';

/** A company made only to be edited or deleted by an access row. */
const throwawayCompany = () =>
  createCompany({
    name: uniqueName('Descartável'),
    email: `${randomUUID()}@test.local`,
    phone: '',
    document: '',
    planId: 1,
    status: true,
    recurrence: 'MENSAL',
    dueDate: '2999-12-31',
  });

const PLATFORM_CONTENT = 'platform content the owner writes for every company (super only)';
const someAnnouncement = () => createAnnouncement({ title: uniqueName('Aviso'), text: 'x', priority: 3, status: true });
const somePlan = () =>
  createPlanNamed({
    name: uniqueName('Plano'),
    users: 3,
    connections: 3,
    queues: 3,
    amount: 10,
    isPublic: false,
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
  });
/** An open invoice of the company for a period of its own (decisions D152). */
const someInvoice = async (companyId: number) => {
  const c = (await getCompany(companyId))!;
  const month = String(1 + Math.floor(Math.random() * 12)).padStart(2, '0');
  const period = `${2100 + Math.floor(Math.random() * 900)}-${month}-01`;
  return (await createPeriodInvoice(
    c,
    {
      detail: 'Plano',
      users: 3,
      connections: 3,
      queues: 3,
      value: 10,
      planId: c.planId,
      recurrence: 'MENSAL',
    },
    period,
  ))!;
};
const checkoutBody = (invoiceId: number) => ({
  invoiceId,
  firstName: 'Marina',
  address2: 'Rua 1',
  city: 'São Paulo',
  zipcode: '12345678909',
  country: 'BR',
});
const someHelp = () => createHelp({ title: uniqueName('Ajuda'), video: 'dQw4w9WgXcQ', description: '' });
const announcementImage = () => {
  const form = new FormData();
  form.append('file', new Blob([TINY_PNG], { type: 'image/png' }), 'aviso.png');
  return form;
};

/** A webhook queue integration and an AI prompt, made directly in storage (decisions D162, D164). */
const someIntegration = (companyId: number) =>
  createIntegration(companyId, {
    name: uniqueName('Webhook'),
    type: 'webhook',
    projectName: null,
    jsonPublic: null,
    privateKeyCipher: null,
    language: null,
    urlN8N: 'http://127.0.0.1:9/hook',
    typebotSlug: null,
    typebotExpires: null,
    typebotKeywordFinish: null,
    typebotKeywordRestart: null,
    typebotRestartMessage: null,
    typebotUnknownMessage: null,
    typebotDelayMessage: null,
    flowId: null,
    webhookSecretCipher: null,
  });
const byIntegration = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await someIntegration(caller.companyId)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'queueIntegration', 1000);
    return request((await someIntegration(owner.company.id)).id);
  },
  missing: () => request(999_999_999),
});
const somePrompt = async (companyId: number) =>
  createPrompt(companyId, {
    name: uniqueName('Assistente'),
    prompt: 'Você é um assistente de vendas educado que responde dúvidas sobre os planos da empresa.',
    voice: 'texto',
    voiceKeyCipher: null,
    voiceRegion: null,
    maxTokens: 100,
    temperature: 1,
    apiKeyCipher: 'v1.x.y.z',
    queueId: (await someQueue(companyId)).id,
    maxMessages: 10,
  });
const byPrompt = (request: (id: number) => RouteRequest): Pick<AccessRow, 'request' | 'foreign' | 'missing'> => ({
  request: async (caller) => request((await somePrompt(caller.companyId)).id),
  foreign: async (owner) => {
    await nextId(owner.company.id, 'prompt', 1000);
    return request((await somePrompt(owner.company.id)).id);
  },
  missing: () => request(999_999_999),
});

export const ACCESS: Record<string, AccessRow> = {
  'GET /version': { allow: everyone, request: async () => ({ path: '/version' }) },

  'POST /auth/login': {
    allow: everyone,
    request: async (caller) => {
      const user = await userWithPassword(caller.companyId, 'Senha@123');
      return { path: '/auth/login', body: { email: user.email, password: 'Senha@123' } };
    },
  },
  'POST /auth/refresh_token': {
    allow: everyone,
    request: async (caller) => {
      const user = await userWithPassword(caller.companyId, 'Senha@123');
      const session = await login({ email: user.email, password: 'Senha@123', sourceIp: '198.51.100.7' });
      return { path: '/auth/refresh_token', cookie: `jrt=${session.refreshToken}` };
    },
  },
  'DELETE /auth/logout': { allow: everyone, request: async () => ({ path: '/auth/logout' }) },
  'GET /auth/me': { allow: signedIn, request: async () => ({ path: '/auth/me' }) },
  'POST /forgetpassword/{email}': {
    allow: everyone,
    request: async (caller) => {
      const user = await userWithPassword(caller.companyId, 'Senha@123');
      return { path: `/forgetpassword/${encodeURIComponent(user.email)}` };
    },
    notTenantData: 'an e-mail address: the public call names an account, never a record of the caller’s company',
  },
  'POST /resetpasswords/{email}/{token}/{newPassword}': {
    allow: everyone,
    request: async (caller) => {
      const user = await userWithPassword(caller.companyId, 'Senha@123');
      await requestPasswordReset({ email: user.email, sourceIp: '198.51.100.8' });
      const code = await latestResetCode(user.email);
      return { path: `/resetpasswords/${encodeURIComponent(user.email)}/${code}/Nova%40Senha1` };
    },
    notTenantData: 'an e-mail address and its e-mailed code: the public call names an account, not a record',
  },

  'POST /auth/signup': {
    allow: everyone,
    request: async () => ({
      path: '/auth/signup',
      body: {
        name: 'Matriz',
        companyName: uniqueName('Empresa Matriz'),
        email: uniqueEmail(),
        password: 'Senha123',
        phone: '11999990000',
        planId: 2,
      },
    }),
  },
  'GET /users': { allow: admins, request: async () => ({ path: '/users' }) },
  'GET /users/list': { allow: signedIn, request: async () => ({ path: '/users/list' }) },
  'GET /users/{id}': {
    allow: signedIn,
    request: async (caller) => ({ path: `/users/${caller.userId || 1}` }),
    foreign: async (owner) => ({ path: `/users/${(await someUser(owner.company.id)).id}` }),
    missing: () => ({ path: '/users/999999999' }),
  },
  'POST /users': {
    allow: admins,
    request: async () => ({
      path: '/users',
      body: { name: 'Nova Pessoa', email: uniqueEmail(), password: 'Senha@123' },
    }),
  },
  'PUT /users/{id}': {
    allow: signedIn,
    request: async (caller) => ({ path: `/users/${caller.userId || 1}`, body: { farewellMessage: 'Até logo!' } }),
    foreign: async (owner) => ({ path: `/users/${(await someUser(owner.company.id)).id}`, body: { name: 'Invasão' } }),
    missing: () => ({ path: '/users/999999999', body: { name: 'Invasão' } }),
  },
  'DELETE /users/{id}': {
    allow: admins,
    request: async (caller) => ({ path: `/users/${(await someUser(caller.companyId)).id}` }),
    foreign: async (owner) => ({ path: `/users/${(await someUser(owner.company.id)).id}` }),
    missing: () => ({ path: '/users/999999999' }),
  },
  'POST /users/{id}/media-upload': {
    allow: signedIn, // admins for anyone in their company, a plain user for themself (the service checks)
    request: async (caller) => {
      const id = caller.userId || 1;
      return { path: `/users/${id}/media-upload`, body: avatarForm(id) };
    },
    foreign: async (owner) => {
      const id = (await someUser(owner.company.id)).id;
      return { path: `/users/${id}/media-upload`, body: avatarForm(id) };
    },
    missing: () => ({ path: '/users/999999999/media-upload', body: avatarForm(999_999_999) }),
  },

  // Contacts: company-wide, every user reads and edits; only admins delete (contacts-page:deleteContact).
  'GET /contacts': { allow: signedIn, request: async () => ({ path: '/contacts', query: { searchParam: 'con' } }) },
  'GET /contacts/list': { allow: signedIn, request: async () => ({ path: '/contacts/list' }) },
  'GET /contacts/{id}': { allow: signedIn, ...byContact((id) => ({ path: `/contacts/${id}` })) },
  'GET /contacts/profile/{number}': {
    allow: signedIn,
    request: async (caller) => ({ path: `/contacts/profile/${(await someContact(caller.companyId)).number}` }),
    foreign: async (owner) => ({ path: `/contacts/profile/${(await foreignContact(owner)).number}` }),
    missing: () => ({ path: '/contacts/profile/5500000000000' }),
  },
  'POST /contacts': {
    allow: signedIn,
    request: async () => ({
      path: '/contacts',
      body: { name: uniqueName('Contato'), number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}` },
    }),
  },
  'PUT /contacts/{id}': {
    allow: signedIn,
    ...byContact((id) => ({ path: `/contacts/${id}`, body: { name: 'Nome Novo' } })),
  },
  'DELETE /contacts/{id}': { allow: admins, ...byContact((id) => ({ path: `/contacts/${id}` })) },
  'PUT /contacts/block/{id}': {
    allow: signedIn,
    ...byContact((id) => ({ path: `/contacts/block/${id}`, body: { active: false } })),
  },
  // Spreadsheet import (D104): any user imports; an import is its user's and the admins'.
  'POST /contacts/upload': {
    allow: signedIn,
    request: async () => ({ path: '/contacts/upload', body: { fileName: 'contatos.xlsx', size: 1000 } }),
  },
  'GET /contacts/import/{importId}': {
    allow: signedIn,
    ...byContactImport((id) => ({ path: `/contacts/import/${id}` })),
  },
  'GET /contacts/import/{importId}/preview': {
    allow: signedIn,
    ...byContactImport((id) => ({ path: `/contacts/import/${id}/preview` })),
  },
  'POST /contacts/import/{importId}/start': {
    allow: signedIn,
    ...byContactImport((id) => ({ path: `/contacts/import/${id}/start`, body: { columns: ['name', 'number'] } })),
  },
  'POST /contacts/import': {
    allow: signedIn,
    request: async (caller) => ({
      path: '/contacts/import',
      body: { whatsappId: (await someConnection(caller.companyId, { status: 'CONNECTED' })).id },
    }),
  },
  'POST /contacts/import/chats': {
    allow: signedIn,
    request: async (caller) => ({
      path: '/contacts/import/chats',
      body: { whatsappId: (await someConnection(caller.companyId, { status: 'CONNECTED' })).id },
    }),
  },
  'POST /contactsImport': {
    allow: signedIn,
    request: async () => ({
      path: '/contactsImport',
      body: {
        name: uniqueName('Contato'),
        number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
        validateContact: 'false',
      },
    }),
  },
  'PUT /contacts/toggleAcceptAudio/{id}': {
    allow: signedIn,
    ...byContact((id) => ({ path: `/contacts/toggleAcceptAudio/${id}` })),
  },
  'PUT /contacts/toggleDisableBot/{id}': {
    allow: signedIn,
    ...byContact((id) => ({ path: `/contacts/toggleDisableBot/${id}` })),
  },

  'GET /queue': { allow: signedIn, request: async () => ({ path: '/queue' }) },
  'GET /queue/{id}': {
    allow: signedIn,
    request: async (caller) => ({ path: `/queue/${(await someQueue(caller.companyId)).id}` }),
    foreign: async (owner) => {
      await nextId(owner.company.id, 'queue', 1000);
      return { path: `/queue/${(await someQueue(owner.company.id)).id}` };
    },
    missing: () => ({ path: '/queue/999999999' }),
  },
  // Queue administration (issue 13, decisions D89).
  'POST /queue': {
    allow: admins,
    request: async () => ({
      path: '/queue',
      body: {
        name: uniqueName('Fila'),
        color: `#${Math.floor(Math.random() * 0xffffff)
          .toString(16)
          .padStart(6, '0')}`,
      },
    }),
  },
  'PUT /queue/{id}': {
    allow: admins,
    ...byQueue((id) => ({ path: `/queue/${id}`, body: { greetingMessage: 'Olá!' } })),
  },
  'DELETE /queue/{id}': { allow: admins, ...byQueue((id) => ({ path: `/queue/${id}` })) },
  'GET /chatbot/{id}': { allow: admins, ...byChatbot((id) => ({ path: `/chatbot/${id}` })) },
  'POST /chatbot': {
    allow: admins,
    request: async (caller) => ({
      path: '/chatbot',
      body: { queueId: (await someQueue(caller.companyId)).id, name: 'Suporte técnico', greetingMessage: 'Olá' },
    }),
  },
  'PUT /chatbot/{id}': {
    allow: admins,
    ...byChatbot((id) => ({ path: `/chatbot/${id}`, body: { name: 'Cobranças' } })),
  },
  'DELETE /chatbot/{id}': { allow: admins, ...byChatbot((id) => ({ path: `/chatbot/${id}` })) },
  // Tickets (issue 5 item 1): tickets assigned to the caller, so a plain user may see them.
  'GET /tickets': { allow: signedIn, request: async () => ({ path: '/tickets', query: { status: 'pending' } }) },
  'GET /tickets/u/{uuid}': {
    allow: signedIn,
    request: async (caller) => ({
      path: `/tickets/u/${(await someTicket(caller.companyId, caller.userId || null)).uuid}`,
    }),
    foreign: async (owner) => ({ path: `/tickets/u/${(await foreignTicket(owner)).uuid}` }),
    missing: () => ({ path: '/tickets/u/00000000-0000-4000-8000-000000000000' }),
  },
  'POST /tickets': {
    allow: signedIn,
    // A new ticket needs a queue once the company has queues, and a plain user one of their own.
    request: async (caller) => {
      const queue = await someQueue(caller.companyId);
      if (caller.role === 'user') await updateUser(caller.companyId, caller.userId, { queueIds: [queue.id] });
      return {
        path: '/tickets',
        body: {
          contactId: (await someContact(caller.companyId)).id,
          whatsappId: (await someConnection(caller.companyId)).id,
          queueId: queue.id,
          status: 'open',
        },
      };
    },
  },
  'PUT /tickets/{id}': {
    allow: signedIn,
    ...byTicket((t) => ({ path: `/tickets/${t.id}`, body: { status: 'pending', userId: null } })),
  },
  'DELETE /tickets/{id}': { allow: admins, ...byTicket((t) => ({ path: `/tickets/${t.id}` })) },
  'POST /tickets/closeAll': {
    allow: admins,
    request: async () => ({ path: '/tickets/closeAll', body: { status: 'pending', selectedQueueIds: [] } }),
  },
  'GET /tickets-log/{ticketId}': { allow: signedIn, ...byTicket((t) => ({ path: `/tickets-log/${t.id}` })) },

  'GET /tags': { allow: signedIn, request: async () => ({ path: '/tags' }) },
  'POST /tags': { allow: signedIn, request: async () => ({ path: '/tags', body: { name: uniqueName('Etiqueta') } }) },
  'GET /tags/{id}': {
    allow: signedIn,
    request: async (caller) => {
      const tag = await createTag(caller.companyId, { name: uniqueName('Própria'), color: '#123456', kanban: 0 });
      return { path: `/tags/${tag.id}` };
    },
    foreign: async (owner) => {
      const tag = await createTag(owner.company.id, { name: uniqueName('Alheia'), color: '#654321', kanban: 0 });
      return { path: `/tags/${tag.id}` };
    },
    missing: () => ({ path: '/tags/999999999' }),
  },
  // Contact and ticket tags, ticket notes (decisions D55–D56): tickets assigned to the caller, so a plain
  // user may see them.
  'GET /tags/list': { allow: signedIn, request: async () => ({ path: '/tags/list', query: { kanban: '0' } }) },
  'POST /tags/sync': {
    allow: signedIn,
    request: async (caller) => ({
      path: '/tags/sync',
      body: { contactId: (await someContact(caller.companyId)).id, tags: [{ name: uniqueName('Sincronizada') }] },
    }),
  },
  'GET /contactTags/{contactId}': { allow: signedIn, ...byContact((id) => ({ path: `/contactTags/${id}` })) },
  'DELETE /ticket-tags/{ticketId}': { allow: signedIn, ...byTicket((t) => ({ path: `/ticket-tags/${t.id}` })) },
  'PUT /ticket-tags/{ticketId}/{tagId}': {
    allow: signedIn,
    request: async (caller) => {
      const ticket = await someTicket(caller.companyId, caller.userId || null);
      const tag = await createTag(caller.companyId, { name: uniqueName('Lane'), color: '#123456', kanban: 1 });
      return { path: `/ticket-tags/${ticket.id}/${tag.id}` };
    },
    foreign: async (owner) => {
      const ticket = await foreignTicket(owner);
      const tag = await createTag(owner.company.id, { name: uniqueName('Alheia'), color: '#654321', kanban: 0 });
      return { path: `/ticket-tags/${ticket.id}/${tag.id}` };
    },
    missing: () => ({ path: '/ticket-tags/999999999/999999999' }),
  },
  // Tag admin and the kanban board (decisions D100–D102): any signed-in user, like the tag list; the board
  // needs the plan's useKanban (the fixtures' plan has it).
  'PUT /tags/{id}': {
    allow: signedIn,
    ...byTag((id) => ({ path: `/tags/${id}`, body: { color: '#abcdef' } })),
  },
  'DELETE /tags/{id}': { allow: signedIn, ...byTag((id) => ({ path: `/tags/${id}` })) },
  'GET /tags/{id}/contacts': { allow: signedIn, ...byTag((id) => ({ path: `/tags/${id}/contacts` })) },
  'DELETE /tags-contacts/{tagId}/{contactId}': {
    allow: signedIn,
    request: async (caller) => {
      const tag = await createTag(caller.companyId, { name: uniqueName('Contatos'), color: '#123456', kanban: 0 });
      return { path: `/tags-contacts/${tag.id}/${(await someContact(caller.companyId)).id}` };
    },
    foreign: async (owner) => {
      await nextId(owner.company.id, 'tag', 1000);
      const tag = await createTag(owner.company.id, { name: uniqueName('Alheia'), color: '#654321', kanban: 0 });
      return { path: `/tags-contacts/${tag.id}/${(await foreignContact(owner)).id}` };
    },
    missing: () => ({ path: '/tags-contacts/999999999/999999999' }),
  },
  'GET /tag/kanban': { allow: signedIn, request: async () => ({ path: '/tag/kanban' }) },
  'GET /ticket/kanban': {
    allow: signedIn,
    request: async () => ({ path: '/ticket/kanban', query: { queueIds: '[]' } }),
  },
  'POST /ticket-notes': {
    allow: signedIn,
    request: async (caller) => {
      const ticket = await someTicket(caller.companyId, caller.userId || null);
      return {
        path: '/ticket-notes',
        body: { note: 'Cliente pediu retorno', ticketId: ticket.id, contactId: ticket.contactId },
      };
    },
  },
  'DELETE /ticket-notes/{id}': {
    allow: signedIn,
    request: async (caller) => {
      const ticket = await someTicket(caller.companyId, caller.userId || null);
      const note = await createNote(caller.companyId, {
        contactId: ticket.contactId,
        ticketId: ticket.id,
        userId: caller.userId || 1,
        note: 'Minha nota',
      });
      return { path: `/ticket-notes/${noteWireId(note)}` };
    },
    foreign: async (owner) => {
      const ticket = await foreignTicket(owner);
      const note = await createNote(owner.company.id, {
        contactId: ticket.contactId,
        ticketId: ticket.id,
        userId: owner.admin.id,
        note: 'Nota alheia',
      });
      return { path: `/ticket-notes/${noteWireId(note)}` };
    },
    missing: () => ({ path: '/ticket-notes/999999999-01ARZ3NDEKTSV4RRFFQ69G5FAV' }),
  },
  'GET /ticket-notes/list': {
    allow: signedIn,
    request: async (caller) => {
      const ticket = await someTicket(caller.companyId, caller.userId || null);
      return { path: '/ticket-notes/list', query: { ticketId: String(ticket.id) } };
    },
  },

  // Quick replies (decisions D58–D59): every user their own; shared ones (geral) seen by everyone.
  // Contact lists and items (administration §7; decisions D122): admin screens.
  'GET /contact-lists': { allow: admins, request: async () => ({ path: '/contact-lists' }) },
  'GET /contact-lists/list': { allow: admins, request: async () => ({ path: '/contact-lists/list' }) },
  'GET /contact-lists/{id}': { allow: admins, ...byContactList((id) => ({ path: `/contact-lists/${id}` })) },
  'POST /contact-lists': {
    allow: admins,
    request: async () => ({ path: '/contact-lists', body: { name: uniqueName('Lista') } }),
  },
  'PUT /contact-lists/{id}': {
    allow: admins,
    ...byContactList((id) => ({ path: `/contact-lists/${id}`, body: { name: uniqueName('Lista') } })),
  },
  'DELETE /contact-lists/{id}': { allow: admins, ...byContactList((id) => ({ path: `/contact-lists/${id}` })) },
  'POST /contact-lists/{id}/upload': {
    allow: admins,
    ...byContactList((id) => ({ path: `/contact-lists/${id}/upload`, body: contactListForm() })),
  },
  'GET /contact-list-items': {
    allow: admins,
    request: async (caller) => ({
      path: '/contact-list-items',
      query: { contactListId: String((await someContactList(caller.companyId)).id) },
    }),
  },
  'GET /contact-list-items/{id}': {
    allow: admins,
    ...byContactListItem((id) => ({ path: `/contact-list-items/${id}` })),
  },
  'POST /contact-list-items': {
    allow: admins,
    request: async (caller) => ({
      path: '/contact-list-items',
      body: {
        name: uniqueName('Pessoa'),
        number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
        contactListId: (await someContactList(caller.companyId)).id,
      },
    }),
  },
  'PUT /contact-list-items/{id}': {
    allow: admins,
    ...byContactListItem((id) => ({ path: `/contact-list-items/${id}`, body: { name: uniqueName('Pessoa') } })),
  },
  'DELETE /contact-list-items/{id}': {
    allow: admins,
    ...byContactListItem((id) => ({ path: `/contact-list-items/${id}` })),
  },
  // The external messages API (D123): its bearer is a connection token, so every caller role reaches it
  // with one (the JWT of the row's caller is replaced); the token names the company (external-messages-api.test.ts).
  'POST /messages/send': {
    allow: everyone,
    request: async (caller) => ({
      path: '/messages/send',
      headers: { authorization: `Bearer ${(await someConnection(caller.companyId)).token}` },
      body: { number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, body: 'Olá' },
    }),
  },

  'GET /quick-messages': { allow: signedIn, request: async () => ({ path: '/quick-messages' }) },
  'GET /quick-messages/list': { allow: signedIn, request: async () => ({ path: '/quick-messages/list' }) },
  'GET /quick-messages/{id}': { allow: signedIn, ...byQuickMessage((id) => ({ path: `/quick-messages/${id}` })) },
  'POST /quick-messages': {
    allow: signedIn,
    request: async () => ({ path: '/quick-messages', body: { shortcode: uniqueName('oi'), message: 'Olá!' } }),
  },
  'PUT /quick-messages/{id}': {
    allow: signedIn,
    ...byQuickMessage((id) => ({ path: `/quick-messages/${id}`, body: { message: 'Novo texto' } })),
  },
  'DELETE /quick-messages/{id}': {
    allow: signedIn,
    ...byQuickMessage((id) => ({ path: `/quick-messages/${id}` })),
  },
  'POST /quick-messages/{id}/media-upload': {
    allow: signedIn,
    ...byQuickMessage((id) => ({ path: `/quick-messages/${id}/media-upload`, body: quickMessageForm() })),
  },
  'DELETE /quick-messages/{id}/media-upload': {
    allow: signedIn,
    ...byQuickMessage((id) => ({ path: `/quick-messages/${id}/media-upload` })),
  },

  'GET /schedules': { allow: signedIn, request: async () => ({ path: '/schedules' }) },
  'GET /schedules/{id}': { allow: signedIn, ...bySchedule((id) => ({ path: `/schedules/${id}` })) },
  'POST /schedules': {
    allow: signedIn,
    request: async (caller) => ({
      path: '/schedules',
      body: {
        body: 'Lembrete da consulta',
        contactId: (await someContact(caller.companyId)).id,
        sendAt: wallKey(wallOf(Date.now() + 3600_000, 'America/Sao_Paulo')),
      },
    }),
  },
  'PUT /schedules/{id}': {
    allow: signedIn,
    ...bySchedule((id) => ({ path: `/schedules/${id}`, body: { body: 'Lembrete alterado' } })),
  },
  'DELETE /schedules/{id}': { allow: signedIn, ...bySchedule((id) => ({ path: `/schedules/${id}` })) },
  'POST /schedules/{id}/media-upload': {
    allow: signedIn,
    ...bySchedule((id) => ({ path: `/schedules/${id}/media-upload`, body: scheduleImageForm() })),
  },
  'DELETE /schedules/{id}/media-upload': {
    allow: signedIn,
    ...bySchedule((id) => ({ path: `/schedules/${id}/media-upload` })),
  },
  'GET /schedule-holidays': { allow: signedIn, request: async () => ({ path: '/schedule-holidays' }) },
  'PUT /schedule-holidays': {
    allow: admins,
    request: async () => ({
      path: '/schedule-holidays',
      body: { year: 2031, holidays: [{ date: '2031-06-24', name: 'São João' }] },
    }),
  },
  'GET /campaigns': { allow: admins, request: async () => ({ path: '/campaigns' }) },
  'GET /campaigns/{id}': { allow: admins, ...byCampaign((id) => ({ path: `/campaigns/${id}` })) },
  'GET /campaigns/{id}/report': { allow: admins, ...byCampaign((id) => ({ path: `/campaigns/${id}/report` })) },
  'POST /campaigns': {
    allow: admins,
    request: async (caller) => {
      const [list, connection] = await Promise.all([
        someContactList(caller.companyId),
        someConnection(caller.companyId),
      ]);
      return {
        path: '/campaigns',
        body: { name: uniqueName('Campanha'), message1: 'Olá', contactListId: list.id, whatsappId: connection.id },
      };
    },
  },
  'PUT /campaigns/{id}': {
    allow: admins,
    ...byCampaign((id) => ({ path: `/campaigns/${id}`, body: { name: uniqueName('Campanha') } })),
  },
  'DELETE /campaigns/{id}': { allow: admins, ...byCampaign((id) => ({ path: `/campaigns/${id}` })) },
  'POST /campaigns/{id}/cancel': {
    allow: admins,
    ...byCampaign((id) => ({ path: `/campaigns/${id}/cancel` }), 'EM_ANDAMENTO'),
  },
  'POST /campaigns/{id}/restart': {
    allow: admins,
    ...byCampaign((id) => ({ path: `/campaigns/${id}/restart` }), 'CANCELADA'),
  },
  'POST /campaigns/{id}/media-upload': {
    allow: admins,
    ...byCampaign((id) => ({ path: `/campaigns/${id}/media-upload`, body: campaignMediaForm() })),
  },
  'DELETE /campaigns/{id}/media-upload': {
    allow: admins,
    ...byCampaign((id) => ({ path: `/campaigns/${id}/media-upload` })),
  },
  'GET /campaign-settings': { allow: admins, request: async () => ({ path: '/campaign-settings' }) },
  'POST /campaign-settings': {
    allow: admins,
    request: async () => ({ path: '/campaign-settings', body: { settings: { messageInterval: 30 } } }),
  },

  'GET /companySettings/{companyId}': { allow: signedIn, ...byCompany((c) => `/companySettings/${c}`) },
  'PUT /companies/{id}/schedules': {
    allow: admins,
    ...byCompany((c) => `/companies/${c}/schedules`),
    request: async (caller) => ({ path: `/companies/${caller.companyId}/schedules`, body: { schedules: [] } }),
    foreign: async (owner) => ({ path: `/companies/${owner.company.id}/schedules`, body: { schedules: [] } }),
    missing: () => ({ path: '/companies/999999999/schedules', body: { schedules: [] } }),
  },
  'GET /companySettingOne': {
    allow: signedIn,
    request: async () => ({ path: '/companySettingOne', query: { column: 'userRating' } }),
  },
  'PUT /companySettings': {
    allow: admins,
    request: async () => ({ path: '/companySettings', body: { column: 'userRating', data: 'enabled' } }),
  },
  'GET /settings': { allow: superOnly, request: async () => ({ path: '/settings' }) },
  'GET /setting/{key}': {
    allow: signedIn,
    request: async () => ({ path: '/setting/downloadLimit' }),
    notTenantData: 'platform setting keys, the same for every company',
  },
  'PUT /settings/{key}': {
    allow: superOnly,
    request: async () => ({ path: '/settings/downloadLimit', body: { key: 'downloadLimit', value: '64' } }),
    notTenantData: 'platform setting keys, the same for every company',
  },
  // The PIX certificate (D169): the owner uploads it (a DER-looking .p12) and sees whether one is installed.
  'POST /settings/cert-upload': {
    allow: superOnly,
    request: async () => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from([0x30, 0x82, 0x01, 0x00, 0x02, 0x01, 0x03])]), 'access.p12');
      return { path: '/settings/cert-upload?ref=certificadoEfi', body: form };
    },
  },
  'GET /settings/cert-upload': { allow: superOnly, request: async () => ({ path: '/settings/cert-upload' }) },
  'GET /public-settings/{key}': {
    allow: everyone,
    request: async () => ({ path: '/public-settings/appName' }),
    notTenantData: 'public branding keys',
  },
  'POST /settings-whitelabel/logo': {
    allow: superOnly,
    request: async () => {
      const form = new FormData();
      form.append('typeArch', 'logo');
      form.append('mode', 'Light');
      form.append('file', new Blob([TINY_PNG], { type: 'image/png' }), 'logo.png');
      return { path: '/settings-whitelabel/logo', body: form };
    },
    notTenantData: 'the platform branding, the same for every company',
  },
  'GET /plans/list': { allow: everyone, request: async () => ({ path: '/plans/list' }) },
  'GET /companies/listPlan/{companyId}': { allow: signedIn, ...byCompany((c) => `/companies/listPlan/${c}`) },

  // Connections: reads for everyone in the company, changes for connection managers (the service checks:
  // the matrix's plain user has allowConnections disabled). Connection ids are platform-unique, so any id
  // made in another company is one the intruder's company does not have.
  'GET /whatsapp': { allow: signedIn, request: async () => ({ path: '/whatsapp', query: { session: '0' } }) },
  'GET /whatsapp/filter': {
    allow: signedIn,
    request: async () => ({ path: '/whatsapp/filter', query: { session: '0', channel: 'whatsapp' } }),
  },
  'GET /whatsapp/all': { allow: superOnly, request: async () => ({ path: '/whatsapp/all', query: { session: '0' } }) },
  'GET /whatsapp/{id}': {
    allow: signedIn,
    ...byConnection((id) => ({ path: `/whatsapp/${id}`, query: { session: '0' } })),
  },
  'GET /whatsapp-admin/{id}': {
    allow: superOnly,
    request: async (caller) => ({ path: `/whatsapp-admin/${(await someConnection(caller.companyId)).id}` }),
    notTenantData: 'super only: names any company’s connection by its platform-unique id (others get 403)',
  },
  'POST /whatsapp': {
    allow: admins,
    // With the NPS fields: the PUT /companySettings row turns ticket rating on, which then requires them.
    request: async () => ({
      path: '/whatsapp',
      body: { name: uniqueName('Conexão'), ratingMessage: 'Sua nota?', expiresTicketNPS: 30 },
    }),
  },
  'PUT /whatsapp/{id}': {
    allow: admins,
    ...byConnection((id) => ({ path: `/whatsapp/${id}`, body: { greetingMessage: 'Olá!' } })),
  },
  'DELETE /whatsapp/{id}': {
    allow: admins,
    ...byConnection((id) => ({ path: `/whatsapp/${id}` }), nonDefaultConnection),
  },
  'POST /whatsapp/{id}/media-upload': {
    allow: admins,
    ...byConnection((id) => ({ path: `/whatsapp/${id}/media-upload`, body: greetingForm() })),
  },
  'DELETE /whatsapp/{id}/media-upload': {
    allow: admins,
    ...byConnection((id) => ({ path: `/whatsapp/${id}/media-upload` })),
  },
  'POST /whatsappsession/{id}': { allow: admins, ...byConnection((id) => ({ path: `/whatsappsession/${id}` })) },
  'PUT /whatsappsession/{id}': { allow: admins, ...byConnection((id) => ({ path: `/whatsappsession/${id}` })) },
  'DELETE /whatsappsession/{id}': { allow: admins, ...byConnection((id) => ({ path: `/whatsappsession/${id}` })) },
  'DELETE /whatsappsession/admin/{id}': {
    allow: superOnly,
    request: async (caller) => ({ path: `/whatsappsession/admin/${(await someConnection(caller.companyId)).id}` }),
    notTenantData: 'super only: names any company’s connection by its platform-unique id (others get 403)',
  },
  'POST /whatsapp-restart': { allow: admins, request: async () => ({ path: '/whatsapp-restart' }) },
  // With no import behind it there is nothing to close: connection managers get {closed: 0}.
  'POST /closedimported/{id}': { allow: admins, ...byConnection((id) => ({ path: `/closedimported/${id}` })) },
  // A Facebook login with no pages: connection managers get an empty result, others 403 (decisions D40).
  'POST /facebook': {
    allow: admins,
    request: async () => {
      const userId = String(Date.now()) + String(Math.floor(Math.random() * 1e6));
      const userToken = `EAAMATRIX${Math.random().toString(36).slice(2)}`;
      await fakeGraph(inject('fakeGraphUrl')).addUser(userId, userToken, []);
      return { path: '/facebook', body: { facebookUserId: userId, facebookUserToken: userToken, addInstagram: true } };
    },
  },
  // A Cloud API number the fake Graph knows (decisions D76): managers create it, others get 403.
  'POST /whatsapp/cloud-api': {
    allow: admins,
    request: async () => {
      const id = String(Date.now()) + String(Math.floor(Math.random() * 1e6));
      const token = `EAAMATRIX${Math.random().toString(36).slice(2)}xxxxxxxxxxxx`;
      await fakeGraph(inject('fakeGraphUrl')).addPhoneNumber(id, token, '+55 11 90000-0000', 'Matriz');
      return { path: '/whatsapp/cloud-api', body: { phoneNumberId: id, accessToken: token } };
    },
  },
  'GET /webhooks/meta': {
    allow: everyone,
    request: async () => ({
      path: '/webhooks/meta',
      query: {
        'hub.mode': 'subscribe',
        'hub.verify_token': inject('localCloudEnv').META_VERIFY_TOKEN ?? '',
        'hub.challenge': 'matrix',
      },
    }),
  },
  'POST /webhooks/meta': { allow: everyone, request: async () => signedWebhook() },
  // The phone simulator's scan needs a connection that shows a QR code (set in storage; nobody holds it).
  'POST /simulator/{whatsappId}/scan': {
    allow: admins,
    ...byConnection(
      (id) => ({ path: `/simulator/${id}/scan` }),
      async (companyId) => {
        const connection = await someConnection(companyId);
        await setSessionState(companyId, connection.id, {
          status: 'qrcode',
          qrcode: 'zapdesk-sim:matrix',
          at: new Date().toISOString(),
        });
        return connection;
      },
    ),
  },
  // The phone simulator's customer (D41) needs a CONNECTED connection (in storage; nobody holds it, so the
  // actions wait in its outbox).
  'POST /simulator/{whatsappId}/messages': {
    allow: admins,
    ...byConnection(
      (id) => ({ path: `/simulator/${id}/messages`, body: { number: '5511900000001', body: 'Olá' } }),
      (companyId) => someConnection(companyId, { status: 'CONNECTED' }),
    ),
  },
  'POST /simulator/{whatsappId}/media': {
    allow: admins,
    ...byConnection(
      (id) => {
        const form = greetingForm();
        form.append('number', '5511900000001');
        return { path: `/simulator/${id}/media`, body: form };
      },
      (companyId) => someConnection(companyId, { status: 'CONNECTED' }),
    ),
  },
  'GET /simulator/{whatsappId}/messages': {
    allow: admins,
    ...byConnection((id) => ({ path: `/simulator/${id}/messages` })),
  },
  'POST /simulator/{whatsappId}/read': {
    allow: admins,
    ...byConnection(
      (id) => ({ path: `/simulator/${id}/read`, body: { number: '5511900000001' } }),
      (companyId) => someConnection(companyId, { status: 'CONNECTED' }),
    ),
  },
  'PUT /simulator/{whatsappId}/history': {
    allow: admins,
    ...byConnection((id) => ({
      path: `/simulator/${id}/history`,
      body: { messages: [{ number: '5511900000001', body: 'Olá', at: new Date().toISOString() }] },
    })),
  },

  'PUT /simulator/{whatsappId}/contacts': {
    allow: admins,
    ...byConnection((id) => ({
      path: `/simulator/${id}/contacts`,
      body: { contacts: [{ number: '5511900000001', name: 'Ana' }] },
    })),
  },

  // Messages (decisions D50–D54): on an open ticket assigned to the caller (a plain user sees their own).
  'GET /messages/{ticketUuid}': {
    allow: signedIn,
    request: async (caller) => ({ path: `/messages/${(await messageTicket(caller.companyId, caller.userId)).uuid}` }),
    foreign: async (owner) => ({ path: `/messages/${(await foreignMessageTicket(owner)).uuid}` }),
    missing: () => ({ path: '/messages/00000000-0000-4000-8000-000000000000' }),
  },
  'POST /messages/{ticketId}': {
    allow: signedIn,
    ...byMessageTicket((id) => ({ path: `/messages/${id}`, body: { body: 'Olá!' } })),
  },
  'POST /messages/uploads/{ticketId}': {
    allow: signedIn,
    ...byMessageTicket((id) => ({
      path: `/messages/uploads/${id}`,
      body: { filename: 'proposta.pdf', contentType: 'application/pdf', size: 1024 },
    })),
  },
  'POST /messages/edit/{id}': {
    allow: signedIn,
    ...byOwnMessage((id) => ({ path: `/messages/edit/${id}`, body: { body: 'Corrigido' } })),
  },
  'DELETE /messages/{id}': { allow: signedIn, ...byOwnMessage((id) => ({ path: `/messages/${id}` })) },
  'POST /message/forward': {
    allow: signedIn,
    request: async (caller) => {
      const id = await ownMessage(caller.companyId, caller.userId);
      const target = await someContact(caller.companyId);
      return { path: '/message/forward', body: { messageId: id, contactId: target.id, signMessage: true } };
    },
  },
  'GET /messages/transcribeAudio/{file}': {
    allow: signedIn,
    ...byOwnMessage((id) => ({ path: `/messages/transcribeAudio/${id}` }), true),
  },
  'POST /messages/lista/{id}': {
    allow: signedIn,
    ...byMessageTicket((id) => ({
      path: `/messages/lista/${id}`,
      body: { title: 'Menu', body: 'Escolha', sections: [{ rows: [{ title: 'Vendas' }] }] },
    })),
  },
  'POST /messages/copy/{id}': {
    allow: signedIn,
    ...byMessageTicket((id) => ({ path: `/messages/copy/${id}`, body: { body: 'Cupom', copyCode: 'PROMO10' } })),
  },
  'POST /messages/call/{id}': {
    allow: signedIn,
    ...byMessageTicket((id) => ({ path: `/messages/call/${id}`, body: { phoneNumber: '551133334444' } })),
  },
  'POST /messages/URL/{id}': {
    allow: signedIn,
    ...byMessageTicket((id) => ({ path: `/messages/URL/${id}`, body: { url: 'https://exemplo.com' } })),
  },
  'POST /messages/PIX/{id}': {
    allow: signedIn,
    ...byMessageTicket((id) => ({
      path: `/messages/PIX/${id}`,
      body: { sendvalue: 10, sendkey_type: 'EMAIL', sendmerchant_name: 'Loja', sendKey: 'pix@exemplo.com' },
    })),
  },
  // Dashboard data: admins (and plain users with showDashboard, which the matrix's attendant lacks).
  'GET /messages-allMe': {
    allow: admins,
    request: async () => {
      const today = new Date().toISOString().slice(0, 10);
      return { path: '/messages-allMe', query: { fromMe: 'true', dateStart: today, dateEnd: today } };
    },
  },

  // File lists (decisions D88): admins only (a plain user gets the no-permission answer).
  'GET /files': { allow: admins, request: async () => ({ path: '/files', query: { searchParam: 'lis' } }) },
  'GET /files/{id}': { allow: admins, ...byFileList((id) => ({ path: `/files/${id}` })) },
  'POST /files': {
    allow: admins,
    request: async () => ({
      path: '/files',
      body: { name: uniqueName('Lista'), message: 'Seguem os arquivos', options: [{ name: 'Tabela' }] },
    }),
  },
  'PUT /files/{id}': {
    allow: admins,
    ...byFileList((id) => ({ path: `/files/${id}`, body: { message: 'Nova mensagem' } })),
  },
  'POST /files/uploadList/{id}': {
    allow: admins,
    ...byFileList((id) => ({ path: `/files/uploadList/${id}`, body: fileListForm(id) })),
  },
  'DELETE /files/{id}': { allow: admins, ...byFileList((id) => ({ path: `/files/${id}` })) },

  // Dashboard, panel and reports (D108–D111): plain users need showDashboard / allowRealTime (off here).
  'GET /dashboard': { allow: admins, request: async () => ({ path: '/dashboard', query: { days: '7' } }) },
  'GET /dashboard/ticketsUsers': {
    allow: admins,
    request: async () => ({
      path: '/dashboard/ticketsUsers',
      query: { initialDate: '2026-01-01', finalDate: '2026-01-31' },
    }),
  },
  'GET /dashboard/ticketsDay': {
    allow: admins,
    request: async () => ({
      path: '/dashboard/ticketsDay',
      query: { initialDate: '2026-01-01', finalDate: '2026-01-01' },
    }),
  },
  'GET /dashboard/moments': { allow: admins, request: async () => ({ path: '/dashboard/moments' }) },
  'GET /usersMoments': { allow: admins, request: async () => ({ path: '/usersMoments' }) },
  'GET /ticketreport/reports': {
    allow: admins,
    request: async () => ({ path: '/ticketreport/reports', query: { dateFrom: '2026-01-01', dateTo: '2026-01-31' } }),
  },

  // Exports (decisions D127): contacts are anyone's to export; the sheets of the dashboard and the report
  // are refused to plain users without showDashboard in the service (test/integration/exports.test.ts).
  'POST /exports': { allow: signedIn, request: async () => ({ path: '/exports', body: { kind: 'contacts' } }) },
  'GET /exports/{exportId}': { allow: signedIn, ...byExport((id) => ({ path: `/exports/${id}` })) },
  'GET /flowbuilder': { allow: admins, request: async () => ({ path: '/flowbuilder' }) },
  'GET /flowbuilder/{id}': { allow: admins, ...byFlow((id) => ({ path: `/flowbuilder/${id}` })) },
  'POST /flowbuilder': { allow: admins, request: async () => ({ path: '/flowbuilder', body: { name: 'Novo fluxo' } }) },
  'PUT /flowbuilder': {
    allow: admins,
    request: async (caller) => ({
      path: '/flowbuilder',
      body: { flowId: (await someFlow(caller.companyId)).id, name: 'Outro nome' },
    }),
  },
  'DELETE /flowbuilder/{id}': { allow: admins, ...byFlow((id) => ({ path: `/flowbuilder/${id}` })) },
  'POST /flowbuilder/duplicate': {
    allow: admins,
    request: async (caller) => ({
      path: '/flowbuilder/duplicate',
      body: { flowId: (await someFlow(caller.companyId)).id },
    }),
  },
  'GET /flowbuilder/flow/{id}': { allow: admins, ...byFlow((id) => ({ path: `/flowbuilder/flow/${id}` })) },
  'POST /flowbuilder/flow': {
    allow: admins,
    request: async (caller) => ({
      path: '/flowbuilder/flow',
      body: {
        idFlow: (await someFlow(caller.companyId)).id,
        nodes: [{ id: '1', type: 'start', position: { x: 0, y: 0 }, data: {} }],
        connections: [],
      },
    }),
  },
  // Flow media uploads and trying a flow on the simulator (decisions D159, D160).
  'POST /flowbuilder/content': {
    allow: admins,
    request: async (caller) => ({
      path: '/flowbuilder/content',
      body: {
        idFlow: (await someFlow(caller.companyId)).id,
        medias: [{ name: 'foto.png', type: 'img', size: 100, contentType: 'image/png' }],
      },
    }),
  },
  'POST /flowbuilder/img': {
    allow: admins,
    request: async (caller) => ({
      path: '/flowbuilder/img',
      body: {
        idFlow: (await someFlow(caller.companyId)).id,
        medias: [{ name: 'foto.jpg', size: 100, contentType: 'image/jpeg' }],
      },
    }),
  },
  'POST /flowbuilder/audio': {
    allow: admins,
    request: async (caller) => ({
      path: '/flowbuilder/audio',
      body: {
        idFlow: (await someFlow(caller.companyId)).id,
        medias: [{ name: 'voz.ogg', size: 100, contentType: 'audio/ogg' }],
      },
    }),
  },
  'POST /flowbuilder/test': {
    allow: admins,
    request: async (caller) => ({
      path: '/flowbuilder/test',
      body: {
        flowId: (await someSavedFlow(caller.companyId)).id,
        whatsappId: (await someConnection(caller.companyId, { status: 'CONNECTED' })).id,
      },
    }),
  },
  'GET /flowbuilder/test/{id}': {
    allow: admins,
    ...byFlow((id) => ({ path: `/flowbuilder/test/${id}`, query: { whatsappId: '1', number: '5511900000001' } })),
  },
  'GET /flowcampaign': { allow: signedIn, request: async () => ({ path: '/flowcampaign' }) },
  'GET /flowcampaign/{id}': { allow: signedIn, ...byFlowCampaign((id) => ({ path: `/flowcampaign/${id}` })) },
  'POST /flowcampaign': {
    allow: signedIn,
    request: async (caller) => ({
      path: '/flowcampaign',
      body: { name: 'Promo', phrase: uniqueName('promo'), flowId: (await someFlow(caller.companyId)).id },
    }),
  },
  'PUT /flowcampaign': {
    allow: signedIn,
    request: async (caller) => {
      const c = await someFlowCampaign(caller.companyId);
      return {
        path: '/flowcampaign',
        body: { id: c.id, name: c.name, phrase: c.phrase, flowId: c.flowId, status: false },
      };
    },
  },
  'DELETE /flowcampaign/{id}': { allow: admins, ...byFlowCampaign((id) => ({ path: `/flowcampaign/${id}` })) },

  // Internal chat (D145): every signed-in user with the plan's useInternalChat; the request's chat is the
  // caller's own (only the owner may change or delete it).
  'GET /chats': { allow: signedIn, request: async () => ({ path: '/chats' }) },
  'GET /chats/{id}': { allow: signedIn, ...byChat((id) => ({ path: `/chats/${id}` })) },
  'POST /chats': {
    allow: signedIn,
    request: async (caller) => ({ path: '/chats', body: { title: uniqueName('Chat'), users: [caller.userId || 1] } }),
  },
  'PUT /chats/{id}': {
    allow: signedIn,
    ...byChat((id) => ({ path: `/chats/${id}`, body: { title: 'Renomeado', users: [1] } })),
  },
  'DELETE /chats/{id}': { allow: signedIn, ...byChat((id) => ({ path: `/chats/${id}` })) },
  'GET /chats/{id}/messages': { allow: signedIn, ...byChat((id) => ({ path: `/chats/${id}/messages` })) },
  'POST /chats/{id}/messages': {
    allow: signedIn,
    ...byChat((id) => ({ path: `/chats/${id}/messages`, body: { message: 'Olá' } })),
  },
  'POST /chats/{id}/read': { allow: signedIn, ...byChat((id) => ({ path: `/chats/${id}/read`, body: {} })) },

  // Announcements (D144) and help entries (D146): everyone reads, the owner writes.
  'GET /announcements': { allow: signedIn, request: async () => ({ path: '/announcements' }) },
  'GET /announcements/{id}': {
    allow: superOnly,
    request: async () => ({ path: `/announcements/${(await someAnnouncement()).id}` }),
    notTenantData: PLATFORM_CONTENT,
  },
  'POST /announcements': {
    allow: superOnly,
    request: async () => ({ path: '/announcements', body: { title: uniqueName('Aviso'), text: 'Texto' } }),
  },
  'PUT /announcements/{id}': {
    allow: superOnly,
    request: async () => ({ path: `/announcements/${(await someAnnouncement()).id}`, body: { priority: 1 } }),
    notTenantData: PLATFORM_CONTENT,
  },
  'DELETE /announcements/{id}': {
    allow: superOnly,
    request: async () => ({ path: `/announcements/${(await someAnnouncement()).id}` }),
    notTenantData: PLATFORM_CONTENT,
  },
  'POST /announcements/{id}/media-upload': {
    allow: superOnly,
    request: async () => ({
      path: `/announcements/${(await someAnnouncement()).id}/media-upload`,
      body: announcementImage(),
    }),
    notTenantData: PLATFORM_CONTENT,
  },
  'DELETE /announcements/{id}/media-upload': {
    allow: superOnly,
    request: async () => ({ path: `/announcements/${(await someAnnouncement()).id}/media-upload` }),
    notTenantData: PLATFORM_CONTENT,
  },
  'GET /helps': { allow: signedIn, request: async () => ({ path: '/helps' }) },
  'GET /helps/list': { allow: signedIn, request: async () => ({ path: '/helps/list' }) },
  'POST /helps': {
    allow: superOnly,
    request: async () => ({ path: '/helps', body: { title: uniqueName('Ajuda'), video: 'dQw4w9WgXcQ' } }),
  },
  'PUT /helps/{id}': {
    allow: superOnly,
    request: async () => ({ path: `/helps/${(await someHelp()).id}`, body: { description: 'Nova' } }),
    notTenantData: PLATFORM_CONTENT,
  },
  'DELETE /helps/{id}': {
    allow: superOnly,
    request: async () => ({ path: `/helps/${(await someHelp()).id}` }),
    notTenantData: PLATFORM_CONTENT,
  },

  // Plans (the owner), invoices and checkout (admins, also when expired), Efí's webhook (public, with our
  // hmac; decisions D151–D153).
  'GET /plans/all': { allow: superOnly, request: async () => ({ path: '/plans/all' }) },
  'POST /plans': {
    allow: superOnly,
    request: async () => ({
      path: '/plans',
      body: { name: uniqueName('Plano'), users: 3, connections: 3, queues: 3, amount: 10 },
    }),
  },
  'PUT /plans/{id}': {
    allow: superOnly,
    request: async () => ({ path: `/plans/${(await somePlan()).id}`, body: { queues: 5 } }),
    notTenantData: PLATFORM_CONTENT,
  },
  'DELETE /plans/{id}': {
    allow: superOnly,
    request: async () => ({ path: `/plans/${(await somePlan()).id}` }),
    notTenantData: PLATFORM_CONTENT,
  },
  'GET /invoices/all': { allow: admins, request: async () => ({ path: '/invoices/all' }) },
  'POST /subscription': {
    allow: admins,
    request: async (caller) => ({
      path: '/subscription',
      body: checkoutBody((await someInvoice(caller.companyId)).id),
    }),
  },
  'POST /webhooks/efi': {
    allow: everyone,
    // The hmac rides in the path's query, as Efí calls the registered URL (the matrix posts `path` as is).
    request: async () => ({ path: `/webhooks/efi?hmac=${await efiWebhookHmac()}&ignorar=/pix`, body: { pix: [] } }),
  },
  // Card providers' webhooks (verified by their adapters with the fake credentials) and the offered
  // providers (D167, D168).
  'POST /webhooks/stripe': {
    allow: everyone,
    request: async () => {
      const body = { id: 'evt_access', type: 'customer.created', data: { object: { id: 'cus_access' } } };
      const signature = stripeSignature(FAKE_STRIPE_CREDENTIALS.webhookSecret, JSON.stringify(body));
      return { path: '/webhooks/stripe', body, headers: { 'stripe-signature': signature } };
    },
  },
  'POST /webhooks/asaas': {
    allow: everyone,
    request: async () => ({
      path: '/webhooks/asaas',
      body: { id: 'evt_access', event: 'PAYMENT_CREATED', payment: { id: 'pay_access' } },
      headers: { 'asaas-access-token': FAKE_ASAAS_CREDENTIALS.webhookToken },
    }),
  },
  'POST /webhooks/mercadopago': {
    allow: everyone,
    request: async () => ({
      path: '/webhooks/mercadopago?data.id=1&type=merchant_order',
      body: { id: 1, type: 'merchant_order', data: { id: '1' } },
      headers: {
        'x-request-id': 'access-1',
        'x-signature': mercadoPagoSignature(FAKE_MERCADOPAGO_CREDENTIALS.webhookSecret, '1', 'access-1', '1'),
      },
    }),
  },
  'GET /subscription/providers': { allow: admins, request: async () => ({ path: '/subscription/providers' }) },
  // Queue integrations (plan flag useIntegrations) and AI prompts (useOpenAi): admins (D162–D165).
  'GET /queueIntegration': {
    allow: admins,
    request: async () => ({ path: '/queueIntegration', query: { pageNumber: '1' } }),
  },
  'GET /queueIntegration/{id}': { allow: admins, ...byIntegration((id) => ({ path: `/queueIntegration/${id}` })) },
  'POST /queueIntegration': {
    allow: admins,
    request: async () => ({
      path: '/queueIntegration',
      body: { type: 'n8n', name: uniqueName('n8n'), urlN8N: 'http://127.0.0.1:9/n8n' },
    }),
  },
  'PUT /queueIntegration/{id}': {
    allow: admins,
    ...byIntegration((id) => ({ path: `/queueIntegration/${id}`, body: { name: 'Novo nome' } })),
  },
  'DELETE /queueIntegration/{id}': { allow: admins, ...byIntegration((id) => ({ path: `/queueIntegration/${id}` })) },
  'POST /queueIntegration/testSession': {
    allow: admins,
    request: async () => ({
      path: '/queueIntegration/testSession',
      body: { projectName: 'p', language: 'pt-BR', jsonContent: '{"client_email":"a@b.c","private_key":"not-a-key"}' },
    }),
  },
  'GET /prompt': { allow: admins, request: async () => ({ path: '/prompt' }) },
  'GET /prompt/{id}': { allow: admins, ...byPrompt((id) => ({ path: `/prompt/${id}` })) },
  'POST /prompt': {
    allow: admins,
    request: async (caller) => ({
      path: '/prompt',
      body: {
        name: 'Assistente de vendas',
        prompt: 'Você é um assistente de vendas educado que responde dúvidas sobre os planos da empresa.',
        apiKey: 'sk-test-access',
        queueId: (await someQueue(caller.companyId)).id,
      },
    }),
  },
  'PUT /prompt/{id}': { allow: admins, ...byPrompt((id) => ({ path: `/prompt/${id}`, body: { maxTokens: 200 } })) },
  'DELETE /prompt/{id}': { allow: admins, ...byPrompt((id) => ({ path: `/prompt/${id}` })) },
  // Companies (decisions D155–D157): the platform owner's, every company by id.
  'GET /companiesPlan': {
    allow: superOnly,
    request: async () => ({ path: '/companiesPlan', query: { searchParam: 'a' } }),
  },
  'GET /companies': { allow: superOnly, request: async () => ({ path: '/companies' }) },
  'GET /companies/list': { allow: superOnly, request: async () => ({ path: '/companies/list' }) },
  'GET /companies/{id}': {
    allow: superOnly,
    request: async (caller) => ({ path: `/companies/${caller.companyId}` }),
    notTenantData: COMPANY_ADMIN,
  },
  'POST /companies': {
    allow: superOnly,
    request: async () => {
      const name = uniqueName('Empresa');
      return {
        path: '/companies',
        body: { name, email: `${randomUUID()}@test.local`, passwordDefault: 'Senha@123', planId: 1 },
      };
    },
  },
  'PUT /companies/{id}': {
    allow: superOnly,
    request: async () => ({ path: `/companies/${(await throwawayCompany()).id}`, body: { phone: '5511999990000' } }),
    notTenantData: COMPANY_ADMIN,
  },
  'DELETE /companies/{id}': {
    allow: superOnly,
    request: async () => ({ path: `/companies/${(await throwawayCompany()).id}` }),
    notTenantData: COMPANY_ADMIN,
  },
};

/** Meta's webhooks are public and signed (decisions D40): an empty batch, signed with the test app secret. */
const signedWebhook = (): RouteRequest => {
  const body = { object: 'page', entry: [] };
  const secret = inject('localCloudEnv').META_APP_SECRET ?? '';
  return {
    path: '/webhooks/meta',
    body,
    headers: { 'x-hub-signature-256': metaSignature(Buffer.from(JSON.stringify(body)), secret) },
  };
};

/** Callers of every role: a fresh tenant's attendant and admin, and the platform owner (company 1). */
export const makeCallers = async (): Promise<{ tenant: TestCompany; callers: Caller[] }> => {
  const tenant = await freshCompany();
  const owner = await findUserIdByEmail('owner@zapdesk.local');
  if (!owner || owner.companyId !== 1) throw new Error('the integration setup seeds company 1 with its owner');
  const superToken = await signAccessToken({ companyId: 1, userId: owner.userId, profile: 'admin', super: true });
  return {
    tenant,
    callers: [
      { role: 'anonymous', token: undefined, companyId: tenant.company.id, userId: 0 },
      { role: 'user', token: tenant.attendantToken, companyId: tenant.company.id, userId: tenant.attendant.id },
      { role: 'admin', token: tenant.adminToken, companyId: tenant.company.id, userId: tenant.admin.id },
      { role: 'super', token: superToken, companyId: 1, userId: owner.userId },
    ],
  };
};
