import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import ContentLayout from '@cloudscape-design/components/content-layout';
import DatePicker from '@cloudscape-design/components/date-picker';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { listKanbanLanes, listKanbanTickets, moveTicketToLane, type KanbanTicketView, type Tag } from '@/api/tags';
import { useNotifications } from '@/components/notifications';
import { useCurrentUser } from '@/components/shell/shell-context';
import { can, roleOf } from '@/permissions';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';
import { companyChannel } from '@contracts/realtime';

/** The default lane's id on the board (tickets in no kanban lane). */
const DEFAULT_LANE = 0;
const laneKey = (laneId: number) => `lane-${laneId}`;
const cardKey = (ticketId: number) => `ticket-${ticketId}`;

/** Today in the browser as yyyy-mm-dd (the date pickers' default, spec: "default today"). */
export const localDay = (at = new Date()): string =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;

/** A card's time: HH:mm if today, else dd/MM/yyyy (administration §2). */
export const cardTime = (iso: string, now = new Date()): string => {
  const at = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return localDay(at) === localDay(now)
    ? `${two(at.getHours())}:${two(at.getMinutes())}`
    : `${two(at.getDate())}/${two(at.getMonth() + 1)}/${at.getFullYear()}`;
};

const CHANNEL_ICONS: Record<string, string> = {
  whatsapp: 'WA',
  whatsappapi: 'WA',
  facebook: 'FB',
  instagram: 'IG',
};

/**
 * Arrow keys move a lifted card to the lane on its left or right (dnd-kit's default moves 25 px a press):
 * the target is the nearest droppable lane beside the one the card is over.
 */
const laneCoordinates: KeyboardCoordinateGetter = (event, { context }) => {
  const { collisionRect, droppableRects } = context;
  if (!collisionRect || (event.code !== 'ArrowRight' && event.code !== 'ArrowLeft')) return undefined;
  event.preventDefault();
  const centre = collisionRect.left + collisionRect.width / 2;
  const lanes = [...droppableRects.values()].sort((a, b) => a.left - b.left);
  const target =
    event.code === 'ArrowRight'
      ? lanes.find((r) => r.left > centre)
      : [...lanes].reverse().find((r) => r.left + r.width < centre);
  if (!target) return undefined;
  return { x: target.left + target.width / 2 - collisionRect.width / 2, y: target.top + 40 };
};

function KanbanCard({
  ticket,
  lanes,
  onMove,
}: {
  ticket: KanbanTicketView;
  lanes: { id: number; name: string }[];
  onMove: (ticket: KanbanTicketView, laneId: number) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: cardKey(ticket.id),
    data: { ticketId: ticket.id },
  });
  const unread = ticket.unreadMessages > 0;
  const current = ticket.kanbanTagId ?? DEFAULT_LANE;
  return (
    <div
      ref={setNodeRef}
      data-testid={`kanban-card-${ticket.id}`}
      aria-label={t('kanban.card.title', { id: ticket.id })}
      {...attributes}
      {...listeners}
      style={{
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        opacity: isDragging ? 0.6 : 1,
        zIndex: isDragging ? 10 : undefined,
        position: 'relative',
        cursor: 'grab',
        background: unread ? 'rgba(37, 211, 102, 0.12)' : 'var(--color-background-container-content-z4x1mh, #fff)',
        border: unread ? '2px solid #25d366' : '1px solid rgba(0, 0, 0, 0.15)',
        borderRadius: 8,
        padding: 8,
        marginBottom: 8,
      }}
    >
      <SpaceBetween size="xxs">
        <Box variant="h4">
          {t('kanban.card.title', { id: ticket.id })}{' '}
          <span title={ticket.whatsapp?.name ?? ''} data-testid="card-channel">
            <Badge color="grey">{CHANNEL_ICONS[ticket.channel] ?? ticket.channel}</Badge>
          </span>
          {unread && (
            <>
              {' '}
              <Badge color="green">{ticket.unreadMessages}</Badge>
            </>
          )}
        </Box>
        <Box>
          <b>{ticket.contact.name}</b> <Box variant="small">{ticket.contact.number}</Box>
        </Box>
        <Box variant="small" color="text-body-secondary">
          {ticket.lastMessage || '—'}
        </Box>
        <Box variant="small">{cardTime(ticket.updatedAt)}</Box>
        {ticket.user && <Badge color="blue">{ticket.user.name}</Badge>}
        <SpaceBetween direction="horizontal" size="xs">
          <Button onClick={() => void navigate(`/tickets/${ticket.uuid}`)}>{t('kanban.card.open')}</Button>
          <ButtonDropdown
            ariaLabel={t('kanban.card.moveLabel', { id: ticket.id })}
            items={lanes.filter((l) => l.id !== current).map((l) => ({ id: String(l.id), text: l.name }))}
            onItemClick={(e) => onMove(ticket, Number(e.detail.id))}
          >
            {t('kanban.card.move')}
          </ButtonDropdown>
        </SpaceBetween>
      </SpaceBetween>
    </div>
  );
}

