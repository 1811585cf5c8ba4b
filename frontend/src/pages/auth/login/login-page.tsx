import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input, { type InputProps } from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { login } from '@/api/auth';
import { useNotifications } from '@/components/notifications';
import { FORGOT_PASSWORD_PATH, landingPathFor, SIGNUP_PATH } from '@/paths';
import { AuthForm, AuthLayout, AuthLinks } from '../auth-layout';
import { PasswordField } from '../password-field';
import { passwordScore, strengthOf } from '../password-strength';
import { PasswordStrengthMeter } from '../password-strength-meter';
import { email, normalizeEmail, required, validate } from '../validation';

const RULES = { email, password: required };

/**
 * /login (core spec §2, §5): e-mail and password with the five-check strength meter. A weak password
 * (score 2 or less) asks first, in the 'Senha fraca' dialog, whether to continue or change it. Success lands
 * on /tickets, or /financeiro when the company's subscription has expired.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const notify = useNotifications();
  const navigate = useNavigate();
  const [values, setValues] = useState({ email: '', password: '' });
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [askWeak, setAskWeak] = useState(false);
  const passwordRef = useRef<InputProps.Ref>(null);
  const [changePassword, setChangePassword] = useState(false);

  // After 'Alterar senha' the password field gets the focus. This runs after the dialog's own effects,
  // which hand the focus back to the submit button as it closes.
  useEffect(() => {
    if (!changePassword) return;
    setChangePassword(false);
    passwordRef.current?.focus();
  }, [changePassword]);

  const errors = submitted ? validate(values, RULES) : {};
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const send = async () => {
    setSubmitting(true);
    try {
      const { user } = await login({ email: normalizeEmail(values.email), password: values.password });
      await navigate(landingPathFor(user), { replace: true });
    } catch (err) {
      notify.error(err);
      setSubmitting(false);
    }
  };

  const onSubmit = () => {
    setSubmitted(true);
    if (Object.keys(validate(values, RULES)).length > 0) return;
    if (strengthOf(passwordScore(values.password)) === 'weak') setAskWeak(true);
    else void send();
  };

  return (
    <AuthLayout
      title={t('auth.login.title')}
      description={t('auth.login.description')}
      footer={
        <AuthLinks
          links={[
            { href: SIGNUP_PATH, text: t('auth.login.toSignup') },
            { href: FORGOT_PASSWORD_PATH, text: t('auth.login.toForgot') },
          ]}
        />
      }
    >
      <AuthForm submitLabel={t('auth.login.submit')} submitting={submitting} onSubmit={onSubmit}>
        <SpaceBetween size="m">
          <FormField label={t('auth.email')} errorText={errors.email && t(errors.email)}>
            <Input
              type="email"
              inputMode="email"
              autoComplete="username"
              autoFocus
              value={values.email}
              onChange={({ detail }) => set('email')(detail.value)}
            />
          </FormField>
          <PasswordField
            label={t('auth.password')}
            autoComplete="current-password"
            inputRef={passwordRef}
            value={values.password}
            onChange={set('password')}
            errorText={errors.password && t(errors.password)}
            constraintText={values.password ? <PasswordStrengthMeter password={values.password} /> : undefined}
          />
        </SpaceBetween>
      </AuthForm>
      <Modal
        visible={askWeak}
        header={t('auth.login.weakTitle')}
        closeAriaLabel={t('common.close')}
        onDismiss={() => setAskWeak(false)}
        footer={
          <Box float="right">
            <SpaceBetween direction="horizontal" size="xs">
              <Button
                onClick={() => {
                  setAskWeak(false);
                  setChangePassword(true);
                }}
              >
                {t('auth.login.weakChange')}
              </Button>
              <Button
                variant="primary"
                onClick={() => {
                  setAskWeak(false);
                  void send();
                }}
              >
                {t('auth.login.weakContinue')}
              </Button>
            </SpaceBetween>
          </Box>
        }
      >
        {t('auth.login.weakText')}
      </Modal>
    </AuthLayout>
  );
}
