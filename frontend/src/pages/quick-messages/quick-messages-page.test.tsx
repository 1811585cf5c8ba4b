import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuickMessage } from '@/api/quick-messages';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import {
  buttonNamed,
  click,
  columnTexts,
  FakeIntersectionObserver,
  noOpenModal,
  openModal,
  toggleNamed,
} from '@/components/test-kit';

const ME = authUser({ id: 5, name: 'Ana Souza', profile: 'user' });
const SHORTCODE = 1;

const reply = (id: number, shortcode: string, overrides: Partial<QuickMessage> = {}): QuickMessage => ({
  id,
  shortcode,
  message: `Texto de ${shortcode}`,
  geral: false,
  visao: false,
  status: true,
  userId: ME.id,
  mediaPath: null,
  mediaName: null,
  isMedia: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/** 22 replies by shortcode: page 1 has 20 and a cursor, page 2 the other 2. */
const REPLIES: QuickMessage[] = [
  reply(1, 'bomdia', { geral: true, mediaName: 'tabela.pdf', mediaPath: '/media/c/2/quick-messages/1/a.pdf' }),
  reply(2, 'boanoite'),
  reply(3, 'travada', { geral: true, visao: true, userId: 9 }),
  ...Array.from({ length: 19 }, (_, i) => reply(100 + i, `x${String(i + 1).padStart(2, '0')}`)),
].sort((a, b) => a.shortcode.localeCompare(b.shortcode));

const listRoute =
  (records: () => QuickMessage[]): Route =>
  (req) => {
    const search = req.query?.searchParam?.toLowerCase();
    const matching = records().filter((r) => !search || r.shortcode.toLowerCase().startsWith(search));
    const page = Number(req.query?.pageNumber ?? '1');
    const hasMore = page * 20 < matching.length;
    return json(200, {
      records: matching.slice((page - 1) * 20, page * 20),
      hasMore,
      ...(hasMore ? { nextCursor: `cursor-${page + 1}` } : {}),
    });
  };

const quickApi = (extra: Record<string, Route> = {}) => {
  const server = fakeApi({ ...shellRoutes(ME), 'GET /quick-messages': listRoute(() => REPLIES), ...extra });
  return {
    ...server,
    sent: (method: string) => server.requests.filter((r) => r.method === method && r.path.startsWith('/quick')),
  };
};

const openPage = async (api = quickApi()) => {
  const view = renderApp({ path: '/quick-messages', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: 'Respostas rápidas' }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, SHORTCODE)).toHaveLength(20));
  return { ...view, api };
};

const typeMessage = (wrapper: ReturnType<typeof renderApp>['wrapper'], value: string) => {
  const textarea = fieldByLabel(wrapper, 'Mensagem').findControl()?.findTextarea();
  if (!textarea) throw new Error('no message textarea');
  act(() => textarea.setTextareaValue(value));
};

const chooseFile = (wrapper: ReturnType<typeof renderApp>['wrapper'], file: File) => {
  const input = wrapper.findFileInput()?.findNativeInput().getElement();
  if (!input) throw new Error('no file input');
  act(() => {
    fireEvent.change(input, { target: { files: [file] } });
  });
};

