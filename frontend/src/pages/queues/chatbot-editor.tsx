import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHATBOT_KINDS, MAX_BREADTH, MAX_DEPTH, MAX_NODES, type ChatbotKind } from '@/api/queues';
import { newOption, targetOf, type OptionValues } from './queue-form';

/** A choice of a target select. */
export interface Choice {
  id: number;
  name: string;
}

/** What the targets of the options may be: the company's queues, users, integrations and files. */
export interface Targets {
  queues: Choice[];
  users: Choice[];
  integrations: Choice[];
  files: Choice[];
}

type TargetField = 'optQueueId' | 'optUserId' | 'optIntegrationId' | 'optFileId';
const TARGET_CHOICES: Record<TargetField, keyof Targets> = {
  optQueueId: 'queues',
  optUserId: 'users',
  optIntegrationId: 'integrations',
  optFileId: 'files',
};

const countOf = (options: OptionValues[]): number => options.reduce((n, o) => n + 1 + countOf(o.options), 0);

interface LevelProps {
  options: OptionValues[];
  onChange: (options: OptionValues[]) => void;
  /** The form path of this level (`chatbots`, `chatbots.0.options`): the server's 400 fields use it. */
  path: string;
  /** 1 at the root. */
  depth: number;
  /** The number shown before each option (`1.2.`). */
  prefix: string;
  targets: Targets;
  errorOf: (field: string) => string | undefined;
  /** The whole tree is at MAX_NODES: nothing more may be added. */
  full: boolean;
}

function TargetSelect({
  field,
  option,
  targets,
  error,
  onChange,
}: {
  field: TargetField;
  option: OptionValues;
  targets: Targets;
  error: string | undefined;
  onChange: (change: Partial<OptionValues>) => void;
}) {
  const { t } = useTranslation();
  const choices: SelectProps.Option[] = targets[TARGET_CHOICES[field]].map((c) => ({
    value: String(c.id),
    label: c.name,
  }));
  const current = option[field];
  const selected = choices.find((c) => c.value === String(current)) ?? null;
  return (
    <FormField label={t(`queues.chatbot.targets.${field}`)} errorText={error}>
      <Select
        selectedOption={selected}
        options={choices}
        placeholder={t('queues.chatbot.choose')}
        empty={t('queues.chatbot.noChoices')}
        onChange={({ detail }) => onChange({ [field]: Number(detail.selectedOption.value) })}
      />
    </FormField>
  );
}

