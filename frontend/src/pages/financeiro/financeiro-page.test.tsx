import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Invoice } from '@/api/billing';
import { buttonNamed, click, columnTexts, FakeIntersectionObserver, openModal } from '@/components/test-kit';
import { pageReload } from '@/hooks/page-reload';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';

const ME = authUser({ id: 5, profile: 'admin', company: { id: 2, name: 'Padaria Central', dueDate: '2026-12-10' } });

const invoice = (
  id: number,
  status: Invoice['status'],
  displayStatus: Invoice['displayStatus'],
  dueDate: string,
): Invoice => ({
  id,
  detail: 'Básico',
  users: 3,
  connections: 2,
  queues: 4,
  value: 30,
  dueDate,
  status,
  displayStatus,
  planId: 2,
  recurrence: 'MENSAL',
  createdAt: '2026-11-01T00:00:00.000Z',
});
const INVOICES = [
  invoice(12, 'open', 'Em Aberto', '2026-12-10'),
  invoice(11, 'open', 'Vencido', '2026-11-10'),
  invoice(10, 'paid', 'Pago', '2026-10-10'),
];
const STATUS = 7;

const billingApi = (extra: Record<string, Route> = {}) =>
  fakeApi({
    ...shellRoutes(ME),
    'GET /invoices/all': () => json(200, { invoices: INVOICES, hasMore: false }),
    'GET /announcements': () => json(200, { records: [], hasMore: false }),
    'GET /chats': () => json(200, { records: [], hasMore: false }),
    ...extra,
  });

const openPage = async (api = billingApi()) => {
  const view = renderApp({ path: '/financeiro', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Faturas/ }, { timeout: 30_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, STATUS)).toEqual(['Em Aberto', 'Vencido', 'Pago']));
  return { ...view, api };
};