describe('quick replies page', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists shortcode, attachment name and the shared check, and loads page 2 near the bottom', async () => {
    const { wrapper, api } = await openPage();
    const table = wrapper.findTable();
    expect(table?.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual([
      'Atalho',
      'Nome do arquivo',
      'Global',
      'Ações',
    ]);
    const row = columnTexts(wrapper, SHORTCODE).indexOf('bomdia') + 1;
    expect([2, 3].map((c) => table?.findBodyCell(row, c)?.getElement().textContent)).toEqual(['tabela.pdf', 'Sim']);
    const plainRow = columnTexts(wrapper, SHORTCODE).indexOf('boanoite') + 1;
    expect(table?.findBodyCell(plainRow, 3)?.getElement().textContent).toBe('—');

    FakeIntersectionObserver.intersect(screen.getByTestId('quick-messages-list-end'));
    await waitFor(() => expect(columnTexts(wrapper, SHORTCODE)).toHaveLength(REPLIES.length));
    expect(api.sent('GET').map((r) => r.query)).toEqual([{ pageNumber: '1' }, { pageNumber: '2', cursor: 'cursor-2' }]);
  });

  it('searches from 3 characters after the debounce', async () => {
    const { wrapper, api } = await openPage();
    const input = wrapper.findTextFilter()?.findInput();
    act(() => input?.setInputValue('bo'));
    await act(() => new Promise((r) => setTimeout(r, 600)));
    expect(api.sent('GET')).toHaveLength(1);
    act(() => input?.setInputValue('boa'));
    await waitFor(() => expect(columnTexts(wrapper, SHORTCODE)).toEqual(['boanoite']));
    expect(api.sent('GET').at(-1)?.query).toEqual({ searchParam: 'boa', pageNumber: '1' });
  });

  it("offers no edit or delete on another user's locked reply", async () => {
    const { wrapper } = await openPage();
    expect(buttonNamed(wrapper, 'Editar travada').isDisabled()).toBe(true);
    expect(buttonNamed(wrapper, 'Excluir travada').isDisabled()).toBe(true);
    expect(buttonNamed(wrapper, 'Editar bomdia').isDisabled()).toBe(false);
  });

  it('creates a reply: the shortcode is required, then it saves and uploads the attachment', async () => {
    const created = reply(500, 'promo', { geral: true });
    const api = quickApi({
      'POST /quick-messages': () => json(201, created),
      'POST /quick-messages/500/media-upload': () =>
        json(200, {
          ...created,
          isMedia: true,
          mediaName: 'promo.pdf',
          mediaPath: '/media/c/2/quick-messages/500/b.pdf',
        }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Adicionar');
    const modal = openModal(wrapper);
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Atalho')).toBe('Obrigatório');
    expect(api.sent('POST')).toHaveLength(0);

    typeInto(wrapper, 'Atalho', ' promo ');
    typeMessage(wrapper, 'Promoção do dia');
    act(() => toggleNamed(wrapper, 'Compartilhar com todos').findNativeInput().click());
    chooseFile(wrapper, new File([new Uint8Array(2.5 * 1024 * 1024 + 1)], 'grande.pdf', { type: 'application/pdf' }));
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Anexo')).toBe('O arquivo deve ter no máximo 2,5 MB.');
    expect(api.sent('POST')).toHaveLength(0);

    chooseFile(wrapper, new File(['%PDF-1.4'], 'promo.pdf', { type: 'application/pdf' }));
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    const posts = api.sent('POST');
    expect(posts.map((r) => r.path)).toEqual(['/quick-messages', '/quick-messages/500/media-upload']);
    expect(posts[0]?.body).toEqual({ shortcode: 'promo', message: 'Promoção do dia', geral: true, visao: false });
    const form = posts[1]?.body as FormData;
    expect((form.get('file') as File).name).toBe('promo.pdf');
    expect(form.get('typeArch')).toBe('quickMessage');
    expect(toastTexts(wrapper)).toContain('Resposta rápida salva com sucesso!');
  });

  it('edits a reply and removes its attachment on save', async () => {
    const bomdia = REPLIES.find((r) => r.id === 1)!;
    const api = quickApi({
      'PUT /quick-messages/1': () => json(200, { ...bomdia, shortcode: 'bomdia2' }),
      'DELETE /quick-messages/1/media-upload': () =>
        json(200, { ...bomdia, shortcode: 'bomdia2', mediaPath: null, mediaName: null, isMedia: false }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Editar bomdia');
    const modal = openModal(wrapper);
    typeInto(wrapper, 'Atalho', 'bomdia2');
    click(modal, 'Remover anexo');
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.sent('PUT')[0]?.body).toEqual({
      shortcode: 'bomdia2',
      message: bomdia.message,
      geral: true,
      visao: false,
    });
    expect(api.sent('DELETE').map((r) => r.path)).toEqual(['/quick-messages/1/media-upload']);
    const row = columnTexts(wrapper, SHORTCODE).indexOf('bomdia2') + 1;
    expect(row).toBeGreaterThan(0);
    expect(wrapper.findTable()?.findBodyCell(row, 2)?.getElement().textContent).toBe('—');
  });

  it('deletes a reply after confirming', async () => {
    const api = quickApi({ 'DELETE /quick-messages/2': () => json(200, { message: 'Quick message deleted' }) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Excluir boanoite');
    const modal = openModal(wrapper);
    expect(modal.findHeader().getElement().textContent).toBe('Excluir boanoite?');
    click(modal, 'Excluir');
    await waitFor(() => expect(columnTexts(wrapper, SHORTCODE)).not.toContain('boanoite'));
    expect(api.sent('DELETE').map((r) => r.path)).toEqual(['/quick-messages/2']);
    expect(toastTexts(wrapper)).toContain('Resposta rápida excluída com sucesso!');
  });

  it('follows live changes of company-{id}-quickemessage: update, create in order, delete', async () => {
    const view = await openPage();
    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    const push = (event: object) =>
      act(() => view.server.latest().push({ channel: 'company-2-quickemessage', ...event }));
    push({ action: 'update', record: { ...REPLIES[0], shortcode: REPLIES[0]!.shortcode, mediaName: 'nova.pdf' } });
    const row = columnTexts(view.wrapper, SHORTCODE).indexOf(REPLIES[0]!.shortcode) + 1;
    expect(view.wrapper.findTable()?.findBodyCell(row, 2)?.getElement().textContent).toBe('nova.pdf');
    push({ action: 'create', record: reply(700, 'boatarde') });
    expect(columnTexts(view.wrapper, SHORTCODE).slice(0, 3)).toEqual(['boanoite', 'boatarde', 'bomdia']);
    push({ action: 'delete', id: 2 });
    expect(columnTexts(view.wrapper, SHORTCODE)).not.toContain('boanoite');
    act(() => view.socket.stop());
  });
});
