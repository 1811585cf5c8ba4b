import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Connection } from '@/api/connections';
import { click, openModal } from '@/pages/users/test-kit';
import { connectionRow } from '@/testing/connection-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { CloudApiDialog } from './cloud-api-dialog';

type Wrapper = ReturnType<typeof renderApp>['wrapper'];

const LABEL = {
  name: 'Nome',
  phone: 'ID do número de telefone',
  token: 'Token de acesso',
  waba: 'ID da conta do WhatsApp Business',
};
const TOKEN = 'EAAGm0PX4ZCpsBAKZBZCzq1ZA9ZBQ2ZCi3Hh7Z';

/** The dialog alone, as the page opens it. */
const openDialog = async (routes: Record<string, Route> = {}) => {
  const api = fakeApi(routes);
  const onSaved = vi.fn<(connection: Connection) => void>();
  const view = renderApp({
    path: '/',
    adapter: api.adapter,
    routes: [{ path: '/', element: <CloudApiDialog onSaved={onSaved} onDismiss={() => undefined} /> }],
  });
  await screen.findByText('Conectar WhatsApp Cloud API', {}, { timeout: 15_000 });
  const posts = () => api.requests.filter((r) => r.method === 'POST' && r.path === '/whatsapp/cloud-api');
  return { ...view, api, onSaved, posts };
};

const valueOf = (wrapper: Wrapper, label: string) =>
  fieldByLabel(wrapper, label).findControl()?.findInput()?.findNativeInput().getElement().value;

/**
 * Waits until `text` shows. Cloudscape's finders mark elements with scope attributes as they search, which
 * wakes waitFor's MutationObserver again at once: polling them starves React, so waits look for text.
 */
const shows = (text: string) => screen.findByText(text, {}, { timeout: 5000 });

const alertText = (wrapper: Wrapper) =>
  openModal(wrapper).findContent().findAlert()?.findContent().getElement().textContent ?? null;

const fill = (wrapper: Wrapper, values: Partial<Record<keyof typeof LABEL, string>>) => {
  for (const [field, value] of Object.entries(values)) typeInto(wrapper, LABEL[field as keyof typeof LABEL], value);
};

