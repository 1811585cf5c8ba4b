import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { TODO_STORAGE_KEY, type TodoItem } from './todo-storage';

type Wrapper = ReturnType<typeof renderApp>['wrapper'];

const openTodos = async () => {
  // Any signed-in user has the list; a plain attendant here.
  const view = renderApp({
    path: '/todolist',
    adapter: fakeApi(shellRoutes(authUser({ profile: 'user' }))).adapter,
  });
  // The first test of the file pays for transforming the shell's and the page's chunks.
  expect(await screen.findByRole('heading', { name: 'Tarefas' }, { timeout: 15_000 })).toBeTruthy();
  return view;
};

const taskInput = (wrapper: Wrapper) => {
  const input = wrapper
    .findAllInputs()
    .find((i) => i.findNativeInput().getElement().getAttribute('aria-label') === 'Nova tarefa');
  if (!input) throw new Error("no 'Nova tarefa' input");
  return input;
};

const press = (wrapper: Wrapper, name: string) => {
  const button = wrapper
    .findAllButtons()
    .find((b) => b.getElement().textContent === name || b.getElement().getAttribute('aria-label') === name);
  if (!button) throw new Error(`no button '${name}'`);
  act(() => button.click());
};

const type = (wrapper: Wrapper, text: string) => act(() => taskInput(wrapper).setInputValue(text));

const texts = (wrapper: Wrapper) => {
  const table = wrapper.findTable();
  return (table?.findRows() ?? []).map((_, i) => table?.findBodyCell(i + 1, 1)?.getElement().textContent);
};

const stored = (): TodoItem[] => JSON.parse(localStorage.getItem(TODO_STORAGE_KEY) ?? 'null') as TodoItem[];

describe('to-do list', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-10T12:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("adds tasks with 'Adicionar' and keeps them in localStorage under 'todos'; blank text is ignored", async () => {
    const { wrapper } = await openTodos();
    expect(screen.getByText('Nenhuma tarefa')).toBeTruthy();

    type(wrapper, '  Comprar pão  ');
    press(wrapper, 'Adicionar');
    type(wrapper, 'Ligar para o fornecedor');
    press(wrapper, 'Adicionar');
    type(wrapper, '   ');
    press(wrapper, 'Adicionar');
    type(wrapper, '');
    press(wrapper, 'Adicionar');

    expect(texts(wrapper)).toEqual(['Comprar pão', 'Ligar para o fornecedor']);
    expect(taskInput(wrapper).getInputValue()).toBe('');
    expect(stored()).toEqual([
      { text: 'Comprar pão', createdAt: '2026-03-10T12:00:00.000Z', updatedAt: '2026-03-10T12:00:00.000Z' },
      {
        text: 'Ligar para o fornecedor',
        createdAt: '2026-03-10T12:00:00.000Z',
        updatedAt: '2026-03-10T12:00:00.000Z',
      },
    ]);
    // Each item shows when it last changed.
    const time = wrapper.findTable()?.findBodyCell(1, 2)?.find('time')?.getElement();
    expect(time?.getAttribute('datetime')).toBe('2026-03-10T12:00:00.000Z');
    expect(time?.textContent).toBe(
      new Intl.DateTimeFormat('pt', { dateStyle: 'short', timeStyle: 'short' }).format(
        new Date('2026-03-10T12:00:00Z'),
      ),
    );
  });

  it("edits a task: the pencil loads it, 'Salvar' stores the new text and update time; blank keeps the old text", async () => {
    const { wrapper } = await openTodos();
    type(wrapper, 'Comprar pão');
    press(wrapper, 'Adicionar');

    vi.setSystemTime(new Date('2026-03-11T08:30:00Z'));
    press(wrapper, 'Editar "Comprar pão"');
    expect(taskInput(wrapper).getInputValue()).toBe('Comprar pão');
    type(wrapper, '  ');
    press(wrapper, 'Salvar');
    expect(texts(wrapper)).toEqual(['Comprar pão']);

    type(wrapper, 'Comprar pão e leite');
    press(wrapper, 'Salvar');

    expect(texts(wrapper)).toEqual(['Comprar pão e leite']);
    expect(stored()).toEqual([
      { text: 'Comprar pão e leite', createdAt: '2026-03-10T12:00:00.000Z', updatedAt: '2026-03-11T08:30:00.000Z' },
    ]);
    // Back to adding.
    const names = wrapper.findAllButtons().map((b) => b.getElement().textContent);
    expect(names).toContain('Adicionar');
    expect(names).not.toContain('Salvar');
  });

  it('deletes a task', async () => {
    const { wrapper } = await openTodos();
    for (const text of ['Um', 'Dois', 'Três']) {
      type(wrapper, text);
      press(wrapper, 'Adicionar');
    }

    press(wrapper, 'Excluir "Dois"');

    expect(texts(wrapper)).toEqual(['Um', 'Três']);
    expect(stored().map((t) => t.text)).toEqual(['Um', 'Três']);
  });

  it('keeps the list across a remount, and reads a damaged value as an empty list', async () => {
    const first = await openTodos();
    type(first.wrapper, 'Revisar campanha');
    press(first.wrapper, 'Adicionar');
    first.unmount();

    const second = await openTodos();
    expect(texts(second.wrapper)).toEqual(['Revisar campanha']);
    second.unmount();

    localStorage.setItem(TODO_STORAGE_KEY, '{not json');
    const third = await openTodos();
    expect(texts(third.wrapper)).toEqual([]);
  });
});
