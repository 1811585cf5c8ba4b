import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { MessageItem, messageActions } from './message-item';
import { messageRow } from './ticket-fixtures';

/**
 * Automatic replies in the conversation (decisions D99): the bot's greeting, menus and out-of-hours texts
 * go out from the company's number like an attendant's, so the bubble says they were automatic, and
 * nobody can edit them as their own words.
 */
const BOT = messageRow('m2', 12, '*1* - Vendas\n*2* - Suporte', { fromMe: true, automatic: 'chatBot', userId: null });
const PERSON = messageRow('m3', 12, 'Bom dia, sou a Ana', { fromMe: true, userId: 5 });

const show = async (...messages: (typeof BOT)[]) => {
  const view = renderApp({
    path: '/',
    adapter: fakeApi({}).adapter,
    routes: [
      {
        path: '/',
        element: (
          <>
            {messages.map((m) => (
              <MessageItem key={m.id} message={m} isGroup={false} onAction={vi.fn()} />
            ))}
          </>
        ),
      },
    ],
  });
  await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(messages.length), { timeout: 15_000 });
  return view;
};

const bubbleText = (id: string) =>
  screen.getAllByTestId('message').find((m) => m.dataset.messageId === id)?.textContent ?? '';

describe('message bubble', () => {
  it("labels an automatic reply 'Mensagem automática'; an attendant's message has no such label", async () => {
    await show(BOT, PERSON);
    expect(bubbleText('m2')).toContain('Mensagem automática');
    expect(bubbleText('m2')).toContain('Vendas');
    expect(bubbleText('m3')).not.toContain('Mensagem automática');
  });

  it('offers no edit on an automatic reply, even inside the edit window', () => {
    const now = new Date(BOT.createdAt).getTime() + 60_000;
    expect(messageActions(BOT, { isGroup: false, now })).toEqual(['reply', 'forward', 'delete']);
    expect(messageActions(PERSON, { isGroup: false, now })).toEqual(['reply', 'forward', 'edit', 'delete']);
  });
});
