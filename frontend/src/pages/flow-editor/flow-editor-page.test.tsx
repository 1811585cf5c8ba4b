import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FlowDocument } from '@contracts/flows';
import type { FlowDocumentAnswer } from '@/api/flows';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { click, noOpenModal, openModal } from '@/components/test-kit';

/**
 * The flow editor (administration §2 editor, §4, §5; decisions D159): jsdom has no layout, so xyflow gets
 * a ResizeObserver, DOMMatrixReadOnly and the element sizes it measures with (as its own testing guide stubs
 * them). Drawing edges by mouse is the e2e's (test/e2e/flow-editor.e2e.test.ts); the rules a drawn
 * connection obeys are flow-graph.test.ts's.
 */
/** Only where the test setup has none: observes nothing (sizes come from the stubs below). */
class SilentResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
class StubDOMMatrixReadOnly {
  m22: number;
  constructor(transform?: string) {
    const scale = /scale\(([\d.]+)\)/.exec(transform ?? '')?.[1];
    this.m22 = scale === undefined ? 1 : Number(scale);
  }
}

beforeAll(() => {
  Object.defineProperties(HTMLElement.prototype, {
    offsetHeight: { configurable: true, get: () => 100 },
    offsetWidth: { configurable: true, get: () => 200 },
  });
  (SVGElement.prototype as unknown as { getBBox: () => DOMRect }).getBBox = () =>
    ({ x: 0, y: 0, width: 0, height: 0 }) as DOMRect;
});

const ME = authUser({ id: 1, name: 'Admin', profile: 'admin' });

const DOC: FlowDocument = {
  nodes: [
    { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio do fluxo' } },
    {
      id: 'content',
      type: 'singleBlock',
      position: { x: 300, y: 0 },
      data: { seq: ['message1'], elements: [{ number: 'message1', type: 'message', value: 'Olá!' }] },
    },
  ],
  connections: [{ id: 'e1', source: '1', sourceHandle: null, target: 'content', targetHandle: null }],
};

const answer = (doc: FlowDocument | null): FlowDocumentAnswer => ({
  flow: {
    id: 7,
    name: 'Boas-vindas',
    active: true,
    version: doc ? 1 : 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    flow: doc,
  },
});

const editorApi = (extra: Record<string, Route> = {}) => {
  const server = fakeApi({
    ...shellRoutes(ME),
    'GET /flowbuilder/flow/7': () => json(200, answer(DOC)),
    'GET /queue': () => json(200, [{ id: 3, name: 'Vendas', color: '#00ff00' }]),
    'POST /flowbuilder/flow': (req) => json(200, answer(req.body as FlowDocument)),
    ...extra,
  });
  return {
    ...server,
    posted: () => server.requests.filter((r) => r.method === 'POST' && r.path === '/flowbuilder/flow'),
  };
};

const openEditor = async (api = editorApi()) => {
  const view = renderApp({ path: '/flowbuilder/7', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: 'Desenhe seu fluxo' }, { timeout: 15_000 })).toBeTruthy();
  await screen.findByTestId('flow-node-singleBlock');
  return { ...view, api };
};

const addNode = (wrapper: ReturnType<typeof createWrapper>, kind: string) => {
  const menu = wrapper.findAllButtonDropdowns().find((d) => d.getElement().textContent?.includes('Adicionar nó'));
  if (!menu) throw new Error('no node menu');
  act(() => menu.openDropdown());
  const item = menu.findItems().find((i) => i.getElement().textContent === kind);
  if (!item) throw new Error(`no node kind '${kind}'`);
  act(() => item.click());
};

const unsavedShown = () => screen.queryByText('Não se esqueça de salvar seu fluxo!') !== null;

