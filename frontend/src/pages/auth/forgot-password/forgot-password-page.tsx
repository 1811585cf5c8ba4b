import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '@/api/api-error';
import { requestPasswordReset, resetPassword } from '@/api/auth';
import { useNotifications } from '@/components/notifications';
import { LOGIN_PATH, SIGNUP_PATH } from '@/paths';
import { AuthForm, AuthLayout, AuthLinks } from '../auth-layout';
import { PasswordField } from '../password-field';
import { email, normalizeEmail, required, resetPasswordRule, validate, type Rule } from '../validation';

type Step = 'request' | 'reset';
type Values = { email: string; code: string; newPassword: string; confirmation: string };

const REQUEST_RULES: Partial<Record<keyof Values, Rule>> = { email };

/**
 * /forgetpsw (administration spec §2 "Other", §5): step one sends a code to the e-mail ('Email enviado com
 * sucesso!'; 404 'Email não encontrado'); step two takes the e-mail, the code and the new password twice,
 * and success ('Senha redefinida com sucesso.') leads to /login.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const notify = useNotifications();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('request');
  const [values, setValues] = useState<Values>({ email: '', code: '', newPassword: '', confirmation: '' });
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const rules: Partial<Record<keyof Values, Rule>> =
    step === 'request'
      ? REQUEST_RULES
      : {
          email,
          code: required,
          newPassword: resetPasswordRule,
          confirmation: (value) =>
            required(value) ?? (value === values.newPassword ? undefined : 'auth.forgot.mismatch'),
        };
  const check = () => validate(values, rules as Record<keyof Values, Rule>);
  const errors = submitted ? check() : {};
  const set = (field: keyof Values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const message = (field: keyof Values) => {
    const key = errors[field];
    return key ? t(key) : undefined;
  };

  const run = async (call: () => Promise<void>) => {
    setSubmitting(true);
    try {
      await call();
    } catch (err) {
      // The spec gives 404 a meaning only for the code request: the e-mail is unknown.
      if (step === 'request' && err instanceof ApiError && err.status === 404) {
        notify.notify('error', t('auth.forgot.notFound'));
      } else notify.error(err);
    } finally {
      setSubmitting(false);
    }
  };

  const onSubmit = () => {
    setSubmitted(true);
    if (Object.keys(check()).length > 0) return;
    const address = normalizeEmail(values.email);
    if (step === 'request') {
      void run(async () => {
        await requestPasswordReset(address);
        notify.success(t('auth.forgot.sent'));
        setSubmitted(false);
        setStep('reset');
      });
    } else {
      void run(async () => {
        await resetPassword({ email: address, token: values.code.trim(), newPassword: values.newPassword });
        notify.success(t('auth.forgot.success'));
        await navigate(LOGIN_PATH);
      });
    }
  };

  let fields: ReactNode = (
    <FormField label={t('auth.email')} errorText={message('email')}>
      <Input
        type="email"
        inputMode="email"
        autoComplete="email"
        autoFocus
        value={values.email}
        onChange={({ detail }) => set('email')(detail.value)}
      />
    </FormField>
  );
  if (step === 'reset') {
    fields = (
      <SpaceBetween size="m">
        {fields}
        <FormField label={t('auth.forgot.code')} errorText={message('code')}>
          <Input
            autoComplete="one-time-code"
            value={values.code}
            onChange={({ detail }) => set('code')(detail.value)}
          />
        </FormField>
        <PasswordField
          label={t('auth.forgot.newPassword')}
          autoComplete="new-password"
          value={values.newPassword}
          onChange={set('newPassword')}
          errorText={message('newPassword')}
        />
        <PasswordField
          label={t('auth.forgot.confirmPassword')}
          autoComplete="new-password"
          value={values.confirmation}
          onChange={set('confirmation')}
          errorText={message('confirmation')}
        />
      </SpaceBetween>
    );
  }

  return (
    <AuthLayout
      title={t('auth.forgot.title')}
      description={t(step === 'request' ? 'auth.forgot.requestDescription' : 'auth.forgot.resetDescription')}
      footer={
        <AuthLinks
          links={[
            { href: LOGIN_PATH, text: t('auth.forgot.toLogin') },
            { href: SIGNUP_PATH, text: t('auth.forgot.toSignup') },
          ]}
        />
      }
    >
      <AuthForm
        submitLabel={t(step === 'request' ? 'auth.forgot.sendCode' : 'auth.forgot.submit')}
        submitting={submitting}
        onSubmit={onSubmit}
      >
        {fields}
      </AuthForm>
    </AuthLayout>
  );
}
