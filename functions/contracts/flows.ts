import * as z from 'zod';

/**
 * Conversation flows on the wire (administration spec §2 Flow builder, Campaigns by phrase; §3 Flow, Flow
 * document, Content data, Question node, Flow campaign; §5 flow, content and phrase-campaign rules; §7 the
 * calls; decisions D138–D142). Shared by functions/http/flows, functions/core/flows, the flow engine and the
 * frontend (the list screens, and the visual editor, which draws and saves exactly this document).
 *
 * A flow DOCUMENT is what the editor saves with `POST /flowbuilder/flow`: `nodes` (id, type, position
 * {x, y}, data) and `connections` (source, sourceHandle, target, targetHandle). The shape of each node's
 * `data` is fixed per type below; the graph rules (one start node, outputs per node kind) are checked by
 * `checkFlowDocument`, which names the node and the reason of every refusal.
 */

// ------------------------------------------------------------------------------------------ flow (list item)

export interface FlowView {
  id: number;
  name: string;
  /** Shown as Ativo / Desativado; only an active flow starts new runs. */
  active: boolean;
  /** The latest saved (published) version of the document; 0 before the first save. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** GET /flowbuilder: one page by name. */
export interface FlowPage {
  flows: FlowView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** Flow name (§5): min 2 'Muito curto!', max 50 'Muito longo!', required 'Digite um nome!'. */
export const flowName = z
  .string({ error: 'Digite um nome!' })
  .trim()
  .min(1, 'Digite um nome!')
  .min(2, 'Muito curto!')
  .max(50, 'Muito longo!');

const flowId = z.coerce.number({ error: 'Required' }).int().positive();

/** POST /flowbuilder {name}. */
export const createFlowBody = z.object({ name: flowName });
/** PUT /flowbuilder {name, flowId} (`active` switches it on or off; decisions D138). */
export const updateFlowBody = z.object({ flowId, name: flowName.optional(), active: z.boolean().optional() });
/** POST /flowbuilder/duplicate {flowId}. */
export const duplicateFlowBody = z.object({ flowId });
export type CreateFlowBody = z.input<typeof createFlowBody>;
export type UpdateFlowBody = z.input<typeof updateFlowBody>;

// ------------------------------------------------------------------------------------------- the document

export const FLOW_NODE_TYPES = [
  'start',
  'message',
  'interval',
  'condition',
  'menu',
  'img',
  'audio',
  'randomizer',
  'video',
  'singleBlock',
  'ticket',
  'typebot',
  'openai',
  'question',
] as const;
export type FlowNodeType = (typeof FLOW_NODE_TYPES)[number];

/** §9: intervals above 0 and at most 120 seconds. */
export const FLOW_MAX_INTERVAL_SECONDS = 120;
/** Document bounds (decisions D138): the document is one DynamoDB item. */
export const FLOW_MAX_NODES = 300;
export const FLOW_MAX_CONNECTIONS = 600;
export const FLOW_MAX_DOCUMENT_BYTES = 300_000;

/** A variable name a question stores into and a text reads as {{name}}. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;

const text = (max = 4096) => z.string().max(max, 'Muito longo!');
const required = (message: string, max = 4096) => z.string({ error: message }).trim().min(1, message).max(max);

/** A content card (§3 Content data): message, interval, img, audio or video. */
export const contentElement = z.object({
  /** The id within `seq` (message1, interval2, img3 …). */
  number: z.string().min(1).max(40),
  type: z.enum(['message', 'interval', 'img', 'audio', 'video']),
  /** Text, seconds, or the stored file's key (`c/<c>/flows/<flowId>/…`). */
  value: z.union([z.string().max(4096), z.number()]),
  /** Original file name (media). */
  original: z.string().max(255).optional(),
  /** Audio: sent as a voice note recorded on the spot. */
  record: z.boolean().optional(),
});
export type ContentElement = z.infer<typeof contentElement>;

export const conditionOperators = ['==', '!=', 'contains', '>', '<', '>=', '<='] as const;
export type ConditionOperator = (typeof conditionOperators)[number];

/** Each node type's `data`. */
export const nodeDataSchemas = {
  start: z.object({ label: text(100).optional() }),
  message: z.object({ label: required('Campos de mensagem vazio!') }),
  interval: z.object({
    sec: z.coerce
      .number({ error: 'Adicione o valor de intervalo' })
      .positive('Adicione o valor de intervalo')
      .max(FLOW_MAX_INTERVAL_SECONDS, 'Máximo de tempo atingido 120 segundos'),
  }),
  condition: z.object({
    key: required('Informe a variável', 50),
    condition: z.enum(conditionOperators, { error: 'Condição inválida' }),
    value: text(500),
  }),
  menu: z.object({
    message: required('Campos de mensagem vazio!'),
    arrayOption: z
      .array(z.object({ number: z.number().int().positive(), value: required('Campos de mensagem vazio!', 100) }))
      .min(1, 'Adicione uma opção')
      .max(20, 'No máximo 20 opções'),
  }),
  img: z.object({ url: required('Delete os cards vazios(Imagem, Audio e Video)', 500) }),
  audio: z.object({
    url: required('Delete os cards vazios(Imagem, Audio e Video)', 500),
    record: z.boolean().optional(),
  }),
  video: z.object({ url: required('Delete os cards vazios(Imagem, Audio e Video)', 500) }),
  randomizer: z.object({ percent: z.number().int().min(0).max(100).multipleOf(10, 'Passos de 10') }),
  singleBlock: z.object({
    seq: z.array(z.string().min(1).max(40)).min(1, 'Adicione um conteúdo').max(50),
    elements: z.array(contentElement).min(1, 'Adicione um conteúdo').max(50),
  }),
  ticket: z.object({
    queueId: z.number({ error: 'Adicione uma fila' }).int().positive('Adicione uma fila'),
    name: text(100).optional(),
  }),
  typebot: z.object({
    name: required('Required', 50),
    urlN8N: required('Required', 500),
    typebotSlug: required('Required', 200),
    typebotExpires: z.number().int().min(0).optional(),
    typebotDelayMessage: z.number().int().min(0).optional(),
    typebotKeywordFinish: text(100).optional(),
    typebotKeywordRestart: text(100).optional(),
    typebotUnknownMessage: text(1000).optional(),
    typebotRestartMessage: text(1000).optional(),
  }),
  openai: z.object({
    name: required('Obrigatório', 100),
    apiKey: required('Obrigatório', 300),
    prompt: required('Obrigatório', 10_000),
    voice: text(50).optional(),
    voiceKey: text(300).optional(),
    voiceRegion: text(50).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().max(4096).optional(),
    maxMessages: z.number().int().positive().max(50).optional(),
  }),
  question: z.object({
    message: required('Obrigatório'),
    answerKey: z.string({ error: 'Obrigatório' }).regex(VARIABLE_NAME, 'Nome de variável inválido'),
  }),
} as const satisfies Record<FlowNodeType, z.ZodType>;

export type FlowNodeData<T extends FlowNodeType> = z.infer<(typeof nodeDataSchemas)[T]>;

/** A node as saved: its `data` is checked against its type by `checkFlowDocument`. */
export const flowNode = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only'),
  type: z.enum(FLOW_NODE_TYPES),
  position: z.object({ x: z.number(), y: z.number() }),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type FlowNode = z.infer<typeof flowNode>;

export const flowConnection = z.object({
  id: z.string().max(200).optional(),
  source: z.string().min(1).max(64),
  sourceHandle: z.string().max(64).nullish(),
  target: z.string().min(1).max(64),
  targetHandle: z.string().max(64).nullish(),
});
export type FlowConnection = z.infer<typeof flowConnection>;

export interface FlowDocument {
  nodes: FlowNode[];
  connections: FlowConnection[];
}

/** POST /flowbuilder/flow {idFlow, nodes, connections}. */
export const saveFlowDocumentBody = z.object({
  idFlow: flowId,
  nodes: z.array(flowNode).min(1).max(FLOW_MAX_NODES),
  connections: z.array(flowConnection).max(FLOW_MAX_CONNECTIONS).default([]),
});
export type SaveFlowDocumentBody = z.input<typeof saveFlowDocumentBody>;

/** GET /flowbuilder/flow/{id}: `flow.flow` is the latest version's document, or null before the first save. */
export interface FlowDocumentAnswer {
  flow: FlowView & { flow: FlowDocument | null };
}

/** The menu option an output handle stands for: `a<number>` (decisions D138). */
export const menuHandle = (optionNumber: number): string => `a${optionNumber}`;
/** The randomizer's two outputs: `a` takes `percent` %, `b` the rest. */
export const RANDOMIZER_HANDLES = ['a', 'b'] as const;

export interface FlowProblem {
  field: string;
  reason: string;
}

/**
 * The graph and per-node rules (§5, §7 connection rules; decisions D138): exactly one start node; unique
 * node ids; each node's data valid for its type; every connection between existing nodes, none into the
 * start node; outputs per kind — a menu one per option (`a<number>`), a randomizer two (`a`, `b`), every
 * other node one — and at most one connection per output. Answers every problem found, each naming the
 * node; an empty list means the document may be saved.
 */
export const checkFlowDocument = (doc: FlowDocument): FlowProblem[] => {
  const problems: FlowProblem[] = [];
  const byId = new Map<string, { node: FlowNode; index: number }>();
  doc.nodes.forEach((node, index) => {
    if (byId.has(node.id)) {
      problems.push({ field: `body.nodes.${index}.id`, reason: `node ${node.id}: duplicated id` });
      return;
    }
    byId.set(node.id, { node, index });
    const parsed = nodeDataSchemas[node.type].safeParse(node.data);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push({
          field: ['body', 'nodes', index, 'data', ...issue.path.map(String)].join('.'),
          reason: `node ${node.id} (${node.type}): ${issue.message}`,
        });
      }
    } else if (node.type === 'singleBlock') {
      problems.push(...checkContent(node, index, parsed.data as FlowNodeData<'singleBlock'>));
    } else if (node.type === 'menu') {
      const numbers = (parsed.data as FlowNodeData<'menu'>).arrayOption.map((o) => o.number);
      if (new Set(numbers).size !== numbers.length) {
        problems.push({
          field: `body.nodes.${index}.data.arrayOption`,
          reason: `node ${node.id} (menu): option numbers repeat`,
        });
      }
    }
  });
  const starts = doc.nodes.filter((n) => n.type === 'start');
  if (starts.length !== 1) {
    problems.push({
      field: 'body.nodes',
      reason: starts.length === 0 ? 'the flow needs a start node' : 'the flow has more than one start node',
    });
  }
  const used = new Set<string>();
  doc.connections.forEach((c, index) => {
    const field = `body.connections.${index}`;
    const source = byId.get(c.source);
    const target = byId.get(c.target);
    if (!source) return void problems.push({ field: `${field}.source`, reason: `node ${c.source} does not exist` });
    if (!target) return void problems.push({ field: `${field}.target`, reason: `node ${c.target} does not exist` });
    if (target.node.type === 'start') {
      return void problems.push({ field: `${field}.target`, reason: `node ${c.target} (start): has no input` });
    }
    const handles = outputHandles(source.node);
    let output: string;
    if (handles === null) {
      output = '';
    } else {
      output = c.sourceHandle ?? '';
      if (!handles.includes(output)) {
        return void problems.push({
          field: `${field}.sourceHandle`,
          reason: `node ${c.source} (${source.node.type}): no output '${output}' (outputs: ${handles.join(', ')})`,
        });
      }
    }
    const key = `${c.source}\u0000${output}`;
    if (used.has(key)) {
      return void problems.push({
        field: field,
        reason: `node ${c.source} (${source.node.type}): ${output ? `output '${output}'` : 'its output'} is already connected`,
      });
    }
    used.add(key);
  });
  return problems;
};

