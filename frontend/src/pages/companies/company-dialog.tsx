import DatePicker from '@cloudscape-design/components/date-picker';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Toggle from '@cloudscape-design/components/toggle';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { listAllPlans, type Plan } from '@/api/billing';
import { createCompany, RECURRENCE_OPTIONS, updateCompany, type Company, type Recurrence } from '@/api/companies';
import { FormModal, type FormApi } from '@/components/form-modal/form-modal';

interface CompanyValues {
  name: string;
  email: string;
  passwordDefault: string;
  status: boolean;
  planId: string;
  recurrence: string;
  dueDate: string;
  numberAttendants: string;
  numberConections: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NUMERIC = /^\d*$/;

/**
 * The spec's company rules (administration §5): name 2–50 ('Nome é obrigatório'), e-mail required ('E-mail é
 * obrigatório') and valid ('Email é inválido'), plan required, counters numeric; a new company needs the
 * admin's default password.
 */
const schemaFor = (creating: boolean) =>
  z.object({
    name: z
      .string()
      .check(z.trim(), z.minLength(2, 'companies.dialog.nameRequired'), z.maxLength(50, 'companies.dialog.tooLong')),
    email: z.string().check(
      z.trim(),
      z.minLength(1, 'companies.dialog.emailRequired'),
      z.refine((v) => v === '' || EMAIL.test(v), 'companies.dialog.emailInvalid'),
    ),
    passwordDefault: z.string().check(z.refine((v) => !creating || v.length >= 5, 'companies.dialog.passwordShort')),
    status: z.boolean(),
    planId: z.string().check(z.minLength(1, 'companies.dialog.planRequired')),
    recurrence: z.string(),
    dueDate: z.string(),
    numberAttendants: z.string().check(z.refine((v) => NUMERIC.test(v), 'companies.dialog.numeric')),
    numberConections: z.string().check(z.refine((v) => NUMERIC.test(v), 'companies.dialog.numeric')),
  });

/**
 * Add or edit a company (administration §2 "Company dialog"): name, active switch, e-mail, the admin's default
 * password (show/hide), plan, recurrence, due date, attendants and connections counts.
 */
export function CompanyDialog({
  record,
  onDismiss,
  onSaved,
}: {
  record: Company | undefined;
  onDismiss: () => void;
  onSaved: (saved: Company) => void;
}) {
  const { t } = useTranslation();
  const initial: CompanyValues = {
    name: record?.name ?? '',
    email: record?.email ?? '',
    passwordDefault: '',
    status: record?.status ?? true,
    planId: record ? String(record.planId) : '',
    recurrence: record?.recurrence ?? 'MENSAL',
    dueDate: record?.dueDate ?? '',
    numberAttendants: String(record?.numberAttendants ?? 1),
    numberConections: String(record?.numberConections ?? 1),
  };
  return (
    <FormModal
      title={record ? t('companies.dialog.editTitle') : t('companies.dialog.addTitle')}
      initial={initial}
      schema={schemaFor(!record)}
      onSubmit={async (values) => {
        const input = {
          name: values.name.trim(),
          email: values.email.trim().toLowerCase(),
          status: values.status,
          planId: Number(values.planId),
          recurrence: values.recurrence as Recurrence,
          ...(values.dueDate ? { dueDate: values.dueDate } : {}),
          numberAttendants: Number(values.numberAttendants || 0),
          numberConections: Number(values.numberConections || 0),
        };
        return record
          ? updateCompany(record.id, input)
          : createCompany({ ...input, dueDate: values.dueDate, passwordDefault: values.passwordDefault });
      }}
      savedText={t('companies.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={t('companies.dialog.save')}
      cancelText={t('companies.dialog.cancel')}
    >
      {(form) => <CompanyFields form={form} creating={!record} />}
    </FormModal>
  );
}

function CompanyFields({ form, creating }: { form: FormApi<CompanyValues>; creating: boolean }) {
  const { t } = useTranslation();
  const [plans, setPlans] = useState<Plan[] | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    listAllPlans({ signal: controller.signal }).then(setPlans, () => setPlans([]));
    return () => controller.abort();
  }, []);
  const planOptions = (plans ?? []).map((p) => ({ value: String(p.id), label: p.name }));
  const selectedPlan = planOptions.find((o) => o.value === form.values.planId) ?? null;
  return (
    <Form>
      <SpaceBetween size="m">
        <FormField label={t('companies.dialog.name')} errorText={form.error('name')}>
          <Input {...form.text('name')} />
        </FormField>
        <FormField label={t('companies.dialog.status')}>
          <Toggle {...form.toggle('status')}>{t('companies.dialog.active')}</Toggle>
        </FormField>
        <FormField label={t('companies.dialog.email')} errorText={form.error('email')}>
          <Input type="email" {...form.text('email')} />
        </FormField>
        {creating && (
          <FormField
            label={t('companies.dialog.passwordDefault')}
            errorText={form.error('passwordDefault')}
            secondaryControl={
              <Toggle checked={showPassword} onChange={({ detail }) => setShowPassword(detail.checked)}>
                {t('companies.dialog.showPassword')}
              </Toggle>
            }
          >
            <Input type={showPassword ? 'text' : 'password'} {...form.text('passwordDefault')} />
          </FormField>
        )}
        <FormField label={t('companies.dialog.plan')} errorText={form.error('planId')}>
          <Select
            selectedOption={selectedPlan}
            options={planOptions}
            placeholder={t('companies.dialog.choosePlan')}
            statusType={plans === null ? 'loading' : 'finished'}
            loadingText={t('companies.dialog.loadingPlans')}
            onChange={({ detail }) => form.set({ planId: detail.selectedOption.value ?? '' })}
          />
        </FormField>
        <FormField label={t('companies.dialog.recurrence')}>
          <Select
            selectedOption={{
              value: form.values.recurrence,
              label: t(`companies.recurrence.${form.values.recurrence}`),
            }}
            options={RECURRENCE_OPTIONS.map((r) => ({ value: r, label: t(`companies.recurrence.${r}`) }))}
            onChange={({ detail }) => form.set({ recurrence: detail.selectedOption.value ?? 'MENSAL' })}
          />
        </FormField>
        <FormField label={t('companies.dialog.dueDate')} constraintText={t('companies.dialog.dueDateHint')}>
          <DatePicker
            value={form.values.dueDate}
            placeholder="YYYY/MM/DD"
            onChange={({ detail }) => form.set({ dueDate: detail.value })}
          />
        </FormField>
        <FormField label={t('companies.dialog.numberAttendants')} errorText={form.error('numberAttendants')}>
          <Input inputMode="numeric" {...form.text('numberAttendants')} />
        </FormField>
        <FormField label={t('companies.dialog.numberConections')} errorText={form.error('numberConections')}>
          <Input inputMode="numeric" {...form.text('numberConections')} />
        </FormField>
      </SpaceBetween>
    </Form>
  );
}
