import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Grid from '@cloudscape-design/components/grid';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Tabs from '@cloudscape-design/components/tabs';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { deleteChat, getChat, unreadsOf, type Chat } from '@/api/chats';
import { useMyChats } from '@/components/team/use-my-chats';
import { ConfirmDeleteModal } from '@/components/confirm-modal';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useIsNarrowScreen } from '@/components/shell/preferences';
import { useNearBottom } from '@/hooks/use-near-bottom';
import { useRequest } from '@/hooks/use-request';
import { ChatDialog } from './chat-dialog';
import { ChatPane } from './chat-pane';

const itemStyle = (current: boolean): CSSProperties => ({
  display: 'block',
  width: '100%',
  textAlign: 'left',
  padding: '8px 10px',
  border: 0,
  borderRadius: 8,
  cursor: 'pointer',
  color: 'inherit',
  background: current ? 'rgba(0, 115, 187, 0.14)' : 'transparent',
});

/**
 * /chats and /chats/{uuid} (administration spec "Internal chat"; decisions D145): the caller's chats at the
 * left (unread counts, most active first, more as the list's end comes near) and the chosen chat's pane at
 * the right; on narrow screens two tabs, Chats and Mensagens. 'Novo' opens the chat dialog; only a chat's
 * owner sees its edit and delete.
 */
export function ChatsPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const navigate = useNavigate();
  const narrow = useIsNarrowScreen();
  const { chatUuid } = useParams();
  const list = useMyChats(me.companyId, me.id);
  const [dialog, setDialog] = useState<{ record: Chat | undefined } | null>(null);
  const [deleting, setDeleting] = useState<Chat | null>(null);
  const [tab, setTab] = useState<'chats' | 'messages'>(chatUuid ? 'messages' : 'chats');
  const end = useNearBottom(list.status === 'ready' && list.hasMore, list.loadMore);

  const listed = chatUuid ? list.items.find((c) => c.uuid === chatUuid) : undefined;
  const fetched = useRequest(
    (signal) => (chatUuid && !listed ? getChat(chatUuid, { signal }) : Promise.resolve(null)),
    [chatUuid, Boolean(listed)],
  );
  const chat = listed ?? (fetched.status === 'ready' ? fetched.data : null);

  const open = (c: Chat) => {
    void navigate(`/chats/${c.uuid}`);
    setTab('messages');
  };

  const chats: ReactNode = (
    <Container
      header={
        <Header
          variant="h2"
          actions={
            <Button iconName="add-plus" onClick={() => setDialog({ record: undefined })}>
              {t('chats.new')}
            </Button>
          }
        >
          {t('chats.tabs.chats')}
        </Header>
      }
    >
      <nav aria-label={t('chats.tabs.chats')}>
        <SpaceBetween size="xxs">
          {list.status === 'error' && list.items.length === 0 ? (
            <Box color="text-status-error">
              {t('chats.loadError')}{' '}
              <Button variant="inline-link" onClick={list.retry}>
                {t('chats.retry')}
              </Button>
            </Box>
          ) : list.items.length === 0 && list.status === 'ready' ? (
            <Box color="text-status-inactive">{t('chats.empty')}</Box>
          ) : null}
          {list.items.map((c) => {
            const unread = unreadsOf(c, me.id);
            return (
              <button
                key={c.id}
                type="button"
                aria-current={c.uuid === chatUuid ? 'page' : undefined}
                aria-label={unread > 0 ? `${c.title} (${t('chats.unreads', { count: unread })})` : c.title}
                onClick={() => open(c)}
                style={itemStyle(c.uuid === chatUuid)}
              >
                <SpaceBetween direction="horizontal" size="xs" alignItems="center">
                  <Box fontWeight="bold">{c.title}</Box>
                  {unread > 0 && <Badge color="red">{unread}</Badge>}
                </SpaceBetween>
                <Box variant="small" color="text-body-secondary">
                  {c.lastMessage || '\u00a0'}
                </Box>
              </button>
            );
          })}
          {list.status === 'loading' && <Spinner />}
          <div ref={end} data-testid="chats-list-end" />
        </SpaceBetween>
      </nav>
    </Container>
  );

  const pane: ReactNode = (
    <Container>
      {chat ? (
        <ChatPane
          key={chat.id}
          chat={chat}
          me={me}
          onEdit={() => setDialog({ record: chat })}
          onDelete={() => setDeleting(chat)}
        />
      ) : chatUuid && fetched.status === 'loading' ? (
        <Spinner />
      ) : (
        <Box color="text-status-inactive" textAlign="center" padding="xl">
          {t('chats.select')}
        </Box>
      )}
    </Container>
  );

  return (
    <ContentLayout header={<Header variant="h1">{t('chats.title')}</Header>}>
      {narrow ? (
        <Tabs
          activeTabId={tab}
          onChange={({ detail }) => setTab(detail.activeTabId as 'chats' | 'messages')}
          tabs={[
            { id: 'chats', label: t('chats.tabs.chats'), content: chats },
            { id: 'messages', label: t('chats.tabs.messages'), content: pane },
          ]}
        />
      ) : (
        <Grid gridDefinition={[{ colspan: 4 }, { colspan: 8 }]}>
          {chats}
          {pane}
        </Grid>
      )}
      {dialog && (
        <ChatDialog
          record={dialog.record}
          meId={me.id}
          onDismiss={() => setDialog(null)}
          onSaved={(saved) => {
            setDialog(null);
            list.upsert(saved);
            if (!dialog.record) open(saved);
          }}
        />
      )}
      {deleting && (
        <ConfirmDeleteModal
          section="chats.delete"
          name={deleting.title}
          remove={() => deleteChat(deleting.id)}
          onDismiss={() => setDeleting(null)}
          onDeleted={() => {
            list.remove(deleting.id);
            setDeleting(null);
            void navigate('/chats');
            setTab('chats');
          }}
        />
      )}
    </ContentLayout>
  );
}
