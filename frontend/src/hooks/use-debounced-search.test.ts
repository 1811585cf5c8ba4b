import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MIN_SEARCH_LENGTH, SEARCH_DEBOUNCE_MS, useDebouncedSearch } from './use-debounced-search';

describe('useDebouncedSearch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const typed = () => {
    const hook = renderHook(({ text }) => useDebouncedSearch(text), { initialProps: { text: '' } });
    const type = (text: string) => hook.rerender({ text });
    const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
    return { hook, type, wait };
  };

  it('is the spec: from 3 characters, 500 ms after the last keystroke', () => {
    expect([MIN_SEARCH_LENGTH, SEARCH_DEBOUNCE_MS]).toEqual([3, 500]);
  });

  it('searches a term of 3 characters only once 500 ms have passed since the last keystroke', () => {
    const { hook, type, wait } = typed();
    type('ana');
    wait(499);
    expect(hook.result.current).toBe('');
    type('ana '); // another keystroke starts the wait again
    wait(499);
    expect(hook.result.current).toBe('');
    wait(1);
    expect(hook.result.current).toBe('ana');
  });

  it('means no filter under 3 characters, also when a search was on', () => {
    const { hook, type, wait } = typed();
    type('an');
    wait(1000);
    expect(hook.result.current).toBe('');
    type('anab');
    wait(500);
    expect(hook.result.current).toBe('anab');
    type('a');
    wait(499);
    expect(hook.result.current).toBe('anab');
    wait(1);
    expect(hook.result.current).toBe('');
  });

  it('trims the term and counts characters, not UTF-16 units', () => {
    const { hook, type, wait } = typed();
    type('  jo  ');
    wait(500);
    expect(hook.result.current).toBe('');
    type(' çã😀 ');
    wait(500);
    expect(hook.result.current).toBe('çã😀');
  });
});
