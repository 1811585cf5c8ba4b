import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { createContactList, updateContactList, type ContactList } from '@/api/contact-lists';
import { FormModal } from '@/components/form-modal/form-modal';

/** Administration §5: name 2 to 50 characters ('Too Short!' / 'Too Long!'), required ('Required'). */
const contactListSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'contactLists.dialog.required'),
      z.minLength(2, 'contactLists.dialog.tooShort'),
      z.maxLength(50, 'contactLists.dialog.tooLong'),
    ),
});

/** Add or rename a contact list (administration spec "Contact lists"). */
export function ContactListDialog({
  record,
  onDismiss,
  onSaved,
}: {
  record: ContactList | undefined;
  onDismiss: () => void;
  onSaved: (saved: ContactList) => void;
}) {
  const { t } = useTranslation();
  return (
    <FormModal
      title={record ? t('contactLists.dialog.editTitle') : t('contactLists.dialog.addTitle')}
      initial={{ name: record?.name ?? '' }}
      schema={contactListSchema}
      onSubmit={(values) => (record ? updateContactList(record.id, values) : createContactList(values))}
      savedText={t('contactLists.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={t('contactLists.dialog.save')}
      cancelText={t('contactLists.dialog.cancel')}
    >
      {(form) => (
        <Form>
          <FormField label={t('contactLists.dialog.name')} errorText={form.error('name')}>
            <Input {...form.text('name')} />
          </FormField>
        </Form>
      )}
    </FormModal>
  );
}
