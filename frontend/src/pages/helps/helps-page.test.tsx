import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Help } from '@/api/helps';
import { buttonNamed, click, noOpenModal, openModal } from '@/components/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';

const help = (id: number, title: string, video: string): Help => ({
  id,
  title,
  video,
  description: `Sobre ${title}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const HELPS = [help(1, 'Primeiros passos', 'dQw4w9WgXcQ'), help(2, 'Transferir', 'aaaaaaaaaaa')];

const apiWith = (me = authUser({ profile: 'user' }), helps: Help[] = HELPS, extra: Record<string, Route> = {}) =>
  fakeApi({
    ...shellRoutes(me),
    'GET /helps/list': () => json(200, helps),
    'GET /announcements': () => json(200, { records: [], hasMore: false }),
    'GET /chats': () => json(200, { records: [], hasMore: false }),
    ...extra,
  });

describe('help page', () => {
  it('shows video cards; a card opens the embedded player, which Escape closes', async () => {
    const { wrapper } = renderApp({ path: '/helps', adapter: apiWith().adapter });
    await screen.findByRole('heading', { name: 'Ajuda' }, { timeout: 15_000 });
    await waitFor(() => expect(wrapper.findCards()?.findItems()).toHaveLength(2));
    expect(screen.getByText('Sobre Transferir')).toBeTruthy();
    const thumbnails = document.querySelectorAll('img[src*="i.ytimg.com"]');
    expect([...thumbnails].map((i) => i.getAttribute('src'))).toEqual([
      'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
      'https://i.ytimg.com/vi/aaaaaaaaaaa/hqdefault.jpg',
    ]);
    act(() => screen.getAllByRole('button', { name: 'Assistir Transferir' })[0]!.click());
    const player = await screen.findByTitle('Vídeo: Transferir');
    expect(player.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/aaaaaaaaaaa?autoplay=1');
    act(() => {
      fireEvent.keyDown(player, { key: 'Escape', code: 'Escape', keyCode: 27 });
    });
    await waitFor(() => expect(screen.queryByTitle('Vídeo: Transferir')).toBeNull());
  });

  it('the menu shows Ajuda only when an entry exists', async () => {
    const withHelps = renderApp({ path: '/todolist', adapter: apiWith().adapter });
    await waitFor(() => expect(withHelps.wrapper.findSideNavigation()?.findLinkByHref('/helps')).toBeTruthy(), {
      timeout: 15_000,
    });
    withHelps.unmount();
    const none = renderApp({ path: '/todolist', adapter: apiWith(undefined, []).adapter });
    await waitFor(() => expect(none.wrapper.findSideNavigation()?.findLinkByHref('/todolist')).toBeTruthy(), {
      timeout: 15_000,
    });
    expect(none.wrapper.findSideNavigation()?.findLinkByHref('/helps')).toBeNull();
  });

  it("the owner adds an entry on the settings' Ajuda tab", async () => {
    const owner = authUser({
      id: 1,
      companyId: 1,
      super: true,
      company: { id: 1, name: 'ZapDesk', dueDate: '2999-12-31' },
    });
    const created = help(3, 'Etiquetas novas', 'bbbbbbbbbbb');
    let list = HELPS;
    const server = apiWith(owner, HELPS, {
      'GET /companySettings/1': () =>
        json(200, {
          userRating: 'disabled',
          scheduleType: 'disabled',
          enableLGPD: 'disabled',
          timezone: 'America/Sao_Paulo',
          schedules: [],
        }),
      'POST /helps': () => {
        list = [...HELPS, created];
        return json(201, created);
      },
    });
    server.routes['GET /helps/list'] = () => json(200, list);
    const { wrapper } = renderApp({ path: '/settings', adapter: server.adapter });
    const tabs = await waitFor(
      () => {
        const found = wrapper.findTabs();
        if (!found) throw new Error('no tabs yet');
        return found;
      },
      { timeout: 15_000 },
    );
    const tab = tabs.findTabLinks().find((l) => l.getElement().textContent === 'Ajuda');
    expect(tab).toBeTruthy();
    act(() => tab!.click());
    await waitFor(() => expect(screen.getByText('Primeiros passos')).toBeTruthy());
    click(wrapper, 'Adicionar');
    const modal = openModal(wrapper);
    typeInto(wrapper, 'Título', 'Etiquetas novas');
    typeInto(wrapper, 'Vídeo', 'https://youtu.be/bbbbbbbbbbb');
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      title: 'Etiquetas novas',
      video: 'https://youtu.be/bbbbbbbbbbb',
      description: '',
    });
    await waitFor(() => expect(screen.getByText('Etiquetas novas')).toBeTruthy());
    expect(buttonNamed(wrapper, 'Excluir Etiquetas novas')).toBeTruthy();
  });
});
