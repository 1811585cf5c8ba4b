import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal, { type ModalProps } from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotifications } from '@/components/notifications';
import { useErrorText } from '@/hooks/use-error-text';
import { ruleProblems, serverProblems, withoutChanged, type FieldProblems, type FormSchema } from './form-errors';

/** The keys of V whose values are of type X. */
type KeysOf<V, X> = { [K in keyof V]-?: V[K] extends X ? K : never }[keyof V] & string;

/** What the dialog's fields get from FormModal. */
export interface FormApi<V> {
  values: V;
  /** Changes some values; a server problem on a changed field goes away with the edit. */
  set: (change: Partial<V>) => void;
  /**
   * The text under a field, translated: its rule's message once a save was tried (at once for the
   * `checkAtOnce` fields), else what the server's 400 said about it. Nested fields read `a.0.b`.
   */
  error: (field: string) => string | undefined;
  /** `value` and `onChange` for an Input or Textarea over a text value. */
  text: (field: KeysOf<V, string>) => { value: string; onChange: (event: { detail: { value: string } }) => void };
  /** `checked` and `onChange` for a Toggle or Checkbox over a boolean value. */
  toggle: (field: KeysOf<V, boolean>) => {
    checked: boolean;
    onChange: (event: { detail: { checked: boolean } }) => void;
  };
  saving: boolean;
}

export interface FormModalProps<V extends object, Out, R> {
  /** Shown (default); opening it again starts from `initial` with no problems shown. */
  visible?: boolean;
  title: string;
  size?: ModalProps.Size;
  /** The values the dialog starts from (read once per opening). */
  initial: V;
  /**
   * The form's rules, a zod schema (`zod/mini` keeps the page chunks small; classic `zod` works too).
   * Messages are i18n keys (`z.minLength(1, 'quickMessages.dialog.required')`), shown in the current
   * language under the field the path names.
   */
  schema: FormSchema<Out>;
  /**
   * Saves: gets what the schema made of the values (trimmed, ...) and the values as typed. An ApiError's
   * `fields` go under their fields; every failure is also the usual error toast, and the dialog stays open.
   */
  onSubmit: (parsed: Out, values: V) => Promise<R>;
  /** After a successful save (and its toast), with what onSubmit answered: close, update the list. */
  onSaved?: (result: R) => void;
  /** Cancel, the close button and Escape; not while saving. Nothing is sent. */
  onDismiss: () => void;
  /** The toast after a successful save. */
  savedText?: string;
  /** Default 'Salvar' (common.save). */
  submitText?: string;
  /** Default 'Cancelar' (common.cancel). */
  cancelText?: string;
  /** Fields whose rules show as soon as they change rather than after the first save (a chosen file). */
  checkAtOnce?: readonly string[];
  /** A save refused by the rules, with the fields in trouble (e.g. to open the tab that holds them). */
  onInvalid?: (fields: string[]) => void;
  children: (form: FormApi<V>) => ReactNode;
}

