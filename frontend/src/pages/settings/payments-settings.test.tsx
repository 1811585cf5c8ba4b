import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PlanFlags } from '@/api/plans';
import { NotificationsProvider } from '@/components/notifications';
import { ShellProvider } from '@/components/shell/shell-context';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { PaymentsSettings } from './payments-settings';

const OWNER = authUser({
  id: 1,
  companyId: 1,
  super: true,
  company: { id: 1, name: 'ZapDesk', dueDate: '2999-12-31' },
});
const ADMIN = authUser({
  id: 7,
  companyId: 3,
  profile: 'admin',
  company: { id: 3, name: 'Flor', dueDate: '2999-12-31' },
});

const companySettings = () =>
  json(200, {
    userRating: 'disabled',
    scheduleType: 'disabled',
    enableLGPD: 'disabled',
    timezone: 'UTC',
    schedules: [],
  });

const openTab = async (wrapper: ReturnType<typeof renderApp>['wrapper']) => {
  const tabs = await waitFor(
    () => {
      const found = wrapper.findTabs();
      if (!found) throw new Error('no tabs yet');
      return found;
    },
    { timeout: 40_000 },
  );
  const tab = tabs.findTabLinks().find((l) => l.getElement().textContent === 'Pagamentos');
  if (!tab) throw new Error('no Pagamentos tab');
  act(() => tab.click());
};

describe('the Pagamentos tab of /settings (the owner)', () => {
  it('shows secrets masked, saves a new one write-only, and uploads the PIX certificate with the spec’s texts', async () => {
    const puts: unknown[] = [];
    const uploads: { ref?: string; body: unknown }[] = [];
    let installed = false;
    const server = fakeApi({
      ...shellRoutes(OWNER),
      'GET /companySettings/1': companySettings,
      'GET /helps/list': () => json(200, []),
      'GET /announcements': () => json(200, { records: [], hasMore: false }),
      'GET /chats': () => json(200, { records: [], hasMore: false }),
      'GET /plans/all': () => json(200, []),
      'GET /settings': () =>
        json(200, [
          { key: 'stripeSecretKey', value: '••••Q7w2', masked: true },
          { key: 'asaasToken', value: '' },
          { key: 'paymentProviders', value: 'efi,stripe,asaas,mercadopago' },
        ]),
      'PUT /settings/asaasToken': (req) => {
        puts.push(req.body);
        return json(200, { key: 'asaasToken', value: '••••9xyz', masked: true });
      },
      'GET /settings/cert-upload': () =>
        json(200, [
          installed
            ? {
                destination: 'certificadoEfi',
                installed: true,
                fileName: 'efi.p12',
                size: 900,
                uploadedAt: '2026-11-27T10:00:00.000Z',
              }
            : { destination: 'certificadoEfi', installed: false },
        ]),
      'POST /settings/cert-upload': (req) => {
        uploads.push({ ref: req.query?.ref, body: req.body });
        installed = true;
        return json(200, { mensagem: 'Arquivo Anexado' });
      },
    });
    const { wrapper } = renderApp({ path: '/settings', adapter: server.adapter });
    await openTab(wrapper);

    // The stored Stripe key is shown only masked; the Asaas token is unset.
    await waitFor(() => expect(screen.getByText('Atual: ••••Q7w2')).toBeTruthy());
    expect(screen.getAllByText('Não configurado').length).toBeGreaterThan(0);
    expect(screen.getByText('Nenhum certificado instalado')).toBeTruthy();
    const asaas = screen.getByLabelText('Token da API') as HTMLInputElement;
    expect(asaas.type).toBe('password');
    act(() => {
      fireEvent.change(asaas, { target: { value: '$aact_live_9xyz' } });
    });
    const field = wrapper.findAllFormFields().find((f) => f.findLabel()?.getElement().textContent === 'Token da API')!;
    act(() => field.findSecondaryControl()!.findButton()!.click());
    await waitFor(() => expect(screen.getByText('Atual: ••••9xyz')).toBeTruthy());
    expect(puts).toEqual([{ key: 'asaasToken', value: '$aact_live_9xyz' }]);
    // Write-only: the typed value is gone from the input once saved.
    expect((screen.getByLabelText('Token da API') as HTMLInputElement).value).toBe('');

    // The certificate: nothing chosen, then a non-.p12, then a .p12.
    const send = () => act(() => screen.getByRole('button', { name: 'Enviar' }).click());
    send();
    await waitFor(() => expect(screen.getByText('Escolha um arquivo!')).toBeTruthy());
    const input = wrapper.findFileInput()!.findNativeInput().getElement();
    act(() => {
      fireEvent.change(input, { target: { files: [new File(['x'], 'cert.pem')] } });
    });
    send();
    await waitFor(() => expect(screen.getByText('Use somente arquivos em formato p12!')).toBeTruthy());
    expect(uploads).toEqual([]);
    act(() => {
      fireEvent.change(input, { target: { files: [new File([new Uint8Array([0x30, 1, 2])], 'efi.p12')] } });
    });
    send();
    await waitFor(() => expect(screen.getByText('Arquivo enviado com sucesso!')).toBeTruthy());
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.ref).toBe('certificadoEfi');
    expect(uploads[0]!.body).toBeInstanceOf(FormData);
    await waitFor(() => expect(screen.getByText(/Certificado instalado: efi\.p12/)).toBeTruthy());
  }, 90_000);

  it('answers a non-owner with the spec’s no-permission text and asks the server nothing', async () => {
    render(
      <NotificationsProvider>
        <ShellProvider value={{ user: ADMIN, planFlags: {} as PlanFlags, planLoaded: true }}>
          <PaymentsSettings />
        </ShellProvider>
      </NotificationsProvider>,
    );
    await waitFor(() => expect(screen.getByText('Sem permissão para acessar!')).toBeTruthy());
    expect(screen.queryByText('Token da API')).toBeNull();
  });
});
