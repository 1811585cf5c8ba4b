import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schedule } from '@/api/schedules';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts } from '@/testing/form-fields';
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
import { stepAnchor, todayKey, visibleDays } from './schedule-calendar';

const ME = authUser({ id: 5, name: 'Ana Souza', profile: 'admin' });
const TODAY = todayKey();
const CONTACT = 1;

const schedule = (id: number, name: string, local: string, overrides: Partial<Schedule> = {}): Schedule => ({
  id,
  body: `Lembrete para ${name}`,
  contactId: id * 10,
  contact: { id: id * 10, name, number: '5511999990000' },
  sendAt: `${local}:00.000Z`,
  sendAtLocal: local,
  sentAt: null,
  status: 'PENDENTE',
  openTicket: 'disabled',
  ticketUserId: null,
  queueId: null,
  statusTicket: 'closed',
  intervalo: 1,
  valorIntervalo: 1,
  enviarQuantasVezes: 1,
  tipoDias: 4,
  assinar: false,
  mediaPath: null,
  mediaName: null,
  whatsappId: null,
  userId: ME.id,
  sentCount: 0,
  missedCount: 0,
  lastError: null,
  ticketId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const SCHEDULES = [
  schedule(1, 'Marina', `${TODAY}T10:00`),
  schedule(2, 'Bruno', `${TODAY}T15:30`, {
    status: 'ENVIADA',
    sentAt: '2026-01-01T00:00:00.000Z',
    enviarQuantasVezes: 3,
    sentCount: 3,
  }),
];

const listRoute =
  (rows: () => Schedule[]): Route =>
  (req) => {
    const period = req.query?.period;
    const search = req.query?.searchParam?.toLowerCase();
    const matching = rows().filter(
      (s) =>
        (!period || s.sendAtLocal.startsWith(period)) &&
        (!search || (s.contact?.name ?? '').toLowerCase().startsWith(search)),
    );
    return json(200, { schedules: matching, hasMore: false });
  };

const schedulesApi = (extra: Record<string, Route> = {}) => {
  const server = fakeApi({ ...shellRoutes(ME), 'GET /schedules': listRoute(() => SCHEDULES), ...extra });
  return {
    ...server,
    sent: (method: string) => server.requests.filter((r) => r.method === method && r.path.startsWith('/schedules')),
  };
};

const openPage = async (api = schedulesApi(), path = '/schedules') => {
  const view = renderApp({ path, adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: 'Agendamentos' }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, CONTACT)).toHaveLength(2));
  return { ...view, api };
};

const dayCell = (day: string) => document.querySelector(`[role="gridcell"][data-day="${day}"]`);

