import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  connectFacebookPages,
  type Connection,
  type FacebookConnectResult,
  type SkippedMetaTarget,
} from '@/api/connections';
import { useAppServices } from '@/app-services';
import { useErrorText } from '@/hooks/use-error-text';
import { ChannelLabel } from './connection-status';
import { isLoginRedirect, metaLoginRedirectUri, metaLoginUrl, readLoginRedirect, withGraphMessage } from './meta-login';

/** How often the page looks at the popup's address. */
export const POPUP_POLL_MS = 500;
export const POPUP_NAME = 'zapdesk-meta-login';
const POPUP_FEATURES = 'popup,width=600,height=720';

/** Why the dialog is back at its start: each one is a note above the button. */
type Note = 'blocked' | 'cancelled' | 'denied' | 'state' | 'missing';

type Phase =
  | { kind: 'idle'; note?: Note }
  | { kind: 'waiting' }
  | { kind: 'posting' }
  | { kind: 'done'; result: FacebookConnectResult }
  | { kind: 'failed'; error: unknown };

const NOTE_KEY: Record<Note, string> = {
  blocked: 'connections.metaLogin.popupBlocked',
  cancelled: 'connections.metaLogin.cancelled',
  denied: 'connections.metaLogin.denied',
  state: 'connections.metaLogin.state',
  missing: 'connections.metaLogin.missing',
};

/** The server's skip reasons (functions/core/connections/meta-connections.ts); others show as they are. */
const SKIP_REASON_KEY: Record<string, string> = {
  'connected-elsewhere': 'connections.metaLogin.skipReasons.connectedElsewhere',
};

