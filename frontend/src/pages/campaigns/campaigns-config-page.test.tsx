import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CampaignSettings } from '@/api/campaigns';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { click } from '@/components/test-kit';

const ME = authUser({ id: 5, profile: 'admin' });

const DEFAULTS: CampaignSettings = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [{ key: 'promo', value: 'PROMO10' }],
  sabado: false,
  domingo: false,
  startHour: '09:00',
  endHour: '18:00',
  dailyLimit: 1000,
};

describe('campaign settings page', () => {
  it('shows the saved values, refuses values out of bounds without sending, and saves the rest', async () => {
    const api = fakeApi({
      ...shellRoutes(ME),
      'GET /campaign-settings': () => json(200, DEFAULTS),
      'POST /campaign-settings': (req) =>
        json(200, { ...DEFAULTS, ...(req.body as { settings: Partial<CampaignSettings> }).settings }),
    });
    const { wrapper } = renderApp({ path: '/campaigns-config', adapter: api.adapter });
    expect(
      await screen.findByRole('heading', { name: 'Configurações de campanhas' }, { timeout: 15_000 }),
    ).toBeTruthy();
    const input = (label: string) =>
      wrapper
        .findAllFormFields()
        .find((f) => f.findLabel()?.getElement().textContent === label)
        ?.findControl()
        ?.findInput()
        ?.getInputValue();
    expect(input('Intervalo entre mensagens (segundos)')).toBe('20');
    expect(input('Chave')).toBe('promo');

    typeInto(wrapper, 'Intervalo entre mensagens (segundos)', '121');
    typeInto(wrapper, 'Fim', '08:30');
    typeInto(wrapper, 'Início', '10:00');
    click(wrapper, 'Salvar');
    expect(errorOf(wrapper, 'Intervalo entre mensagens (segundos)')).toBe('Informe um número inteiro de 0 a 120');
    expect(errorOf(wrapper, 'Fim')).toBe('O fim deve ser depois do início');
    const posts = () => api.requests.filter((r) => r.method === 'POST');
    expect(posts()).toHaveLength(0);

    typeInto(wrapper, 'Intervalo entre mensagens (segundos)', '0');
    typeInto(wrapper, 'Fim', '19:00');
    click(wrapper, 'Salvar');
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).toEqual({
      settings: {
        messageInterval: 0,
        longerIntervalAfter: 20,
        greaterInterval: 60,
        dailyLimit: 1000,
        startHour: '10:00',
        endHour: '19:00',
        sabado: false,
        domingo: false,
        variables: [{ key: 'promo', value: 'PROMO10' }],
      },
    });
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Configurações salvas'));
  }, 30_000);
});