describe('WhatsApp Cloud API dialog', () => {
  it('says where to find the ids, and keeps the token in a password field', async () => {
    const { wrapper } = await openDialog();
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Conectar WhatsApp Cloud API');
    expect(fieldByLabel(wrapper, LABEL.phone).findConstraint()?.getElement().textContent).toContain(
      'WhatsApp Manager da Meta → API setup',
    );
    expect(fieldByLabel(wrapper, LABEL.waba).findConstraint()?.getElement().textContent).toContain('Opcional');
    const token = fieldByLabel(wrapper, LABEL.token).findControl()?.findInput()?.findNativeInput().getElement();
    expect(token?.getAttribute('type')).toBe('password');
  });

  it('checks the fields as the server does and sends nothing while one is wrong', async () => {
    const { wrapper, posts } = await openDialog();

    click(openModal(wrapper), 'Conectar');
    expect(errorOf(wrapper, LABEL.phone)).toBe('Required');
    expect(errorOf(wrapper, LABEL.token)).toBe('Required');
    expect(errorOf(wrapper, LABEL.name)).toBeNull(); // optional
    expect(errorOf(wrapper, LABEL.waba)).toBeNull(); // optional

    fill(wrapper, { name: 'A', phone: '+55 11 98888-7777', token: 'EAA-short', waba: 'waba-1' });
    expect(errorOf(wrapper, LABEL.name)).toBe('Too Short!');
    expect(errorOf(wrapper, LABEL.phone)).toBe('Informe só os dígitos do ID (de 5 a 30).');
    expect(errorOf(wrapper, LABEL.token)).toBe('Too Short!');
    expect(errorOf(wrapper, LABEL.waba)).toBe('Informe só os dígitos do ID (de 5 a 30).');

    fill(wrapper, { name: '', phone: '1234', token: `${TOKEN} with spaces` });
    expect(errorOf(wrapper, LABEL.phone)).toBe('Informe só os dígitos do ID (de 5 a 30).');
    expect(errorOf(wrapper, LABEL.token)).toBe('O token tem de 20 a 4096 caracteres: letras, números e _ . | -');
    click(openModal(wrapper), 'Conectar');
    expect(posts()).toHaveLength(0);
  });

  it('posts the trimmed values without the blank optional ones; the page gets the connection and a toast shows', async () => {
    const { wrapper, posts, onSaved } = await openDialog({
      'POST /whatsapp/cloud-api': () =>
        json(201, connectionRow(12, 'Loja Oficial', { channel: 'whatsappapi', number: '5511988887777' })),
    });
    fill(wrapper, { phone: ' 106540352242922 ', token: ` ${TOKEN} ` });
    click(openModal(wrapper), 'Conectar');

    await waitFor(() =>
      expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ id: 12, channel: 'whatsappapi' })),
    );
    expect(posts().map((r) => r.body)).toEqual([{ phoneNumberId: '106540352242922', accessToken: TOKEN }]);
    expect(toastTexts(wrapper)).toEqual(['Número do WhatsApp Cloud API conectado!']);
    expect(document.body.textContent).not.toContain(TOKEN);
  });

  it("shows Meta's refusal and the other answers in the dialog, keeping what was typed", async () => {
    let answer = json(400, {
      error: 'ERR_META_GRAPH',
      message: 'Invalid OAuth access token - Cannot parse access token',
      details: { graphStatus: 400, graphMessage: 'Invalid OAuth access token - Cannot parse access token' },
    });
    const { wrapper, posts, onSaved } = await openDialog({ 'POST /whatsapp/cloud-api': () => answer });
    fill(wrapper, { name: 'Loja Oficial', phone: '106540352242922', token: TOKEN, waba: '102290129340398' });
    click(openModal(wrapper), 'Conectar');

    await shows('A Meta recusou o pedido: Invalid OAuth access token - Cannot parse access token');
    expect(alertText(wrapper)).toBe('A Meta recusou o pedido: Invalid OAuth access token - Cannot parse access token');
    expect(valueOf(wrapper, LABEL.name)).toBe('Loja Oficial');
    expect(valueOf(wrapper, LABEL.phone)).toBe('106540352242922');
    expect(valueOf(wrapper, LABEL.token)).toBe(TOKEN);
    expect(valueOf(wrapper, LABEL.waba)).toBe('102290129340398');
    expect(posts()[0]?.body).toEqual({
      name: 'Loja Oficial',
      phoneNumberId: '106540352242922',
      accessToken: TOKEN,
      businessAccountId: '102290129340398',
    });

    answer = json(409, { error: 'ERR_META_ALREADY_CONNECTED', message: 'taken', details: { externalId: '1' } });
    click(openModal(wrapper), 'Conectar');
    await shows('Esta página ou conta da Meta já está conectada.');
    expect(alertText(wrapper)).toBe('Esta página ou conta da Meta já está conectada.');

    answer = json(503, { error: 'ERR_META_NOT_CONFIGURED', message: 'no app' });
    click(openModal(wrapper), 'Conectar');
    await shows(
      'A integração com a Meta (Facebook, Instagram, WhatsApp Cloud API) não está configurada neste servidor.',
    );
    expect(alertText(wrapper)).toBe(
      'A integração com a Meta (Facebook, Instagram, WhatsApp Cloud API) não está configurada neste servidor.',
    );
    expect(onSaved).not.toHaveBeenCalled();
    expect(toastTexts(wrapper)).toEqual([]);
  });

  it("puts the server's field errors on their fields, translated when the reason is known", async () => {
    const { wrapper } = await openDialog({
      'POST /whatsapp/cloud-api': () =>
        json(400, {
          error: 'ERR_VALIDATION',
          message: 'Invalid request',
          fields: [
            { field: 'body.phoneNumberId', reason: 'must be the phone number id (digits)' },
            { field: 'body.accessToken', reason: 'token revoked by the business' },
          ],
        }),
    });
    fill(wrapper, { phone: '106540352242922', token: TOKEN });
    click(openModal(wrapper), 'Conectar');

    await shows('token revoked by the business');
    expect(errorOf(wrapper, LABEL.phone)).toBe('Informe só os dígitos do ID (de 5 a 30).');
    expect(errorOf(wrapper, LABEL.token)).toBe('token revoked by the business');
    expect(alertText(wrapper)).toBeNull();

    // Editing a field clears its server problem (and only its).
    typeInto(wrapper, LABEL.token, `${TOKEN}x`);
    expect(errorOf(wrapper, LABEL.token)).toBeNull();
    expect(errorOf(wrapper, LABEL.phone)).toBe('Informe só os dígitos do ID (de 5 a 30).');
  });
});