describe('calendar arithmetic', () => {
  it('a month shows whole weeks from Sunday; week and day step by 7 and 1 days, months by month', () => {
    const days = visibleDays('month', '2026-11-15');
    expect(days[0]).toBe('2026-11-01'); // a Sunday
    expect(days).toHaveLength(35);
    expect(days.at(-1)).toBe('2026-12-05');
    expect(visibleDays('week', '2026-11-27')).toEqual([
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
    ]);
    expect(stepAnchor('month', '2026-01-31', 1)).toBe('2026-02-01');
    expect(stepAnchor('week', '2026-11-27', -1)).toBe('2026-11-20');
    expect(stepAnchor('day', '2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('schedules page', { timeout: 60_000 }, () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists the schedules and places them in the calendar at their local time; a sent one cannot be edited', async () => {
    const { wrapper, api } = await openPage();
    expect(columnTexts(wrapper, CONTACT)).toEqual(['Marina', 'Bruno']);
    const row = columnTexts(wrapper, CONTACT).indexOf('Bruno') + 1;
    expect(wrapper.findTable()?.findBodyCell(row, 4)?.getElement().textContent).toBe('Enviada');
    expect(wrapper.findTable()?.findBodyCell(row, 5)?.getElement().textContent).toBe('3 de 3, a cada 1 (Dias)');
    await waitFor(() => expect(dayCell(TODAY)?.textContent).toContain('10:00 Marina'));
    expect(dayCell(TODAY)?.textContent).toContain('15:30 Bruno');
    expect(api.sent('GET').some((r) => r.query?.period === TODAY.slice(0, 7))).toBe(true);
    expect(buttonNamed(wrapper, 'Editar agendamento de Bruno').isDisabled()).toBe(true);
    expect(buttonNamed(wrapper, 'Editar agendamento de Marina').isDisabled()).toBe(false);
  });

  it('the day view reads that day only', async () => {
    const { wrapper, api } = await openPage();
    const segmented = wrapper.findSegmentedControl();
    act(() => segmented?.findSegments()[2]?.click());
    await waitFor(() => expect(api.sent('GET').some((r) => r.query?.period === TODAY)).toBe(true));
    await waitFor(() => expect(dayCell(TODAY)?.textContent).toContain('10:00 Marina'));
    expect(document.querySelectorAll('[role="gridcell"]')).toHaveLength(1);
  });

  it('?contactId= opens the add dialog for that contact; rules first, then it saves with the spec defaults', async () => {
    const created = schedule(9, 'Carla', `${TODAY}T23:00`, { contactId: 7 });
    const api = schedulesApi({
      'GET /contacts/7': () => json(200, { id: 7, name: 'Carla', number: '5511988887777' }),
      'POST /schedules': () => json(201, created),
    });
    const { wrapper } = await openPage(api, '/schedules?contactId=7');
    const modal = await waitFor(() => openModal(wrapper));
    expect(modal.findHeader().getElement().textContent).toBe('Novo agendamento');
    expect(createWrapper(modal.getElement()).findSelect()?.findTrigger().getElement().textContent).toContain('Carla');
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Mensagem')).toBe('Mensagem muito curta');
    expect(api.sent('POST')).toHaveLength(0);

    const textarea = createWrapper(modal.getElement()).findTextarea();
    act(() => textarea?.setTextareaValue('Sua consulta é amanhã às 10h'));
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    const body = api.sent('POST')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      contactId: 7,
      body: 'Sua consulta é amanhã às 10h',
      intervalo: 1,
      valorIntervalo: 1,
      enviarQuantasVezes: 1,
      tipoDias: 4,
      openTicket: 'disabled',
      assinar: false,
    });
    expect(String(body.sendAt)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(toastTexts(wrapper)).toContain('Agendamento salvo com sucesso!');
    await waitFor(() => expect(columnTexts(wrapper, CONTACT)).toContain('Carla'));
  });

  it('sends on a chosen connection and opens the ticket in a chosen queue for a chosen attendant', async () => {
    const api = schedulesApi({
      'GET /whatsapp': () =>
        json(200, [
          { id: 3, name: 'Loja', channel: 'whatsapp', status: 'CONNECTED', isDefault: true },
          { id: 4, name: 'Página', channel: 'facebook', status: 'CONNECTED', isDefault: false },
        ]),
      'GET /queue': () => json(200, [{ id: 2, name: 'Vendas', color: '#00aa00' }]),
      'GET /users/list': () => json(200, [{ id: 8, name: 'Bruno Lima' }]),
      'PUT /schedules/1': (req) => json(200, { ...SCHEDULES[0]!, ...(req.body as object) }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Editar agendamento de Marina');
    const modal = await waitFor(() => openModal(wrapper));
    const dialog = createWrapper(modal.getElement());
    const selects = () => dialog.findAllSelects();
    const [connection, queue, attendant] = [selects()[4]!, selects()[5]!, selects()[6]!];
    expect(queue.isDisabled()).toBe(true);
    act(() => connection.openDropdown());
    expect(
      connection
        .findDropdown()
        .findOptions()
        .map((o) => o.getElement().textContent),
    ).toEqual(['Conexão padrão', 'Loja']);
    act(() => connection.selectOptionByValue('3'));
    act(() => dialog.findAllToggles()[0]!.findNativeInput().click());
    await waitFor(() => expect(selects()[5]!.isDisabled()).toBe(false));
    act(() => queue.openDropdown());
    act(() => queue.selectOptionByValue('2'));
    act(() => attendant.openDropdown());
    act(() => attendant.selectOptionByValue('8'));
    click(modal, 'Salvar');
    await waitFor(() => expect(api.sent('PUT')).toHaveLength(1));
    expect(api.sent('PUT')[0]?.body).toMatchObject({
      whatsappId: 3,
      openTicket: 'enabled',
      queueId: 2,
      ticketUserId: 8,
    });
  });

  it('the holidays of a year: defaults shown, an admin adds and removes one and saves the year', async () => {
    const year = new Date().getFullYear();
    const api = schedulesApi({
      'GET /schedule-holidays': () =>
        json(200, {
          year,
          source: 'default',
          holidays: [
            { date: `${year}-01-01`, name: 'Confraternização Universal' },
            { date: `${year}-04-21`, name: 'Tiradentes' },
          ],
        }),
      'PUT /schedule-holidays': (req) => json(200, { ...(req.body as object), source: 'company' }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Feriados');
    const modal = await waitFor(() => openModal(wrapper));
    const dialog = createWrapper(modal.getElement());
    await waitFor(() => expect(dialog.findTable()?.findRows()).toHaveLength(2));
    expect(buttonNamed(modal, 'Salvar').isDisabled()).toBe(true);

    const [dateInput, nameInput] = dialog.findAllInputs();
    act(() => dateInput!.setInputValue(`${year - 1}-12-25`));
    act(() => nameInput!.setInputValue('Natal'));
    click(modal, 'Adicionar');
    expect(dialog.findAlert()?.getElement().textContent).toContain(`Escolha uma data de ${year}.`);
    act(() => dateInput!.setInputValue(`${year}-03-19`));
    act(() => nameInput!.setInputValue('São José'));
    click(modal, 'Adicionar');
    act(() => buttonNamed(modal, 'Remover Tiradentes').click());
    expect(
      dialog
        .findTable()
        ?.findRows()
        .map((r) => r.getElement().textContent),
    ).toEqual([`01/01/${year}Confraternização Universal`, `19/03/${year}São José`]);
    click(modal, 'Salvar');
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      year,
      holidays: [
        { date: `${year}-01-01`, name: 'Confraternização Universal' },
        { date: `${year}-03-19`, name: 'São José' },
      ],
    });
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Feriados salvos com sucesso!'));
  });

  it('deletes from the calendar after confirming and follows company{id}-schedule events', async () => {
    const view = await openPage(
      schedulesApi({ 'DELETE /schedules/1': () => json(200, { message: 'Schedule deleted' }) }),
    );
    await waitFor(() => expect(dayCell(TODAY)?.textContent).toContain('Marina'));
    const cellButtons = view.wrapper.findAllButtons().filter((b) => b.getElement().closest('[role="gridcell"]'));
    const remove = cellButtons.find(
      (b) => b.getElement().getAttribute('aria-label') === 'Excluir agendamento de Marina',
    );
    act(() => remove?.click());
    const modal = openModal(view.wrapper);
    expect(modal.findHeader().getElement().textContent).toBe('Excluir o agendamento de Marina?');
    click(modal, 'Excluir');
    await waitFor(() => expect(columnTexts(view.wrapper, CONTACT)).toEqual(['Bruno']));
    expect(toastTexts(view.wrapper)).toContain('Agendamento excluído com sucesso!');

    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    act(() =>
      view.server.latest().push({
        channel: `company${ME.companyId}-schedule`,
        action: 'create',
        schedule: schedule(30, 'Zeca', `${TODAY}T09:00`),
      }),
    );
    await waitFor(() => expect(columnTexts(view.wrapper, CONTACT)).toContain('Zeca'));
    act(() => view.socket.stop());
  });
});
