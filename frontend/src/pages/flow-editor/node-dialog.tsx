import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import type { ContentElement, FlowMediaKind, FlowNodeType } from '@contracts/flows';
import { FormModal, type FormApi } from '@/components/form-modal/form-modal';
import type { FormSchema } from '@/components/form-modal/form-errors';
import type { FlowNodeData } from './flow-graph';
import {
  CONDITION_OPERATORS,
  fileNameExtension,
  FLOW_MAX_INTERVAL_SECONDS,
  MEDIA_LIMITS,
  VARIABLE_NAME,
} from './flow-rules';

/**
 * The node dialogs (administration §2 Content / Typebot / OpenAI dialogs, §3 Content data and Question
 * node, §5 flow and content rules): one per kind, in create or edit mode, with the spec's texts (through
 * i18n: `flowEditor.rules.*`). Content cards hold a picked file until the flow is saved (§4 "files are
 * uploaded first"): such a card's value is `pending:<id>` and the file travels in `files`.
 */
export const PENDING_PREFIX = 'pending:';

export interface PendingFile {
  type: FlowMediaKind;
  file: File;
}

interface Card {
  number: string;
  type: ContentElement['type'];
  value: string;
  original: string;
  record: boolean;
  file: File | null;
}

const R = (key: string) => `flowEditor.rules.${key}`;
const required = (message: string) => z.string().check(z.trim(), z.minLength(1, R(message)));
const MEDIA: readonly FlowMediaKind[] = ['img', 'audio', 'video'];
const isMedia = (type: Card['type']): type is FlowMediaKind => (MEDIA as readonly string[]).includes(type);

/** The spec's text for a picked file a card of `kind` cannot take (§5), as an i18n key, or null. */
export const pickedFileProblem = (kind: FlowMediaKind, file: File): string | null => {
  const rule = MEDIA_LIMITS[kind];
  if (!rule.extensions.includes(fileNameExtension(file.name))) return R(`wrongType.${kind}`);
  if (file.size > rule.maxBytes) return R(`tooLarge.${kind}`);
  return null;
};

const cardSchema = z.object({ type: z.string(), value: z.string(), file: z.custom<File | null>() }).check(
  z.superRefine((card, ctx) => {
    const issue = (message: string, path: string) =>
      ctx.addIssue({ code: 'custom', message, input: card, path: [path] });
    if (card.type === 'message' && !card.value.trim()) issue(R('emptyText'), 'value');
    if (card.type === 'interval') {
      const sec = Number(card.value);
      if (!Number.isFinite(sec) || sec <= 0 || sec > FLOW_MAX_INTERVAL_SECONDS) issue(R('contentInterval'), 'value');
    }
    if (isMedia(card.type as Card['type'])) {
      if (card.file) {
        const problem = pickedFileProblem(card.type as FlowMediaKind, card.file);
        if (problem) issue(problem, 'file');
      } else if (!card.value) issue(R('emptyMedia'), 'file');
    }
  }),
);

const SCHEMAS: Partial<Record<FlowNodeType, FormSchema<unknown>>> = {
  message: z.object({ label: required('emptyText') }),
  singleBlock: z.object({ cards: z.array(cardSchema).check(z.minLength(1, R('noContent'))) }),
  menu: z.object({
    message: required('emptyText'),
    arrayOption: z
      .array(z.object({ number: z.number(), value: required('emptyText') }))
      .check(z.minLength(1, R('noOption'))),
  }),
  randomizer: z.object({ percent: z.number() }),
  interval: z.object({
    sec: z.string().check(
      z.refine((v) => v.trim() !== '' && Number(v) > 0, R('intervalEmpty')),
      z.refine((v) => !(Number(v) > FLOW_MAX_INTERVAL_SECONDS), R('intervalMax')),
    ),
  }),
  ticket: z.object({
    queueId: z.number({ error: R('queue') }).check(z.refine((v) => Number.isInteger(v) && v > 0, R('queue'))),
  }),
  question: z.object({
    message: required('required'),
    answerKey: z.string().check(z.trim(), z.minLength(1, R('required')), z.regex(VARIABLE_NAME, R('variableName'))),
  }),
  condition: z.object({ key: required('required'), condition: z.string(), value: z.string() }),
  typebot: z.object({
    name: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, R('typebotRequired')),
        z.minLength(2, R('tooShort')),
        z.maxLength(50, R('tooLong')),
      ),
    urlN8N: required('typebotRequired'),
    typebotSlug: required('typebotRequired'),
  }),
  openai: z.object({ name: required('required'), apiKey: required('required'), prompt: required('required') }),
};

