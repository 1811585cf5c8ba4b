import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { toastTexts } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { defaultSchedules } from '@/components/schedule-editor';

const ADMIN = authUser({ id: 5, name: 'Ana Souza', profile: 'admin' });
type Wrapper = ReturnType<typeof createWrapper>;

const SETTINGS = {
  userRating: 'disabled',
  scheduleType: 'disabled',
  enableLGPD: 'disabled',
  sendMsgTransfTicket: 'disabled',
  transferMessage: '',
  timezone: 'America/Sao_Paulo',
  schedules: defaultSchedules(),
};

const settingsApi = (settings: object = {}, extra: Record<string, Route> = {}, me = ADMIN) => {
  const server = fakeApi({
    ...shellRoutes(me),
    [`GET /companySettings/${me.companyId}`]: () => json(200, { ...SETTINGS, ...settings }),
    'PUT /companySettings': (req) => json(200, req.body),
    [`PUT /companies/${me.companyId}/schedules`]: (req) => json(200, req.body),
    ...extra,
  });
  const sent = (path: string) =>
    server.requests.filter((r) => r.method === 'PUT' && r.path === path).map((r) => r.body);
  return { ...server, sent };
};

const openPage = async (api: ReturnType<typeof settingsApi>) => {
  const view = renderApp({ path: '/settings', adapter: api.adapter });
  // The first render loads the page's chunk and every Cloudscape select: slow on a busy machine.
  await waitFor(() => expect(fieldNamed(view.wrapper, 'Avaliações')).toBeTruthy(), { timeout: 60_000 });
  return view;
};

const fieldNamed = (wrapper: Wrapper, label: string) =>
  wrapper.findAllFormFields().find((f) => f.findLabel()?.getElement().textContent === label);

const choose = (wrapper: Wrapper, label: string, value: string) => {
  const select = fieldNamed(wrapper, label)?.findControl()?.findSelect();
  if (!select) throw new Error(`no select '${label}'`);
  act(() => select.openDropdown());
  act(() => select.selectOptionByValue(value));
};

export const tabLabels = (wrapper: Wrapper) =>
  wrapper
    .findTabs()!
    .findTabLinks()
    .map((l) => l.getElement().textContent);

