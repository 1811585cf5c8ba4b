import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import Checkbox from '@cloudscape-design/components/checkbox';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Multiselect, { type MultiselectProps } from '@cloudscape-design/components/multiselect';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Tabs from '@cloudscape-design/components/tabs';
import Toggle from '@cloudscape-design/components/toggle';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { closeAllTickets, type ContactSummary, type Ticket } from '@/api/tickets';
import { ConfirmModal } from '@/components/confirm-modal';
import { useNotifications } from '@/components/notifications';
import { useErrorText } from '@/hooks/use-error-text';
import { useNearBottom } from '@/hooks/use-near-bottom';
import { can, roleOf } from '@/permissions';
import { useTicketActions } from './ticket-actions';
import { TicketListItem } from './ticket-list-item';
import type { ListFilter, ListSection } from './ticket-list-state';
import { useTicketScreen } from './ticket-screen-context';
import { useTicketList, type TicketList } from './use-ticket-list';

/** Core spec §9: the search waits 500 ms after the last key. */
export const SEARCH_DEBOUNCE_MS = 500;

type Tab = 'open' | 'closed' | 'search';
type Section = 'open' | 'pending' | 'group';

const useDebounced = <T,>(value: T, ms: number): T => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
};

const ids = (options: readonly MultiselectProps.Option[]): number[] => options.map((o) => Number(o.value));

/** The section of the open tab a ticket is listed in, or null (closed, or a group without the groups tab). */
const sectionOf = (ticket: Ticket, groups: boolean): Section | null => {
  if (ticket.status === 'open' || ticket.status === 'pending') return ticket.status;
  if (ticket.status === 'group' && groups) return 'group';
  return null;
};

/** Shows one list: its tickets, a loading or failed state, and the next page near the bottom. */
function TicketListView({
  list,
  selectedUuid,
  emptyText,
  acceptable,
}: {
  list: TicketList;
  selectedUuid: string | undefined;
  emptyText: string;
  acceptable: boolean;
}) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const navigate = useNavigate();
  const actions = useTicketActions();
  const { tags, isAdmin } = useTicketScreen();
  const sentinel = useNearBottom(list.status === 'ready' && list.hasMore && !list.loadingMore, list.loadMore);

  if (list.status === 'error' && list.tickets.length === 0) {
    return (
      <Alert type="error" action={<Button onClick={list.reload}>{t('common.retry')}</Button>}>
        {textOf(list.error)}
      </Alert>
    );
  }
  if (list.status === 'loading' && list.tickets.length === 0) {
    return (
      <Box textAlign="center" padding="m">
        <Spinner /> {t('common.loading')}
      </Box>
    );
  }
  return (
    <div>
      {list.tickets.length === 0 ? (
        <Box textAlign="center" color="text-body-secondary" padding="m">
          {emptyText}
        </Box>
      ) : (
        <ul style={{ margin: 0, padding: 0 }} aria-label={emptyText}>
          {list.tickets.map((ticket: Ticket) => (
            <TicketListItem
              key={ticket.id}
              ticket={ticket}
              tags={tags}
              selected={ticket.uuid === selectedUuid}
              showUser={isAdmin}
              onOpen={() => void navigate(`/tickets/${ticket.uuid}`)}
              {...(acceptable && ticket.status === 'pending' ? { onAccept: () => void actions.accept(ticket) } : {})}
            />
          ))}
        </ul>
      )}
      {list.loadingMore && (
        <Box textAlign="center">
          <Spinner />
        </Box>
      )}
      <div ref={sentinel} />
    </div>
  );
}

/**
 * The ticket lists (core spec §2 "Ticket screen"): tabs open (Atendendo, Aguardando, and Grupos with
 * allowGroup), closed and search; debounced search with the message-content option; filters by tags,
 * users (admins), statuses, connections; the queue selector (the user's queues by default); show-all
 * (admins, or allUserChat); new ticket; close-all (admins, confirmed, for the shown section: Atendendo,
 * Aguardando or Grupos); sort (open tab only). The ticket open on screen counts as read in every list, and
 * the lists follow a ticket the user is taken to (accepted, reopened, new) to its tab.
 */
