import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { campaign } from './test-kit';
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

const ME = authUser({ id: 5, profile: 'admin' });
const NAME = 1;
const STATUS = 2;

const RUNNING = campaign(3, 'Black Friday', { status: 'EM_ANDAMENTO', scheduledAt: '2026-11-27T12:00:00.000Z' });
const STOPPED = campaign(2, 'Natal', { status: 'CANCELADA', confirmation: true });
const DRAFT = campaign(1, 'Rascunho');

const campaignsApi = (extra: Record<string, Route> = {}) => {
  const server = fakeApi({
    ...shellRoutes(ME),
    'GET /campaigns': () => json(200, { records: [RUNNING, STOPPED, DRAFT], hasMore: false }),
    'GET /contact-lists/list': () => json(200, [{ id: 3, name: 'Clientes VIP', contactsCount: 2 }]),
    'GET /tags/list': () => json(200, []),
    'GET /whatsapp': () => json(200, [{ id: 4, name: 'Vendas', status: 'CONNECTED' }]),
    'GET /queue': () => json(200, [{ id: 6, name: 'Comercial', color: '#000' }]),
    'GET /users': () => json(200, { users: [{ id: 8, name: 'Marta' }], hasMore: false }),
    ...extra,
  });
  return {
    ...server,
    sent: (method: string, prefix = '/campaigns') =>
      server.requests.filter((r) => r.method === method && r.path.startsWith(prefix)),
  };
};

const openPage = async (api = campaignsApi()) => {
  const view = renderApp({ path: '/campaigns', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Campanhas/ }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toEqual(['Black Friday', 'Natal', 'Rascunho']));
  return { ...view, api };
};

const choose = (label: string, value: string) => {
  const select = fieldByLabel(createWrapper(), label).findControl()?.findSelect();
  if (!select) throw new Error(`no select ${label}`);
  act(() => select.openDropdown());
  act(() => select.selectOptionByValue(value));
};

describe('campaigns page', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the spec columns and offers stop, restart and report by status; edit only when the spec allows', async () => {
    const api = campaignsApi({
      'POST /campaigns/3/cancel': () => json(200, { ...RUNNING, status: 'CANCELADA' }),
      'POST /campaigns/2/restart': () => json(200, { ...STOPPED, status: 'EM_ANDAMENTO' }),
    });
    const { wrapper, router } = await openPage(api);
    const table = wrapper.findTable()!;
    expect(table.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual([
      'Nome',
      'Status',
      'Lista de contatos',
      'Conexão',
      'Agendamento',
      'Conclusão',
      'Confirmação',
      'Operações',
      'Ações',
    ]);
    expect(columnTexts(wrapper, STATUS)).toEqual(['Em andamento', 'Cancelada', 'Inativa']);
    expect(table.findBodyCell(3, 5)?.getElement().textContent).toBe('Sem agendamento');
    expect(table.findBodyCell(2, 7)?.getElement().textContent).toBe('Habilitada');
    expect(buttonNamed(wrapper, 'Editar Black Friday').isDisabled()).toBe(true);
    expect(buttonNamed(wrapper, 'Editar Rascunho').isDisabled()).toBe(false);
    expect(() => buttonNamed(wrapper, 'Parar Natal')).toThrow();

    click(wrapper, 'Parar Black Friday');
    await waitFor(() => expect(columnTexts(wrapper, STATUS)[0]).toBe('Cancelada'));
    expect(toastTexts(wrapper)).toContain('Campanha cancelada');
    click(wrapper, 'Reiniciar Natal');
    await waitFor(() => expect(columnTexts(wrapper, STATUS)[1]).toBe('Em andamento'));
    expect(api.sent('POST').map((r) => r.path)).toEqual(['/campaigns/3/cancel', '/campaigns/2/restart']);

    click(wrapper, 'Relatório de Rascunho');
    await waitFor(() => expect(router.state.location.pathname).toBe('/campaign/1/report'));
  });

  it('a live update moves a row; the dialog checks its rules, searches users from 3 letters and saves', async () => {
    const saved = campaign(9, 'Dia das Mães', { status: 'INATIVA' });
    const api = campaignsApi({ 'POST /campaigns': () => json(201, saved) });
    const { wrapper, socket, server } = await openPage(api);
    act(() => socket.start());
    act(() => server.latest().accept());
    act(() =>
      server.latest().push({
        channel: 'company-2-campaign',
        action: 'update',
        record: { ...RUNNING, status: 'FINALIZADA' },
      }),
    );
    await waitFor(() => expect(columnTexts(wrapper, STATUS)[0]).toBe('Finalizada'));

    click(wrapper, 'Nova campanha');
    const modal = await waitFor(() => openModal(wrapper));
    click(modal, 'Adicionar');
    expect(errorOf(wrapper, 'Nome')).toBe('Obrigatório');
    expect(errorOf(wrapper, 'Conexão')).toBe('Obrigatório');
    expect(api.sent('POST')).toHaveLength(0);

    typeInto(wrapper, 'Nome', 'Dia das Mães');
    await waitFor(() => expect(fieldByLabel(wrapper, 'Conexão').findControl()?.findSelect()?.isDisabled()).toBe(false));
    choose('Conexão', '4');
    choose('Lista de contatos', '3');
    const textarea = createWrapper(modal.getElement()).findTextarea();
    act(() => textarea?.setTextareaValue('Feliz dia, {nome}!'));
    // User search: nothing is asked below 3 letters.
    act(() => toggleNamed(wrapper, 'Abrir ticket para o contato').findNativeInput().click());
    const users = fieldByLabel(wrapper, 'Usuário').findControl()!.findSelect()!;
    act(() => users.openDropdown());
    act(() => users.findFilteringInput()?.setInputValue('Ma'));
    expect(api.sent('GET', '/users')).toHaveLength(0);
    act(() => users.findFilteringInput()?.setInputValue('Mar'));
    await waitFor(() => expect(api.sent('GET', '/users').map((r) => r.query?.searchParam)).toContain('Mar'));

    click(modal, 'Adicionar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.sent('POST')[0]?.body).toMatchObject({
      name: 'Dia das Mães',
      whatsappId: 4,
      contactListId: 3,
      tagListId: null,
      message1: 'Feliz dia, {nome}!',
      scheduledAt: null,
      confirmation: false,
    });
    expect(toastTexts(wrapper)).toContain('Campanha salva com sucesso!');
  });
});
