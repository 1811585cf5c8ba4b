import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { openModal } from '@/pages/users/test-kit';
import { json, type Route } from '@/testing/fake-api';
import { toastTexts } from '@/testing/form-fields';
import { conversationApi, openTicket, openTickets } from './ticket-test-kit';

beforeAll(async () => {
  await Promise.all([
    import('@/components/shell/app-shell'),
    import('./tickets-page'),
    import('./ticket-view'),
    import('./contact-drawer'),
  ]);
}, 30_000);

const NOTE = {
  id: '112-01J0000000000000000000000A',
  note: 'Prefere contato à tarde',
  user: { id: 5, name: 'Ana Souza' },
  createdAt: '2026-01-01T10:00:00.000Z',
  ticketId: 12,
  contactId: 112,
};

/** Ticket 12 open with its contact drawer shown. */
const openDrawer = async (extra: Record<string, Route> = {}) => {
  const api = conversationApi(openTicket, { 'GET /ticket-notes/list': () => json(200, [NOTE]), ...extra });
  const view = await openTickets(api, '/tickets/uuid-12');
  const name = await screen.findByRole('button', { name: 'Dados de Carla' }, { timeout: 10_000 });
  act(() => fireEvent.click(name));
  const drawer = await screen.findByTestId('contact-drawer');
  await waitFor(() => expect(drawer.textContent).toContain('Dados do contato'), { timeout: 3000 });
  return { api, ...view, drawer: createWrapper(drawer) };
};

const field = (drawer: ReturnType<typeof createWrapper>, label: string) =>
  drawer.findAllFormFields().find((f) => f.findLabel()?.getElement().textContent === label)!;