export function TicketListPanel({ selectedUuid }: { selectedUuid: string | undefined }) {
  const { t } = useTranslation();
  const notifications = useNotifications();
  const actions = useTicketActions();
  const { user, isAdmin, tags, users, connections, wantConnections } = useTicketScreen();
  const mayShowAll = can(roleOf(user), 'tickets-manager:showall') || user.allUserChat === 'enabled';
  const mayCloseAll = can(roleOf(user), 'tickets-manager:closeAll');
  const groups = user.allowGroup === true;

  const [tab, setTab] = useState<Tab>('open');
  const [section, setSection] = useState<Section>('open');
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const [searchOnMessages, setSearchOnMessages] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const [queueIds, setQueueIds] = useState<number[]>(() => user.queues.map((q) => q.id));
  const [tagFilter, setTagFilter] = useState<readonly MultiselectProps.Option[]>([]);
  const [userFilter, setUserFilter] = useState<readonly MultiselectProps.Option[]>([]);
  const [connectionFilter, setConnectionFilter] = useState<readonly MultiselectProps.Option[]>([]);
  const [statusFilter, setStatusFilter] = useState<readonly MultiselectProps.Option[]>([]);
  const [sort, setSort] = useState<'ASC' | 'DESC' | null>(null);
  const [confirmCloseAll, setConfirmCloseAll] = useState(false);
  const [closingAll, setClosingAll] = useState(false);

  // /contacts' "open a ticket" comes here with the contact: the new-ticket dialog opens with it chosen.
  const location = useLocation();
  const navigate = useNavigate();
  const newTicketFor = (location.state as { newTicketContact?: ContactSummary } | null)?.newTicketContact;
  useEffect(() => {
    if (!newTicketFor) return;
    actions.openDialog({ kind: 'newTicket', contact: newTicketFor });
    void navigate(location.pathname, { replace: true, state: null });
  }, [newTicketFor, actions, navigate, location.pathname]);

  const base: Omit<ListFilter, 'section'> = {
    searchParam,
    searchOnMessages,
    showAll: mayShowAll && showAll,
    queueIds,
    tags: ids(tagFilter),
    users: isAdmin ? ids(userFilter) : [],
    whatsapps: ids(connectionFilter),
    statusFilter: statusFilter.map((o) => String(o.value)),
    withUnreadMessages: false,
    sortTickets: sort,
  };
  const filterOf = (s: ListSection): ListFilter => ({ ...base, section: s });
  const openList = useTicketList(filterOf('open'), user, tab === 'open', selectedUuid);
  const pendingList = useTicketList(filterOf('pending'), user, tab === 'open', selectedUuid);
  const groupList = useTicketList(filterOf('group'), user, tab === 'open' && groups, selectedUuid);
  const closedList = useTicketList(filterOf('closed'), user, tab === 'closed', selectedUuid);
  // The search tab lists nothing until something is typed (decisions D60).
  const searchList = useTicketList(
    filterOf('search'),
    user,
    tab === 'search' && searchParam.trim() !== '',
    selectedUuid,
  );

  // Answers of the server (accept, transfer, new ticket...) reach every list, shown or not; when the user is
  // taken to the ticket, the lists follow it to its tab, so an accepted ticket shows selected in Atendendo.
  const applies = [openList.apply, pendingList.apply, groupList.apply, closedList.apply, searchList.apply];
  useEffect(
    () =>
      actions.onTicket((ticket, { follow }) => {
        for (const apply of applies) apply({ kind: 'update', ticket });
        if (!follow) return;
        const to = sectionOf(ticket, groups);
        if (to) {
          setTab('open');
          setSection(to);
        } else if (ticket.status === 'closed') setTab('closed');
      }),
    // The apply functions are stable (see useTicketList).
    [actions, groups, ...applies],
  );

  const closeAll = () => {
    setClosingAll(true);
    // The shown section's status: open, pending or group (the server closes group tickets too).
    closeAllTickets(section, queueIds).then(
      () => {
        notifications.success(t('tickets.closeAll.success'));
        setClosingAll(false);
        setConfirmCloseAll(false);
        openList.reload();
        pendingList.reload();
        groupList.reload();
      },
      (err: unknown) => {
        notifications.error(err);
        setClosingAll(false);
        setConfirmCloseAll(false);
      },
    );
  };

  const queueOptions = user.queues.map((q) => ({ value: String(q.id), label: q.name }));
  const tagOptions = tags.map((tag) => ({ value: String(tag.id), label: tag.name }));
  const userOptions = users.map((u) => ({ value: String(u.id), label: u.name }));
  const connectionOptions = connections.map((c) => ({ value: String(c.id), label: c.name }));
  const statusOptions = (['open', 'pending', 'closed'] as const).map((s) => ({
    value: s,
    label: t(`tickets.status.${s}`),
  }));

  const toolbar = (
    <SpaceBetween size="xs">
      <SpaceBetween direction="horizontal" size="xs" alignItems="center">
        <Button iconName="add-plus" onClick={() => actions.openDialog({ kind: 'newTicket' })}>
          {t('tickets.list.newTicket')}
        </Button>
        {mayCloseAll && tab === 'open' && (
          <Button onClick={() => setConfirmCloseAll(true)}>{t('tickets.closeAll.button')}</Button>
        )}
        {tab === 'open' && (
          <ButtonDropdown
            ariaLabel={t('tickets.sort.label')}
            items={[
              { id: 'DESC', text: t('tickets.sort.DESC') },
              { id: 'ASC', text: t('tickets.sort.ASC') },
            ]}
            onItemClick={({ detail }) => setSort(detail.id as 'ASC' | 'DESC')}
          >
            {sort ? t(`tickets.sort.${sort}`) : t('tickets.sort.label')}
          </ButtonDropdown>
        )}
        {mayShowAll && tab !== 'search' && (
          <Toggle checked={showAll} onChange={({ detail }) => setShowAll(detail.checked)}>
            {t('tickets.list.showAll')}
          </Toggle>
        )}
      </SpaceBetween>
      <FormField label={t('tickets.list.queues')}>
        <Multiselect
          selectedOptions={queueOptions.filter((o) => queueIds.includes(Number(o.value)))}
          options={queueOptions}
          onChange={({ detail }) => setQueueIds(ids(detail.selectedOptions))}
          placeholder={t('tickets.list.queuesPlaceholder')}
          // The chosen queues show inside the trigger (the placeholder only when none is chosen).
          inlineTokens
        />
      </FormField>
      <ExpandableSection
        headerText={t('tickets.filters.title')}
        variant="footer"
        onChange={({ detail }) => {
          if (detail.expanded) wantConnections();
        }}
      >
        <SpaceBetween size="xs">
          <FormField label={t('tickets.filters.tags')}>
            <Multiselect
              selectedOptions={tagFilter}
              options={tagOptions}
              onChange={({ detail }) => setTagFilter(detail.selectedOptions)}
            />
          </FormField>
          {isAdmin && (
            <FormField label={t('tickets.filters.users')}>
              <Multiselect
                selectedOptions={userFilter}
                options={userOptions}
                onChange={({ detail }) => setUserFilter(detail.selectedOptions)}
              />
            </FormField>
          )}
          <FormField label={t('tickets.filters.statuses')}>
            <Multiselect
              selectedOptions={statusFilter}
              options={statusOptions}
              onChange={({ detail }) => setStatusFilter(detail.selectedOptions)}
            />
          </FormField>
          <FormField label={t('tickets.filters.connections')}>
            <Multiselect
              selectedOptions={connectionFilter}
              options={connectionOptions}
              onChange={({ detail }) => setConnectionFilter(detail.selectedOptions)}
            />
          </FormField>
        </SpaceBetween>
      </ExpandableSection>
    </SpaceBetween>
  );

  const sectionTabs = [
    { id: 'open', label: t('tickets.sections.open', { count: openList.count }), list: openList },
    { id: 'pending', label: t('tickets.sections.pending', { count: pendingList.count }), list: pendingList },
    ...(groups
      ? [{ id: 'group', label: t('tickets.sections.group', { count: groupList.count }), list: groupList }]
      : []),
  ];

  return (
    <div>
      <Tabs
        activeTabId={tab}
        onChange={({ detail }) => setTab(detail.activeTabId as Tab)}
        tabs={[
          {
            id: 'open',
            label: t('tickets.tabs.open'),
            content: (
              <SpaceBetween size="s">
                {toolbar}
                <Tabs
                  activeTabId={section}
                  onChange={({ detail }) => setSection(detail.activeTabId as Section)}
                  tabs={sectionTabs.map((s) => ({
                    id: s.id,
                    label: s.label,
                    content: (
                      <TicketListView
                        list={s.list}
                        selectedUuid={selectedUuid}
                        emptyText={t(`tickets.empty.${s.id}`)}
                        acceptable
                      />
                    ),
                  }))}
                />
              </SpaceBetween>
            ),
          },
          {
            id: 'closed',
            label: t('tickets.tabs.closed'),
            content: (
              <SpaceBetween size="s">
                {toolbar}
                <TicketListView
                  list={closedList}
                  selectedUuid={selectedUuid}
                  emptyText={t('tickets.empty.closed')}
                  acceptable={false}
                />
              </SpaceBetween>
            ),
          },
          {
            id: 'search',
            label: t('tickets.tabs.search'),
            content: (
              <SpaceBetween size="s">
                <Input
                  type="search"
                  value={search}
                  onChange={({ detail }) => setSearch(detail.value)}
                  placeholder={t('tickets.search.placeholder')}
                  ariaLabel={t('tickets.search.placeholder')}
                />
                <Checkbox checked={searchOnMessages} onChange={({ detail }) => setSearchOnMessages(detail.checked)}>
                  {t('tickets.search.onMessages')}
                </Checkbox>
                {toolbar}
                <TicketListView
                  list={searchList}
                  selectedUuid={selectedUuid}
                  emptyText={t('tickets.empty.search')}
                  acceptable
                />
              </SpaceBetween>
            ),
          },
        ]}
      />
      {confirmCloseAll && (
        <ConfirmModal
          header={t('tickets.closeAll.title')}
          cancelText={t('tickets.closeAll.no')}
          confirmText={t('tickets.closeAll.yes')}
          running={closingAll}
          onConfirm={closeAll}
          onDismiss={() => setConfirmCloseAll(false)}
        >
          {t('tickets.closeAll.text')}
        </ConfirmModal>
      )}
    </div>
  );
}