describe('settings page', () => {
  // The runtime's ~400 zones make Cloudscape's select very slow under jsdom; a few stand for them.
  beforeEach(() => {
    vi.spyOn(Intl, 'supportedValuesOf').mockReturnValue(['America/Sao_Paulo', 'Europe/Lisbon', 'UTC']);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("saves a dropdown setting at once with PUT /companySettings and 'Configurações salvas'", async () => {
    const api = settingsApi();
    const { wrapper } = await openPage(api);
    choose(wrapper, 'Avaliações', 'enabled');
    await waitFor(() => expect(api.sent('/companySettings')).toEqual([{ column: 'userRating', data: 'enabled' }]));
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Configurações salvas'));
    choose(wrapper, 'Fechar ticket ao transferir', 'true');
    await waitFor(() =>
      expect(api.sent('/companySettings')[1]).toEqual({ column: 'closeTicketOnTransfer', data: true }),
    );
  });

  it('shows the data-protection block only while LGPD is enabled', async () => {
    const { wrapper } = await openPage(settingsApi());
    expect(fieldNamed(wrapper, 'Ocultar número (LGPD)')).toBeUndefined();
    choose(wrapper, 'Habilitar LGPD', 'enabled');
    await waitFor(() => expect(fieldNamed(wrapper, 'Ocultar número (LGPD)')).toBeTruthy());
  });

  it('shows the no-access screen to a plain user', async () => {
    const api = settingsApi({}, {}, authUser({ id: 9, profile: 'user' }));
    renderApp({ path: '/settings', adapter: api.adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', undefined, { timeout: 15_000 })).toBeTruthy();
    expect(api.requests.some((r) => r.path.startsWith('/companySettings'))).toBe(false);
  });

  it('shows a 400 of the server under the text field it names, and keeps the text typed', async () => {
    const api = settingsApi(
      { sendMsgTransfTicket: 'enabled', transferMessage: 'Transferido' },
      {
        'PUT /companySettings': () =>
          json(400, {
            error: 'ERR_VALIDATION',
            message: 'Invalid setting',
            fields: [{ field: 'body.data', reason: 'Too Long!' }],
          }),
      },
    );
    const { wrapper } = await openPage(api);
    const field = fieldNamed(wrapper, 'Mensagem de transferência');
    const area = field?.findControl()?.findTextarea();
    if (!area) throw new Error('no transfer message field');
    act(() => area.setTextareaValue('x'.repeat(20)));
    fireEvent.blur(area.findNativeTextarea().getElement());

    await waitFor(() =>
      expect(fieldNamed(wrapper, 'Mensagem de transferência')?.findError()?.getElement().textContent).toBe('Too Long!'),
    );
    expect(api.sent('/companySettings')).toEqual([{ column: 'transferMessage', data: 'x'.repeat(20) }]);
    expect(area.findNativeTextarea().getElement().value).toBe('x'.repeat(20));
    await waitFor(() => expect(toastTexts(wrapper)).toHaveLength(1));
  }, 120_000);

  it('saves the company hours (scheduleType company) with PUT /companies/{id}/schedules; a bad time stays under it', async () => {
    const api = settingsApi(
      { scheduleType: 'company' },
      {
        [`PUT /companies/${ADMIN.companyId}/schedules`]: (req) => {
          const days = (req.body as { schedules: { endTimeB: string }[] }).schedules;
          return days[4]?.endTimeB === '12:00'
            ? json(400, {
                error: 'ERR_VALIDATION',
                message: 'Invalid schedules',
                fields: [{ field: 'body.schedules.4.endTimeB', reason: 'must end after it starts' }],
              })
            : json(200, req.body);
        },
      },
    );
    const { wrapper } = await openPage(api);
    expect(tabLabels(wrapper)).toEqual(['Opções', 'Horários']);
    act(() => wrapper.findTabs()!.findTabLinkById('schedules')!.click());
    const time = (label: string) => {
      const input = wrapper
        .findAllInputs()
        .find((i) => i.findNativeInput().getElement().getAttribute('aria-label') === label);
      if (!input) throw new Error(`no time '${label}'`);
      return input;
    };
    const errors = () => wrapper.findAllFormFields().flatMap((f) => f.findError()?.getElement().textContent ?? []);
    const save = () => {
      const button = wrapper.findAllButtons().find((b) => b.getElement().textContent === 'Salvar');
      if (!button) throw new Error('no save button');
      act(() => button.click());
    };

    act(() => time('Sexta-feira Fim (turno B)').setInputValue('12:00'));
    save();
    await waitFor(() => expect(toastTexts(wrapper)).toHaveLength(1));
    expect(errors()).toEqual(['must end after it starts']);

    act(() => time('Sexta-feira Fim (turno B)').setInputValue('17:00'));
    act(() => time('Sábado Início (turno B)').setInputValue(''));
    act(() => time('Sábado Fim (turno B)').setInputValue(''));
    expect(errors()).toEqual([]);
    save();
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Operação realizada com sucesso!'));
    const sent = api.sent(`/companies/${ADMIN.companyId}/schedules`);
    expect(sent).toHaveLength(2);
    const saved = sent[1] as { id: number; schedules: Record<string, string>[] };
    expect(saved.id).toBe(ADMIN.companyId);
    expect(saved.schedules).toHaveLength(7);
    expect(saved.schedules[4]).toMatchObject({ weekdayEn: 'friday', endTimeB: '17:00' });
    expect(saved.schedules[5]).toMatchObject({
      weekdayEn: 'saturday',
      startTimeA: '08:00',
      startTimeB: '',
      endTimeB: '',
    });
  }, 120_000);
});