describe('/financeiro', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists the invoices with their status; only unpaid ones offer PAGAR', async () => {
    const { wrapper } = await openPage();
    expect(columnTexts(wrapper, 5).map((v) => v.replace(/\s/g, ' '))).toEqual(['R$ 30,00', 'R$ 30,00', 'R$ 30,00']);
    expect(columnTexts(wrapper, 6)).toEqual(['10/12/2026', '10/11/2026', '10/10/2026']);
    expect(buttonNamed(wrapper, 'Pagar a fatura 12')).toBeTruthy();
    expect(buttonNamed(wrapper, 'Pagar a fatura 11')).toBeTruthy();
    expect(() => buttonNamed(wrapper, 'Pagar a fatura 10')).toThrow();
  }, 60_000);

  it('the checkout opens on Personalizar, asks for the data, pays by PIX and returns home on CONCLUIDA', async () => {
    // Where the app is when it reloads: home, not /financeiro again (home is a lazy route).
    const where = { path: (): string => '' };
    const reloadedAt: string[] = [];
    const reload = vi.spyOn(pageReload, 'reload').mockImplementation(() => void reloadedAt.push(where.path()));
    const api = billingApi({
      'POST /subscription': () =>
        json(200, {
          invoiceId: 12,
          valorext: '91.00',
          qrcode: { qrcode: '00020101PIXCODE', imagemQrcode: 'data:image/png;base64,AAAA' },
        }),
    });
    const { wrapper, socket, server, router } = await openPage(api);
    where.path = () => router.state.location.pathname;
    act(() => socket.start());
    act(() => server.latest().accept());
    click(wrapper, 'Pagar a fatura 12');
    const modal = openModal(wrapper);
    const wizard = wrapper.findWizard()!;
    await waitFor(() => expect(wizard.findHeader()?.getElement().textContent).toContain('Personalizar'));

    // A custom plan: 5 users and 4 connections, priced by the rule (49 + 2 × 11 + 1 × 20).
    act(() =>
      wrapper
        .findAllToggles()
        .find((t) => t.getElement().textContent === 'Personalizar o plano')!
        .findNativeInput()
        .click(),
    );
    typeInto(wrapper, 'Usuários', '5');
    typeInto(wrapper, 'Conexões', '4');
    expect(modal.getElement().textContent).toMatch(/R\$\s91,00/);
    act(() => wizard.findPrimaryButton().click());
    await waitFor(() => expect(wizard.findHeader()?.getElement().textContent).toContain('Revisar'));
    act(() => wizard.findPrimaryButton().click()); // PAGAR without the data: back to Dados
    await waitFor(() => expect(errorOf(wrapper, 'Nome completo')).toBe('O nome completo é obrigatório'));
    expect(errorOf(wrapper, 'CPF/CNPJ')).toBe('CEP é obrigatório');
    expect(api.requests.filter((r) => r.method === 'POST')).toEqual([]);

    typeInto(wrapper, 'Nome completo', 'Marina Lopes');
    typeInto(wrapper, 'CPF/CNPJ', '123.456.789-09');
    typeInto(wrapper, 'Endereço', 'Rua das Flores, 10');
    typeInto(wrapper, 'Cidade', 'São Paulo');
    act(() => wizard.findPrimaryButton().click());
    act(() => wizard.findPrimaryButton().click());
    await waitFor(() => expect(wizard.findPrimaryButton().getElement().textContent).toBe('PAGAR'));
    act(() => wizard.findPrimaryButton().click());

    await waitFor(() => expect(screen.getByDisplayValue('00020101PIXCODE')).toBeTruthy());
    expect(api.requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      invoiceId: 12,
      firstName: 'Marina Lopes',
      zipcode: '123.456.789-09',
      address2: 'Rua das Flores, 10',
      city: 'São Paulo',
      country: 'BR',
      users: 5,
      connections: 4,
    });
    expect(toastTexts(wrapper)).toContain('Assinatura realizada com sucesso!, aguardando a realização do pagamento');
    Object.assign(navigator, { clipboard: { writeText: vi.fn(async () => undefined) } });
    click(wrapper, 'Copiar');
    await waitFor(() => expect(buttonNamed(wrapper, 'Copiado!')).toBeTruthy());
    await waitFor(() => expect(buttonNamed(wrapper, 'Copiar')).toBeTruthy(), { timeout: 10_000 });

    act(() =>
      server
        .latest()
        .push({ channel: 'company-2-payment', action: 'CONCLUIDA', company: { id: 2, dueDate: '2027-01-10' } }),
    );
    await waitFor(() => expect(screen.getByText('Sua licença agora vence em 10/01/2027.')).toBeTruthy());
    // Then home, with the page (and the session's due date) read afresh.
    await waitFor(() => expect(reload).toHaveBeenCalled(), { timeout: 30_000 });
    expect(reloadedAt).toEqual(['/']);
  }, 60_000);
  it('the payer picks a card provider in Revisar; the answer’s link opens that provider’s page', async () => {
    const api = billingApi({
      'GET /subscription/providers': () => json(200, { providers: ['efi', 'stripe', 'mercadopago'] }),
      'POST /subscription': () =>
        json(200, { invoiceId: 12, valorext: '30.00', stripeURL: 'https://checkout.stripe.test/c/pay/cs_1' }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Pagar a fatura 12');
    openModal(wrapper);
    const wizard = wrapper.findWizard()!;
    act(() => wizard.findPrimaryButton().click());
    await waitFor(() => expect(wizard.findHeader()?.getElement().textContent).toContain('Revisar'));
    const methods = await waitFor(() => {
      const group = wrapper.findRadioGroup();
      if (!group) throw new Error('no payment methods yet');
      return group;
    });
    expect(methods.findButtons().map((b) => b.findLabel().getElement().textContent)).toEqual([
      'PIX',
      'Cartão (Stripe)',
      'Mercado Pago',
    ]);
    expect(methods.findInputByValue('efi')!.getElement().checked).toBe(true);
    act(() => methods.findInputByValue('stripe')!.getElement().click());

    // The data, then PAGAR.
    act(() => wizard.findPreviousButton()!.click());
    act(() => wizard.findPreviousButton()!.click());
    typeInto(wrapper, 'Nome completo', 'Marina Lopes');
    typeInto(wrapper, 'CPF/CNPJ', '123.456.789-09');
    typeInto(wrapper, 'Endereço', 'Rua das Flores, 10');
    typeInto(wrapper, 'Cidade', 'São Paulo');
    act(() => wizard.findPrimaryButton().click());
    act(() => wizard.findPrimaryButton().click());
    await waitFor(() => expect(wizard.findPrimaryButton().getElement().textContent).toBe('PAGAR'));
    act(() => wizard.findPrimaryButton().click());

    const link = await waitFor(() => buttonNamed(wrapper, 'Pagar com cartão (Stripe)'));
    expect(link.getElement().getAttribute('href')).toBe('https://checkout.stripe.test/c/pay/cs_1');
    expect(api.requests.find((r) => r.method === 'POST')?.body).toMatchObject({ invoiceId: 12, provider: 'stripe' });
  }, 60_000);
});
