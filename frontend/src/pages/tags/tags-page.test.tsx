import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Tag } from '@/api/tags';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import {
  buttonNamed,
  click,
  columnTexts,
  FakeIntersectionObserver,
  noOpenModal,
  openModal,
} from '@/components/test-kit';
import { tagRow } from './test-kit';

const ME = authUser({ profile: 'user' });
const NAME = 2;
const TAGS: Tag[] = [
  tagRow(1, 'Cliente VIP', { color: '#ff0000', contactCount: 2 }),
  tagRow(2, 'Lead', { contactCount: 0 }),
];

const tagsApi = (extra: Record<string, Route> = {}, tags: () => Tag[] = () => TAGS) =>
  fakeApi({
    ...shellRoutes(ME),
    'GET /tags': () => json(200, { tags: tags(), hasMore: false }),
    ...extra,
  });

const openPage = async (api = tagsApi()) => {
  const view = renderApp({ path: '/tags', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /^Tags/ }, { timeout: 60_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toEqual(['Cliente VIP', 'Lead']));
  return { ...view, api };
};

describe('/tags', { timeout: 90_000 }, () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows id, the name chip in its colour and the contact count, whose button is disabled at 0', async () => {
    const { wrapper } = await openPage();
    const table = wrapper.findTable()!;
    expect(table.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual([
      'ID',
      'Nome',
      'Contatos',
      'Ações',
    ]);
    const chip = screen.getAllByTestId('tag-chip')[0]!;
    expect(chip.style.backgroundColor).toBe('rgb(255, 0, 0)');
    expect(buttonNamed(wrapper, 'Ver os 2 contatos de Cliente VIP').isDisabled()).toBe(false);
    expect(buttonNamed(wrapper, 'Ver os 0 contatos de Lead').isDisabled()).toBe(true);
  });

  it('opens the contacts of a tag and removes one', async () => {
    const api = tagsApi({
      'GET /tags/1/contacts': () =>
        json(200, {
          contacts: [
            { id: 7, name: 'Maria', number: '5511999990000' },
            { id: 8, name: 'João', number: '5511999990001' },
          ],
          hasMore: false,
        }),
      'DELETE /tags-contacts/1/7': () => json(200, tagRow(1, 'Cliente VIP', { contactCount: 1 })),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Ver os 2 contatos de Cliente VIP');
    const modal = openModal(wrapper);
    await waitFor(() => expect(modal.findContent().findTable()?.findRows()).toHaveLength(2));
    expect(modal.findContent().findTable()!.findBodyCell(1, 3)?.getElement().textContent).toBe('5511999990000');
    click(modal, 'Remover a tag de Maria');
    await waitFor(() => expect(modal.findContent().findTable()?.findRows()).toHaveLength(1));
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/tags-contacts/1/7']);
    expect(toastTexts(wrapper)).toContain('Contato removido da tag');
  });

  it('adds a tag: under 3 characters is "Mensagem muito curta", then it is created with its colour', async () => {
    let tags = TAGS;
    const api = tagsApi(
      {
        'POST /tags': (req) => {
          const created = tagRow(3, 'Novo cliente', { color: (req.body as { color: string }).color });
          tags = [...tags, created];
          return json(201, created);
        },
      },
      () => tags,
    );
    const { wrapper } = await openPage(api);
    click(wrapper, 'Adicionar tag');
    const modal = openModal(wrapper);
    typeInto(wrapper, 'Nome', 'ab');
    typeInto(wrapper, 'Cor', '#00aa00');
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Nome')).toBe('Mensagem muito curta');
    typeInto(wrapper, 'Nome', 'Novo cliente');
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    const post = api.requests.find((r) => r.method === 'POST' && r.path === '/tags');
    expect(post?.body).toEqual({ name: 'Novo cliente', color: '#00aa00', kanban: 0 });
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toContain('Novo cliente'));
    expect(toastTexts(wrapper)).toContain('Tag salva com sucesso!');
  });

  it('deletes a tag after confirming, and follows company{id}-tag', async () => {
    const view = await openPage(tagsApi({ 'DELETE /tags/2': () => json(200, { message: 'Tag deleted' }) }));
    click(view.wrapper, 'Excluir Lead');
    click(openModal(view.wrapper), 'Excluir');
    await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toEqual(['Cliente VIP']));
    expect(toastTexts(view.wrapper)).toContain('Tag excluída com sucesso!');

    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    const push = (event: object) => act(() => view.server.latest().push({ channel: 'company2-tag', ...event }));
    push({ action: 'create', tag: tagRow(4, 'Amarela') });
    expect(columnTexts(view.wrapper, NAME)).toEqual(['Amarela', 'Cliente VIP']);
    push({ action: 'delete', tagId: 1 });
    expect(columnTexts(view.wrapper, NAME)).toEqual(['Amarela']);
  });
});
