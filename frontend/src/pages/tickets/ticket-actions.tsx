import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  otherOpenTicketOf,
  transitions,
  updateTicket,
  type ContactSummary,
  type OtherOpenTicket,
  type Ticket,
  type TicketUpdate,
} from '@/api/tickets';
import { useNotifications } from '@/components/notifications';
import { useTicketScreen } from './ticket-screen-context';

/** The dialogs of the ticket screen (core spec §2), one open at a time. */
export type TicketDialog =
  | { kind: 'acceptQueue'; ticket: Ticket }
  | { kind: 'otherTicket'; other: OtherOpenTicket }
  | { kind: 'transfer'; ticket: Ticket }
  | { kind: 'newTicket'; contact?: ContactSummary }
  | { kind: 'log'; ticket: Ticket }
  | { kind: 'sendContact'; ticket: Ticket }
  | { kind: 'forward'; messageIds: string[] };

/** How an answer of the server reaches the lists: `follow` when the user is taken to the ticket (accept, new). */
export interface Published {
  follow: boolean;
}

export interface TicketActions {
  /**
   * Runs a transition; true on success. The answer goes to every list at once; `open` also opens the ticket
   * and the lists follow it to its tab (accept, reopen).
   */
  change(ticket: Ticket, update: TicketUpdate, options?: { leave?: boolean; open?: boolean }): Promise<boolean>;
  accept(ticket: Ticket, queueId?: number | null): Promise<boolean>;
  /** Shows the ERR_OTHER_OPEN_TICKET outcome (opens the user's own ticket, or names the other user); true when it was one. */
  handleConflict(err: unknown): boolean;
  openDialog(dialog: TicketDialog): void;
  /** Lists subscribe to answers of the server. */
  onTicket(listener: (ticket: Ticket, published: Published) => void): () => void;
  publish(ticket: Ticket, published?: Published): void;
}

const TicketActionsContext = createContext<TicketActions | null>(null);

const TicketDialogs = lazy(async () => ({ default: (await import('./ticket-dialogs')).TicketDialogs }));

/**
 * The transitions of core spec §4 as the list and the open ticket run them: accept (a ticket without a
 * queue asks for one first), return, resolve, ignore, reopen, transfer; the other-user notice on
 * ERR_OTHER_OPEN_TICKET; back to /tickets after close, transfer, ignore or delete.
 */
export function TicketActionsProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notifications = useNotifications();
  const { user } = useTicketScreen();
  const [dialog, setDialog] = useState<TicketDialog | null>(null);
  const listeners = useRef(new Set<(ticket: Ticket, published: Published) => void>());

  const publish = useCallback((ticket: Ticket, published: Published = { follow: false }) => {
    for (const l of [...listeners.current]) l(ticket, published);
  }, []);

  const handleConflict = useCallback(
    (err: unknown): boolean => {
      const other = otherOpenTicketOf(err);
      if (!other) return false;
      if (other.userId === user.id) void navigate(`/tickets/${other.uuid}`);
      else setDialog({ kind: 'otherTicket', other });
      return true;
    },
    [navigate, user.id],
  );

  const change = useCallback(
    async (ticket: Ticket, update: TicketUpdate, options: { leave?: boolean; open?: boolean } = {}) => {
      try {
        const answer = await updateTicket(ticket.id, update);
        publish({ ...ticket, ...answer }, { follow: options.open === true });
        if (options.leave) void navigate('/tickets');
        else if (options.open) void navigate(`/tickets/${answer.uuid ?? ticket.uuid}`);
        return true;
      } catch (err) {
        if (!handleConflict(err)) notifications.error(err);
        return false;
      }
    },
    [handleConflict, navigate, notifications, publish],
  );

  const accept = useCallback(
    async (ticket: Ticket, queueId?: number | null) => {
      if (ticket.queueId === null && !queueId && !ticket.isGroup) {
        setDialog({ kind: 'acceptQueue', ticket });
        return false;
      }
      return change(ticket, transitions.accept(user.id, queueId ?? undefined), { open: true });
    },
    [change, user.id],
  );

  const value = useMemo<TicketActions>(
    () => ({
      change,
      accept,
      handleConflict,
      openDialog: setDialog,
      onTicket: (listener) => {
        listeners.current.add(listener);
        return () => {
          listeners.current.delete(listener);
        };
      },
      publish,
    }),
    [change, accept, handleConflict, publish],
  );

  return (
    <TicketActionsContext value={value}>
      {children}
      {dialog && (
        <Suspense fallback={null}>
          <TicketDialogs dialog={dialog} onClose={() => setDialog(null)} loadingText={t('common.loading')} />
        </Suspense>
      )}
    </TicketActionsContext>
  );
}

export const useTicketActions = (): TicketActions => {
  const value = useContext(TicketActionsContext);
  if (!value) throw new Error('useTicketActions() outside <TicketActionsProvider>');
  return value;
};
