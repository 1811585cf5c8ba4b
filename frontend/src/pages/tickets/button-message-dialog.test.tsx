import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { noOpenModal, openModal } from '@/pages/users/test-kit';
import { json, type Route } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { LIST_TITLES_KEY } from './button-message-dialog';
import { messageRow } from './ticket-fixtures';
import { conversationApi, openTicket, openTickets, pendingTicket } from './ticket-test-kit';

type Wrapper = ReturnType<typeof createWrapper>;

beforeAll(async () => {
  await Promise.all([
    import('@/components/shell/app-shell'),
    import('./tickets-page'),
    import('./ticket-view'),
    import('./button-message-dialog'),
  ]);
}, 30_000);

afterEach(() => localStorage.removeItem(LIST_TITLES_KEY));

const sent = (kind: string, body: string): Record<string, Route> => ({
  [`POST /messages/${kind}/12`]: () =>
    json(201, messageRow(`b-${kind}`, 12, body, { fromMe: true, mediaType: 'interactive' })),
});

/** Opens the ticket, then the "Botões" menu's `item`, and waits for its dialog. */
const openButtons = async (extra: Record<string, Route>, item: string, header: string) => {
  const api = conversationApi(openTicket, extra);
  const { wrapper } = await openTickets(api, '/tickets/uuid-12');
  await screen.findByTestId('composer', {}, { timeout: 3000 });
  const menu = wrapper
    .findAllButtonDropdowns()
    .find((d) => d.findNativeButton().getElement().textContent === 'Botões')!;
  act(() => menu.openDropdown());
  act(() => menu.findItemById(item)!.click());
  await waitFor(() => expect(openModal(wrapper).findHeader().getElement().textContent).toBe(header));
  return { api, wrapper, modal: createWrapper(openModal(wrapper).getElement()) };
};

const send = (wrapper: Wrapper) => act(() => openModal(wrapper).findFooter()!.findAllButtons().at(-1)!.click());

const typeArea = (modal: Wrapper, label: string, value: string) =>
  act(() => fieldByLabel(modal, label).findControl()!.findTextarea()!.setTextareaValue(value));

const choose = (modal: Wrapper, label: string, value: string) => {
  const select = fieldByLabel(modal, label).findControl()!.findSelect()!;
  act(() => select.openDropdown());
  act(() => select.selectOptionByValue(value));
};

