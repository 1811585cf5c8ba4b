import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { companyChannel } from '@contracts/realtime';
import type { AuthUser } from '@/api/auth';
import { session } from '@/api/session';
import { useNotifications } from '@/components/notifications';
import { useChannel } from '@/realtime/use-socket';

/** Core spec §4: the notice shows, and the session ends 1 s later. */
export const SESSION_ENDED_DELAY_MS = 1000;

/**
 * A login of the same user elsewhere ends this session (core spec §4, §7): the server publishes
 * `company-{id}-auth` `{action: 'update', user: {id}}` to the old session's sockets
 * (docs/decisions/D18-sessions-request-context-login-limits.md). The shell shows 'Sua conta foi acessada em outro
 * computador.' and ends the session after 1 s, which sends the visitor to /login (route guard) and stops the socket
 * (main.tsx). Only the session is cleared, not the whole localStorage: theme, language, volume and the to-do list stay
 * (docs/decisions/D27-browser-session.md).
 *
 * When the token in storage is no longer the one this tab knows, another tab of this same browser made
 * that login: the new session is this browser's own and must not be cleared, so the event is ignored.
 */
export function useSessionEndedElsewhere(user: Pick<AuthUser, 'id' | 'companyId'>): void {
  const { t } = useTranslation();
  const notify = useNotifications();
  const ownToken = useRef(session.getToken());
  const ending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(
    () =>
      session.onChange((answer) => {
        ownToken.current = answer.token; // this tab's own login or refresh
      }),
    [],
  );
  useEffect(() => () => clearTimeout(ending.current), []);

  useChannel(companyChannel(user.companyId, 'auth'), (event) => {
    const target = (event.user as { id?: unknown } | undefined)?.id;
    if (Number(target) !== user.id || ending.current !== undefined) return;
    if (session.getToken() !== ownToken.current) return;
    notify.notify('warning', t('shell.sessionEnded'));
    ending.current = setTimeout(() => session.end(), SESSION_ENDED_DELAY_MS);
  });
}
