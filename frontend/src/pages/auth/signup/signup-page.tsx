import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { listPublicPlans, signup, type PublicPlan } from '@/api/auth';
import { useNotifications } from '@/components/notifications';
import { useErrorText } from '@/hooks/use-error-text';
import { useRequest } from '@/hooks/use-request';
import { LOGIN_PATH } from '@/paths';
import { AuthForm, AuthLayout, AuthLinks } from '../auth-layout';
import { PasswordField } from '../password-field';
import { email, length, normalizeEmail, required, validate } from '../validation';

/** Sign-up rules (core spec §5): the bounds and messages of the original form. */
const RULES = {
  name: length(2, 50),
  companyName: length(2, 50),
  email,
  password: length(5, 50),
  phone: required,
  planId: required,
};

type Values = Record<keyof typeof RULES, string>;
const EMPTY: Values = { name: '', companyName: '', email: '', password: '', phone: '', planId: '' };

/** The optional `companyId` query of a sign-up link, when it is a positive whole number. */
const companyIdOf = (raw: string | null): number | undefined => {
  const id = Number(raw);
  return raw && Number.isInteger(id) && id > 0 ? id : undefined;
};

/**
 * /signup (core spec §2, §5): a new company on one of the public plans with its admin user; success shows a
 * toast and leads to /login.
 */
export function SignupPage() {
  const { t, i18n } = useTranslation();
  const notify = useNotifications();
  const textOf = useErrorText();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const plans = useRequest((signal) => listPublicPlans({ signal }), []);
  const [values, setValues] = useState(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const errors = submitted ? validate(values, RULES) : {};
  const set = (field: keyof Values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const message = (field: keyof Values) => {
    const key = errors[field];
    return key ? t(key) : undefined;
  };

  const money = new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'currency', currency: 'BRL' });
  const optionOf = (plan: PublicPlan): SelectProps.Option => ({
    value: String(plan.id),
    label: plan.name,
    description: t('auth.signup.planDetails', {
      users: plan.users,
      connections: plan.connections,
      queues: plan.queues,
      amount: money.format(plan.amount),
    }),
  });
  const options = plans.status === 'ready' ? plans.data.map(optionOf) : [];

  const onSubmit = async () => {
    setSubmitted(true);
    if (Object.keys(validate(values, RULES)).length > 0) return;
    setSubmitting(true);
    const companyId = companyIdOf(searchParams.get('companyId'));
    try {
      await signup({
        name: values.name.trim(),
        companyName: values.companyName.trim(),
        email: normalizeEmail(values.email),
        password: values.password,
        phone: values.phone.trim(),
        planId: Number(values.planId),
        ...(companyId === undefined ? {} : { companyId }),
      });
      notify.success(t('auth.signup.success'));
      await navigate(LOGIN_PATH);
    } catch (err) {
      notify.error(err);
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout
      title={t('auth.signup.title')}
      description={t('auth.signup.description')}
      footer={<AuthLinks links={[{ href: LOGIN_PATH, text: t('auth.signup.toLogin') }]} />}
    >
      <AuthForm submitLabel={t('auth.signup.submit')} submitting={submitting} onSubmit={onSubmit}>
        <SpaceBetween size="m">
          <FormField label={t('auth.signup.name')} errorText={message('name')}>
            <Input autoComplete="name" value={values.name} onChange={({ detail }) => set('name')(detail.value)} />
          </FormField>
          <FormField label={t('auth.signup.companyName')} errorText={message('companyName')}>
            <Input
              autoComplete="organization"
              value={values.companyName}
              onChange={({ detail }) => set('companyName')(detail.value)}
            />
          </FormField>
          <FormField label={t('auth.email')} errorText={message('email')}>
            <Input
              type="email"
              inputMode="email"
              autoComplete="email"
              value={values.email}
              onChange={({ detail }) => set('email')(detail.value)}
            />
          </FormField>
          <PasswordField
            label={t('auth.password')}
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            errorText={message('password')}
          />
          <FormField
            label={t('auth.signup.phone')}
            constraintText={t('auth.signup.phoneHint')}
            errorText={message('phone')}
          >
            <Input
              inputMode="tel"
              autoComplete="tel"
              value={values.phone}
              onChange={({ detail }) => set('phone')(detail.value)}
            />
          </FormField>
          <FormField label={t('auth.signup.plan')} errorText={message('planId')}>
            <Select
              selectedOption={options.find((o) => o.value === values.planId) ?? null}
              options={options}
              placeholder={t('auth.signup.planPlaceholder')}
              statusType={plans.status === 'ready' ? 'finished' : plans.status}
              loadingText={t('auth.signup.plansLoading')}
              errorText={plans.status === 'error' ? textOf(plans.error) : undefined}
              recoveryText={t('common.retry')}
              onLoadItems={() => {
                if (plans.status === 'error') plans.reload();
              }}
              onChange={({ detail }) => set('planId')(detail.selectedOption.value ?? '')}
            />
          </FormField>
        </SpaceBetween>
      </AuthForm>
    </AuthLayout>
  );
}