function Footer({
  saving,
  submitText,
  cancelText,
  onSubmit,
  onCancel,
}: {
  saving: boolean;
  submitText: string;
  cancelText: string;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  return (
    <Box float="right">
      <SpaceBetween direction="horizontal" size="xs">
        <Button variant="link" disabled={saving} onClick={onCancel}>
          {cancelText}
        </Button>
        <Button variant="primary" loading={saving} onClick={onSubmit}>
          {submitText}
        </Button>
      </SpaceBetween>
    </Box>
  );
}

function FormModalBody<V extends object, Out, R>({
  visible = true,
  title,
  size = 'medium',
  initial,
  schema,
  onSubmit,
  onSaved,
  onDismiss,
  savedText,
  submitText,
  cancelText,
  checkAtOnce = [],
  onInvalid,
  children,
}: FormModalProps<V, Out, R>) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [values, setValues] = useState<V>(initial);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [fromServer, setFromServer] = useState<FieldProblems>({});

  const rules = ruleProblems(schema, values);
  const ruleShown = (field: string) => submitted || checkAtOnce.includes(field.split('.')[0]!);

  const set = (change: Partial<V>) => {
    setValues((v) => ({ ...v, ...change }));
    setFromServer((problems) => withoutChanged(problems, Object.keys(change)));
  };

  const form: FormApi<V> = {
    values,
    set,
    error: (field) => {
      const rule = ruleShown(field) ? rules[field] : undefined;
      return rule !== undefined ? t(rule) : fromServer[field];
    },
    text: (field) => ({
      value: values[field] as string,
      onChange: ({ detail }) => set({ [field]: detail.value } as Partial<V>),
    }),
    toggle: (field) => ({
      checked: values[field] as boolean,
      onChange: ({ detail }) => set({ [field]: detail.checked } as Partial<V>),
    }),
    saving,
  };

  const save = async () => {
    setSubmitted(true);
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      onInvalid?.(Object.keys(rules));
      return;
    }
    setSaving(true);
    setFromServer({});
    let result: R;
    try {
      result = await onSubmit(parsed.data, values);
    } catch (err) {
      setFromServer(serverProblems(err));
      notify.error(err);
      setSaving(false);
      return;
    }
    setSaving(false);
    if (savedText) notify.success(savedText);
    onSaved?.(result);
  };

  return (
    <Modal
      visible={visible}
      size={size}
      header={title}
      onDismiss={() => {
        if (!saving) onDismiss();
      }}
      footer={
        <Footer
          saving={saving}
          submitText={submitText ?? t('common.save')}
          cancelText={cancelText ?? t('common.cancel')}
          onSubmit={() => void save()}
          onCancel={onDismiss}
        />
      }
    >
      {children(form)}
    </Modal>
  );
}

/**
 * A create/edit dialog (core spec §9 forms): the fields the area draws from `children(form)`, validated by
 * a zod schema whose messages are the spec's texts through i18n — shown after the first save, then as the
 * values change — with cancel and save buttons; while saving the save button spins and nothing closes the
 * dialog. A server 400 puts its `fields` reasons under their fields (until the field is edited), and any
 * failure is the usual error toast (components/notifications). Mount it to open it, or pass `visible`:
 * each opening starts again from `initial`.
 */
export function FormModal<V extends object, Out, R = void>(props: FormModalProps<V, Out, R>) {
  const visible = props.visible ?? true;
  const [openings, setOpenings] = useState(0);
  const [wasVisible, setWasVisible] = useState(visible);
  if (visible !== wasVisible) {
    setWasVisible(visible);
    if (visible) setOpenings((n) => n + 1);
  }
  return <FormModalBody key={openings} {...props} />;
}

/**
 * The dialog while what it edits is being read (a fresh copy, not the list's): a spinner, or the error
 * with 'Tentar novamente'; only cancel. Render the FormModal once the data is there.
 */
export function FormModalLoading({
  title,
  size = 'medium',
  request,
  loadingText,
  errorHeader,
  cancelText,
  onDismiss,
}: {
  title: string;
  size?: ModalProps.Size;
  request: { status: 'loading' } | { status: 'error'; error: unknown; reload: () => void };
  loadingText: string;
  errorHeader: string;
  cancelText?: string;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const textOf = useErrorText();
  return (
    <Modal
      visible
      size={size}
      header={title}
      onDismiss={onDismiss}
      footer={
        <Box float="right">
          <Button variant="link" onClick={onDismiss}>
            {cancelText ?? t('common.cancel')}
          </Button>
        </Box>
      }
    >
      {request.status === 'loading' ? (
        <Box textAlign="center">
          <Spinner size="big" />
          <Box variant="span" margin={{ left: 's' }}>
            {loadingText}
          </Box>
        </Box>
      ) : (
        <Alert type="error" header={errorHeader} action={<Button onClick={request.reload}>{t('common.retry')}</Button>}>
          {textOf(request.error)}
        </Alert>
      )}
    </Modal>
  );
}
