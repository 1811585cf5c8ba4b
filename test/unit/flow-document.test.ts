import { describe, expect, it } from 'vitest';
import { checkFlowDocument, type FlowConnection, type FlowNode } from '../../functions/contracts/flows';
import { decideStep, fillVariables, seededPercent } from '../../functions/core/flows/flow-engine';
import { BOT_CALLING } from '../../functions/core/flows/flow-bots';
import type { Contact } from '../../functions/data/contact-repository';
import type { FlowRun } from '../../functions/data/flow-run-repository';
import type { FlowVersion } from '../../functions/data/flow-repository';

/** The flow document's rules (decisions D138) and the engine's pure step decisions (D139). */
const node = (id: string, type: FlowNode['type'], data: Record<string, unknown> = {}): FlowNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data,
});
const edge = (source: string, target: string, sourceHandle?: string): FlowConnection => ({
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});
const menu = node('m', 'menu', {
  message: 'Escolha',
  arrayOption: [
    { number: 1, value: 'Vendas' },
    { number: 2, value: 'Suporte' },
  ],
});

describe('checkFlowDocument', () => {
  it('accepts a start, a menu with one output per option and a randomizer with a and b', () => {
    const nodes = [
      node('1', 'start'),
      menu,
      node('r', 'randomizer', { percent: 30 }),
      node('x', 'message', { label: 'x' }),
    ];
    const connections = [
      edge('1', 'm'),
      edge('m', 'r', 'a1'),
      edge('m', 'x', 'a2'),
      edge('r', 'x', 'a'),
      edge('r', 'x', 'b'),
    ];
    expect(checkFlowDocument({ nodes, connections })).toEqual([]);
  });

  it('needs exactly one start node', () => {
    expect(checkFlowDocument({ nodes: [node('a', 'message', { label: 'x' })], connections: [] })).toEqual([
      { field: 'body.nodes', reason: 'the flow needs a start node' },
    ]);
  });

  it('refuses a second connection from a one-output node, and unknown handles', () => {
    const nodes = [
      node('1', 'start'),
      node('a', 'message', { label: 'a' }),
      node('b', 'message', { label: 'b' }),
      menu,
    ];
    const problems = checkFlowDocument({
      nodes,
      connections: [edge('1', 'a'), edge('1', 'b'), edge('m', 'a', 'a3'), edge('a', 'ghost')],
    });
    expect(problems.map((p) => p.reason)).toEqual([
      'node 1 (start): its output is already connected',
      "node m (menu): no output 'a3' (outputs: a1, a2)",
      'node ghost does not exist',
    ]);
  });

  it("names each node's own rule with the spec's text", () => {
    const problems = checkFlowDocument({
      nodes: [
        node('1', 'start'),
        node('i', 'interval', { sec: 121 }),
        node('q', 'question', { message: '', answerKey: 'e-mail' }),
        node('c', 'singleBlock', {
          seq: ['interval1', 'img2'],
          elements: [
            { number: 'interval1', type: 'interval', value: 0 },
            { number: 'img2', type: 'img', value: '' },
          ],
        }),
      ],
      connections: [],
    });
    expect(problems.map((p) => p.reason)).toEqual([
      'node i (interval): Máximo de tempo atingido 120 segundos',
      'node q (question): Obrigatório',
      'node q (question): Nome de variável inválido',
      'node c (singleBlock): Intervalo não pode ser 0 ou maior que 120!',
      'node c (singleBlock): Delete os cards vazios(Imagem, Audio e Video)',
    ]);
  });
});

const contact = { name: 'Maria Souza', number: '5511999990000', email: 'm@x.com' } as Contact;
const run = (over: Partial<FlowRun> = {}): FlowRun =>
  ({ runId: '01JRUN', step: 3, element: 0, variables: {}, attempts: 0, ...over }) as FlowRun;
const doc = (nodes: FlowNode[], connections: FlowConnection[]): FlowVersion =>
  ({ nodes, connections, version: 1 }) as FlowVersion;

describe('the engine, step by step', () => {
  it('fills {{variables}} from answers, then the contact', () => {
    expect(fillVariables('Oi {{firstName}}, {{ cidade }}{{nada}}!', { cidade: 'Recife' }, contact)).toBe(
      'Oi Maria, Recife!',
    );
  });

  it('the randomizer is seeded by run and step: a retry picks the same branch', () => {
    const r = node('r', 'randomizer', { percent: 50 });
    const d = doc([r], [edge('r', 'A', 'a'), edge('r', 'B', 'b')]);
    const first = decideStep(run(), d, r, { kind: 'start' }, contact).nodeId;
    expect(decideStep(run(), d, r, { kind: 'start' }, contact).nodeId).toBe(first);
    expect(first).toBe(seededPercent('01JRUN', 3) < 50 ? 'A' : 'B');
    const always = node('r', 'randomizer', { percent: 100 });
    expect(decideStep(run(), d, always, { kind: 'start' }, contact).nodeId).toBe('A');
  });

  it('a menu asks, re-prompts on an invalid answer, and gives up on the third', () => {
    const d = doc([menu], [edge('m', 'sales', 'a1')]);
    const asked = decideStep(run(), d, menu, { kind: 'start' }, contact);
    expect(asked).toMatchObject({ nodeId: 'm', element: 1, wait: { kind: 'input' } });
    expect(asked.sends[0]!.body).toBe('Escolha\n\n*1* - Vendas\n*2* - Suporte');
    const invalid = decideStep(run({ element: 1 }), d, menu, { kind: 'input', body: '7', ulid: 'U1' }, contact);
    expect(invalid).toMatchObject({ attempts: 1, wait: { kind: 'input' } });
    const third = decideStep(
      run({ element: 1, attempts: 2 }),
      d,
      menu,
      { kind: 'input', body: 'x', ulid: 'U2' },
      contact,
    );
    expect(third.end).toBe('invalid-answers');
    const chosen = decideStep(run({ element: 1 }), d, menu, { kind: 'input', body: 'VENDAS', ulid: 'U3' }, contact);
    expect(chosen).toMatchObject({ nodeId: 'sales', sends: [] });
  });

  it('a content node pauses at its interval card and goes on from the next card', () => {
    const c = node('c', 'singleBlock', {
      seq: ['message1', 'interval2', 'message3'],
      elements: [
        { number: 'message3', type: 'message', value: 'depois' },
        { number: 'message1', type: 'message', value: 'antes' },
        { number: 'interval2', type: 'interval', value: 5 },
      ],
    });
    const d = doc([c], [edge('c', 'next')]);
    const before = decideStep(run(), d, c, { kind: 'start' }, contact);
    expect(before).toMatchObject({
      sends: [{ body: 'antes' }],
      nodeId: 'c',
      element: 2,
      wait: { kind: 'timer', seconds: 5 },
    });
    const after = decideStep(run({ element: 2 }), d, c, { kind: 'timer' }, contact);
    expect(after).toMatchObject({ sends: [{ body: 'depois' }], nodeId: 'next', element: 0 });
  });

  it('typebot and openai nodes send nothing themselves: the provider call is a step of its own, due at once', () => {
    const ai = node('t', 'openai', { name: 'IA', apiKey: 'sk-x', prompt: 'Você é um atendente.' });
    const step = decideStep(run(), doc([ai], []), ai, { kind: 'start' }, contact);
    expect(step.sends).toEqual([]);
    expect(step.end).toBeUndefined();
    expect(step).toMatchObject({ nodeId: 't', element: BOT_CALLING, wait: { kind: 'timer', seconds: 0 } });
  });
});
