import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { click, columnTexts, FakeIntersectionObserver, noOpenModal, openModal } from '@/components/test-kit';
import { tagRow } from './test-kit';

const ME = authUser();
const LANES = [
  tagRow(10, 'Proposta', { kanban: 1, ticketCount: 3 }),
  tagRow(11, 'Fechado', { kanban: 1, ticketCount: 0, color: '#00aa00' }),
];

describe('/TagsKanban', { timeout: 90_000 }, () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists the lanes with their ticket count, edits a lane with its time, next lane and greeting, and goes back', async () => {
    const api = fakeApi({
      ...shellRoutes(ME),
      'GET /tags': (req) => json(200, { tags: req.query?.kanban === '1' ? LANES : [], hasMore: false }),
      'GET /tag/kanban': () => json(200, { lista: LANES }),
      'PUT /tags/10': (req) => json(200, { ...LANES[0], ...(req.body as object) }),
      'GET /ticket/kanban': () => json(200, { tickets: [] }),
    });
    const view = renderApp({ path: '/TagsKanban', adapter: api.adapter });
    expect(await screen.findByRole('heading', { name: /Colunas do Kanban/ }, { timeout: 60_000 })).toBeTruthy();
    await waitFor(() => expect(columnTexts(view.wrapper, 1)).toEqual(['Proposta', 'Fechado']));
    expect(columnTexts(view.wrapper, 2)).toEqual(['3', '0']);

    click(view.wrapper, 'Editar Proposta');
    const modal = openModal(view.wrapper);
    typeInto(view.wrapper, 'Tempo na coluna (horas)', '24');
    const greeting = fieldByLabel(view.wrapper, 'Mensagem ao entrar na coluna').findControl()!.findTextarea()!;
    act(() => greeting.setTextareaValue('Recebemos sua proposta'));
    await waitFor(() => expect(api.requests.some((r) => r.path === '/tag/kanban')).toBe(true));
    const select = fieldByLabel(view.wrapper, 'Próxima coluna').findControl()!.findSelect()!;
    act(() => select.openDropdown());
    act(() => select.selectOption(2));
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(view.wrapper)).toBe(true));
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      name: 'Proposta',
      color: '#3366ff',
      timeLane: 24,
      nextLaneId: 11,
      rollbackLaneId: null,
      greetingMessageLane: 'Recebemos sua proposta',
    });
    expect(toastTexts(view.wrapper)).toContain('Tag salva com sucesso!');

    click(view.wrapper, 'Voltar para o Kanban');
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/Kanban'));
  });
});
