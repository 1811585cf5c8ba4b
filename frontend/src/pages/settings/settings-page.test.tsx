import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
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
  await waitFor(() => expect(fieldNamed(view.wrapper, 'Avaliações')).toBeTruthy(), { timeout: 15_000 });
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

  it('with company hours, the schedules tab saves the week with PUT /companies/{id}/schedules', async () => {
    const api = settingsApi({ scheduleType: 'company' });
    const { wrapper } = await openPage(api);
    expect(tabLabels(wrapper)).toEqual(['Opções', 'Horários']);
    act(() => wrapper.findTabs()!.findTabLinkByIndex(2)!.click());
    const monday = fieldNamed(wrapper, 'Início (turno A)')!;
    act(() => monday.findControl()!.findInput()!.setInputValue('07:30'));
    act(() => wrapper.findTabs()!.findTabContent()!.findButton()!.click());
    await waitFor(() => expect(api.sent(`/companies/${ADMIN.companyId}/schedules`)).toHaveLength(1));
    const [body] = api.sent(`/companies/${ADMIN.companyId}/schedules`) as { schedules: { startTimeA: string }[] }[];
    expect(body!.schedules).toHaveLength(7);
    expect(body!.schedules.filter((d) => d.startTimeA === '07:30')).toHaveLength(1);
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Operação realizada com sucesso!'));
  }, 30_000);

  it('shows the no-access screen to a plain user', async () => {
    const api = settingsApi({}, {}, authUser({ id: 9, profile: 'user' }));
    renderApp({ path: '/settings', adapter: api.adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', undefined, { timeout: 15_000 })).toBeTruthy();
    expect(api.requests.some((r) => r.path.startsWith('/companySettings'))).toBe(false);
  });
});
