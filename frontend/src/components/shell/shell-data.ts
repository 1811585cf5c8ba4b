import { useEffect, useState, useSyncExternalStore } from 'react';
import { companyChannel } from '@contracts/realtime';
import { getMe, type AuthUser } from '@/api/auth';
import { needsAttention } from '@/api/connections';
import { listHelps } from '@/api/helps';
import { getCompanyPlan, NO_PLAN_FLAGS, type CompanyPlan, type PlanFlags } from '@/api/plans';
import { getVersion } from '@/api/system';
import { useAppServices } from '@/app-services';
import { useLiveConnections } from '@/components/use-live-connections';
import { useRequest } from '@/hooks/use-request';
import { canManageConnections } from '@/permissions';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';

/**
 * The data the shell gathers for the menu and the top bar.
 */

export type SignedInUser =
  { status: 'ready'; user: AuthUser } | { status: 'loading' } | { status: 'error'; error: unknown; retry: () => void };

/** The user of the last session answer (login, refresh); after a reload, GET /auth/me fills it. */
export function useSignedInUser(): SignedInUser {
  const { sessionUser } = useAppServices();
  const user = useSyncExternalStore(sessionUser.subscribe, sessionUser.get);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (user) return;
    let active = true;
    setFailure(null);
    // Joins the read main.tsx started for a returning user, if it is still under way.
    sessionUser
      .fetch(() => getMe())
      .then(
        () => undefined,
        (error: unknown) => {
          if (active) setFailure({ error });
        },
      );
    return () => {
      active = false;
    };
  }, [user, sessionUser, attempt]);

  if (user) return { status: 'ready', user };
  if (failure) return { status: 'error', error: failure.error, retry: () => setAttempt((a) => a + 1) };
  return { status: 'loading' };
}

/**
 * Keeps the signed-in user current while the shell is open: an admin changing this user's permissions,
 * theme or name (`company-{id}-user` update for this user, which the server sends to the user changed)
 * updates the menu and the top bar at once. The company and its settings are not in the event and stay.
 */
export function useLiveSignedInUser(user: AuthUser): void {
  const { sessionUser } = useAppServices();
  useChannel(companyChannel(user.companyId, 'user'), (event) => {
    const changed = event.user as Partial<AuthUser> | undefined;
    if (event.action !== 'update' || changed?.id !== user.id) return;
    const current = sessionUser.get() ?? user;
    sessionUser.set({ ...current, ...changed, company: current.company, companieSettings: current.companieSettings });
  });
}

const flagsOf = (plan: CompanyPlan): PlanFlags => ({
  useWhatsapp: plan.useWhatsapp === true,
  useFacebook: plan.useFacebook === true,
  useInstagram: plan.useInstagram === true,
  useCampaigns: plan.useCampaigns === true,
  useSchedules: plan.useSchedules === true,
  useInternalChat: plan.useInternalChat === true,
  useExternalApi: plan.useExternalApi === true,
  useKanban: plan.useKanban === true,
  useOpenAi: plan.useOpenAi === true,
  useIntegrations: plan.useIntegrations === true,
});

/**
 * The company's plan flags (GET /companies/listPlan/{companyId}); all off until they arrive. An expired
 * company is not asked: the server refuses it (ERR_SUBSCRIPTION_EXPIRED) and its menu is reduced anyway.
 * A failure is not a toast over whatever page is open: the menu keeps its plan-independent entries and
 * asks again when the socket reconnects.
 */
export function usePlanFlags(companyId: number, expired: boolean): { planFlags: PlanFlags; planLoaded: boolean } {
  const plan = useRequest(
    (signal) => (expired ? Promise.resolve(null) : getCompanyPlan(companyId, { signal })),
    [companyId, expired],
  );
  useOnReconnect(plan.reload); // a plan may have changed while the socket was down
  if (plan.status === 'loading') return { planFlags: NO_PLAN_FLAGS, planLoaded: false };
  if (plan.status === 'error' || !plan.data) return { planFlags: NO_PLAN_FLAGS, planLoaded: true };
  return { planFlags: flagsOf(plan.data), planLoaded: true };
}

/** The version text at the bottom of the menu (GET /version); undefined until known or when unreachable. */
export function useVersion(): string | undefined {
  const version = useRequest((signal) => getVersion({ signal }), []);
  return version.status === 'ready' ? version.data.version : undefined;
}

/**
 * True when at least one help entry exists (GET /helps/list, core spec §2; decisions D146), asked once per
 * shell; an expired company is not asked (the server refuses it) and a failure leaves the entry out.
 */
export function useHelpsExist(expired = false): boolean {
  const helps = useRequest((signal) => (expired ? Promise.resolve([]) : listHelps({ signal })), [expired]);
  return helps.status === 'ready' && helps.data.length > 0;
}

/** Core spec §9: the side menu checks the connections 2 s after start. */
export const CONNECTIONS_CHECK_DELAY_MS = 2000;

/**
 * The side menu's exclamation badge on Connections (core spec §2, §4): true while any connection is in
 * qrcode, PAIRING, DISCONNECTED, TIMEOUT or OPENING. For users who may manage connections (admins, super,
 * allowConnections), GET /whatsapp 2 s after the shell starts (spec §9), then kept live from the
 * `company-{id}-whatsapp` and `-whatsappSession` events and read again on a socket reconnect. Nobody else
 * (the menu does not show them the entry) and no expired company (the server refuses it) is asked.
 */
export function useConnectionsNeedAttention(
  user: Pick<AuthUser, 'companyId' | 'profile' | 'super' | 'allowConnections'>,
  expired: boolean,
): boolean {
  const enabled = canManageConnections(user) && !expired;
  const live = useLiveConnections(user.companyId, { enabled, delayMs: CONNECTIONS_CHECK_DELAY_MS });
  return enabled && live.connections.some((c) => needsAttention(c.status));
}