/** The named outputs of a node, or null for the single-output kinds (any handle id, one connection). */
export const outputHandles = (node: FlowNode): string[] | null => {
  if (node.type === 'menu') {
    const parsed = nodeDataSchemas.menu.safeParse(node.data);
    return parsed.success ? parsed.data.arrayOption.map((o) => menuHandle(o.number)) : [];
  }
  if (node.type === 'randomizer') return [...RANDOMIZER_HANDLES];
  return null;
};

const checkContent = (node: FlowNode, index: number, data: FlowNodeData<'singleBlock'>): FlowProblem[] => {
  const problems: FlowProblem[] = [];
  const field = (i: number) => `body.nodes.${index}.data.elements.${i}.value`;
  const numbers = new Set(data.elements.map((e) => e.number));
  for (const id of data.seq) {
    if (!numbers.has(id)) {
      problems.push({
        field: `body.nodes.${index}.data.seq`,
        reason: `node ${node.id} (singleBlock): ${id} has no card`,
      });
    }
  }
  data.elements.forEach((e, i) => {
    const reason = (r: string) => problems.push({ field: field(i), reason: `node ${node.id} (singleBlock): ${r}` });
    if (e.type === 'message' && (typeof e.value !== 'string' || !e.value.trim())) reason('Campos de mensagem vazio!');
    if (e.type === 'interval') {
      const sec = Number(e.value);
      if (!Number.isFinite(sec) || sec <= 0 || sec > FLOW_MAX_INTERVAL_SECONDS) {
        reason('Intervalo não pode ser 0 ou maior que 120!');
      }
    }
    if ((e.type === 'img' || e.type === 'audio' || e.type === 'video') && (typeof e.value !== 'string' || !e.value)) {
      reason('Delete os cards vazios(Imagem, Audio e Video)');
    }
  });
  return problems;
};

