import Badge from '@cloudscape-design/components/badge';
import { useTranslation } from 'react-i18next';

/** Administration §9: priority 1 red (Alta), 2 orange (Média), 3 grey (Baixa). */
export const PRIORITY_COLORS: Record<1 | 2 | 3, string> = { 1: '#d91515', 2: '#ec7211', 3: '#8d99a8' };
const BADGE = { 1: 'red', 2: 'severity-medium', 3: 'grey' } as const;

export function PriorityBadge({ priority }: { priority: 1 | 2 | 3 }) {
  const { t } = useTranslation();
  return <Badge color={BADGE[priority]}>{t(`announcements.priority.${priority}`)}</Badge>;
}
