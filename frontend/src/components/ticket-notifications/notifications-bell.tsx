import Badge from '@cloudscape-design/components/badge';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { stripWhatsappMarkup } from '@/components/whatsapp-markup';
import type { UnreadTicket } from './ticket-notifications';

/** Core spec §2 top bar "notifications": the list shows the last message cut to 40 characters. */
export const PREVIEW_LENGTH = 40;

/** The last message as one plain line (WhatsApp's markers stripped), cut to PREVIEW_LENGTH. */
export const preview = (body: string): string => {
  const text = stripWhatsappMarkup(body);
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text;
};

const EMPTY_ID = 'none';

/**
 * The top bar's bell (core spec §2 'Top bar', issue 5 item 9): the number of tickets with unseen news and
 * a menu listing them (contact name, last message) that opens each ticket.
 */
export function NotificationsBell({ items }: { items: UnreadTicket[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const count = items.length;
  return (
    <SpaceBetween direction="horizontal" size="xxxs" alignItems="center">
      <ButtonDropdown
        variant="icon"
        iconName="notification"
        ariaLabel={t('shell.notifications', { count })}
        expandToViewport
        items={
          count === 0
            ? [{ id: EMPTY_ID, text: t('shell.noNotifications'), disabled: true }]
            : items.map((item) => ({
                id: item.uuid,
                text: item.contactName,
                secondaryText: preview(item.lastMessage),
                href: `/tickets/${item.uuid}`,
              }))
        }
        onItemFollow={(event) => {
          event.preventDefault();
          if (event.detail.href) void navigate(event.detail.href);
        }}
        onItemClick={({ detail }) => {
          if (detail.id !== EMPTY_ID && !detail.href) void navigate(`/tickets/${detail.id}`);
        }}
      />
      {count > 0 && (
        <span data-testid="notifications-count">
          <Badge color="red">{count}</Badge>
        </span>
      )}
    </SpaceBetween>
  );
}
