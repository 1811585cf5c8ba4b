import { useEffect, useSyncExternalStore } from 'react';

/**
 * What the shell-level notifier (ticket-notifications.tsx, mounted once by the app shell) learns from the
 * ticket screen: which ticket is open there (no notification for it while the tab is visible, and opening
 * it clears it from the count) and the company's showNotificationPending setting, which only the ticket
 * screen reads (the shell makes no extra HTTP call at start; until then it is off, the product default).
 */
export interface NotifierState {
  visibleTicketUuid: string | null;
  showNotificationPending: boolean;
}

const INITIAL: NotifierState = { visibleTicketUuid: null, showNotificationPending: false };

let state: NotifierState = INITIAL;
const listeners = new Set<() => void>();

const update = (patch: Partial<NotifierState>): void => {
  const next = { ...state, ...patch };
  if (
    next.visibleTicketUuid === state.visibleTicketUuid &&
    next.showNotificationPending === state.showNotificationPending
  )
    return;
  state = next;
  for (const l of [...listeners]) l();
};

const subscribe = (onChange: () => void) => {
  listeners.add(onChange);
  return () => {
    listeners.delete(onChange);
  };
};

export const getNotifierState = (): NotifierState => state;

/** Back to the start (sign-out: the next user may be of another company). */
export const resetNotifierState = (): void => update(INITIAL);

export const useNotifierState = (): NotifierState => useSyncExternalStore(subscribe, getNotifierState);

/** The ticket screen publishes the ticket it shows while mounted (null: none open). */
export function usePublishVisibleTicket(uuid: string | null): void {
  useEffect(() => {
    update({ visibleTicketUuid: uuid });
    return () => update({ visibleTicketUuid: null });
  }, [uuid]);
}

/** The ticket screen publishes the company's showNotificationPending once it has read the settings. */
export function usePublishShowNotificationPending(value: boolean): void {
  useEffect(() => update({ showNotificationPending: value }), [value]);
}