function KanbanLane({
  laneId,
  title,
  color,
  tickets,
  lanes,
  onMove,
}: {
  laneId: number;
  title: string;
  color: string | null;
  tickets: KanbanTicketView[];
  lanes: { id: number; name: string }[];
  onMove: (ticket: KanbanTicketView, laneId: number) => void;
}) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: laneKey(laneId), data: { laneId } });
  return (
    <section
      ref={setNodeRef}
      data-testid={`kanban-lane-${laneId}`}
      aria-label={title}
      style={{
        flex: '0 0 280px',
        minHeight: 300,
        borderRadius: 8,
        padding: 8,
        background: isOver ? 'rgba(0, 115, 187, 0.12)' : 'rgba(0, 0, 0, 0.04)',
        borderTop: `6px solid ${color ?? '#5f6b7a'}`,
      }}
    >
      <Box variant="h3" padding={{ bottom: 's' }}>
        {title} <Badge>{t('kanban.count', { count: tickets.length })}</Badge>
      </Box>
      {tickets.map((ticket) => (
        <KanbanCard key={ticket.id} ticket={ticket} lanes={lanes} onMove={onMove} />
      ))}
    </section>
  );
}

/**
 * /Kanban (core §2 Kanban; administration §2, §4; decisions D101): start and end dates (default today),
 * 'Buscar', '+ Adicionar colunas' for roles with dashboard:view, the default lane ('Em aberto') and one lane
 * per kanban tag in its colour; cards drag between lanes (pointer or keyboard: Space lifts, arrows change
 * lane, Space drops) or move through their 'Mover para' menu. The board refetches on tag and ticket
 * events and on reconnect; a failed load shows an empty board.
 */