/** The form's values of a node's data (content cards with their files; numbers as text where typed). */
const toValues = (type: FlowNodeType, data: FlowNodeData): Record<string, unknown> => {
  if (type === 'singleBlock') {
    const elements = (data.elements ?? []) as ContentElement[];
    const seq = (data.seq ?? []) as string[];
    const ordered = seq.map((id) => elements.find((e) => e.number === id)).filter((e) => e !== undefined);
    return {
      cards: ordered.map((e): Card => ({
        number: e.number,
        type: e.type,
        value: String(e.value),
        original: e.original ?? '',
        record: e.record !== false,
        file: null,
      })),
    };
  }
  if (type === 'interval') return { ...data, sec: String(data.sec ?? '') };
  return { ...data };
};

const OPTIONAL_NUMBERS = ['typebotExpires', 'typebotDelayMessage', 'temperature', 'maxTokens', 'maxMessages'];

/** The node's data of the form's values, and the files its cards picked. */
const fromValues = (
  type: FlowNodeType,
  values: Record<string, unknown>,
): { data: FlowNodeData; files: Map<string, PendingFile> } => {
  const files = new Map<string, PendingFile>();
  if (type === 'singleBlock') {
    const cards = values.cards as Card[];
    const elements = cards.map((c): ContentElement => {
      if (c.type === 'interval') return { number: c.number, type: c.type, value: Number(c.value) };
      if (c.type === 'message') return { number: c.number, type: c.type, value: c.value };
      let value = c.value;
      if (c.file) {
        value = `${PENDING_PREFIX}${crypto.randomUUID()}`;
        files.set(value, { type: c.type as FlowMediaKind, file: c.file });
      }
      return {
        number: c.number,
        type: c.type,
        value,
        original: c.file?.name ?? c.original,
        ...(c.type === 'audio' ? { record: c.record } : {}),
      };
    });
    return { data: { seq: elements.map((e) => e.number), elements }, files };
  }
  const data: FlowNodeData = { ...values };
  if (type === 'interval') data.sec = Number(values.sec);
  for (const key of OPTIONAL_NUMBERS) {
    if (key in data) {
      const n = Number(data[key]);
      if (data[key] === '' || !Number.isFinite(n)) delete data[key];
      else data[key] = n;
    }
  }
  return { data, files };
};

type Form = FormApi<Record<string, unknown>>;

const textOf = (form: Form, field: string) => ({
  value: String(form.values[field] ?? ''),
  onChange: ({ detail }: { detail: { value: string } }) => form.set({ [field]: detail.value }),
});

function TextField({
  form,
  field,
  rows,
  type,
}: {
  form: Form;
  field: string;
  rows?: number;
  type?: 'password' | 'number';
}) {
  const { t } = useTranslation();
  return (
    <FormField label={t(`flowEditor.fields.${field}`)} errorText={form.error(field)}>
      {rows ? (
        <Textarea rows={rows} {...textOf(form, field)} />
      ) : (
        <Input type={type ?? 'text'} {...textOf(form, field)} />
      )}
    </FormField>
  );
}

const CARD_ACCEPT: Record<FlowMediaKind, string> = {
  img: '.png,.jpg,.jpeg',
  audio: '.ogg,.mp3,.opus,.mpeg',
  video: '.mp4',
};

