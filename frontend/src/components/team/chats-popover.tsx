import Badge from '@cloudscape-design/components/badge';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { chatChannel } from '@contracts/realtime';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { unreadsOf, type ChatMessage } from '@/api/chats';
import type { AuthUser } from '@/api/auth';
import { playChime } from '@/components/ticket-notifications/ticket-notifications';
import { useMyChats } from './use-my-chats';
import { useChannel } from '@/realtime/use-socket';

const EMPTY_ID = 'none';
const ALL_ID = 'all';

/**
 * The top bar's internal chats popover (core §2 top bar; administration "Internal chat"): the caller's
 * chats with their unread counts and the total on the button, live from the caller's own chat channel; a
 * message from someone else plays the chat sound for its recipients only (never for the sender).
 */
export function ChatsPopover({ user }: { user: AuthUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const chats = useMyChats(user.companyId, user.id);
  const unread = chats.items.reduce((sum, c) => sum + unreadsOf(c, user.id), 0);

  useChannel(chatChannel(user.companyId, { userId: user.id }), (event) => {
    const message = event.newMessage as ChatMessage | undefined;
    if (event.action === 'new-message' && message && message.senderId !== user.id) playChime();
  });

  return (
    <SpaceBetween direction="horizontal" size="xxxs" alignItems="center">
      <ButtonDropdown
        variant="icon"
        iconName="contact"
        ariaLabel={unread > 0 ? t('chats.popover.buttonWithCount', { count: unread }) : t('chats.popover.button')}
        expandToViewport
        items={[
          ...(chats.items.length === 0
            ? [{ id: EMPTY_ID, text: t('chats.popover.empty'), disabled: true }]
            : chats.items.map((c) => {
                const n = unreadsOf(c, user.id);
                return {
                  id: c.uuid,
                  text: n > 0 ? `${c.title} (${n})` : c.title,
                  secondaryText: c.lastMessage || undefined,
                };
              })),
          { id: ALL_ID, text: t('chats.popover.open') },
        ]}
        onItemClick={({ detail }) => {
          if (detail.id === ALL_ID) void navigate('/chats');
          else if (detail.id !== EMPTY_ID) void navigate(`/chats/${detail.id}`);
        }}
      />
      {unread > 0 && (
        <span data-testid="chats-unread-count">
          <Badge color="red">{unread}</Badge>
        </span>
      )}
    </SpaceBetween>
  );
}