describe('composer interactive buttons (core spec §2, §5, §8)', () => {
  it('copy sends {title, body, copyCode} and shows the message in the chat', async () => {
    const { api, wrapper, modal } = await openButtons(sent('copy', 'Use no checkout PROMO10'), 'copy', 'Copiar');
    typeInto(modal, 'Título', 'Cupom');
    typeInto(modal, 'Texto', 'Use no checkout');
    typeInto(modal, 'Conteúdo a copiar', ' PROMO10 ');
    send(wrapper);
    await waitFor(() => expect(api.calls('POST', '/messages/copy/12')).toHaveLength(1));
    expect(api.calls('POST', '/messages/copy/12')[0]!.body).toEqual({
      title: 'Cupom',
      body: 'Use no checkout',
      copyCode: 'PROMO10',
    });
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(await screen.findByText('Use no checkout PROMO10')).toBeTruthy();
  });

  it('copy without content shows the message and sends nothing', async () => {
    const { api, wrapper, modal } = await openButtons(sent('copy', ''), 'copy', 'Copiar');
    send(wrapper);
    await waitFor(() => expect(errorOf(modal, 'Conteúdo a copiar')).toBe('Informe o conteúdo a ser copiado.'));
    expect(api.calls('POST', '/messages/copy/12')).toHaveLength(0);
  });

  it('URL without a link shows the message and sends nothing; a non-http link is refused too', async () => {
    const { api, wrapper, modal } = await openButtons(sent('URL', ''), 'URL', 'URL');
    send(wrapper);
    await waitFor(() => expect(errorOf(modal, 'Link')).toBe('Informe o link.'));
    typeInto(modal, 'Link', 'ftp://x.com');
    send(wrapper);
    await waitFor(() => expect(errorOf(modal, 'Link')).toBe('O link deve começar com http:// ou https://.'));
    expect(api.calls('POST', '/messages/URL/12')).toHaveLength(0);
  });

  it('URL sends {url} with the optional fields left out', async () => {
    const { api, wrapper, modal } = await openButtons(sent('URL', 'site'), 'URL', 'URL');
    typeInto(modal, 'Link', 'https://loja.example.com/p/1');
    send(wrapper);
    await waitFor(() => expect(api.calls('POST', '/messages/URL/12')).toHaveLength(1));
    expect(api.calls('POST', '/messages/URL/12')[0]!.body).toEqual({ url: 'https://loja.example.com/p/1' });
  });

  it('call tells that calls are not made from the system and sends the number as digits', async () => {
    const { api, wrapper, modal } = await openButtons(sent('call', 'ligue'), 'call', 'Ligar');
    expect(modal.findAlert()!.getElement().textContent).toContain('Ligações não podem ser feitas pelo sistema');
    typeInto(modal, 'Número para ligar', '123');
    send(wrapper);
    await waitFor(() => expect(errorOf(modal, 'Número para ligar')).toBe('Informe o número com DDI e DDD.'));
    typeInto(modal, 'Número para ligar', '+55 (11) 99999-0000');
    typeInto(modal, 'Texto', 'Fale conosco');
    send(wrapper);
    await waitFor(() => expect(api.calls('POST', '/messages/call/12')).toHaveLength(1));
    expect(api.calls('POST', '/messages/call/12')[0]!.body).toEqual({
      body: 'Fale conosco',
      phoneNumber: '5511999990000',
    });
  });

  it('list needs a saved title, then sends {title, body, sections} with one row per option line', async () => {
    const { api, wrapper, modal } = await openButtons(sent('lista', 'Menu'), 'lista', 'Lista');
    typeArea(modal, 'Texto', 'Escolha um setor');
    typeArea(modal, 'Opções', 'Vendas\n\nSuporte\n');
    send(wrapper);
    await waitFor(() => expect(errorOf(modal, 'Título salvo')).toBe('Escolha um título salvo.'));
    expect(api.calls('POST', '/messages/lista/12')).toHaveLength(0);

    typeInto(modal, 'Novo título', 'Menu principal');
    act(() =>
      modal
        .findAllButtons()
        .find((b) => b.getElement().textContent === 'Salvar título')!
        .click(),
    );
    expect(JSON.parse(localStorage.getItem(LIST_TITLES_KEY)!)).toEqual(['Menu principal']);
    send(wrapper);
    await waitFor(() => expect(api.calls('POST', '/messages/lista/12')).toHaveLength(1));
    expect(api.calls('POST', '/messages/lista/12')[0]!.body).toEqual({
      title: 'Menu principal',
      body: 'Escolha um setor',
      sections: [
        {
          rows: [
            { id: '1', title: 'Vendas' },
            { id: '2', title: 'Suporte' },
          ],
        },
      ],
    });
  });

  it('list offers the titles saved before', async () => {
    localStorage.setItem(LIST_TITLES_KEY, JSON.stringify(['Horários', 'Setores']));
    const { api, wrapper, modal } = await openButtons(sent('lista', 'Menu'), 'lista', 'Lista');
    choose(modal, 'Título salvo', 'Setores');
    typeArea(modal, 'Texto', 'Para onde?');
    typeArea(modal, 'Opções', 'Financeiro');
    typeInto(modal, 'Texto do botão', 'Ver setores');
    send(wrapper);
    await waitFor(() => expect(api.calls('POST', '/messages/lista/12')).toHaveLength(1));
    expect(api.calls('POST', '/messages/lista/12')[0]!.body).toMatchObject({
      title: 'Setores',
      buttonText: 'Ver setores',
      sections: [{ rows: [{ id: '1', title: 'Financeiro' }] }],
    });
  });

  it('PIX with a PHONE key gets +55 and sends the value in reais as a number', async () => {
    const { api, wrapper, modal } = await openButtons(sent('PIX', '000201'), 'PIX', 'PIX');
    typeInto(modal, 'Título', 'Pedido 42');
    typeInto(modal, 'Valor (R$)', '1.234,50');
    choose(modal, 'Tipo de chave', 'PHONE');
    typeInto(modal, 'Chave PIX', '(11) 98765-4321');
    typeInto(modal, 'Nome do recebedor', 'Loja da Ana');
    send(wrapper);
    await waitFor(() => expect(api.calls('POST', '/messages/PIX/12')).toHaveLength(1));
    expect(api.calls('POST', '/messages/PIX/12')[0]!.body).toEqual({
      title: 'Pedido 42',
      sendvalue: 1234.5,
      sendkey_type: 'PHONE',
      sendmerchant_name: 'Loja da Ana',
      sendKey: '+5511987654321',
    });
  });

  it('PIX checks the amount, the key for its type and the receiver before sending', async () => {
    const { api, wrapper, modal } = await openButtons(sent('PIX', '000201'), 'PIX', 'PIX');
    typeInto(modal, 'Valor (R$)', '0');
    typeInto(modal, 'Chave PIX', '123.456.789-0');
    send(wrapper);
    await waitFor(() => expect(errorOf(modal, 'Valor (R$)')).toBe('Informe um valor acima de R$ 0,00.'));
    expect(errorOf(modal, 'Chave PIX')).toBe('O CPF tem 11 dígitos.');
    expect(errorOf(modal, 'Nome do recebedor')).toBe('Informe o nome do recebedor.');
    expect(api.calls('POST', '/messages/PIX/12')).toHaveLength(0);
  });

  it('a server refusal shows "Erro ao processar a mensagem" and keeps the dialog open', async () => {
    const { api, wrapper, modal } = await openButtons(
      {
        'POST /messages/URL/12': () =>
          json(400, { error: 'ERR_VALIDATION', message: 'invalid', fields: { url: 'must be an http(s) link' } }),
      },
      'URL',
      'URL',
    );
    typeInto(modal, 'Link', 'https://exemplo.com');
    send(wrapper);
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Erro ao processar a mensagem'));
    expect(api.calls('POST', '/messages/URL/12')).toHaveLength(1);
    expect(noOpenModal(wrapper)).toBe(false);
  });

  it('the menu is not offered while the ticket is pending (composer disabled)', async () => {
    const api = conversationApi(pendingTicket);
    const { wrapper } = await openTickets(api, '/tickets/uuid-12');
    await screen.findByText('Aceite ou reabra o ticket para enviar mensagens.', {}, { timeout: 3000 });
    expect(
      wrapper.findAllButtonDropdowns().some((d) => d.findNativeButton().getElement().textContent === 'Botões'),
    ).toBe(false);
  });
});
