import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/api-error';
import { NotificationsProvider, useNotifications } from './notifications';

function Buttons() {
  const notify = useNotifications();
  return (
    <>
      <button onClick={() => notify.error(new ApiError(400, 'ERR_QUEUE_COLOR_ALREADY_EXISTS', 'taken'))}>fail</button>
      <button onClick={() => notify.success('Operação realizada com sucesso!')}>ok</button>
    </>
  );
}

const flashes = () => createWrapper().findFlashbar()?.findItems() ?? [];

describe('NotificationsProvider', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows an error toast with the translated text and closes it after 3 s', () => {
    render(
      <NotificationsProvider>
        <Buttons />
      </NotificationsProvider>,
    );

    fireEvent.click(screen.getByText('fail'));
    expect(flashes().map((f) => f.findContent()?.getElement().textContent)).toEqual([
      'Esta cor já está em uso, escolha outra.',
    ]);
    expect(screen.getByRole('alert').textContent).toContain('Esta cor já está em uso, escolha outra.');

    act(() => vi.advanceTimersByTime(2999));
    expect(flashes()).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(flashes()).toHaveLength(0);
  });

  it('closes a toast when the user dismisses it, leaving the others', () => {
    render(
      <NotificationsProvider>
        <Buttons />
      </NotificationsProvider>,
    );
    fireEvent.click(screen.getByText('ok'));
    fireEvent.click(screen.getByText('fail'));
    expect(flashes()).toHaveLength(2);

    act(() => flashes()[0]?.findDismissButton()?.click());

    expect(flashes().map((f) => f.findContent()?.getElement().textContent)).toEqual([
      'Esta cor já está em uso, escolha outra.',
    ]);
  });
});