function OptionItem({
  option,
  index,
  level,
  onChange,
  onRemove,
}: {
  option: OptionValues;
  index: number;
  level: LevelProps;
  onChange: (change: Partial<OptionValues>) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const { path, depth, prefix, targets, errorOf, full } = level;
  const at = `${path}.${index}`;
  const number = `${prefix}${index + 1}`;
  // New options open in edit mode; an option with a problem stays open so it can be fixed.
  const [editing, setEditing] = useState(option.name === '');
  const error = (field: string) => errorOf(`${at}.${field}`);
  const target = targetOf(option.queueType);
  const hasProblem = ['name', 'greetingMessage', 'queueType', target ?? ''].some((f) => f && error(f));
  const open = editing || hasProblem;
  const kinds: SelectProps.Option[] = CHATBOT_KINDS.map((k) => ({ value: k, label: t(`queues.chatbot.kinds.${k}`) }));
  const canNest = depth < MAX_DEPTH && option.options.length < MAX_BREADTH && !full;

  return (
    <div data-testid={`chatbot-option-${number}`}>
      <Container
        header={
          <Header
            variant="h3"
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                {open ? (
                  <Button onClick={() => setEditing(false)} disabled={hasProblem}>
                    {t('queues.chatbot.done')}
                  </Button>
                ) : (
                  <Button onClick={() => setEditing(true)}>{t('queues.chatbot.edit')}</Button>
                )}
                <Button
                  iconName="add-plus"
                  disabled={!canNest}
                  disabledReason={t('queues.chatbot.limit', { depth: MAX_DEPTH, breadth: MAX_BREADTH })}
                  onClick={() => onChange({ options: [...option.options, newOption()] })}
                >
                  {t('queues.chatbot.addSub')}
                </Button>
                <Button iconName="remove" onClick={onRemove}>
                  {t('queues.chatbot.remove')}
                </Button>
              </SpaceBetween>
            }
          >
            {`${number}. ${option.name || t('queues.chatbot.unnamed')}`}
          </Header>
        }
      >
        <SpaceBetween size="s">
          {open ? (
            <>
              <FormField label={t('queues.chatbot.name')} errorText={error('name')}>
                <Input value={option.name} onChange={({ detail }) => onChange({ name: detail.value })} />
              </FormField>
              <FormField label={t('queues.chatbot.message')} errorText={error('greetingMessage')}>
                <Textarea
                  rows={3}
                  value={option.greetingMessage}
                  onChange={({ detail }) => onChange({ greetingMessage: detail.value })}
                />
              </FormField>
              <FormField label={t('queues.chatbot.kind')} errorText={error('queueType')}>
                <Select
                  selectedOption={kinds.find((k) => k.value === option.queueType) ?? null}
                  options={kinds}
                  onChange={({ detail }) => onChange({ queueType: detail.selectedOption.value as ChatbotKind })}
                />
              </FormField>
              {target && (
                <TargetSelect
                  field={target}
                  option={option}
                  targets={targets}
                  error={error(target)}
                  onChange={onChange}
                />
              )}
              <Checkbox
                checked={option.closeTicket}
                onChange={({ detail }) => onChange({ closeTicket: detail.checked })}
              >
                {t('queues.chatbot.closeTicket')}
              </Checkbox>
            </>
          ) : (
            <Box variant="p" color="text-body-secondary">
              {t(`queues.chatbot.kinds.${option.queueType}`)}
              {option.greetingMessage ? ` — ${option.greetingMessage}` : ''}
            </Box>
          )}
          {option.options.length > 0 && (
            <ChatbotLevel
              {...level}
              options={option.options}
              onChange={(options) => onChange({ options })}
              path={`${at}.options`}
              depth={depth + 1}
              prefix={`${number}.`}
            />
          )}
        </SpaceBetween>
      </Container>
    </div>
  );
}

function ChatbotLevel(level: LevelProps) {
  const { options, onChange } = level;
  return (
    <SpaceBetween size="s">
      {options.map((option, index) => (
        <OptionItem
          key={option.key}
          option={option}
          index={index}
          level={level}
          onChange={(change) => onChange(options.map((o, i) => (i === index ? { ...o, ...change } : o)))}
          onRemove={() => onChange(options.filter((_, i) => i !== index))}
        />
      ))}
    </SpaceBetween>
  );
}

/**
 * The queue's chatbot menu (admin spec §2 "Chatbot option tree editor"; decisions D89): options nest, each
 * toggles between a summary and its fields — name, the bot's message, the kind and, by kind, its target
 * (a queue, a user, an integration or a file) and close-ticket. Adding stops at MAX_DEPTH levels,
 * MAX_BREADTH options under one parent and MAX_NODES in all. Problems read through `errorOf` at the
 * options' paths (`chatbots.0.options.1.optQueueId`), the server's as well as the form's.
 */
export function ChatbotEditor({
  options,
  onChange,
  targets,
  errorOf,
}: {
  options: OptionValues[];
  onChange: (options: OptionValues[]) => void;
  targets: Targets;
  errorOf: (field: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const full = countOf(options) >= MAX_NODES;
  return (
    <SpaceBetween size="s">
      <Header
        variant="h3"
        description={t('queues.chatbot.description')}
        actions={
          <Button
            iconName="add-plus"
            disabled={full || options.length >= MAX_BREADTH}
            onClick={() => onChange([...options, newOption()])}
          >
            {t('queues.chatbot.add')}
          </Button>
        }
      >
        {t('queues.chatbot.title')}
      </Header>
      {options.length === 0 && <Box color="text-body-secondary">{t('queues.chatbot.empty')}</Box>}
      <ChatbotLevel
        options={options}
        onChange={onChange}
        path="chatbots"
        depth={1}
        prefix=""
        targets={targets}
        errorOf={errorOf}
        full={full}
      />
    </SpaceBetween>
  );
}
