import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Grid from '@cloudscape-design/components/grid';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Toggle from '@cloudscape-design/components/toggle';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { createContact, updateContact, type Contact } from '@/api/contacts';
import { FormModal, type FormApi } from '@/components/form-modal/form-modal';

interface ContactValues {
  name: string;
  number: string;
  email: string;
  disableBot: boolean;
  extraInfo: { name: string; value: string }[];
}

/** The spec's contact rules (core §5): name 2–250, number 8–50, a valid e-mail (or none). */
const contactSchema = z.object({
  name: z
    .string()
    .check(z.trim(), z.minLength(2, 'contacts.dialog.tooShort'), z.maxLength(250, 'contacts.dialog.tooLong')),
  number: z
    .string()
    .check(z.trim(), z.minLength(8, 'contacts.dialog.tooShort'), z.maxLength(50, 'contacts.dialog.tooLong')),
  email: z.string().check(
    z.trim(),
    z.refine((v) => v === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'contacts.dialog.invalidEmail'),
  ),
  disableBot: z.boolean(),
  extraInfo: z.array(
    z.object({ name: z.string().check(z.trim(), z.minLength(1, 'contacts.dialog.required')), value: z.string() }),
  ),
});

/** Add or edit a contact (core §3, §5): name, number, e-mail, bot off, and extra information (name/value). */
export function ContactDialog({
  record,
  onDismiss,
  onSaved,
}: {
  record: Contact | undefined;
  onDismiss: () => void;
  onSaved: (saved: Contact) => void;
}) {
  const { t } = useTranslation();
  const initial: ContactValues = {
    name: record?.name ?? '',
    number: record?.number ?? '',
    email: record?.email ?? '',
    disableBot: record?.disableBot ?? false,
    extraInfo: (record?.extraInfo ?? []).map(({ name, value }) => ({ name, value })),
  };
  return (
    <FormModal
      title={record ? t('contacts.dialog.editTitle') : t('contacts.dialog.addTitle')}
      initial={initial}
      schema={contactSchema}
      onSubmit={(parsed) => (record ? updateContact(record.id, parsed) : createContact(parsed))}
      savedText={t('contacts.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
    >
      {(form) => <ContactFields form={form} />}
    </FormModal>
  );
}

function ContactFields({ form }: { form: FormApi<ContactValues> }) {
  const { t } = useTranslation();
  const extra = form.values.extraInfo;
  const setExtra = (index: number, change: Partial<{ name: string; value: string }>) =>
    form.set({ extraInfo: extra.map((e, i) => (i === index ? { ...e, ...change } : e)) });
  return (
    <Form>
      <SpaceBetween size="m">
        <FormField label={t('contacts.dialog.name')} errorText={form.error('name')}>
          <Input {...form.text('name')} />
        </FormField>
        <FormField label={t('contacts.dialog.number')} errorText={form.error('number')}>
          <Input {...form.text('number')} inputMode="tel" placeholder="5511999999999" />
        </FormField>
        <FormField label={t('contacts.dialog.email')} errorText={form.error('email')}>
          <Input {...form.text('email')} type="email" />
        </FormField>
        <Toggle {...form.toggle('disableBot')}>{t('contacts.dialog.disableBot')}</Toggle>
        <Header variant="h3">{t('contacts.dialog.extraInfo')}</Header>
        {extra.map((e, i) => (
          <Grid key={i} gridDefinition={[{ colspan: 5 }, { colspan: 5 }, { colspan: 2 }]}>
            <FormField label={t('contacts.dialog.extraName')} errorText={form.error(`extraInfo.${i}.name`)}>
              <Input value={e.name} onChange={({ detail }) => setExtra(i, { name: detail.value })} />
            </FormField>
            <FormField label={t('contacts.dialog.extraValue')}>
              <Input value={e.value} onChange={({ detail }) => setExtra(i, { value: detail.value })} />
            </FormField>
            <Button
              variant="icon"
              iconName="remove"
              ariaLabel={t('contacts.dialog.removeExtra')}
              onClick={() => form.set({ extraInfo: extra.filter((_, k) => k !== i) })}
            />
          </Grid>
        ))}
        <Button iconName="add-plus" onClick={() => form.set({ extraInfo: [...extra, { name: '', value: '' }] })}>
          {t('contacts.dialog.addExtra')}
        </Button>
      </SpaceBetween>
    </Form>
  );
}
