import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { createContactListItem, updateContactListItem, type ContactListItem } from '@/api/contact-lists';
import { FormModal } from '@/components/form-modal/form-modal';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Administration §5: name 2 to 50 and required; number 8 to 50 characters; e-mail valid ('Invalid email'). */
const itemSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'contactLists.dialog.required'),
      z.minLength(2, 'contactLists.dialog.tooShort'),
      z.maxLength(50, 'contactLists.dialog.tooLong'),
    ),
  number: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'contactLists.dialog.required'),
      z.minLength(8, 'contactLists.dialog.tooShort'),
      z.maxLength(50, 'contactLists.dialog.tooLong'),
    ),
  email: z.string().check(
    z.trim(),
    z.refine((v) => v === '' || EMAIL.test(v), 'contactLists.dialog.invalidEmail'),
  ),
});

/** Add or edit a contact of a list (administration spec "Contact lists"): name, number, e-mail. */
export function ContactListItemDialog({
  contactListId,
  record,
  onDismiss,
  onSaved,
}: {
  contactListId: number;
  record: ContactListItem | undefined;
  onDismiss: () => void;
  onSaved: (saved: ContactListItem) => void;
}) {
  const { t } = useTranslation();
  return (
    <FormModal
      title={record ? t('contactLists.items.dialog.editTitle') : t('contactLists.items.dialog.addTitle')}
      initial={{ name: record?.name ?? '', number: record?.number ?? '', email: record?.email ?? '' }}
      schema={itemSchema}
      onSubmit={(values) =>
        record ? updateContactListItem(record.id, values) : createContactListItem({ ...values, contactListId })
      }
      savedText={t('contactLists.items.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={t('contactLists.dialog.save')}
      cancelText={t('contactLists.dialog.cancel')}
    >
      {(form) => (
        <Form>
          <SpaceBetween size="m">
            <FormField label={t('contactLists.items.dialog.name')} errorText={form.error('name')}>
              <Input {...form.text('name')} />
            </FormField>
            <FormField
              label={t('contactLists.items.dialog.number')}
              constraintText={t('contactLists.items.dialog.numberHint')}
              errorText={form.error('number')}
            >
              <Input {...form.text('number')} inputMode="tel" />
            </FormField>
            <FormField label={t('contactLists.items.dialog.email')} errorText={form.error('email')}>
              <Input {...form.text('email')} type="email" />
            </FormField>
          </SpaceBetween>
        </Form>
      )}
    </FormModal>
  );
}
