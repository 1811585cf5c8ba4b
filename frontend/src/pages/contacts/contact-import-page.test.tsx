import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContactImportView } from '@/api/contacts';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { toastTexts } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { click } from '@/components/test-kit';

const ADMIN = authUser({ id: 5, name: 'Ana Souza', profile: 'admin' });
const ID = '0b7f4a52-8d7e-4a59-9c55-0d0f3e7f9a11';

const PREVIEW = {
  header: ['Nome', 'Celular', 'E-mail'],
  rows: [
    ['Alice', '11 98765-0001', 'a@ex.com'],
    ['Bruno', '11 98765-0002', ''],
  ],
  more: false,
};

const progress = (overrides: Partial<ContactImportView> = {}): ContactImportView => ({
  id: ID,
  fileName: 'clientes.xlsx',
  status: 'queued',
  total: null,
  processed: 0,
  created: 0,
  merged: 0,
  ignored: 0,
  invalid: 0,
  source: 'sheet',
  createdAt: '2026-01-01T09:00:00.000Z',
  ...overrides,
});

const importApi = (extra: Record<string, Route> = {}) => {
  const server = fakeApi({
    ...shellRoutes(ADMIN),
    'POST /contacts/upload': () =>
      json(201, {
        importId: ID,
        uploadUrl: 'http://localhost/_s3/up',
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        expiresIn: 900,
      }),
    [`GET /contacts/import/${ID}/preview`]: () => json(200, PREVIEW),
    [`POST /contacts/import/${ID}/start`]: () => json(202, progress()),
    [`GET /contacts/import/${ID}`]: () => json(200, progress({ status: 'running', total: 2 })),
    ...extra,
  });
  return {
    ...server,
    calls: (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path),
  };
};

const chooseFile = (wrapper: ReturnType<typeof renderApp>['wrapper'], file: File) => {
  const input = wrapper.findFileInput()?.findNativeInput().getElement();
  if (!input) throw new Error('no file input');
  act(() => {
    fireEvent.change(input, { target: { files: [file] } });
  });
};

const errorText = (wrapper: ReturnType<typeof renderApp>['wrapper']) =>
  wrapper.find('[data-testid="import-error"]')?.getElement().textContent ?? '';

const COLUMN_INDEX: Record<string, number> = { Nome: 0, Celular: 1, 'E-mail': 2 };

/** Chooses the field of a preview column with the select in its header. */
const mapColumn = (wrapper: ReturnType<typeof renderApp>['wrapper'], column: string, field: string) => {
  const table = wrapper.findTable()?.getElement();
  const select = wrapper.findAllSelects().filter((s) => table?.contains(s.getElement()))[COLUMN_INDEX[column]!];
  if (!select) throw new Error(`no select for ${column}`);
  act(() => select.openDropdown());
  act(() => select.selectOptionByValue(field));
};

const openPage = async (api = importApi()) => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(null, { status: 200 })),
  );
  const view = renderApp({ path: '/contacts/import', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Importar contatos/ }, { timeout: 45_000 })).toBeTruthy();
  return { ...view, api };
};

