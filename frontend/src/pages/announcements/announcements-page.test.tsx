import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Announcement } from '@/api/announcements';
import { click, columnTexts, FakeIntersectionObserver, noOpenModal, openModal } from '@/components/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';

const OWNER = authUser({
  id: 1,
  companyId: 1,
  name: 'Dona',
  super: true,
  company: { id: 1, name: 'ZapDesk', dueDate: '2999-12-31' },
});
const TITLE = 1;

const announcement = (id: number, title: string, overrides: Partial<Announcement> = {}): Announcement => ({
  id,
  title,
  text: `Texto de ${title}`,
  priority: 3,
  status: true,
  mediaPath: null,
  mediaName: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const RECORDS = [
  announcement(1, 'Manutenção', {
    priority: 1,
    mediaName: 'aviso.png',
    mediaPath: '/media/platform/announcements/1/a.png',
  }),
  announcement(2, 'Novidades', { priority: 2, status: false }),
  announcement(3, 'Treinamento'),
];

const ownerApi = (extra: Record<string, Route> = {}) => {
  const server = fakeApi({
    ...shellRoutes(OWNER),
    'GET /announcements': () => json(200, { records: RECORDS, hasMore: false }),
    'GET /chats': () => json(200, { records: [], hasMore: false }),
    ...extra,
  });
  return {
    ...server,
    sent: (method: string) => server.requests.filter((r) => r.method === method && r.path.startsWith('/announcements')),
  };
};

const openPage = async (api = ownerApi()) => {
  const view = renderApp({ path: '/announcements', adapter: api.adapter });
  await screen.findByRole('heading', { name: /Informativos/ }, { timeout: 15_000 });
  await waitFor(() => expect(columnTexts(view.wrapper, TITLE)).toEqual(['Manutenção', 'Novidades', 'Treinamento']));
  return { ...view, api };
};

describe('announcements page', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists title, priority label, attachment and status', async () => {
    const { wrapper } = await openPage();
    const table = wrapper.findTable()!;
    expect(table.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual([
      'Título',
      'Prioridade',
      'Arquivo',
      'Status',
      'Ações',
    ]);
    expect(columnTexts(wrapper, 2)).toEqual(['Alta', 'Média', 'Baixa']);
    expect(columnTexts(wrapper, 3)).toEqual(['aviso.png', '—', '—']);
    expect(columnTexts(wrapper, 4)).toEqual(['Ativo', 'Inativo', 'Ativo']);
  });

  it('creates one: title and text required, then it saves and uploads the image', async () => {
    const created = announcement(9, 'Feriado', { priority: 1 });
    const api = ownerApi({
      'POST /announcements': () => json(201, created),
      'POST /announcements/9/media-upload': () =>
        json(200, { ...created, mediaName: 'feriado.png', mediaPath: '/media/platform/announcements/9/b.png' }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Adicionar');
    const modal = openModal(wrapper);
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Título')).toBe('Obrigatório');
    expect(errorOf(wrapper, 'Texto')).toBe('Obrigatório');
    expect(api.sent('POST')).toHaveLength(0);

    typeInto(wrapper, 'Título', 'Feriado');
    const text = fieldByLabel(wrapper, 'Texto').findControl()!.findTextarea()!;
    act(() => text.setTextareaValue('Fechados na segunda'));
    const priority = fieldByLabel(wrapper, 'Prioridade').findControl()!.findSelect()!;
    act(() => priority.openDropdown());
    act(() => priority.selectOptionByValue('1'));
    const input = wrapper.findFileInput()!.findNativeInput().getElement();
    act(() => {
      fireEvent.change(input, { target: { files: [new File(['x'], 'feriado.gif', { type: 'image/gif' })] } });
    });
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Imagem')).toBe('Envie uma imagem png, jpg ou jpeg.');
    act(() => {
      fireEvent.change(input, { target: { files: [new File(['x'], 'feriado.png', { type: 'image/png' })] } });
    });
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    const posts = api.sent('POST');
    expect(posts.map((r) => r.path)).toEqual(['/announcements', '/announcements/9/media-upload']);
    expect(posts[0]?.body).toEqual({ title: 'Feriado', text: 'Fechados na segunda', priority: 1, status: true });
    expect(((posts[1]?.body as FormData).get('file') as File).name).toBe('feriado.png');
    expect(toastTexts(wrapper)).toContain('Informativo salvo com sucesso!');
  });

  it('applies company-announcement events live', async () => {
    const view = await openPage();
    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    act(() =>
      view.server.latest().push({
        channel: 'company-announcement',
        action: 'create',
        record: announcement(4, 'Agenda'),
      }),
    );
    await waitFor(() => expect(columnTexts(view.wrapper, TITLE)).toContain('Agenda'));
    act(() => view.server.latest().push({ channel: 'company-announcement', action: 'delete', id: 2 }));
    await waitFor(() => expect(columnTexts(view.wrapper, TITLE)).not.toContain('Novidades'));
  });
});
