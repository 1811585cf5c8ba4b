import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useNotifications } from '@/components/notifications';
import { PageLoading } from '@/components/page-loading';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { PLAN_REDIRECT_MS, accessVerdict, routeAccessOf } from '@/route-access';
import { useCurrentUser, usePlan } from './shell-context';

/**
 * Around every private page (the app shell's content): the route's rule of route-access.ts decides what a
 * user who may not open it gets — the no-permission view (core spec §2's 403 screen: admin, super and
 * per-user areas), or for a plan the company lacks the spec's error and a redirect to / after 1 s
 * (administration spec §6). Placeholders and real pages are guarded alike.
 */
export function RequireRouteAccess({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const user = useCurrentUser();
  const { planFlags, planLoaded } = usePlan();
  const access = routeAccessOf(pathname);
  const verdict = accessVerdict(access, user, planFlags);
  if (verdict === 'no-permission') return <AccessDeniedPage />;
  // A page gated by a flag waits for the plan rather than refusing (shell-context.tsx).
  if (access?.plan && !planLoaded) return <PageLoading />;
  if (verdict === 'plan') return <PlanRedirect key={pathname} />;
  return children;
}

/** 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.', then /. */
function PlanRedirect() {
  const { t } = useTranslation();
  const notifications = useNotifications();
  const navigate = useNavigate();
  const told = useRef(false);
  useEffect(() => {
    if (!told.current) notifications.notify('error', t('errors.planDenied'));
    told.current = true;
    const timer = setTimeout(() => void navigate('/', { replace: true }), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate, notifications, t]);
  return null;
}