/** The media keys a document references (content cards and img/audio/video nodes). */
export const documentMediaKeys = (doc: FlowDocument): string[] => {
  const keys: string[] = [];
  for (const node of doc.nodes) {
    if (node.type === 'img' || node.type === 'audio' || node.type === 'video') {
      const url = (node.data as { url?: unknown }).url;
      if (typeof url === 'string' && url) keys.push(url);
    }
    if (node.type === 'singleBlock') {
      for (const e of ((node.data as { elements?: ContentElement[] }).elements ?? []) as ContentElement[]) {
        if ((e.type === 'img' || e.type === 'audio' || e.type === 'video') && typeof e.value === 'string' && e.value) {
          keys.push(e.value);
        }
      }
    }
  }
  return keys;
};

// ------------------------------------------------------------------------------------------- media uploads

/**
 * Flow media (administration §5, §7, §9; decisions D159): the browser asks for a presigned PUT per file
 * under the flow's prefix, uploads the bytes straight to S3, then saves the document naming the keys; the
 * save reads each new file's bytes (type and size) and deletes one that fails.
 */
export const FLOW_MEDIA_KINDS = ['img', 'audio', 'video'] as const;
export type FlowMediaKind = (typeof FLOW_MEDIA_KINDS)[number];

/** Per kind: the largest file, the accepted name extensions, the spec's "too large" text. */
export const FLOW_MEDIA_RULES: Record<
  FlowMediaKind,
  { maxBytes: number; extensions: readonly string[]; tooLarge: string; wrongType: string }
