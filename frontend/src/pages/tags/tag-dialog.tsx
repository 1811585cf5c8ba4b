import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { createTag, listKanbanLanes, updateTag, type Tag } from '@/api/tags';
import { FormModal, type FormApi } from '@/components/form-modal/form-modal';

interface TagValues {
  name: string;
  color: string;
  /** Hours, as typed ('' = none). */
  timeLane: string;
  nextLaneId: number | null;
  rollbackLaneId: number | null;
  greetingMessageLane: string;
}

/** The spec's rules (administration §5): a name of at least 3 characters ('Mensagem muito curta'), required. */
const tagSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'tags.dialog.required'), z.minLength(3, 'tags.dialog.tooShort')),
  color: z.string().check(z.regex(/^#[0-9a-fA-F]{3,8}$/, 'tags.dialog.badColor')),
  timeLane: z.string().check(z.regex(/^\d{0,4}$/, 'tags.dialog.badTime')),
  nextLaneId: z.nullable(z.number()),
  rollbackLaneId: z.nullable(z.number()),
  greetingMessageLane: z.string(),
});

const randomColor = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')}`;

/**
 * Add or edit a tag (administration §2 "Tag dialog: name and colour"); the kanban variant (from
 * /TagsKanban, `kanban`) adds the lane's time in hours, next lane, rollback lane and greeting (D102).
 */
export function TagDialog({
  record,
  kanban,
  onDismiss,
  onSaved,
}: {
  record: Tag | undefined;
  kanban: boolean;
  onDismiss: () => void;
  onSaved: (saved: Tag) => void;
}) {
  const { t } = useTranslation();
  const initial: TagValues = {
    name: record?.name ?? '',
    color: record?.color ?? randomColor(),
    timeLane: record?.timeLane ? String(record.timeLane) : '',
    nextLaneId: record?.nextLaneId ?? null,
    rollbackLaneId: record?.rollbackLaneId ?? null,
    greetingMessageLane: record?.greetingMessageLane ?? '',
  };
  return (
    <FormModal
      title={record ? t('tags.dialog.editTitle') : t('tags.dialog.addTitle')}
      initial={initial}
      schema={tagSchema}
      onSubmit={async (values) => {
        const lane = kanban
          ? {
              timeLane: values.timeLane ? Number(values.timeLane) : null,
              nextLaneId: values.nextLaneId,
              rollbackLaneId: values.rollbackLaneId,
              greetingMessageLane: values.greetingMessageLane,
            }
          : {};
        if (!record) {
          const created = await createTag({ name: values.name, color: values.color, kanban: kanban ? 1 : 0 });
          return kanban ? updateTag(created.id, lane) : created;
        }
        return updateTag(record.id, { name: values.name, color: values.color, ...lane });
      }}
      savedText={t('tags.dialog.saved')}
      onSaved={onSaved}
      onDismiss={onDismiss}
      submitText={t('tags.dialog.save')}
      cancelText={t('tags.dialog.cancel')}
    >
      {(form) => <TagFields form={form} kanban={kanban} selfId={record?.id} />}
    </FormModal>
  );
}

function LaneSelect({
  label,
  value,
  lanes,
  onChange,
}: {
  label: string;
  value: number | null;
  lanes: Tag[];
  onChange: (id: number | null) => void;
}) {
  const { t } = useTranslation();
  const none = { value: '', label: t('tags.dialog.noLane') };
  const options = [none, ...lanes.map((l) => ({ value: String(l.id), label: l.name }))];
  const selected = options.find((o) => o.value === (value === null ? '' : String(value))) ?? none;
  return (
    <FormField label={label}>
      <Select
        selectedOption={selected}
        options={options}
        onChange={(e) => onChange(e.detail.selectedOption.value ? Number(e.detail.selectedOption.value) : null)}
      />
    </FormField>
  );
}

function TagFields({ form, kanban, selfId }: { form: FormApi<TagValues>; kanban: boolean; selfId?: number }) {
  const { t } = useTranslation();
  const [lanes, setLanes] = useState<Tag[]>([]);
  useEffect(() => {
    if (!kanban) return;
    const controller = new AbortController();
    listKanbanLanes({ signal: controller.signal })
      .then((all) => setLanes(all.filter((l) => l.id !== selfId)))
      .catch(() => setLanes([]));
    return () => controller.abort();
  }, [kanban, selfId]);
  return (
    <Form>
      <SpaceBetween size="m">
        <FormField label={t('tags.dialog.name')} errorText={form.error('name')}>
          <Input {...form.text('name')} />
        </FormField>
        <FormField label={t('tags.dialog.color')} errorText={form.error('color')}>
          <SpaceBetween direction="horizontal" size="xs">
            <input
              type="color"
              aria-label={t('tags.dialog.colorPicker')}
              value={/^#[0-9a-fA-F]{6}$/.test(form.values.color) ? form.values.color : '#000000'}
              onChange={(e) => form.set({ color: e.target.value })}
              style={{ width: 40, height: 32, border: 'none', padding: 0 }}
            />
            <Input {...form.text('color')} />
          </SpaceBetween>
        </FormField>
        {kanban && (
          <>
            <FormField
              label={t('tags.dialog.timeLane')}
              description={t('tags.dialog.timeLaneHint')}
              errorText={form.error('timeLane')}
            >
              <Input {...form.text('timeLane')} inputMode="numeric" />
            </FormField>
            <LaneSelect
              label={t('tags.dialog.nextLane')}
              value={form.values.nextLaneId}
              lanes={lanes}
              onChange={(nextLaneId) => form.set({ nextLaneId })}
            />
            <LaneSelect
              label={t('tags.dialog.rollbackLane')}
              value={form.values.rollbackLaneId}
              lanes={lanes}
              onChange={(rollbackLaneId) => form.set({ rollbackLaneId })}
            />
            <FormField label={t('tags.dialog.greetingMessageLane')} errorText={form.error('greetingMessageLane')}>
              <Textarea rows={3} {...form.text('greetingMessageLane')} />
            </FormField>
          </>
        )}
      </SpaceBetween>
    </Form>
  );
}
