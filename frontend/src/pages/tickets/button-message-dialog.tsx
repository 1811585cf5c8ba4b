import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendButtonMessage, type ButtonMessageKind, type Message } from '@/api/messages';
import { useNotifications } from '@/components/notifications';

/**
 * The composer's interactive button dialogs (core spec §2, §5, §8; decisions D52): list, copy, call-me, URL
 * and PIX. Each sends exactly the body POST /messages/{kind}/{ticketId} accepts
 * (functions/core/messages/interactive.ts) and checks it here first with the same limits, so a mistake is
 * shown beside its field and nothing is sent; a refusal by the server is the spec's 'Erro ao processar a
 * mensagem' toast.
 */

export const PIX_KEY_TYPES = ['CNPJ', 'CPF', 'PHONE', 'EMAIL', 'EVP'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

/** Saved list titles (core spec §5 "A saved title must be chosen in the list dialog"), kept in browser storage. */
export const LIST_TITLES_KEY = 'buttonListTitles';
/** The server's limits (interactive.ts listSchema). */
export const LIST_MAX_OPTIONS = 10;
export const LIST_OPTION_MAX = 24;

const readTitles = (): string[] => {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(LIST_TITLES_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string' && t.trim() !== '') : [];
  } catch {
    return [];
  }
};

/**
 * The PIX key as the server stores it, or the i18n key of the reason it is not one (the server's
 * normalisePixKey): PHONE gets +55 when it lacks it, CPF/CNPJ are digits, EMAIL lower case, EVP a UUID.
 */
export const normalisePixKey = (type: PixKeyType, raw: string): { key: string } | { reason: string } => {
  const value = raw.trim();
  const digits = value.replace(/\D/g, '');
  switch (type) {
    case 'PHONE':
      if (digits.length < 10 || digits.length > 13) return { reason: 'pixPhoneInvalid' };
      if (value.startsWith('+55')) return { key: `+${digits}` };
      return { key: digits.startsWith('55') && digits.length >= 12 ? `+${digits}` : `+55${digits}` };
    case 'CPF':
      return digits.length === 11 ? { key: digits } : { reason: 'pixCpfInvalid' };
    case 'CNPJ':
      return digits.length === 14 ? { key: digits } : { reason: 'pixCnpjInvalid' };
    case 'EMAIL':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= 77
        ? { key: value.toLowerCase() }
        : { reason: 'pixEmailInvalid' };
    case 'EVP':
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
        ? { key: value.toLowerCase() }
        : { reason: 'pixEvpInvalid' };
  }
};

/** An amount in reais as typed ('1.234,56', '25,90', '25.90'), or null when it is not one above 0. */
export const parseAmount = (raw: string): number | null => {
  const text = raw.trim().replace(/^R\$\s*/i, '');
  if (text === '') return null;
  const n = Number(text.replace(/\.(?=\d{3}(\D|$))/g, '').replace(',', '.'));
  if (!Number.isFinite(n) || n <= 0 || n > 999_999_999.99) return null;
  return Math.round(n * 100) / 100;
};

type Fields = Record<string, string>;
type Errors = Record<string, string>;

const blank: Fields = {
  title: '',
  body: '',
  buttonText: '',
  footer: '',
  options: '',
  copyCode: '',
  phoneNumber: '',
  url: '',
  sendvalue: '',
  sendkey_type: 'CPF',
  sendKey: '',
  sendmerchant_name: '',
  sendmerchant_city: '',
};

const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());

