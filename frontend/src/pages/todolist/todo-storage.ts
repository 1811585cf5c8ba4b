/**
 * The to-do list lives only in this browser (core spec §2, administration spec §2 Other): a JSON array of
 * {text, createdAt, updatedAt} (ISO 8601 times) in localStorage under `todos`.
 */
export const TODO_STORAGE_KEY = 'todos';

export interface TodoItem {
  text: string;
  createdAt: string;
  updatedAt: string;
}

const isTodo = (value: unknown): value is TodoItem => {
  const item = value as Partial<TodoItem> | null;
  return (
    typeof item === 'object' &&
    item !== null &&
    typeof item.text === 'string' &&
    typeof item.createdAt === 'string' &&
    typeof item.updatedAt === 'string'
  );
};

/** The stored items; an unreadable value (edited by hand, another app's) reads as an empty list. */
export const readTodos = (): TodoItem[] => {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(TODO_STORAGE_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter(isTodo) : [];
  } catch {
    return [];
  }
};

export const writeTodos = (items: TodoItem[]): void => {
  localStorage.setItem(TODO_STORAGE_KEY, JSON.stringify(items));
};
