import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authUser } from '@/testing/auth-fixtures';
import { connectionRow } from '@/testing/connection-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { fullPlan, shellRoutes } from '@/testing/shell-api';

const ADMIN = authUser({ id: 5, profile: 'admin' });

const openPage = async (plan = fullPlan()) => {
  const api = fakeApi({
    ...shellRoutes(ADMIN, plan),
    'GET /whatsapp': () => json(200, [connectionRow(3, 'Vendas', { token: 'AbCdEfGhIjKlMnOpQrStUvWxYz0123' })]),
  });
  const view = renderApp({ path: '/messages-api', adapter: api.adapter });
  return { ...view, api };
};

const typeMessage = (wrapper: ReturnType<typeof renderApp>['wrapper'], value: string) => {
  const textarea = fieldByLabel(wrapper, 'Mensagem').findControl()?.findTextarea();
  if (!textarea) throw new Error('no message textarea');
  act(() => textarea.setTextareaValue(value));
};

/** The page's two forms, in order: text, media. */
const forms = () => screen.getAllByRole('button', { name: 'Enviar' });

describe('messages API page', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('documents both calls with the API address', async () => {
    await openPage();
    expect(await screen.findByRole('heading', { name: 'API de mensagens' }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByText('POST https://desk.example.com/api/messages/send')).toBeTruthy();
    expect(screen.getByText('Mensagem de texto')).toBeTruthy();
    expect(screen.getByText('Mensagem com mídia')).toBeTruthy();
    // The connections' tokens, to copy into a form.
    expect(await screen.findByText('AbCdEfGhIjKlMnOpQrStUvWxYz0123')).toBeTruthy();
    expect(screen.getByText('Vendas')).toBeTruthy();
  });

  it('the text form checks token, number and message, then calls the API with the pasted token', async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response(JSON.stringify({ message: 'Mensagem enviada' }), { status: 200 }));
    const { wrapper } = await openPage();
    await screen.findByRole('heading', { name: 'Testar mensagem de texto' }, { timeout: 15_000 });
    act(() => fireEvent.click(forms()[0]!));
    expect(errorOf(wrapper, 'Token')).toBe('Obrigatório');
    expect(errorOf(wrapper, 'Número')).toBe('Obrigatório');
    expect(errorOf(wrapper, 'Mensagem')).toBe('Obrigatório');

    typeInto(wrapper, 'Token', 'AbCdEfGhIjKlMnOpQrStUvWxYz0123');
    typeInto(wrapper, 'Número', '(11) 99999-0000');
    typeMessage(wrapper, 'Olá!');
    act(() => fireEvent.click(forms()[0]!));
    expect(errorOf(wrapper, 'Número')).toBe('Somente dígitos, com código do país e DDD');
    expect(fetchMock).not.toHaveBeenCalled();

    typeInto(wrapper, 'Número', '5511999990000');
    act(() => fireEvent.click(forms()[0]!));
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Mensagem enviada com sucesso'));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('https://desk.example.com/api/messages/send');
    expect((init!.headers as Record<string, string>).authorization).toBe('Bearer AbCdEfGhIjKlMnOpQrStUvWxYz0123');
    expect(JSON.parse(init!.body as string)).toEqual({ number: '5511999990000', body: 'Olá!' });
  });

  it('a refused token is told as such and does not end the session', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ error: 'ERR_INVALID_TOKEN', message: 'Invalid or missing token' }), {
        status: 401,
      }),
    );
    const { wrapper, router } = await openPage();
    await screen.findByRole('heading', { name: 'Testar mensagem de texto' }, { timeout: 15_000 });
    typeInto(wrapper, 'Token', 'errado');
    typeInto(wrapper, 'Número', '5511999990000');
    typeMessage(wrapper, 'Olá!');
    act(() => fireEvent.click(forms()[0]!));
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Não foi possível enviar: token inválido'));
    expect(router.state.location.pathname).toBe('/messages-api');
    expect(localStorage.getItem('token')).toBe('token-1');
  });

  it('a send the connection’s governor holds says how long to wait (decisions D166)', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(
        JSON.stringify({
          error: 'ERR_TOO_MANY_REQUESTS',
          message: "The connection's sends are held (paced)",
          details: { reason: 'paced', retryAfter: 17 },
        }),
        { status: 429, headers: { 'retry-after': '17' } },
      ),
    );
    const { wrapper } = await openPage();
    await screen.findByRole('heading', { name: 'Testar mensagem de texto' }, { timeout: 15_000 });
    typeInto(wrapper, 'Token', 'AbCdEfGhIjKlMnOpQrStUvWxYz0123');
    typeInto(wrapper, 'Número', '5511999990000');
    typeMessage(wrapper, 'Olá!');
    act(() => fireEvent.click(forms()[0]!));
    await waitFor(() =>
      expect(toastTexts(wrapper)).toContain('Não foi possível enviar: aguarde 17 s e envie novamente'),
    );
  });

  it('without the plan’s useExternalApi: the spec’s error instead of the page', async () => {
    const { wrapper } = await openPage(fullPlan({ useExternalApi: false }));
    await waitFor(
      () =>
        expect(toastTexts(wrapper)).toContain(
          'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
        ),
      { timeout: 15_000 },
    );
    expect(screen.queryByRole('heading', { name: 'API de mensagens' })).toBeNull();
  });
});
