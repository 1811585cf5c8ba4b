import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { useTranslation } from 'react-i18next';
import { PASSWORD_CHECKS, passwordChecks, strengthOf, type PasswordStrength } from './password-strength';

const INDICATOR: Record<PasswordStrength, StatusIndicatorProps.Type> = {
  weak: 'error',
  medium: 'warning',
  strong: 'success',
};

/** The login's strength meter: the verdict, then each of the five checks as passed or not. */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const { t } = useTranslation();
  const checks = passwordChecks(password);
  const strength = strengthOf(Object.values(checks).filter(Boolean).length);
  return (
    <SpaceBetween size="xxs">
      <span aria-live="polite">
        <StatusIndicator type={INDICATOR[strength]}>
          {t('auth.strength.label')}: {t(`auth.strength.${strength}`)}
        </StatusIndicator>
      </span>
      <SpaceBetween size="xs" direction="horizontal">
        {PASSWORD_CHECKS.map((check) => (
          <StatusIndicator
            key={check}
            type={checks[check] ? 'success' : 'pending'}
            colorOverride={checks[check] ? 'green' : 'grey'}
          >
            {t(`auth.strength.checks.${check}`)}
          </StatusIndicator>
        ))}
      </SpaceBetween>
    </SpaceBetween>
  );
}
