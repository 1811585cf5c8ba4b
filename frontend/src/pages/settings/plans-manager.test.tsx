import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Plan } from '@/api/billing';
import { buttonNamed, click, noOpenModal, openModal } from '@/components/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { errorOf, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { fullPlan, shellRoutes } from '@/testing/shell-api';

const OWNER = authUser({
  id: 1,
  companyId: 1,
  super: true,
  company: { id: 1, name: 'ZapDesk', dueDate: '2999-12-31' },
});
const plan = (id: number, name: string, amount: number): Plan => ({ ...fullPlan(), id, name, amount, isPublic: true });

describe('the Planos tab of /settings (the owner)', () => {
  it('lists the plans and adds one with every switch on, checking the name first', async () => {
    let plans = [plan(1, 'Plataforma', 0), plan(2, 'Básico', 49)];
    const server = fakeApi({
      ...shellRoutes(OWNER),
      'GET /companySettings/1': () =>
        json(200, {
          userRating: 'disabled',
          scheduleType: 'disabled',
          enableLGPD: 'disabled',
          timezone: 'America/Sao_Paulo',
          schedules: [],
        }),
      'GET /helps/list': () => json(200, []),
      'GET /announcements': () => json(200, { records: [], hasMore: false }),
      'GET /chats': () => json(200, { records: [], hasMore: false }),
      'GET /plans/all': () => json(200, plans),
      'POST /plans': (req) => {
        const created = { ...(req.body as Plan), id: 3 };
        plans = [...plans, created];
        return json(201, created);
      },
    });
    const { wrapper } = renderApp({ path: '/settings', adapter: server.adapter });
    const tabs = await waitFor(
      () => {
        const found = wrapper.findTabs();
        if (!found) throw new Error('no tabs yet');
        return found;
      },
      { timeout: 15_000 },
    );
    const tab = tabs.findTabLinks().find((l) => l.getElement().textContent === 'Planos');
    act(() => tab!.click());
    await waitFor(() => expect(screen.getByText('Básico')).toBeTruthy());

    click(wrapper, 'Adicionar');
    const modal = openModal(wrapper);
    click(modal, 'Salvar');
    await waitFor(() => expect(errorOf(wrapper, 'Nome')).toBe('Nome é obrigatório'));
    typeInto(wrapper, 'Nome', 'Ouro');
    typeInto(wrapper, 'Usuários', '10');
    typeInto(wrapper, 'Conexões', '5');
    typeInto(wrapper, 'Filas', '8');
    typeInto(wrapper, 'Valor', '199,90');
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Ouro',
      users: 10,
      connections: 5,
      queues: 8,
      amount: 199.9,
      isPublic: true,
      useWhatsapp: true,
      useFacebook: true,
      useInstagram: true,
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
    });
    await waitFor(() => expect(screen.getByText('Ouro')).toBeTruthy());
    expect(buttonNamed(wrapper, 'Excluir Ouro')).toBeTruthy();
  });
});
