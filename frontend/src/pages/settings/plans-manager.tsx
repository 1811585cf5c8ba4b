import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import Toggle from '@cloudscape-design/components/toggle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { createPlan, deletePlan, listAllPlans, updatePlan, type Plan, type PlanInput } from '@/api/billing';
import { ConfirmDeleteModal } from '@/components/confirm-modal';
import { FormModal } from '@/components/form-modal/form-modal';
import { useRequest } from '@/hooks/use-request';

/** The plan switches (administration §3 Plan), all on by default in the form. */
export const PLAN_FLAGS = [
  'useWhatsapp',
  'useFacebook',
  'useInstagram',
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
] as const;
type Flag = (typeof PLAN_FLAGS)[number];

type PlanValues = { name: string; users: string; connections: string; queues: string; amount: string } & Record<
  Flag | 'isPublic',
  boolean
>;

const count = z.string().check(z.trim(), z.regex(/^\d+$/, 'billing.plans.dialog.wholeNumber'));
const planSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'billing.plans.dialog.nameRequired')),
  users: count,
  connections: count,
  queues: count,
  amount: z.string().check(z.trim(), z.regex(/^\d+([.,]\d{1,2})?$/, 'billing.plans.dialog.amountInvalid')),
});

/** R$ 1.234,50 */
export const brl = (value: number): string =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(value);

const toInput = (v: PlanValues): PlanInput => ({
  name: v.name.trim(),
  users: Number(v.users),
  connections: Number(v.connections),
  queues: Number(v.queues),
  amount: Number(v.amount.replace(',', '.')),
  isPublic: v.isPublic,
  ...(Object.fromEntries(PLAN_FLAGS.map((f) => [f, v[f]])) as Record<Flag, boolean>),
});

const initialOf = (plan: Plan | undefined): PlanValues => ({
  name: plan?.name ?? '',
  users: String(plan?.users ?? 0),
  connections: String(plan?.connections ?? 0),
  queues: String(plan?.queues ?? 0),
  amount: String(plan?.amount ?? 0),
  isPublic: plan?.isPublic ?? true,
  ...(Object.fromEntries(PLAN_FLAGS.map((f) => [f, plan?.[f] ?? true])) as Record<Flag, boolean>),
});

function PlanDialog({
  record,
  onDismiss,
  onSaved,
}: {
  record: Plan | undefined;
  onDismiss: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  return (
    <FormModal
      title={record ? t('billing.plans.dialog.editTitle') : t('billing.plans.dialog.addTitle')}
      size="large"
      initial={initialOf(record)}
      schema={planSchema}
      onSubmit={(_parsed, values) => (record ? updatePlan(record.id, toInput(values)) : createPlan(toInput(values)))}
      savedText={t('billing.plans.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={t('billing.plans.dialog.save')}
      cancelText={t('billing.plans.dialog.cancel')}
    >
      {(form) => (
        <Form>
          <SpaceBetween size="m">
            <FormField label={t('billing.plans.fields.name')} errorText={form.error('name')}>
              <Input {...form.text('name')} />
            </FormField>
            <ColumnLayout columns={4}>
              {(['users', 'connections', 'queues', 'amount'] as const).map((field) => (
                <FormField key={field} label={t(`billing.plans.fields.${field}`)} errorText={form.error(field)}>
                  <Input inputMode="decimal" {...form.text(field)} />
                </FormField>
              ))}
            </ColumnLayout>
            <ColumnLayout columns={3}>
              {(['isPublic', ...PLAN_FLAGS] as const).map((flag) => (
                <Toggle key={flag} {...form.toggle(flag)}>
                  {t(`billing.plans.fields.${flag}`)}
                </Toggle>
              ))}
            </ColumnLayout>
          </SpaceBetween>
        </Form>
      )}
    </FormModal>
  );
}

/**
 * The owner's plans (administration §2 "Companies and plans": list, create, edit, remove; a super tab of
 * /settings; decisions D151). A failure (a duplicate name, a plan in use) is the spec's 'Não foi possível
 * realizar a operação' toast through the server's error text.
 */
export function PlansManager() {
  const { t } = useTranslation();
  const plans = useRequest((signal) => listAllPlans({ signal }), []);
  const [editing, setEditing] = useState<{ item: Plan | undefined } | null>(null);
  const [deleting, setDeleting] = useState<Plan | null>(null);
  const items = plans.status === 'ready' ? plans.data : [];
  const yesNo = (on: boolean) => (on ? t('billing.plans.yes') : t('billing.plans.no'));
  return (
    <>
      <Table
        items={items}
        loading={plans.status === 'loading'}
        loadingText={t('billing.plans.loading')}
        trackBy="id"
        header={
          <Header
            counter={`(${items.length})`}
            actions={
              <Button variant="primary" onClick={() => setEditing({ item: undefined })}>
                {t('billing.plans.add')}
              </Button>
            }
          >
            {t('billing.plans.header')}
          </Header>
        }
        empty={
          <Box textAlign="center">
            {plans.status === 'error' ? t('billing.plans.loadError') : t('billing.plans.empty')}
          </Box>
        }
        columnDefinitions={[
          { id: 'name', header: t('billing.plans.fields.name'), cell: (p) => p.name, isRowHeader: true },
          { id: 'users', header: t('billing.plans.fields.users'), cell: (p) => p.users },
          { id: 'connections', header: t('billing.plans.fields.connections'), cell: (p) => p.connections },
          { id: 'queues', header: t('billing.plans.fields.queues'), cell: (p) => p.queues },
          { id: 'amount', header: t('billing.plans.fields.amount'), cell: (p) => brl(p.amount) },
          { id: 'isPublic', header: t('billing.plans.fields.isPublic'), cell: (p) => yesNo(p.isPublic) },
          {
            id: 'actions',
            header: t('billing.plans.actions'),
            cell: (p) => (
              <SpaceBetween direction="horizontal" size="xxs">
                <Button
                  variant="icon"
                  iconName="edit"
                  ariaLabel={t('billing.plans.edit', { name: p.name })}
                  onClick={() => setEditing({ item: p })}
                />
                <Button
                  variant="icon"
                  iconName="remove"
                  ariaLabel={t('billing.plans.remove', { name: p.name })}
                  onClick={() => setDeleting(p)}
                />
              </SpaceBetween>
            ),
          },
        ]}
      />
      {editing && (
        <PlanDialog
          record={editing.item}
          onDismiss={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            plans.reload();
          }}
        />
      )}
      {deleting && (
        <ConfirmDeleteModal
          section="billing.plans.delete"
          name={deleting.name}
          remove={() => deletePlan(deleting.id)}
          onDismiss={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            plans.reload();
          }}
        />
      )}
    </>
  );
}
