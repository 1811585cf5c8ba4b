import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Toggle from '@cloudscape-design/components/toggle';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { createFlow, updateFlow, type Flow } from '@/api/flows';
import { FormModal } from '@/components/form-modal/form-modal';

interface FlowNameValues {
  name: string;
  active: boolean;
}

/** §5: min 2 'Muito curto!', max 50 'Muito longo!', required 'Digite um nome!'. */
const flowNameSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'flows.dialog.required'),
      z.minLength(2, 'flows.dialog.tooShort'),
      z.maxLength(50, 'flows.dialog.tooLong'),
    ),
  active: z.boolean(),
});

/**
 * 'Adicionar Fluxo' / 'Editar Fluxo' (administration §2 Flow builder): the flow's name, and on edit whether
 * it is active (Ativo / Desativado; only an active flow starts new conversations, decisions D138).
 */
export function FlowNameDialog({
  record,
  onDismiss,
  onSaved,
}: {
  record: Flow | undefined;
  onDismiss: () => void;
  onSaved: (saved: Flow) => void;
}) {
  const { t } = useTranslation();
  return (
    <FormModal
      title={record ? t('flows.dialog.editTitle') : t('flows.dialog.addTitle')}
      initial={{ name: record?.name ?? '', active: record?.active ?? true }}
      schema={flowNameSchema}
      onSubmit={async ({ name, active }: FlowNameValues) =>
        record ? updateFlow(record.id, { name, active }) : createFlow(name)
      }
      savedText={t('flows.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={record ? t('flows.dialog.save') : t('flows.dialog.add')}
      cancelText={t('flows.dialog.cancel')}
    >
      {(form) => (
        <Form>
          <SpaceBetween size="m">
            <FormField label={t('flows.dialog.name')} errorText={form.error('name')}>
              <Input {...form.text('name')} />
            </FormField>
            {record && (
              <FormField label={t('flows.columns.status')}>
                <Toggle {...form.toggle('active')}>{t('flows.active')}</Toggle>
              </FormField>
            )}
          </SpaceBetween>
        </Form>
      )}
    </FormModal>
  );
}