> = {
  img: {
    maxBytes: 2 * 1024 * 1024,
    extensions: ['png', 'jpg', 'jpeg'],
    tooLarge: 'Arquivo é muito grande! 2MB máximo',
    wrongType: 'Formato não aceito! Use png, jpg ou jpeg',
  },
  audio: {
    maxBytes: 5 * 1024 * 1024,
    extensions: ['ogg', 'mp3', 'opus', 'mpeg'],
    tooLarge: 'Arquivo é muito grande! 5MB máximo',
    wrongType: 'Formato não aceito! Use ogg, mp3, opus ou mpeg',
  },
  video: {
    maxBytes: 20 * 1024 * 1024,
    extensions: ['mp4'],
    tooLarge: 'Arquivo é muito grande! 20MB máximo',
    wrongType: 'Formato não aceito! Use mp4',
  },
};

/** The extension of a file name, lower case ('' when none). */
export const fileNameExtension = (name: string): string => {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name.trim());
  return match ? match[1]!.toLowerCase() : '';
};

/** The spec's text for a file a card of `kind` cannot take, or null when its name and size are fine. */
export const flowMediaProblem = (kind: FlowMediaKind, name: string, size: number): string | null => {
  const rule = FLOW_MEDIA_RULES[kind];
  if (!rule.extensions.includes(fileNameExtension(name))) return rule.wrongType;
  if (size > rule.maxBytes) return rule.tooLarge;
  return null;
};

const mediaDescriptor = z.object({
  /** The original file name (kept as the card's `original`). */
  name: z.string({ error: 'Required' }).trim().min(1, 'Required').max(255),
  type: z.enum(FLOW_MEDIA_KINDS, { error: 'img, audio or video' }),
  size: z.number({ error: 'Required' }).int().positive('Arquivo vazio'),
  contentType: z
    .string({ error: 'Required' })
    .trim()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type')
    .max(200),
});