function ContentCards({ form, variables }: { form: Form; variables: readonly string[] }) {
  const { t } = useTranslation();
  const cards = form.values.cards as Card[];
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const setCards = (next: Card[]) => form.set({ cards: next });
  const change = (i: number, patch: Partial<Card>) => setCards(cards.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const add = (type: Card['type']) => {
    const used = new Set(cards.map((c) => c.number));
    let n = cards.length + 1;
    while (used.has(`${type}${n}`)) n += 1;
    setCards([...cards, { number: `${type}${n}`, type, value: '', original: '', record: true, file: null }]);
  };
  const onFile = (i: number) => (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (file) change(i, { file, original: file.name });
  };
  return (
    <SpaceBetween size="s">
      <SpaceBetween direction="horizontal" size="xs">
        {(['message', 'interval', 'img', 'audio', 'video'] as const).map((type) => (
          <Button key={type} iconName="add-plus" onClick={() => add(type)}>
            {t(`flowEditor.content.${type}`)}
          </Button>
        ))}
      </SpaceBetween>
      {form.error('cards') && <Box color="text-status-error">{form.error('cards')}</Box>}
      {variables.length > 0 && (
        <Box variant="small">
          {t('flowEditor.content.variables', { list: variables.map((v) => `{{${v}}}`).join(' ') })}
        </Box>
      )}
      {cards.map((card, i) => (
        <Container
          key={card.number}
          header={
            <SpaceBetween direction="horizontal" size="xs" alignItems="center">
              <Box variant="h4">{t(`flowEditor.content.${card.type}`)}</Box>
              <Button
                variant="icon"
                iconName="remove"
                ariaLabel={t('flowEditor.content.remove', { kind: t(`flowEditor.content.${card.type}`) })}
                onClick={() => setCards(cards.filter((_, j) => j !== i))}
              />
            </SpaceBetween>
          }
        >
          {card.type === 'message' && (
            <FormField label={t('flowEditor.content.messageLabel')} errorText={form.error(`cards.${i}.value`)} stretch>
              <Textarea rows={7} value={card.value} onChange={({ detail }) => change(i, { value: detail.value })} />
            </FormField>
          )}
          {card.type === 'interval' && (
            <FormField label={t('flowEditor.content.seconds')} errorText={form.error(`cards.${i}.value`)}>
              <Input type="number" value={card.value} onChange={({ detail }) => change(i, { value: detail.value })} />
            </FormField>
          )}
          {isMedia(card.type) && (
            <SpaceBetween size="xs">
              <FormField
                label={t('flowEditor.content.file')}
                description={t(`flowEditor.content.accepts.${card.type}`)}
                errorText={form.error(`cards.${i}.file`)}
              >
                <SpaceBetween direction="horizontal" size="xs" alignItems="center">
                  <Button iconName="upload" onClick={() => inputs.current.get(card.number)?.click()}>
                    {t('flowEditor.content.pick')}
                  </Button>
                  <Box>{card.file?.name ?? card.original}</Box>
                </SpaceBetween>
              </FormField>
              <input
                ref={(el) => {
                  if (el) inputs.current.set(card.number, el);
                  else inputs.current.delete(card.number);
                }}
                type="file"
                hidden
                accept={CARD_ACCEPT[card.type]}
                aria-label={t('flowEditor.content.fileOf', { kind: t(`flowEditor.content.${card.type}`), n: i + 1 })}
                onChange={onFile(i)}
              />
              {card.type === 'audio' && (
                <Checkbox checked={card.record} onChange={({ detail }) => change(i, { record: detail.checked })}>
                  {t('flowEditor.content.record')}
                </Checkbox>
              )}
            </SpaceBetween>
          )}
        </Container>
      ))}
    </SpaceBetween>
  );
}

function MenuOptions({ form }: { form: Form }) {
  const { t } = useTranslation();
  const options = form.values.arrayOption as { number: number; value: string }[];
  const set = (next: { number: number; value: string }[]) => form.set({ arrayOption: next });
  return (
    <SpaceBetween size="xs">
      {options.map((o, i) => (
        <SpaceBetween key={o.number} direction="horizontal" size="xs" alignItems="end">
          <FormField
            label={t('flowEditor.fields.option', { n: o.number })}
            errorText={form.error(`arrayOption.${i}.value`)}
          >
            <Input
              value={o.value}
              onChange={({ detail }) => set(options.map((x, j) => (j === i ? { ...x, value: detail.value } : x)))}
            />
          </FormField>
          <Button
            variant="icon"
            iconName="remove"
            ariaLabel={t('flowEditor.fields.removeOption', { n: o.number })}
            onClick={() => set(options.filter((_, j) => j !== i))}
          />
        </SpaceBetween>
      ))}
      {form.error('arrayOption') && <Box color="text-status-error">{form.error('arrayOption')}</Box>}
      <Button
        iconName="add-plus"
        onClick={() => set([...options, { number: Math.max(0, ...options.map((o) => o.number)) + 1, value: '' }])}
      >
        {t('flowEditor.fields.addOption')}
      </Button>
    </SpaceBetween>
  );
}

function Fields({
  type,
  form,
  queues,
  variables,
}: {
  type: FlowNodeType;
  form: Form;
  queues: readonly { id: number; name: string }[];
  variables: readonly string[];
}) {
  const { t } = useTranslation();
  switch (type) {
    case 'message':
      return <TextField form={form} field="label" rows={5} />;
    case 'singleBlock':
      return <ContentCards form={form} variables={variables} />;
    case 'menu':
      return (
        <SpaceBetween size="m">
          <TextField form={form} field="message" rows={4} />
          <MenuOptions form={form} />
        </SpaceBetween>
      );
    case 'randomizer': {
      const percent = Number(form.values.percent ?? 50);
      const options = Array.from({ length: 11 }, (_, i) => ({ value: String(i * 10), label: `${i * 10}%` }));
      return (
        <FormField
          label={t('flowEditor.fields.percent')}
          description={t('flowEditor.node.split', { a: percent, b: 100 - percent })}
        >
          <Select
            selectedOption={options.find((o) => Number(o.value) === percent) ?? null}
            options={options}
            onChange={({ detail }) => form.set({ percent: Number(detail.selectedOption.value) })}
          />
        </FormField>
      );
    }
    case 'interval':
      return <TextField form={form} field="sec" type="number" />;
    case 'ticket': {
      const options = queues.map((q) => ({ value: String(q.id), label: q.name }));
      return (
        <FormField label={t('flowEditor.fields.queueId')} errorText={form.error('queueId')}>
          <Select
            selectedOption={options.find((o) => Number(o.value) === form.values.queueId) ?? null}
            options={options}
            placeholder={t('flowEditor.fields.pickQueue')}
            onChange={({ detail }) => {
              const queue = queues.find((q) => String(q.id) === detail.selectedOption.value);
              form.set({ queueId: queue?.id, name: queue?.name });
            }}
          />
        </FormField>
      );
    }
    case 'question':
      return (
        <SpaceBetween size="m">
          <TextField form={form} field="message" rows={4} />
          <TextField form={form} field="answerKey" />
        </SpaceBetween>
      );
    case 'condition': {
      const options = CONDITION_OPERATORS.map((op) => ({ value: op, label: op }));
      return (
        <SpaceBetween size="m">
          <TextField form={form} field="key" />
          <FormField label={t('flowEditor.fields.condition')}>
            <Select
              selectedOption={options.find((o) => o.value === form.values.condition) ?? null}
              options={options}
              onChange={({ detail }) => form.set({ condition: detail.selectedOption.value })}
            />
          </FormField>
          <TextField form={form} field="value" />
        </SpaceBetween>
      );
    }
    case 'typebot':
      return (
        <SpaceBetween size="s">
          {['name', 'urlN8N', 'typebotSlug'].map((f) => (
            <TextField key={f} form={form} field={f} />
          ))}
          {['typebotExpires', 'typebotDelayMessage'].map((f) => (
            <TextField key={f} form={form} field={f} type="number" />
          ))}
          {['typebotKeywordFinish', 'typebotKeywordRestart', 'typebotUnknownMessage', 'typebotRestartMessage'].map(
            (f) => (
              <TextField key={f} form={form} field={f} />
            ),
          )}
        </SpaceBetween>
      );
    case 'openai':
      return (
        <SpaceBetween size="s">
          <TextField form={form} field="name" />
          <TextField form={form} field="apiKey" type="password" />
          <TextField form={form} field="prompt" rows={10} />
          {['voice', 'voiceKey', 'voiceRegion'].map((f) => (
            <TextField key={f} form={form} field={f} />
          ))}
          {['temperature', 'maxTokens', 'maxMessages'].map((f) => (
            <TextField key={f} form={form} field={f} type="number" />
          ))}
        </SpaceBetween>
      );
    default:
      return null;
  }
}

/** The title of a node's dialog: the content dialog's own (§2), else the kind's. */
const titleOf = (
  t: (key: string, o?: Record<string, unknown>) => string,
  type: FlowNodeType,
  mode: 'create' | 'edit',
) =>
  type === 'singleBlock'
    ? t(mode === 'create' ? 'flowEditor.content.createTitle' : 'flowEditor.content.editTitle')
    : t(mode === 'create' ? 'flowEditor.dialog.createTitle' : 'flowEditor.dialog.editTitle', {
        kind: t(`flowEditor.kinds.${type}`),
      });

export function NodeDialog({
  type,
  mode,
  data,
  queues,
  variables,
  onSave,
  onDismiss,
}: {
  type: FlowNodeType;
  mode: 'create' | 'edit';
  data: FlowNodeData;
  queues: readonly { id: number; name: string }[];
  /** Variables the flow's questions save (§2 "Saved variables are listed as {{name}}"). */
  variables: readonly string[];
  onSave: (data: FlowNodeData, files: Map<string, PendingFile>) => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  return (
    <FormModal<Record<string, unknown>, unknown, null>
      title={titleOf(t, type, mode)}
      size={type === 'singleBlock' || type === 'openai' ? 'large' : 'medium'}
      initial={toValues(type, data)}
      schema={SCHEMAS[type] ?? z.object({})}
      onSubmit={async (_parsed, values) => {
        const { data: next, files } = fromValues(type, values);
        onSave(next, files);
        return null;
      }}
      onDismiss={onDismiss}
      submitText={mode === 'create' ? t('flowEditor.dialog.add') : t('common.save')}
    >
      {(form) => <Fields type={type} form={form} queues={queues} variables={variables} />}
    </FormModal>
  );
}
