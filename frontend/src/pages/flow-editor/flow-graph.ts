import type { Connection, Edge, Node } from '@xyflow/react';
import type { FlowConnection, FlowDocument, FlowNode, FlowNodeType } from '@contracts/flows';

/**
 * The editor's graph, in xyflow's terms, and the flow document the server takes (administration §3 Flow
 * document; decisions D138): node ids of 30 random letters and digits, the start node '1', outputs per node
 * kind — a menu one per option (`a<number>`), a randomizer `a` and `b`, every other node one — and the rules
 * enforced while drawing.
 */
export type FlowNodeData = Record<string, unknown>;
export type EditorNode = Node<FlowNodeData, FlowNodeType>;
export type EditorEdge = Edge;

/** The node menu (§2: Inicio, Conteúdo, Menu, Randomizador, Intervalo, Ticket, TypeBot, OpenAI; question and condition too). */
export const NODE_MENU: readonly FlowNodeType[] = [
  'start',
  'singleBlock',
  'menu',
  'randomizer',
  'interval',
  'ticket',
  'question',
  'condition',
  'typebot',
  'openai',
];

/** Kinds with a dialog (double-click); start and the legacy media nodes have none. */
export const EDITABLE: ReadonlySet<FlowNodeType> = new Set([
  'message',
  'singleBlock',
  'menu',
  'randomizer',
  'interval',
  'ticket',
  'question',
  'condition',
  'typebot',
  'openai',
]);

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** §9: node ids are 30 random alphanumeric characters. */
export const newNodeId = (): string => {
  const bytes = new Uint8Array(30);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('');
};

/** The data a new node of a kind starts with. */
export const defaultData = (kind: FlowNodeType): FlowNodeData => {
  switch (kind) {
    case 'start':
      return { label: 'Inicio do fluxo' };
    case 'message':
      return { label: '' };
    case 'singleBlock':
      return { seq: [], elements: [] };
    case 'menu':
      return { message: '', arrayOption: [{ number: 1, value: '' }] };
    case 'randomizer':
      return { percent: 50 };
    case 'interval':
      return { sec: 10 };
    case 'ticket':
      return {};
    case 'question':
      return { message: '', answerKey: '' };
    case 'condition':
      return { key: '', condition: '==', value: '' };
    case 'typebot':
      return { name: '', urlN8N: '', typebotSlug: '', typebotExpires: 1, typebotDelayMessage: 1000 };
    case 'openai':
      return { name: '', apiKey: '', prompt: '', voice: 'texto', temperature: 1, maxTokens: 100, maxMessages: 10 };
    default:
      return {};
  }
};

/** The named outputs of a node, or null for the kinds with one output (its handle has no id). */
export const outputsOf = (node: Pick<EditorNode, 'type' | 'data'>): string[] | null => {
  if (node.type === 'menu') {
    const options = (node.data.arrayOption ?? []) as { number: number }[];
    return options.map((o) => `a${o.number}`);
  }
  if (node.type === 'randomizer') return ['a', 'b'];
  return null;
};

const sameOutput = (edge: Pick<EditorEdge, 'source' | 'sourceHandle'>, source: string, handle: string | null) =>
  edge.source === source && (edge.sourceHandle ?? null) === (handle ?? null);

/**
 * Whether a connection being drawn may be made (§2 connection rules): between two existing nodes, never
 * into the start node nor a node into itself, from an output the source has, which is still free.
 */
export const canConnect = (
  nodes: readonly EditorNode[],
  edges: readonly EditorEdge[],
  c: Pick<Connection, 'source' | 'target' | 'sourceHandle'>,
): boolean => {
  const source = nodes.find((n) => n.id === c.source);
  const target = nodes.find((n) => n.id === c.target);
  if (!source || !target || source.id === target.id || target.type === 'start') return false;
  const outputs = outputsOf(source);
  const handle = c.sourceHandle ?? null;
  if (outputs !== null && (handle === null || !outputs.includes(handle))) return false;
  return !edges.some((e) => sameOutput(e, source.id, outputs === null ? (e.sourceHandle ?? null) : handle));
};

/** The document `POST /flowbuilder/flow` takes. */
export const toDocument = (nodes: readonly EditorNode[], edges: readonly EditorEdge[]): FlowDocument => ({
  nodes: nodes.map((n): FlowNode => ({
    id: n.id,
    type: n.type!,
    position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
    data: n.data,
  })),
  connections: edges.map((e): FlowConnection => ({
    id: e.id,
    source: e.source,
    sourceHandle: e.sourceHandle ?? null,
    target: e.target,
    targetHandle: e.targetHandle ?? null,
  })),
});

export const startNode = (): EditorNode => ({
  id: '1',
  type: 'start',
  position: { x: 250, y: 100 },
  data: defaultData('start'),
  deletable: false,
});

export const edgeId = (c: Pick<FlowConnection, 'source' | 'sourceHandle' | 'target'>): string =>
  `e-${c.source}-${c.sourceHandle ?? 'out'}-${c.target}`;

/** The editor's graph of a saved document (only the start node when there is none, §3). */
export const fromDocument = (doc: FlowDocument | null): { nodes: EditorNode[]; edges: EditorEdge[] } => {
  if (!doc || doc.nodes.length === 0) return { nodes: [startNode()], edges: [] };
  return {
    nodes: doc.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      position: n.position,
      data: n.data,
      ...(n.type === 'start' ? { deletable: false } : {}),
    })),
    edges: doc.connections.map((c) => ({
      id: c.id ?? edgeId(c),
      source: c.source,
      target: c.target,
      sourceHandle: c.sourceHandle ?? null,
      targetHandle: c.targetHandle ?? null,
    })),
  };
};

/** §4: a new node 40 px right of the last node. */
export const newNodePosition = (nodes: readonly EditorNode[]): { x: number; y: number } => {
  const last = nodes[nodes.length - 1];
  return last ? { x: last.position.x + (last.measured?.width ?? 200) + 40, y: last.position.y } : { x: 250, y: 100 };
};

/** §4: a duplicated node 240 px right of the right-most node. */
export const duplicatePosition = (nodes: readonly EditorNode[], of: EditorNode): { x: number; y: number } => {
  const rightMost = Math.max(...nodes.map((n) => n.position.x));
  return { x: rightMost + 240, y: of.position.y };
};

/** Edges whose output no longer exists (a menu option removed) go with it. */
export const withoutDanglingEdges = (nodes: readonly EditorNode[], edges: readonly EditorEdge[]): EditorEdge[] =>
  edges.filter((e) => {
    const source = nodes.find((n) => n.id === e.source);
    if (!source || !nodes.some((n) => n.id === e.target)) return false;
    const outputs = outputsOf(source);
    return outputs === null || outputs.includes(e.sourceHandle ?? '');
  });
