import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Flashbar from '@cloudscape-design/components/flashbar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { logout, type AuthUser } from '@/api/auth';
import { PageLoading } from '@/components/page-loading';
import { useErrorText } from '@/hooks/use-error-text';
import { useTicketNotifications } from '@/components/ticket-notifications/ticket-notifications';
import { useOnFollow, type FollowDetail } from '@/hooks/use-on-follow';
import { EXPIRED_SUBSCRIPTION_PATH, LOGIN_PATH } from '@/paths';
import { useRoom, useUserStatus } from '@/realtime/use-socket';
import { adoptDefaultTheme } from '@/theme';
import { menuFor } from './menu';
import { RequireRouteAccess } from './require-route-access';
import { campaignsFlagSet, useIsNarrowScreen } from './preferences';
import { useSessionEndedElsewhere } from './session-ended';
import { ShellProvider } from './shell-context';
import {
  useConnectionsNeedAttention,
  useHelpsExist,
  useLiveSignedInUser,
  usePlanFlags,
  useSignedInUser,
  useVersion,
} from './shell-data';
import { ShellLayout } from './shell-layout';
import { SideMenu } from './side-menu';
import { subscriptionStatus } from './subscription';
import { useSubscriptionNotices } from './subscription-notices';
import { TopBar } from './top-bar';

/** Where an expired company may still go (the rest sends it to /financeiro, core spec §4). */
export const EXPIRED_PATHS: readonly string[] = [EXPIRED_SUBSCRIPTION_PATH, '/subscription', '/todolist'];

/** 'Perfil' edits the signed-in user in the users area's dialog, loaded only when opened. */
const UserDialog = lazy(async () => ({ default: (await import('@/pages/users/user-dialog')).UserDialog }));

const JOIN_NOTIFICATION = { action: 'joinNotification' };
const LEAVE_NOTIFICATION = { action: 'leaveNotification' };

/**
 * The frame of every private page (issue 3, item 7): top bar, side menu and notices around the page
 * (`<Outlet/>`). Loaded lazily by PrivateShell, so the public pages never download it.
 */
export function AppShell() {
  const signedIn = useSignedInUser();
  if (signedIn.status === 'loading') return <PageLoading />;
  if (signedIn.status === 'error') return <ShellLoadError error={signedIn.error} retry={signedIn.retry} />;
  return <Shell user={signedIn.user} />;
}

function Shell({ user }: { user: AuthUser }) {
  const location = useLocation();
  const navigate = useNavigate();
  const onFollow = useOnFollow();
  const narrow = useIsNarrowScreen();

  const expired = subscriptionStatus(user.company).kind === 'expired';
  const plan = usePlanFlags(user.companyId, expired);
  const helpsExist = useHelpsExist(expired);
  const connectionsNeedAttention = useConnectionsNeedAttention(user, expired);
  const campaignsEnabled = campaignsFlagSet();
  const menu = useMemo(
    () => menuFor(user, plan.planFlags, { expired, helpsExist, campaignsEnabled, connectionsNeedAttention }),
    [user, plan.planFlags, expired, helpsExist, campaignsEnabled, connectionsNeedAttention],
  );
  const version = useVersion();
  const notices = useSubscriptionNotices(user);

  // Core spec §9: the menu starts as the user's defaultMenu says; under 600 px it is a drawer that starts closed.
  const [navigationOpen, setNavigationOpen] = useState(() => !narrow && user.defaultMenu !== 'closed');
  const [profileOpen, setProfileOpen] = useState(false);

  useEffect(() => adoptDefaultTheme(user.defaultTheme), [user.defaultTheme]);
  useSessionEndedElsewhere(user);
  useLiveSignedInUser(user);
  useRoom(JOIN_NOTIFICATION, LEAVE_NOTIFICATION);
  useUserStatus();
  // Ticket notifications run here, once for every private page (issue 5 item 9, D63).
  const unreadTickets = useTicketNotifications(user);

  const followMenuLink = (event: CustomEvent<FollowDetail>) => {
    onFollow(event);
    if (narrow) setNavigationOpen(false);
  };

  const signOut = () => {
    // The session ends locally even when the server cannot be reached (api/auth.ts).
    logout()
      .catch(() => undefined)
      .finally(() => void navigate(LOGIN_PATH, { replace: true }));
  };

  const blocked = expired && !EXPIRED_PATHS.includes(location.pathname);

  return (
    <ShellProvider value={{ user, ...plan }}>
      <ShellLayout
        header={
          <TopBar
            user={user}
            notifications={unreadTickets}
            onProfile={() => setProfileOpen(true)}
            onLogout={signOut}
            internalChat={plan.planFlags.useInternalChat}
            expired={expired}
          />
        }
        navigation={<SideMenu menu={menu} pathname={location.pathname} version={version} onFollow={followMenuLink} />}
        navigationOpen={navigationOpen}
        onNavigationChange={setNavigationOpen}
        narrow={narrow}
        notifications={notices.length > 0 ? <Flashbar items={notices} /> : undefined}
      >
        {blocked ? (
          <Navigate to={EXPIRED_SUBSCRIPTION_PATH} replace />
        ) : (
          <RequireRouteAccess>
            <Outlet />
          </RequireRouteAccess>
        )}
      </ShellLayout>
      {profileOpen && (
        <Suspense fallback={null}>
          <UserDialog userId={user.id} currentUser={user} onDismiss={() => setProfileOpen(false)} />
        </Suspense>
      )}
    </ShellProvider>
  );
}

/** GET /auth/me failed after a reload: say so, with a retry and a way out. */
function ShellLoadError({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const navigate = useNavigate();
  return (
    <Box padding="xl">
      <Alert
        type="error"
        header={t('shell.userLoadError')}
        action={
          <SpaceBetween direction="horizontal" size="xs">
            <Button onClick={retry}>{t('common.retry')}</Button>
            <Button
              onClick={() =>
                void logout()
                  .catch(() => undefined)
                  .finally(() => void navigate(LOGIN_PATH, { replace: true }))
              }
            >
              {t('shell.logout')}
            </Button>
          </SpaceBetween>
        }
      >
        {textOf(error)}
      </Alert>
    </Box>
  );
}
