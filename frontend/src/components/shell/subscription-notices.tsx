import type { FlashbarProps } from '@cloudscape-design/components/flashbar';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthUser } from '@/api/auth';
import { can, roleWith } from '@/permissions';
import { formatDueDate, subscriptionStatus } from './subscription';

/**
 * The subscription notices above every private page (core spec §4): a dismissible warning when fewer than
 * 5 days remain ('Sua assinatura vence em N dias', singular 'dia'), and, once expired, an error with the
 * expiry date that stays until the invoice is paid. Whoever sees Financeiro is pointed there; the others
 * are asked to talk to their administrator.
 */
export function useSubscriptionNotices(user: AuthUser, now?: Date): FlashbarProps.MessageDefinition[] {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(false);
  const status = subscriptionStatus(user.company, now);

  if (status.kind === 'expired') {
    const seesFinance = can(roleWith(user, user.allowConnections), 'drawer-admin-items:view');
    return [
      {
        id: 'subscription-expired',
        type: 'error',
        header: t('subscription.expiredTitle'),
        content: `${t('subscription.expired', { date: formatDueDate(status.dueDate) })} ${t(
          seesFinance ? 'subscription.expiredAdmin' : 'subscription.expiredUser',
        )}`,
      },
    ];
  }
  if (status.kind === 'dueSoon' && !dismissed) {
    return [
      {
        id: 'subscription-due-soon',
        type: 'warning',
        content: status.days <= 0 ? t('subscription.dueToday') : t('subscription.dueSoon', { count: status.days }),
        dismissible: true,
        dismissLabel: t('subscription.dismiss'),
        onDismiss: () => setDismissed(true),
      },
    ];
  }
  return [];
}
