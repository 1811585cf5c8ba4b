import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Tabs from '@cloudscape-design/components/tabs';
import { lazy, Suspense, useEffect, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { PageLoading } from '@/components/page-loading';
import { useIsNarrowScreen } from '@/components/shell/preferences';
import {
  usePublishShowNotificationPending,
  usePublishVisibleTicket,
} from '@/components/ticket-notifications/notifier-store';
import { TicketActionsProvider } from './ticket-actions';
import { TicketListPanel } from './ticket-list-panel';
import { TicketScreenProvider, settingOn, useTicketScreen } from './ticket-screen-context';

/** The conversation is its own chunk: the list shows while it loads. */
const TicketView = lazy(async () => ({ default: (await import('./ticket-view')).TicketView }));

const VISUALLY_HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

/** Core spec §9: default ticket manager width. */
const LIST_WIDTH = 400;

function NoTicket() {
  const { t } = useTranslation();
  return (
    <Box textAlign="center" padding="xxl" color="text-body-secondary">
      <Box variant="h2">{t('tickets.welcome.title')}</Box>
      <Box variant="p">{t('tickets.welcome.text')}</Box>
    </Box>
  );
}

function Conversation({ uuid }: { uuid: string | undefined }) {
  if (!uuid) return <NoTicket />;
  return (
    <Suspense fallback={<PageLoading />}>
      <TicketView key={uuid} uuid={uuid} />
    </Suspense>
  );
}

function TicketsLayout() {
  const { t } = useTranslation();
  const { ticketUuid } = useParams();
  const narrow = useIsNarrowScreen();
  const [narrowTab, setNarrowTab] = useState<'ticket' | 'list'>(ticketUuid ? 'ticket' : 'list');
  useEffect(() => setNarrowTab(ticketUuid ? 'ticket' : 'list'), [ticketUuid]);

  if (narrow) {
    // Core spec §2: narrow screens show two tabs, 'Ticket' and 'Atendimentos'.
    return (
      <Tabs
        activeTabId={narrowTab}
        onChange={({ detail }) => setNarrowTab(detail.activeTabId as 'ticket' | 'list')}
        tabs={[
          { id: 'ticket', label: t('tickets.narrow.ticket'), content: <Conversation uuid={ticketUuid} /> },
          { id: 'list', label: t('tickets.narrow.list'), content: <TicketListPanel selectedUuid={ticketUuid} /> },
        ]}
      />
    );
  }
  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
      <div style={{ width: LIST_WIDTH, flex: `0 0 ${LIST_WIDTH}px` }} data-testid="ticket-list-panel">
        <Container>
          <TicketListPanel selectedUuid={ticketUuid} />
        </Container>
      </div>
      <div style={{ flex: 1, minWidth: 0 }} data-testid="ticket-conversation">
        <Container>
          <Conversation uuid={ticketUuid} />
        </Container>
      </div>
    </div>
  );
}

/** Tells the app shell's notifier which ticket is open here and the company's showNotificationPending. */
function PublishToNotifier({ visibleTicketUuid }: { visibleTicketUuid: string | null }) {
  const { settings } = useTicketScreen();
  usePublishVisibleTicket(visibleTicketUuid);
  usePublishShowNotificationPending(settingOn(settings, 'showNotificationPending'));
  return null;
}

/**
 * /tickets and /tickets/{uuid} (core spec §2 "Ticket screen", issue 5 items 8 and 9): the lists beside the
 * conversation on wide screens, two tabs on narrow ones; the shell's ticket notifications learn which
 * ticket is open here.
 */
export function TicketsPage() {
  const { t } = useTranslation();
  const { ticketUuid } = useParams();
  return (
    <TicketScreenProvider>
      {/* The page's title for assistive technology; the lists and the chat fill the screen. */}
      <h1 style={VISUALLY_HIDDEN}>{t('menu.tickets')}</h1>
      <TicketActionsProvider>
        <PublishToNotifier visibleTicketUuid={ticketUuid ?? null} />
        <TicketsLayout />
      </TicketActionsProvider>
    </TicketScreenProvider>
  );
}