/** POST /flowbuilder/content {idFlow, medias}: presigned PUTs for the files of content cards (up to 20). */
export const flowContentUploadBody = z.object({
  idFlow: flowId,
  medias: z.array(mediaDescriptor).min(1, 'Required').max(20, 'At most 20 files'),
});
/** POST /flowbuilder/img and /flowbuilder/audio {idFlow, medias}: one file of that kind (the node's). */
export const flowSingleUploadBody = z.object({
  idFlow: flowId,
  medias: z.array(mediaDescriptor.omit({ type: true })).length(1, 'One file'),
  fromMe: z.unknown().optional(),
  body: z.unknown().optional(),
});
export type FlowContentUploadBody = z.input<typeof flowContentUploadBody>;

/** One presigned upload: PUT the bytes to `uploadUrl` with exactly `headers`, then save `key` in the card. */
export interface FlowMediaUpload {
  /** The stored file's key (`c/<c>/flows/<flowId>/…`): the card's `value`, the node's `url`. */
  key: string;
  /** The original file name. */
  original: string;
  type: FlowMediaKind;
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresIn: number;
}
/** POST /flowbuilder/content answers `data` describing the uploads (§7). */
export interface FlowContentUploadAnswer {
  data: FlowMediaUpload[];
}
/** POST /flowbuilder/img|audio answers the file's `name` (its key, §7) and its upload. */
export interface FlowSingleUploadAnswer extends FlowMediaUpload {
  name: string;
}

// ------------------------------------------------------------------------- try it on the phone simulator

/**
 * POST /flowbuilder/test {flowId, whatsappId} (decisions D160): makes the saved flow the welcome flow of a
 * simulated connection and answers a fresh customer number to chat as; GET /flowbuilder/test/{flowId}
 * ?whatsappId&number answers where that customer's run of the flow is.
 */
export const startFlowTestBody = z.object({
  flowId,
  whatsappId: z.coerce.number({ error: 'Required' }).int().positive('Required'),
});
/** Without a customer (whatsappId and number) there is no run to show: the answer is `{run: null}`. */
export const flowTestPositionQuery = z.object({
  whatsappId: z.coerce.number().int().positive().optional(),
  number: z
    .string()
    .regex(/^\d{8,15}$/, '8 to 15 digits')
    .optional(),
});
export type StartFlowTestBody = z.input<typeof startFlowTestBody>;

export interface FlowTestStart {
  flowId: number;
  whatsappId: number;
  /** The version a run started now walks. */
  version: number;
  /** A customer number never seen in the company: its first message opens a ticket and starts the flow. */
  number: string;
}

export interface FlowTestPosition {
  /** The test customer's latest run of this flow on the connection, or null before it starts. */
  run: {
    runId: string;
    version: number;
    /** The node it carries out next or waits on; null once it ended. */
    nodeId: string | null;
    status: 'running' | 'waiting' | 'ended';
    step: number;
    endReason: string | null;
  } | null;
}

// ------------------------------------------------------------------------------ phrase campaigns (by phrase)

export interface FlowCampaignView {
  id: number;
  name: string;
  phrase: string;
  flowId: number;
  /** The connection it listens on; null: every connection of the company. */
  whatsappId: number | null;
  status: boolean;
  createdAt: string;
  updatedAt: string;
}

/** GET /flowcampaign: the list answer carries `flow` (§3). */
export interface FlowCampaignList {
  flow: FlowCampaignView[];
}
/** GET /flowcampaign/{id}: the detail answer carries `details` (§3). */
export interface FlowCampaignDetail {
  details: FlowCampaignView;
}

const campaignFields = {
  name: z.string({ error: 'Required' }).trim().min(1, 'Required').max(100, 'Too Long!'),
  phrase: z.string({ error: 'Required' }).trim().min(1, 'Required').max(500, 'Too Long!'),
  flowId: z.coerce.number({ error: 'Required' }).int().positive('Required'),
  // §5: the connection is flagged but does not block saving.
  whatsappId: z.union([z.coerce.number().int().positive(), z.literal(''), z.null()]).optional(),
};

/** POST /flowcampaign {name, flowId, whatsappId, phrase}: created active (create sends no status, §4). */
export const createFlowCampaignBody = z.object(campaignFields);
/** PUT /flowcampaign {id, name, flowId, whatsappId, phrase, status}. */
export const updateFlowCampaignBody = z.object({
  id: z.coerce.number({ error: 'Required' }).int().positive(),
  ...campaignFields,
  status: z.boolean().optional(),
});
export type CreateFlowCampaignBody = z.input<typeof createFlowCampaignBody>;
export type UpdateFlowCampaignBody = z.input<typeof updateFlowCampaignBody>;