function TargetList({ header, items }: { header: string; items: { key: string; body: ReactNode }[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-label={header}>
      <Header variant="h3" counter={`(${items.length})`}>
        {header}
      </Header>
      <ul style={{ margin: 0, paddingInlineStart: 20 }}>
        {items.map((item) => (
          <li key={item.key}>{item.body}</li>
        ))}
      </ul>
    </section>
  );
}

function Result({ result }: { result: FacebookConnectResult }) {
  const { t } = useTranslation();
  const connectionItem = (c: Connection) => ({
    key: String(c.id),
    body: (
      <SpaceBetween direction="horizontal" size="xs" alignItems="center">
        <Box variant="strong">{c.name}</Box>
        <ChannelLabel channel={c.channel} />
      </SpaceBetween>
    ),
  });
  const skippedItem = (s: SkippedMetaTarget) => {
    const key = SKIP_REASON_KEY[s.reason];
    return {
      key: `${s.channel}:${s.externalId}`,
      body: (
        <SpaceBetween direction="horizontal" size="xs" alignItems="center">
          <Box variant="strong">{s.name}</Box>
          <ChannelLabel channel={s.channel} />
          <Box variant="span" color="text-body-secondary">
            {key ? t(key) : s.reason}
          </Box>
        </SpaceBetween>
      ),
    };
  };
  const nothing = result.created.length + result.updated.length + result.skipped.length === 0;
  return (
    <SpaceBetween size="m">
      {nothing && <Alert type="warning">{t('connections.metaLogin.nothingFound')}</Alert>}
      <TargetList header={t('connections.metaLogin.created')} items={result.created.map(connectionItem)} />
      <TargetList header={t('connections.metaLogin.updated')} items={result.updated.map(connectionItem)} />
      <TargetList header={t('connections.metaLogin.skipped')} items={result.skipped.map(skippedItem)} />
    </SpaceBetween>
  );
}

/**
 * Facebook and Instagram of the new-connection menu (decisions D40): Facebook's OAuth dialog in a popup
 * (no Facebook script runs in our page), polled until it comes back to /meta-login.html with a user
 * token, which goes to POST /facebook once (`me` as the user: the redirect names none). Every page the
 * user manages becomes a connection (and, for Instagram, each linked business account); the result lists
 * what was created, renewed and skipped, and each connection reaches the page through `onConnected`.
 * Without a Meta app in the runtime config the login is offered disabled, with the reason.
 */
export function MetaLoginDialog({
  addInstagram,
  onDismiss,
  onConnected,
}: {
  /** Instagram of the menu: the linked Instagram business accounts become connections too. */
  addInstagram: boolean;
  onDismiss: () => void;
  /** Each connection the login created or renewed, as the server answered it. */
  onConnected: (connection: Connection) => void;
}) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const { config } = useAppServices();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const popup = useRef<{ window: Window; timer: ReturnType<typeof setInterval> } | null>(null);
  const alive = useRef(true);
  const onConnectedRef = useRef(onConnected);
  onConnectedRef.current = onConnected;

  const stopWatching = () => {
    if (!popup.current) return;
    clearInterval(popup.current.timer);
    const opened = popup.current.window;
    popup.current = null;
    return opened;
  };

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      // Closing the dialog ends the attempt: the popup goes too.
      const opened = stopWatching();
      if (opened && !opened.closed) opened.close();
    };
  }, []);

  const post = async (token: string) => {
    setPhase({ kind: 'posting' });
    try {
      const result = await connectFacebookPages({ facebookUserId: 'me', facebookUserToken: token, addInstagram });
      if (!alive.current) return;
      for (const connection of [...result.created, ...result.updated]) onConnectedRef.current(connection);
      setPhase({ kind: 'done', result });
    } catch (err) {
      if (alive.current) setPhase({ kind: 'failed', error: withGraphMessage(err) });
    }
  };

  const start = () => {
    if (!config.metaAppId || popup.current) return;
    const redirectUri = metaLoginRedirectUri(window.location.origin);
    const state = crypto.randomUUID();
    const url = metaLoginUrl({
      appId: config.metaAppId,
      loginUrl: config.metaLoginUrl,
      redirectUri,
      state,
      addInstagram,
    });
    const opened = window.open(url, POPUP_NAME, POPUP_FEATURES);
    if (!opened) {
      setPhase({ kind: 'idle', note: 'blocked' });
      return;
    }
    const look = () => {
      if (opened.closed) {
        stopWatching();
        setPhase({ kind: 'idle', note: 'cancelled' });
        return;
      }
      let href: string;
      try {
        href = opened.location.href;
      } catch {
        return; // Still on facebook.com: another origin's address cannot be read.
      }
      if (!isLoginRedirect(href, redirectUri)) return;
      stopWatching();
      opened.close();
      const answer = readLoginRedirect(href, state);
      if ('token' in answer) void post(answer.token);
      else setPhase({ kind: 'idle', note: answer.error });
    };
    popup.current = { window: opened, timer: setInterval(look, POPUP_POLL_MS) };
    setPhase({ kind: 'waiting' });
  };

  const busy = phase.kind === 'waiting' || phase.kind === 'posting';
  const channel = addInstagram ? 'instagram' : 'facebook';
  const configured = Boolean(config.metaAppId);

  const footer =
    phase.kind === 'done' ? (
      <Box float="right">
        <Button variant="primary" onClick={onDismiss}>
          {t('connections.metaLogin.close')}
        </Button>
      </Box>
    ) : (
      <Box float="right">
        <SpaceBetween direction="horizontal" size="xs">
          <Button variant="link" disabled={phase.kind === 'posting'} onClick={onDismiss}>
            {t('connections.metaLogin.cancel')}
          </Button>
          {phase.kind !== 'failed' && (
            <Button
              variant="primary"
              disabled={!configured}
              loading={busy}
              loadingText={t(
                phase.kind === 'posting' ? 'connections.metaLogin.posting' : 'connections.metaLogin.waiting',
              )}
              onClick={start}
            >
              {t('connections.metaLogin.continue')}
            </Button>
          )}
        </SpaceBetween>
      </Box>
    );

  return (
    <Modal
      visible
      size="medium"
      header={t('connections.metaLogin.title', { channel: t(`connections.channels.${channel}`) })}
      onDismiss={() => {
        if (phase.kind !== 'posting') onDismiss();
      }}
      footer={footer}
    >
      {phase.kind === 'done' ? (
        <Result result={phase.result} />
      ) : (
        <SpaceBetween size="m">
          <Box variant="p">
            {t(addInstagram ? 'connections.metaLogin.introInstagram' : 'connections.metaLogin.introFacebook')}
          </Box>
          <Box variant="p" color="text-body-secondary">
            {t('connections.metaLogin.again')}
          </Box>
          {!configured && <Alert type="info">{t('connections.metaLogin.notConfigured')}</Alert>}
          {phase.kind === 'idle' && phase.note && (
            <Alert type={phase.note === 'blocked' ? 'warning' : 'info'}>{t(NOTE_KEY[phase.note])}</Alert>
          )}
          {phase.kind === 'waiting' && (
            <StatusIndicator type="loading">{t('connections.metaLogin.waiting')}</StatusIndicator>
          )}
          {phase.kind === 'posting' && (
            <StatusIndicator type="loading">{t('connections.metaLogin.posting')}</StatusIndicator>
          )}
          {phase.kind === 'failed' && (
            <Alert
              type="error"
              header={t('connections.metaLogin.errorHeader')}
              action={<Button onClick={start}>{t('connections.metaLogin.retry')}</Button>}
            >
              {textOf(phase.error)}
            </Alert>
          )}
        </SpaceBetween>
      )}
    </Modal>
  );
}
