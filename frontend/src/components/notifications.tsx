import Flashbar, { type FlashbarProps } from '@cloudscape-design/components/flashbar';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/hooks/use-error-text';

/** App-shell toasts: top-center, closing by themselves after 3 s (spec: administration §2 and §9). */
export const TOAST_DURATION_MS = 3000;
/** More than this at once and the oldest go first, so a burst of failures cannot cover the screen. */
export const MAX_TOASTS = 5;

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export interface Notifications {
  notify(type: ToastType, content: ReactNode): void;
  success(content: ReactNode): void;
  /** An error toast with the spec's text rule (errorText): translated code, raw code/message, or generic. */
  error(err: unknown): void;
}

interface Toast {
  id: string;
  type: ToastType;
  content: ReactNode;
}

const NotificationsContext = createContext<Notifications | null>(null);

const TOASTS_STYLE: CSSProperties = {
  position: 'fixed',
  top: 16,
  left: '50%',
  transform: 'translateX(-50%)',
  width: 'min(640px, calc(100vw - 32px))',
  zIndex: 5000,
};

let nextId = 0;

export function NotificationsProvider({
  children,
  durationMs = TOAST_DURATION_MS,
}: {
  children: ReactNode;
  durationMs?: number;
}) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: string) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const notify = useCallback(
    (type: ToastType, content: ReactNode) => {
      nextId += 1;
      const id = `toast-${nextId}`;
      setToasts((current) => [...current, { id, type, content }].slice(-MAX_TOASTS));
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), durationMs),
      );
    },
    [dismiss, durationMs],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const value = useMemo<Notifications>(
    () => ({
      notify,
      success: (content) => notify('success', content),
      error: (err) => notify('error', textOf(err)),
    }),
    [notify, textOf],
  );

  const items: FlashbarProps.MessageDefinition[] = toasts.map((toast) => ({
    id: toast.id,
    type: toast.type,
    content: toast.content,
    dismissible: true,
    dismissLabel: t('common.close'),
    ariaRole: toast.type === 'error' ? 'alert' : 'status',
    onDismiss: () => dismiss(toast.id),
  }));

  return (
    <NotificationsContext value={value}>
      {children}
      <div style={TOASTS_STYLE}>
        <Flashbar items={items} />
      </div>
    </NotificationsContext>
  );
}

export function useNotifications(): Notifications {
  const notifications = useContext(NotificationsContext);
  if (!notifications) throw new Error('useNotifications() outside <NotificationsProvider>');
  return notifications;
}
