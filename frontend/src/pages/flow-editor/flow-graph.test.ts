import { describe, expect, it } from 'vitest';
import { canConnect, fromDocument, type EditorEdge, type EditorNode } from './flow-graph';

const node = (id: string, type: EditorNode['type'], data: Record<string, unknown> = {}): EditorNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data,
});

const NODES: EditorNode[] = [
  node('1', 'start'),
  node('menu', 'menu', {
    message: 'Escolha',
    arrayOption: [
      { number: 1, value: 'A' },
      { number: 2, value: 'B' },
    ],
  }),
  node('rand', 'randomizer', { percent: 50 }),
  node('t1', 'ticket', { queueId: 1 }),
  node('t2', 'ticket', { queueId: 1 }),
];

describe('connection rules while drawing (§2; decisions D138)', () => {
  it('never into the start node, nor a node into itself', () => {
    expect(canConnect(NODES, [], { source: 't1', target: '1', sourceHandle: null })).toBe(false);
    expect(canConnect(NODES, [], { source: 't1', target: 't1', sourceHandle: null })).toBe(false);
  });

  it('every other node has one output', () => {
    const edges: EditorEdge[] = [{ id: 'e', source: '1', target: 't1', sourceHandle: null }];
    expect(canConnect(NODES, [], { source: '1', target: 't1', sourceHandle: null })).toBe(true);
    expect(canConnect(NODES, edges, { source: '1', target: 't2', sourceHandle: null })).toBe(false);
  });

  it('a menu has one output per option, each used once', () => {
    const edges: EditorEdge[] = [{ id: 'e', source: 'menu', target: 't1', sourceHandle: 'a1' }];
    expect(canConnect(NODES, edges, { source: 'menu', target: 't2', sourceHandle: 'a2' })).toBe(true);
    expect(canConnect(NODES, edges, { source: 'menu', target: 't2', sourceHandle: 'a1' })).toBe(false);
    expect(canConnect(NODES, edges, { source: 'menu', target: 't2', sourceHandle: 'a3' })).toBe(false);
    expect(canConnect(NODES, edges, { source: 'menu', target: 't2', sourceHandle: null })).toBe(false);
  });

  it('a randomizer has two outputs, A and B', () => {
    const edges: EditorEdge[] = [{ id: 'e', source: 'rand', target: 't1', sourceHandle: 'a' }];
    expect(canConnect(NODES, edges, { source: 'rand', target: 't2', sourceHandle: 'b' })).toBe(true);
    expect(canConnect(NODES, edges, { source: 'rand', target: 't2', sourceHandle: 'a' })).toBe(false);
    expect(canConnect(NODES, edges, { source: 'rand', target: 't2', sourceHandle: 'c' })).toBe(false);
  });

  it('a flow with no saved document starts with only the start node, id 1 (§3)', () => {
    expect(fromDocument(null).nodes.map((n) => [n.id, n.type])).toEqual([['1', 'start']]);
  });
});