describe('contact import page', { timeout: 90_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("refuses a file of another kind: 'Arquivo inválido!'", async () => {
    const { wrapper, api } = await openPage();
    chooseFile(wrapper, new File(['%PDF'], 'contrato.pdf'));
    await waitFor(() => expect(errorText(wrapper)).toBe('Arquivo inválido!'));
    expect(api.calls('POST', '/contacts/upload')).toHaveLength(0);
  });

  it("says 'Arquivo inválido!' when the server cannot read the sheet", async () => {
    const api = importApi({
      [`GET /contacts/import/${ID}/preview`]: () =>
        json(400, { error: 'ERR_INVALID_FILE', message: 'Arquivo inválido!' }),
    });
    const { wrapper } = await openPage(api);
    chooseFile(wrapper, new File(['x'], 'clientes.xlsx'));
    await waitFor(() => expect(errorText(wrapper)).toBe('Arquivo inválido!'));
  });

  it("maps the columns with the spec's checks, then imports with a progress bar and a summary", async () => {
    const { wrapper, api, socket, server } = await openPage();
    chooseFile(wrapper, new File(['x'], 'clientes.xlsx'));
    await waitFor(() => expect(wrapper.findTable()?.findRows()).toHaveLength(2));

    click(wrapper, 'Importar');
    expect(errorText(wrapper)).toBe('Não foi selecionado o campo de número do contato');
    mapColumn(wrapper, 'Celular', 'number');
    click(wrapper, 'Importar');
    expect(errorText(wrapper)).toBe('Não foi selecionado o campo de nome do contato');
    mapColumn(wrapper, 'Nome', 'name');
    mapColumn(wrapper, 'E-mail', 'name');
    expect(errorText(wrapper)).toBe('O campo Nome já foi selecionado.');
    mapColumn(wrapper, 'E-mail', 'email');

    const table = wrapper.findTable()!;
    act(() => table.findSelectAllTrigger()!.click());
    click(wrapper, 'Importar');
    expect(errorText(wrapper)).toBe('Nenhum contato selecionado');
    act(() => table.findRowSelectionArea(2)!.click());

    act(() => socket.start());
    act(() => server.latest().accept());
    click(wrapper, 'Importar');
    await waitFor(() => expect(api.calls('POST', `/contacts/import/${ID}/start`)).toHaveLength(1));
    expect(api.calls('POST', `/contacts/import/${ID}/start`)[0]?.body).toEqual({
      columns: ['name', 'number', 'email'],
      excludedRows: [0],
    });
    await waitFor(() => expect(wrapper.findProgressBar()).not.toBeNull());

    act(() =>
      server.latest().push({
        channel: 'company-2-contactImport',
        action: 'update',
        import: progress({ status: 'done', total: 2, processed: 2, created: 1, merged: 0, ignored: 1 }),
      }),
    );
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Importação realizada com sucesso'));
    expect(wrapper.find('[data-testid="import-created"]')?.getElement().textContent).toBe('1');
    expect(wrapper.find('[data-testid="import-ignored"]')?.getElement().textContent).toBe('1');
  });

  const CONNECTIONS = [
    { id: 7, name: 'Celular da loja', channel: 'whatsapp', status: 'CONNECTED', isDefault: true },
    { id: 8, name: 'Página', channel: 'facebook', status: 'CONNECTED', isDefault: false },
  ];

  it('imports from the phone through the chosen WhatsApp connection and follows the import to its summary', async () => {
    const api = importApi({
      'GET /whatsapp': () => json(200, CONNECTIONS),
      'POST /contacts/import': () =>
        json(202, progress({ source: 'contacts', status: 'uploaded', fileName: 'whatsapp-contacts.csv' })),
    });
    const { wrapper, socket, server } = await openPage(api);
    act(() => socket.start());
    act(() => server.latest().accept());
    await waitFor(() => expect(screen.getByText('Celular da loja')).toBeTruthy());
    click(wrapper, 'Contatos do telefone');
    await waitFor(() => expect(api.calls('POST', '/contacts/import')).toHaveLength(1));
    expect(api.calls('POST', '/contacts/import')[0]?.body).toEqual({ whatsappId: 7 });
    await waitFor(() => expect(screen.getByText('Lendo os contatos do telefone...')).toBeTruthy());

    act(() =>
      server.latest().push({
        channel: 'company-2-contactImport',
        action: 'update',
        import: progress({ source: 'contacts', status: 'done', total: 3, processed: 3, created: 2, merged: 1 }),
      }),
    );
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Importação realizada com sucesso'));
    expect(wrapper.find('[data-testid="import-created"]')?.getElement().textContent).toBe('2');
    expect(wrapper.find('[data-testid="import-merged"]')?.getElement().textContent).toBe('1');
  });

  it('says so when the connection is not connected', async () => {
    const api = importApi({
      'GET /whatsapp': () => json(200, CONNECTIONS),
      'POST /contacts/import/chats': () =>
        json(400, { error: 'ERR_WAPP_NOT_INITIALIZED', message: 'The WhatsApp connection is not connected' }),
    });
    const { wrapper } = await openPage(api);
    await waitFor(() => expect(screen.getByText('Celular da loja')).toBeTruthy());
    click(wrapper, 'Contatos das conversas');
    await waitFor(() =>
      expect(errorText(wrapper)).toBe('A conexão do WhatsApp não está conectada. Conecte-a e tente de novo.'),
    );
    expect(wrapper.findProgressBar()).toBeNull();
  });

  it('a validating import sends validateContact with the connection and shows the numbers without WhatsApp', async () => {
    const api = importApi({ 'GET /whatsapp': () => json(200, CONNECTIONS) });
    const { wrapper, socket, server } = await openPage(api);
    await waitFor(() => expect(screen.getByText('Celular da loja')).toBeTruthy());
    chooseFile(wrapper, new File(['x'], 'clientes.xlsx'));
    await waitFor(() => expect(wrapper.findTable()?.findRows()).toHaveLength(2));
    mapColumn(wrapper, 'Nome', 'name');
    mapColumn(wrapper, 'Celular', 'number');
    const validate = wrapper.findCheckbox('[data-testid="validate-contacts"]')!;
    act(() => validate.findNativeInput().click());
    act(() => socket.start());
    act(() => server.latest().accept());
    click(wrapper, 'Importar');
    await waitFor(() =>
      expect([errorText(wrapper), api.calls('POST', `/contacts/import/${ID}/start`).length]).toEqual(['', 1]),
    );
    expect(api.calls('POST', `/contacts/import/${ID}/start`)[0]?.body).toEqual({
      columns: ['name', 'number', null],
      excludedRows: [],
      validateContact: true,
      whatsappId: 7,
    });
    act(() =>
      server.latest().push({
        channel: 'company-2-contactImport',
        action: 'update',
        import: progress({ status: 'done', total: 2, processed: 2, created: 1, invalid: 1 }),
      }),
    );
    await waitFor(() => expect(wrapper.find('[data-testid="import-invalid"]')?.getElement().textContent).toBe('1'));
  });
});