describe('contact drawer', () => {
  it('shows the contact and edits name, e-mail and extra information', async () => {
    const { api, drawer, wrapper } = await openDrawer({
      'PUT /contacts/112': (request) => json(200, { ...openTicket.contact, ...(request.body as object) }),
    });
    expect(screen.getByTestId('drawer-number').textContent).toBe('+55 (11) 98765-4321');
    act(() => drawer.findButton('[aria-label="Editar nome"]')!.click());
    act(() => field(drawer, 'Nome').findControl()!.findInput()!.setInputValue('Carla Souza'));
    act(() => field(drawer, 'E-mail').findControl()!.findInput()!.setInputValue('carla@example.com'));
    const addExtra = drawer.findAllButtons().find((b) => b.getElement().textContent === 'Adicionar informação')!;
    act(() => addExtra.click());
    const input = (label: string) =>
      drawer.findAllInputs().find((i) => i.findNativeInput().getElement().getAttribute('aria-label') === label)!;
    act(() => input('Nome do campo').setInputValue('CPF'));
    act(() => input('Valor').setInputValue('123'));
    act(() =>
      drawer
        .findAllButtons()
        .find((b) => b.getElement().textContent === 'Salvar')!
        .click(),
    );
    await waitFor(() => expect(api.calls('PUT', '/contacts/112')).toHaveLength(1));
    expect(api.calls('PUT', '/contacts/112')[0]?.body).toEqual({
      name: 'Carla Souza',
      email: 'carla@example.com',
      extraInfo: [{ name: 'CPF', value: '123' }],
    });
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Contato salvo com sucesso.'));
    // The header follows the saved name.
    await waitFor(() => expect(screen.getByTestId('ticket-contact-name').textContent).toBe('Carla Souza'));
  });

  it('blocks the contact and toggles audio', async () => {
    const { api, drawer, wrapper } = await openDrawer({
      'PUT /contacts/block/112': () => json(200, { ...openTicket.contact, active: false }),
      'PUT /contacts/toggleAcceptAudio/112': () => json(200, { ...openTicket.contact, acceptAudioMessage: false }),
    });
    act(() =>
      drawer
        .findAllButtons()
        .find((b) => b.getElement().textContent === 'Bloquear contato')!
        .click(),
    );
    await waitFor(() => expect(api.calls('PUT', '/contacts/block/112')[0]?.body).toEqual({ active: false }));
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Contato bloqueado'));
    await waitFor(() =>
      expect(drawer.findAllButtons().some((b) => b.getElement().textContent === 'Desbloquear contato')).toBe(true),
    );
    const audio = drawer.findToggle()!;
    expect(audio.findNativeInput().getElement().checked).toBe(true);
    act(() => audio.findNativeInput().click());
    await waitFor(() => expect(api.calls('PUT', '/contacts/toggleAcceptAudio/112')).toHaveLength(1));
    await waitFor(() => expect(drawer.findToggle()!.findNativeInput().getElement().checked).toBe(false));
  });

  it("sets the contact's tags with one sync", async () => {
    const { api, drawer } = await openDrawer({ 'POST /tags/sync': () => json(200, { tags: [] }) });
    const tags = field(drawer, 'Tags').findControl()!.findMultiselect()!;
    act(() => tags.openDropdown());
    act(() => tags.selectOption(1));
    await waitFor(() => expect(api.calls('POST', '/tags/sync')).toHaveLength(1));
    expect(api.calls('POST', '/tags/sync')[0]?.body).toEqual({ contactId: 112, tags: [{ id: 1 }] });
    await waitFor(() => expect(tags.findTokens().map((t) => t.getElement().textContent)).toEqual(['VIP']));
  });

  it("moves the ticket's kanban lane with the board's one PUT (the server swaps the lane, D101)", async () => {
    const lanes = [
      { id: 8, name: 'Proposta', color: '#333', kanban: 1 },
      { id: 9, name: 'Fechado', color: '#444', kanban: 1 },
    ];
    const { api, drawer, wrapper } = await openDrawer({
      'GET /tags/list': (request) => json(200, String(request.query?.kanban) === '1' ? lanes : []),
      'PUT /ticket-tags/12/9': () => json(200, { ticketId: 12, tags: [lanes[1]] }),
    });
    await waitFor(() => expect(field(drawer, 'Etapa do Kanban')).toBeTruthy(), { timeout: 3000 });
    const lane = field(drawer, 'Etapa do Kanban').findControl()!.findSelect()!;
    act(() => lane.openDropdown());
    act(() => lane.selectOption(3));
    await waitFor(() => expect(api.calls('PUT', '/ticket-tags/12/9')).toHaveLength(1));
    const order = api.requests.filter((r) => r.path.startsWith('/ticket-tags/')).map((r) => `${r.method} ${r.path}`);
    expect(order).toEqual(['PUT /ticket-tags/12/9']);
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Ticket Tag Adicionado com Sucesso!'));
    expect(api.calls('GET', '/tags/list').map((c) => String(c.query?.kanban))).toEqual(
      expect.arrayContaining(['0', '1']),
    );
  });

  it('notes: at least 2 characters, added to the list, deleted after confirming', async () => {
    let notes = [NOTE];
    const { api, drawer, wrapper } = await openDrawer({
      'GET /ticket-notes/list': () => json(200, notes),
      'POST /ticket-notes': (request) => {
        const added = { ...NOTE, id: '112-01J0000000000000000000000B', note: (request.body as { note: string }).note };
        notes = [added, ...notes];
        return json(201, added);
      },
      'DELETE /ticket-notes/112-01J0000000000000000000000A': () => {
        notes = notes.filter((n) => n.id !== NOTE.id);
        return json(200, { message: 'ok' });
      },
    });
    await waitFor(() => expect(drawer.getElement().textContent).toContain('Prefere contato à tarde'));
    const textarea = field(drawer, 'Nova observação').findControl()!.findTextarea()!;
    const add = () =>
      act(() =>
        drawer
          .findAllButtons()
          .find((b) => b.getElement().textContent === 'Adicionar observação')!
          .click(),
      );
    act(() => textarea.setTextareaValue(' x '));
    add();
    expect(field(drawer, 'Nova observação').findError()!.getElement().textContent).toBe(
      'A observação precisa de ao menos 2 caracteres.',
    );
    expect(api.calls('POST', '/ticket-notes')).toHaveLength(0);

    act(() => textarea.setTextareaValue('  Pediu desconto  '));
    add();
    await waitFor(() => expect(api.calls('POST', '/ticket-notes')).toHaveLength(1));
    expect(api.calls('POST', '/ticket-notes')[0]?.body).toEqual({
      note: 'Pediu desconto',
      ticketId: 12,
      contactId: 112,
    });
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Observação adicionada com sucesso!'));
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Observações' }).textContent).toContain('Pediu desconto'),
    );
    expect(textarea.getTextareaValue()).toBe('');

    const removes = drawer.findAllButtons('[aria-label="Excluir observação"]');
    expect(removes).toHaveLength(2);
    act(() => removes[1]!.click());
    act(() => openModal(wrapper).findFooter()!.findAllButtons().at(-1)!.click());
    await waitFor(() => expect(api.calls('DELETE', '/ticket-notes/112-01J0000000000000000000000A')).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Observações' }).textContent).not.toContain('Prefere contato'),
    );
  });
});