export function KanbanPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotifications();
  const user = useCurrentUser();
  const [startDate, setStartDate] = useState(localDay());
  const [endDate, setEndDate] = useState(localDay());
  const [range, setRange] = useState({ startDate: localDay(), endDate: localDay() });
  const [lanes, setLanes] = useState<Tag[]>([]);
  const [tickets, setTickets] = useState<KanbanTicketView[]>([]);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);

  const load = useCallback(async () => {
    const call = ++latest.current;
    setLoading(true);
    try {
      const [lanesNow, ticketsNow] = await Promise.all([listKanbanLanes(), listKanbanTickets(range)]);
      if (call !== latest.current) return;
      setLanes(lanesNow);
      setTickets(ticketsNow);
    } catch {
      // Administration §4: a load failure yields an empty board.
      if (call !== latest.current) return;
      setLanes([]);
      setTickets([]);
    } finally {
      if (call === latest.current) setLoading(false);
    }
  }, [range]);

  useEffect(() => {
    void load();
  }, [load]);

  // Administration §4: the board refetches on tag and ticket events (a burst of them is one refetch).
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refetchSoon = useCallback(() => {
    if (pending.current) clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      pending.current = null;
      void load();
    }, 300);
  }, [load]);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  useChannel(companyChannel(user.companyId, 'tag'), refetchSoon);
  useChannel(companyChannel(user.companyId, 'ticket'), refetchSoon);
  useOnReconnect(refetchSoon);

  const move = useCallback(
    async (ticket: KanbanTicketView, laneId: number) => {
      const from = ticket.kanbanTagId ?? DEFAULT_LANE;
      if (from === laneId) return;
      setTickets((shown) =>
        shown.map((x) => (x.id === ticket.id ? { ...x, kanbanTagId: laneId === DEFAULT_LANE ? null : laneId } : x)),
      );
      try {
        await moveTicketToLane(ticket.id, laneId === DEFAULT_LANE ? null : laneId);
        notify.success(laneId === DEFAULT_LANE ? t('kanban.removed') : t('kanban.added'));
      } catch (err) {
        notify.error(err);
        void load();
      }
    },
    [notify, t, load],
  );

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: laneCoordinates }),
  );

  const onDragEnd = (event: DragEndEvent) => {
    const ticketId = event.active.data.current?.ticketId as number | undefined;
    const laneId = event.over?.data.current?.laneId as number | undefined;
    const ticket = tickets.find((x) => x.id === ticketId);
    if (ticket && laneId !== undefined) void move(ticket, laneId);
  };

  const allLanes = [
    { id: DEFAULT_LANE, name: t('kanban.defaultLane'), color: null as string | null },
    ...lanes.map((l) => ({ id: l.id, name: l.name, color: l.color as string | null })),
  ];
  const laneIds = new Set(lanes.map((l) => l.id));
  const inLane = (laneId: number) =>
    tickets.filter((x) =>
      laneId === DEFAULT_LANE ? x.kanbanTagId === null || !laneIds.has(x.kanbanTagId) : x.kanbanTagId === laneId,
    );

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          actions={
            can(roleOf(user), 'dashboard:view') ? (
              <Button onClick={() => void navigate('/TagsKanban')}>{t('kanban.addColumns')}</Button>
            ) : undefined
          }
        >
          {t('kanban.title')}
        </Header>
      }
    >
      <SpaceBetween size="l">
        <SpaceBetween direction="horizontal" size="s" alignItems="end">
          <FormField label={t('kanban.startDate')}>
            <DatePicker
              value={startDate}
              onChange={(e) => setStartDate(e.detail.value)}
              placeholder="YYYY/MM/DD"
              openCalendarAriaLabel={(selected) => t('kanban.openCalendar', { date: selected ?? '' })}
            />
          </FormField>
          <FormField label={t('kanban.endDate')}>
            <DatePicker
              value={endDate}
              onChange={(e) => setEndDate(e.detail.value)}
              placeholder="YYYY/MM/DD"
              openCalendarAriaLabel={(selected) => t('kanban.openCalendar', { date: selected ?? '' })}
            />
          </FormField>
          <Button
            variant="primary"
            loading={loading}
            onClick={() => {
              const end = endDate < startDate ? startDate : endDate;
              setRange({ startDate, endDate: end });
            }}
          >
            {t('kanban.search')}
          </Button>
        </SpaceBetween>
        <DndContext sensors={sensors} onDragEnd={onDragEnd}>
          <div style={{ display: 'flex', gap: 12, overflowX: 'auto', alignItems: 'flex-start' }}>
            {allLanes.map((lane) => (
              <KanbanLane
                key={lane.id}
                laneId={lane.id}
                title={lane.name}
                color={lane.color}
                tickets={inLane(lane.id)}
                lanes={allLanes}
                onMove={(ticket, laneId) => void move(ticket, laneId)}
              />
            ))}
          </div>
        </DndContext>
      </SpaceBetween>
    </ContentLayout>
  );
}
