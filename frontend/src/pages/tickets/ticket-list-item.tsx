import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Tag as CompanyTag } from '@/api/tags';
import type { Ticket } from '@/api/tickets';
import { stripWhatsappMarkup } from '@/components/whatsapp-markup';
import { CONTACT_NAME_MAX, LAST_MESSAGE_MAX, LIST_TAGS_MAX, formatListTime, truncate } from './format';

/** What a list row needs of a tag. */
type Tag = Pick<CompanyTag, 'id' | 'name' | 'color'>;

/** The tags a list row shows: at most LIST_TAGS_MAX, then "+N" (core spec §9). */
export const visibleTags = (ids: { id: number }[], tags: Tag[]): { shown: Tag[]; more: number } => {
  const known = ids.map(({ id }) => tags.find((t) => t.id === id)).filter((t): t is Tag => t !== undefined);
  return { shown: known.slice(0, LIST_TAGS_MAX), more: Math.max(0, known.length - LIST_TAGS_MAX) };
};

/**
 * One ticket of a list: contact name (60), last message (40, WhatsApp's markers stripped), time (HH:mm today, else dd/MM/yyyy), unread
 * count, queue in its colour, connection, assigned user (admins only, core spec §6), tags (2 then +N), and
 * the pending ticket's accept button.
 */
export function TicketListItem({
  ticket,
  tags,
  selected,
  showUser,
  onOpen,
  onAccept,
}: {
  ticket: Ticket;
  tags: Tag[];
  selected: boolean;
  showUser: boolean;
  onOpen: () => void;
  onAccept?: () => void;
}) {
  const { t } = useTranslation();
  const { shown, more } = visibleTags(ticket.tags.length > 0 ? ticket.tags : ticket.contact.tags, tags);
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen();
    }
  };
  return (
    <li
      data-testid="ticket-item"
      data-ticket-id={ticket.id}
      aria-current={selected ? 'true' : undefined}
      style={{
        listStyle: 'none',
        borderLeft: `6px solid ${ticket.queue?.color ?? '#7d8998'}`,
        borderBottom: '1px solid rgba(127,127,127,0.25)',
        background: selected ? 'rgba(0,115,187,0.12)' : undefined,
        padding: '8px 10px',
        cursor: 'pointer',
      }}
    >
      <div role="button" tabIndex={0} onClick={onOpen} onKeyDown={onKey} aria-label={ticket.contact.name}>
        <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
          <Box fontWeight={ticket.unreadMessages > 0 ? 'bold' : 'normal'}>
            <span data-field="name">{truncate(ticket.contact.name, CONTACT_NAME_MAX)}</span>
          </Box>
          <Box fontSize="body-s" color="text-body-secondary">
            <span data-field="time">{formatListTime(ticket.updatedAt)}</span>
          </Box>
        </div>
        <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
          <Box fontSize="body-s" color="text-body-secondary">
            <span data-field="lastMessage">{truncate(stripWhatsappMarkup(ticket.lastMessage), LAST_MESSAGE_MAX)}</span>
          </Box>
          {ticket.unreadMessages > 0 && (
            <span data-field="unread" aria-label={t('tickets.list.unread', { count: ticket.unreadMessages })}>
              <Badge color="green">{ticket.unreadMessages}</Badge>
            </span>
          )}
        </div>
      </div>
      <div style={{ marginTop: 4 }}>
        <SpaceBetween direction="horizontal" size="xxs" alignItems="center">
          <span style={{ fontSize: 11 }}>#{ticket.id}</span>
          {ticket.whatsapp && <Badge>{ticket.whatsapp.name}</Badge>}
          <span
            data-field="queue"
            style={{
              background: ticket.queue?.color ?? '#7d8998',
              color: '#fff',
              borderRadius: 8,
              padding: '0 6px',
              fontSize: 11,
            }}
          >
            {ticket.queue?.name ?? t('tickets.list.noQueue')}
          </span>
          {showUser && ticket.user && (
            <span data-field="user">
              <Badge color="blue">{ticket.user.name}</Badge>
            </span>
          )}
          {shown.map((tag) => (
            <span
              key={tag.id}
              data-field="tag"
              style={{ background: tag.color, color: '#fff', borderRadius: 8, padding: '0 6px', fontSize: 11 }}
            >
              {tag.name}
            </span>
          ))}
          {more > 0 && <span data-field="moreTags">+{more}</span>}
          {onAccept && (
            <Button
              variant="inline-link"
              onClick={onAccept}
              ariaLabel={t('tickets.actions.acceptNamed', { name: ticket.contact.name })}
            >
              {t('tickets.actions.accept')}
            </Button>
          )}
        </SpaceBetween>
      </div>
    </li>
  );
}