/** The body to send for `kind`, or the field errors (i18n keys under tickets.buttons) that stop it. */
export const buildButtonPayload = (
  kind: ButtonMessageKind,
  f: Fields,
  savedTitles: string[],
): { payload: Record<string, unknown> } | { errors: Errors } => {
  const errors: Errors = {};
  const tooLong = (name: string, max: number) => {
    if (f[name]!.trim().length > max) errors[name] = 'tooLong';
  };
  const common = () => {
    tooLong('title', 60);
    tooLong('body', 1024);
    return {
      ...(optional(f.title!) ? { title: f.title!.trim() } : {}),
      ...(optional(f.body!) ? { body: f.body!.trim() } : {}),
    };
  };
  let payload: Record<string, unknown> = {};
  switch (kind) {
    case 'lista': {
      if (!f.title || !savedTitles.includes(f.title)) errors.title = 'listTitleRequired';
      if (!f.body!.trim()) errors.body = 'bodyRequired';
      tooLong('body', 1024);
      tooLong('buttonText', 20);
      tooLong('footer', 60);
      const options = f
        .options!.split('\n')
        .map((o) => o.trim())
        .filter((o) => o !== '');
      if (options.length === 0) errors.options = 'optionsRequired';
      else if (options.length > LIST_MAX_OPTIONS) errors.options = 'optionsTooMany';
      else if (options.some((o) => o.length > LIST_OPTION_MAX)) errors.options = 'optionTooLong';
      payload = {
        title: f.title,
        body: f.body!.trim(),
        ...(optional(f.buttonText!) ? { buttonText: f.buttonText!.trim() } : {}),
        ...(optional(f.footer!) ? { footer: f.footer!.trim() } : {}),
        sections: [{ rows: options.map((title, i) => ({ id: String(i + 1), title })) }],
      };
      break;
    }
    case 'copy': {
      const base = common();
      if (!f.copyCode!.trim()) errors.copyCode = 'copyRequired';
      tooLong('copyCode', 200);
      payload = { ...base, copyCode: f.copyCode!.trim() };
      break;
    }
    case 'call': {
      const base = common();
      const digits = f.phoneNumber!.trim().replace(/[\s()+-]/g, '');
      if (!/^\d{8,15}$/.test(digits)) errors.phoneNumber = 'phoneInvalid';
      payload = { ...base, phoneNumber: digits };
      break;
    }
    case 'URL': {
      const base = common();
      const url = f.url!.trim();
      if (!url) errors.url = 'urlRequired';
      else if (!/^https?:\/\/[^\s]+$/i.test(url) || !URL.canParse(url) || url.length > 2000) errors.url = 'urlInvalid';
      payload = { ...base, url };
      break;
    }
    case 'PIX': {
      tooLong('title', 60);
      const value = parseAmount(f.sendvalue!);
      if (value === null) errors.sendvalue = 'amountInvalid';
      const type = f.sendkey_type as PixKeyType;
      let key = '';
      if (!f.sendKey!.trim()) errors.sendKey = 'pixKeyRequired';
      else {
        const normalised = normalisePixKey(type, f.sendKey!);
        if ('reason' in normalised) errors.sendKey = normalised.reason;
        else key = normalised.key;
      }
      if (!f.sendmerchant_name!.trim()) errors.sendmerchant_name = 'merchantRequired';
      tooLong('sendmerchant_name', 100);
      tooLong('sendmerchant_city', 60);
      payload = {
        ...(optional(f.title!) ? { title: f.title!.trim() } : {}),
        sendvalue: value,
        sendkey_type: type,
        sendmerchant_name: f.sendmerchant_name!.trim(),
        sendKey: key,
        ...(optional(f.sendmerchant_city!) ? { sendmerchant_city: f.sendmerchant_city!.trim() } : {}),
      };
      break;
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { payload };
};

const HEADERS: Record<ButtonMessageKind, string> = {
  lista: 'tickets.buttons.list',
  copy: 'tickets.buttons.copy',
  call: 'tickets.buttons.call',
  URL: 'tickets.buttons.url',
  PIX: 'tickets.buttons.pix',
};

export function ButtonMessageDialog({
  kind,
  ticketId,
  onClose,
  onSent,
}: {
  kind: ButtonMessageKind;
  ticketId: number;
  onClose: () => void;
  onSent: (message: Message) => void;
}) {
  const { t } = useTranslation();
  const notifications = useNotifications();
  const [fields, setFields] = useState<Fields>(blank);
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const [titles, setTitles] = useState<string[]>(readTitles);
  const [newTitle, setNewTitle] = useState('');

  const set = (name: string) => (value: string) => {
    setFields((all) => ({ ...all, [name]: value }));
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };
  const errorOf = (name: string) =>
    errors[name]
      ? t(`tickets.buttons.errors.${errors[name]}`, { max: LIST_MAX_OPTIONS, length: LIST_OPTION_MAX })
      : undefined;

  const saveTitle = () => {
    const title = newTitle.trim();
    if (!title || title.length > 60) return;
    const next = titles.includes(title) ? titles : [...titles, title];
    localStorage.setItem(LIST_TITLES_KEY, JSON.stringify(next));
    setTitles(next);
    setNewTitle('');
    set('title')(title);
  };

  const submit = async () => {
    if (sending) return;
    // Core spec §5: button messages need a numeric ticket id.
    if (!Number.isInteger(ticketId) || ticketId <= 0) {
      notifications.notify('error', t('tickets.buttons.ticketIdInvalid'));
      return;
    }
    const built = buildButtonPayload(kind, fields, titles);
    if ('errors' in built) {
      setErrors(built.errors);
      return;
    }
    setSending(true);
    try {
      onSent((await sendButtonMessage(kind, ticketId, built.payload)) as Message);
      onClose();
    } catch {
      notifications.notify('error', t('tickets.buttons.failed'));
    } finally {
      setSending(false);
    }
  };

  const text = (name: string, label: string, options: { required?: boolean; placeholder?: string } = {}) => (
    <FormField
      label={t(label)}
      errorText={errorOf(name)}
      constraintText={options.required ? undefined : t('tickets.buttons.optional')}
    >
      <Input
        value={fields[name]!}
        placeholder={options.placeholder}
        onChange={({ detail }) => set(name)(detail.value)}
      />
    </FormField>
  );
  const area = (name: string, label: string, hint?: string) => (
    <FormField label={t(label)} errorText={errorOf(name)} constraintText={hint}>
      <Textarea rows={3} value={fields[name]!} onChange={({ detail }) => set(name)(detail.value)} />
    </FormField>
  );

  const keyTypeOptions = PIX_KEY_TYPES.map((value) => ({ value, label: t(`tickets.buttons.keyTypes.${value}`) }));

  return (
    <Modal
      visible
      header={t(HEADERS[kind])}
      onDismiss={onClose}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onClose} disabled={sending}>
              {t('tickets.dialogs.cancel')}
            </Button>
            <Button variant="primary" onClick={() => void submit()} loading={sending}>
              {t('tickets.composer.send')}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="s">
        {kind === 'lista' && (
          <>
            <FormField label={t('tickets.buttons.savedTitle')} errorText={errorOf('title')}>
              <Select
                selectedOption={fields.title ? { value: fields.title, label: fields.title } : null}
                options={titles.map((title) => ({ value: title, label: title }))}
                placeholder={t('tickets.buttons.chooseTitle')}
                empty={t('tickets.buttons.noTitles')}
                onChange={({ detail }) => set('title')(detail.selectedOption.value ?? '')}
              />
            </FormField>
            <FormField label={t('tickets.buttons.newTitle')}>
              <SpaceBetween direction="horizontal" size="xs">
                <Input value={newTitle} onChange={({ detail }) => setNewTitle(detail.value)} />
                <Button onClick={saveTitle} disabled={!newTitle.trim()}>
                  {t('tickets.buttons.saveTitle')}
                </Button>
              </SpaceBetween>
            </FormField>
            {area('body', 'tickets.buttons.body')}
            {text('buttonText', 'tickets.buttons.buttonText')}
            {text('footer', 'tickets.buttons.footer')}
            {area(
              'options',
              'tickets.buttons.options',
              t('tickets.buttons.optionsHint', { max: LIST_MAX_OPTIONS, length: LIST_OPTION_MAX }),
            )}
          </>
        )}
        {(kind === 'copy' || kind === 'call' || kind === 'URL') && (
          <>
            {text('title', 'tickets.buttons.title')}
            {text('body', 'tickets.buttons.body')}
          </>
        )}
        {kind === 'copy' && text('copyCode', 'tickets.buttons.copyCode', { required: true })}
        {kind === 'URL' && text('url', 'tickets.buttons.link', { required: true, placeholder: 'https://' })}
        {kind === 'call' && (
          <>
            {text('phoneNumber', 'tickets.buttons.phoneNumber', { required: true, placeholder: '55 11 99999-9999' })}
            <Alert type="info">{t('tickets.buttons.callNotice')}</Alert>
          </>
        )}
        {kind === 'PIX' && (
          <>
            {text('title', 'tickets.buttons.title')}
            {text('sendvalue', 'tickets.buttons.amount', { required: true, placeholder: '25,90' })}
            <FormField label={t('tickets.buttons.keyType')}>
              <Select
                selectedOption={keyTypeOptions.find((o) => o.value === fields.sendkey_type) ?? null}
                options={keyTypeOptions}
                onChange={({ detail }) => set('sendkey_type')(detail.selectedOption.value ?? 'CPF')}
              />
            </FormField>
            {text('sendKey', 'tickets.buttons.pixKey', { required: true })}
            {text('sendmerchant_name', 'tickets.buttons.merchantName', { required: true })}
            {text('sendmerchant_city', 'tickets.buttons.merchantCity')}
          </>
        )}
      </SpaceBetween>
    </Modal>
  );
}
