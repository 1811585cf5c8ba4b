import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Toggle from '@cloudscape-design/components/toggle';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { listConnections, type Connection } from '@/api/connections';
import { createFlowCampaign, listAllFlows, updateFlowCampaign, type Flow, type FlowCampaign } from '@/api/flows';
import { FormModal } from '@/components/form-modal/form-modal';

interface PhraseCampaignValues {
  name: string;
  phrase: string;
  /** '' until a flow is chosen. */
  flowId: string;
  /** '' for every connection. */
  whatsappId: string;
  status: boolean;
}

/** §5: name, flow and phrase must be filled in; the connection may stay empty (every connection). */
const phraseCampaignSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'phraseLists.dialog.required')),
  phrase: z.string().check(z.trim(), z.minLength(1, 'phraseLists.dialog.required')),
  flowId: z.string().check(z.minLength(1, 'phraseLists.dialog.required')),
  whatsappId: z.string(),
  status: z.boolean(),
});

/**
 * 'Nova campanha com fluxo por frase' / 'Editar campanha com fluxo por frase' (administration §2 Campaigns by
 * phrase; decisions D140): name, the flow (searchable by name), the connection (name and status; empty is
 * every connection), the phrase, and on edit the Status switch (create sends no status, §4).
 */
export function PhraseCampaignDialog({
  record,
  onDismiss,
  onSaved,
}: {
  record: FlowCampaign | undefined;
  onDismiss: () => void;
  onSaved: (saved: FlowCampaign) => void;
}) {
  const { t } = useTranslation();
  const [flows, setFlows] = useState<Flow[]>([]);
  const [connections, setConnections] = useState<Connection[]>([]);
  useEffect(() => {
    const abort = new AbortController();
    listAllFlows({ signal: abort.signal }).then(setFlows, () => undefined);
    listConnections({ signal: abort.signal }).then(setConnections, () => undefined);
    return () => abort.abort();
  }, []);
  const flowOptions: SelectProps.Option[] = flows.map((f) => ({ value: String(f.id), label: f.name }));
  const connectionOptions: SelectProps.Option[] = [
    { value: '', label: t('phraseLists.dialog.everyConnection') },
    ...connections.map((c) => ({ value: String(c.id), label: c.name, description: c.status })),
  ];
  const initial: PhraseCampaignValues = {
    name: record?.name ?? '',
    phrase: record?.phrase ?? '',
    flowId: record ? String(record.flowId) : '',
    whatsappId: record?.whatsappId ? String(record.whatsappId) : '',
    status: record?.status ?? true,
  };
  return (
    <FormModal
      title={record ? t('phraseLists.dialog.editTitle') : t('phraseLists.dialog.addTitle')}
      initial={initial}
      schema={phraseCampaignSchema}
      onSubmit={async (values: PhraseCampaignValues) => {
        const input = {
          name: values.name,
          phrase: values.phrase,
          flowId: Number(values.flowId),
          whatsappId: values.whatsappId ? Number(values.whatsappId) : null,
        };
        return record ? updateFlowCampaign(record.id, { ...input, status: values.status }) : createFlowCampaign(input);
      }}
      savedText={record ? t('phraseLists.dialog.updated') : t('phraseLists.dialog.created')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={record ? t('phraseLists.dialog.save') : t('phraseLists.dialog.create')}
      cancelText={t('phraseLists.dialog.cancel')}
    >
      {(form) => (
        <Form>
          <SpaceBetween size="m">
            <FormField label={t('phraseLists.dialog.name')} errorText={form.error('name')}>
              <Input {...form.text('name')} />
            </FormField>
            <FormField label={t('phraseLists.dialog.flow')} errorText={form.error('flowId')}>
              <Select
                selectedOption={flowOptions.find((o) => o.value === form.values.flowId) ?? null}
                options={flowOptions}
                filteringType="auto"
                placeholder={t('phraseLists.dialog.flow')}
                onChange={({ detail }) => form.set({ flowId: detail.selectedOption.value ?? '' })}
              />
            </FormField>
            <FormField label={t('phraseLists.dialog.connection')} errorText={form.error('whatsappId')}>
              <Select
                selectedOption={connectionOptions.find((o) => o.value === form.values.whatsappId) ?? null}
                options={connectionOptions}
                placeholder={t('phraseLists.dialog.connection')}
                onChange={({ detail }) => form.set({ whatsappId: detail.selectedOption.value ?? '' })}
              />
            </FormField>
            <FormField label={t('phraseLists.dialog.phrase')} errorText={form.error('phrase')}>
              <Input {...form.text('phrase')} />
            </FormField>
            {record && (
              <FormField label={t('phraseLists.columns.status')}>
                <Toggle {...form.toggle('status')}>{t('phraseLists.active')}</Toggle>
              </FormField>
            )}
          </SpaceBetween>
        </Form>
      )}
    </FormModal>
  );
}