describe('flow editor', () => {
  beforeEach(() => {
    if (!('ResizeObserver' in globalThis)) vi.stubGlobal('ResizeObserver', SilentResizeObserver);
    vi.stubGlobal('DOMMatrixReadOnly', StubDOMMatrixReadOnly);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('draws the saved document with the node menu of the spec, and nothing unsaved', async () => {
    const { wrapper } = await openEditor();
    expect(screen.getByTestId('flow-node-start').textContent).toContain('Inicio');
    expect(screen.getByTestId('flow-node-singleBlock').textContent).toContain('Olá!');
    expect(unsavedShown()).toBe(false);
    const menu = wrapper.findAllButtonDropdowns().find((d) => d.getElement().textContent?.includes('Adicionar nó'))!;
    act(() => menu.openDropdown());
    expect(menu.findItems().map((i) => i.getElement().textContent)).toEqual([
      'Inicio',
      'Conteúdo',
      'Menu',
      'Randomizador',
      'Intervalo',
      'Ticket',
      'Pergunta',
      'Condição',
      'TypeBot',
      'OpenAI',
    ]);
    // The canvas: zoom controls, minimap, dotted background.
    expect(document.querySelector('.react-flow__controls')).not.toBeNull();
    expect(document.querySelector('.react-flow__minimap')).not.toBeNull();
    expect(document.querySelector('.react-flow__background')).not.toBeNull();
  });

  it('adds a ticket node through its dialog (Adicione uma fila), then warns until saved', async () => {
    const { wrapper } = await openEditor();
    addNode(wrapper, 'Ticket');
    const modal = openModal(wrapper);
    expect(modal.findHeader().getElement().textContent).toBe('Adicionar Ticket ao fluxo');
    click(modal, 'Adicionar');
    await waitFor(() => expect(errorOf(wrapper, 'Fila')).toBe('Adicione uma fila'));
    const select = createWrapper(modal.getElement()).findSelect()!;
    act(() => select.openDropdown());
    act(() => select.selectOptionByValue('3'));
    click(modal, 'Adicionar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect((await screen.findByTestId('flow-node-ticket')).textContent).toContain('Vendas');
    expect(unsavedShown()).toBe(true);
  });

  it('saves the document it shows, with the new node, and the warning goes', async () => {
    const api = editorApi();
    const { wrapper } = await openEditor(api);
    addNode(wrapper, 'Intervalo');
    const modal = openModal(wrapper);
    typeInto(wrapper, 'Tempo em segundos', '0');
    click(modal, 'Adicionar');
    await waitFor(() => expect(errorOf(wrapper, 'Tempo em segundos')).toBe('Adicione o valor de intervalo'));
    typeInto(wrapper, 'Tempo em segundos', '121');
    await waitFor(() => expect(errorOf(wrapper, 'Tempo em segundos')).toBe('Máximo de tempo atingido 120 segundos'));
    typeInto(wrapper, 'Tempo em segundos', '15');
    click(modal, 'Adicionar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(screen.getByTestId('flow-node-interval').textContent).toContain('15 segundos');

    click(wrapper, 'Salvar');
    await waitFor(() => expect(api.posted()).toHaveLength(1));
    const body = api.posted()[0]!.body as FlowDocument & { idFlow: number };
    expect(body.idFlow).toBe(7);
    expect(body.nodes.map((n) => [n.type, n.data])).toEqual([
      ['start', { label: 'Inicio do fluxo' }],
      ['singleBlock', DOC.nodes[1]!.data],
      ['interval', { sec: 15 }],
    ]);
    expect(body.nodes[2]!.id).toMatch(/^[A-Za-z0-9]{30}$/);
    expect(body.connections).toEqual([
      { id: 'e1', source: '1', sourceHandle: null, target: 'content', targetHandle: null },
    ]);
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Fluxo salvo com sucesso'));
    expect(unsavedShown()).toBe(false);
  });

  it("shows the server's 400 naming the node, and keeps the changes", async () => {
    const api = editorApi({
      'POST /flowbuilder/flow': () =>
        json(400, {
          error: 'ERR_VALIDATION',
          message: 'The flow cannot be saved',
          fields: [{ field: 'body.nodes.1.data.queueId', reason: 'node abc (ticket): Adicione uma fila' }],
        }),
    });
    const { wrapper } = await openEditor(api);
    click(wrapper, 'Salvar');
    const problems = await screen.findByTestId('flow-problems');
    expect(problems.textContent).toBe('node abc (ticket): Adicione uma fila');
    expect(screen.getByText('O fluxo não foi salvo')).toBeTruthy();
  });

  it('content cards: the spec texts for an empty text, an empty media card and a file too large', async () => {
    const { wrapper } = await openEditor();
    addNode(wrapper, 'Conteúdo');
    const modal = openModal(wrapper);
    expect(modal.findHeader().getElement().textContent).toBe('Adicionar menu ao fluxo');
    click(modal, 'Texto');
    click(modal, 'Imagem');
    click(modal, 'Adicionar');
    await waitFor(() => expect(errorOf(wrapper, 'Mensagem')).toBe('Campos de mensagem vazio!'));
    expect(errorOf(wrapper, 'Arquivo')).toBe('Delete os cards vazios(Imagem, Audio e Video)');
    const input = screen.getByLabelText('Arquivo de Imagem 2') as HTMLInputElement;
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'foto.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [big] } });
    await waitFor(() => expect(errorOf(wrapper, 'Arquivo')).toBe('Arquivo é muito grande! 2MB máximo'));
  });

  it('uploads a picked file before saving, and saves its key in the card', async () => {
    const put = vi.fn(async () => new Response(null, { status: 200 }));
    vi.stubGlobal('fetch', put);
    const key = 'c/1/flows/7/u-1/foto.png';
    const api = editorApi({
      'POST /flowbuilder/content': () =>
        json(200, {
          data: [
            {
              key,
              original: 'foto.png',
              type: 'img',
              uploadUrl: 'http://s3.test/put',
              method: 'PUT',
              headers: { 'content-type': 'image/png' },
              expiresIn: 900,
            },
          ],
        }),
    });
    const { wrapper } = await openEditor(api);
    addNode(wrapper, 'Conteúdo');
    const modal = openModal(wrapper);
    click(modal, 'Imagem');
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'foto.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Arquivo de Imagem 1'), { target: { files: [file] } });
    click(modal, 'Adicionar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    click(wrapper, 'Salvar');
    await waitFor(() => expect(api.posted()).toHaveLength(1));
    const upload = api.requests.find((r) => r.path === '/flowbuilder/content')!;
    expect(upload.body).toEqual({
      idFlow: 7,
      medias: [{ name: 'foto.png', type: 'img', size: 4, contentType: 'image/png' }],
    });
    expect(put).toHaveBeenCalledWith('http://s3.test/put', {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: file,
    });
    const saved = (api.posted()[0]!.body as FlowDocument).nodes[2]!;
    expect(saved.data).toEqual({
      seq: ['img1'],
      elements: [{ number: 'img1', type: 'img', value: key, original: 'foto.png' }],
    });
  });

  const pickImageAndSave = async (file: File, uploaded: string) => {
    const api = editorApi({
      'POST /flowbuilder/content': () =>
        json(200, {
          data: [
            {
              key: `c/1/flows/7/u-1/${uploaded}`,
              original: uploaded,
              type: 'img',
              uploadUrl: 'http://s3.test/put',
              method: 'PUT',
              headers: { 'content-type': 'image/jpeg' },
              expiresIn: 900,
            },
          ],
        }),
    });
    const { wrapper } = await openEditor(api);
    addNode(wrapper, 'Conteúdo');
    const modal = openModal(wrapper);
    click(modal, 'Imagem');
    fireEvent.change(screen.getByLabelText('Arquivo de Imagem 1'), { target: { files: [file] } });
    click(modal, 'Adicionar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    click(wrapper, 'Salvar');
    return api;
  };

  it('recompresses a JPEG image at quality 0.7 before uploading it', async () => {
    const put = vi.fn(async () => new Response(null, { status: 200 }));
    vi.stubGlobal('fetch', put);
    const close = vi.fn();
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(async () => ({ width: 4, height: 3, close })),
    );
    const smaller = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });
    const toBlob = vi.fn((done: BlobCallback) => done(smaller));
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
      drawImage: vi.fn(),
    } as unknown as CanvasRenderingContext2D);
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(toBlob);
    const file = new File([new Uint8Array(64).fill(0xff)], 'foto.jpg', { type: 'image/jpeg' });
    const api = await pickImageAndSave(file, 'foto.jpg');
    await waitFor(() => expect(api.posted()).toHaveLength(1));
    expect(toBlob).toHaveBeenCalledWith(expect.any(Function), 'image/jpeg', 0.7);
    const sent = (put.mock.calls[0] as unknown as [string, { body: File }])[1].body;
    expect(sent.name).toBe('foto.jpg');
    expect(sent.size).toBe(3);
    // The upload declared the recompressed size.
    const upload = api.requests.find((r) => r.path === '/flowbuilder/content')!;
    expect(upload.body).toMatchObject({ medias: [{ name: 'foto.jpg', type: 'img', size: 3 }] });
    vi.restoreAllMocks();
  });

  it("says 'erro' and uploads nothing when the image cannot be recompressed", async () => {
    const put = vi.fn(async () => new Response(null, { status: 200 }));
    vi.stubGlobal('fetch', put);
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(async () => {
        throw new Error('broken image');
      }),
    );
    const file = new File([new Uint8Array(64).fill(0xff)], 'foto.jpg', { type: 'image/jpeg' });
    const api = await pickImageAndSave(file, 'foto.jpg');
    expect(await screen.findByText('erro')).toBeTruthy();
    expect(api.requests.find((r) => r.path === '/flowbuilder/content')).toBeUndefined();
    expect(put).not.toHaveBeenCalled();
    expect(api.posted()).toHaveLength(0);
  });

  it('deletes a node with its icon, and its connections with it', async () => {
    const api = editorApi();
    const { wrapper } = await openEditor(api);
    click(wrapper, 'Excluir');
    await waitFor(() => expect(screen.queryByTestId('flow-node-singleBlock')).toBeNull());
    expect(unsavedShown()).toBe(true);
    click(wrapper, 'Salvar');
    await waitFor(() => expect(api.posted()).toHaveLength(1));
    expect(api.posted()[0]!.body).toMatchObject({ connections: [] });
  });
});
