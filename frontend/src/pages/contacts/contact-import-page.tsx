import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import FileInput from '@cloudscape-design/components/file-input';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '@/api/api-error';
import { listConnections, type Connection } from '@/api/connections';
import {
  getContactImport,
  IMPORT_FILE_EXTENSIONS,
  importFromPhone,
  previewContactImport,
  startContactImport,
  uploadContactSheet,
  type ContactImportPreview,
  type ContactImportView,
  type ImportTarget,
} from '@/api/contacts';
import { useNotifications } from '@/components/notifications';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useChannel } from '@/realtime/use-socket';
import { companyChannel } from '@contracts/realtime';

type Step =
  | { kind: 'choose' }
  | { kind: 'reading' }
  | { kind: 'map'; importId: string; preview: ContactImportPreview }
  | { kind: 'running'; progress: ContactImportView };

interface PreviewRow {
  index: number;
  cells: string[];
}

const TARGETS: ImportTarget[] = ['name', 'number', 'email'];
/** How often the progress is read again while the import runs (the live events come in between). */
const POLL_MS = 3000;

const isInvalidFile = (err: unknown) => err instanceof ApiError && err.code === 'ERR_INVALID_FILE';
const isNotConnected = (err: unknown) => err instanceof ApiError && err.code === 'ERR_WAPP_NOT_INITIALIZED';

/** Why an import failed, in the user's words (the error codes the job records). */
const failureKey = (code: string | undefined): string => {
  if (code === 'ERR_INVALID_FILE') return 'contacts.import.invalidFile';
  if (code === 'ERR_WAPP_NOT_INITIALIZED') return 'contacts.import.notConnected';
  if (code === 'ERR_WAPP_CHECK_CONTACT') return 'contacts.import.checkFailed';
  return 'contacts.import.failed';
};

/**
 * /contacts/import (core spec §2, §4, §5; decisions D104, D105): drop a spreadsheet (.xls, .xlsx, .csv,
 * .txt), map its columns to name, number and e-mail, choose the rows (of the first 100 shown; the rest are
 * imported), import with a progress bar (live from `company-{id}-contactImport`) and see the summary — with
 * the spec's texts for an unreadable file, a missing number or name column, no row chosen and a field
 * chosen twice.
 */
export function ContactImportPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const notifications = useNotifications();
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [error, setError] = useState('');
  const [columns, setColumns] = useState<(ImportTarget | null)[]>([]);
  const [selected, setSelected] = useState<PreviewRow[]>([]);
  const [starting, setStarting] = useState(false);
  const [connections, setConnections] = useState<Connection[]>([]);
  const [whatsappId, setWhatsappId] = useState<number | null>(null);
  const [validate, setValidate] = useState(false);
  const [phoneBusy, setPhoneBusy] = useState<'contacts' | 'chats' | null>(null);

  // WhatsApp connections that can read the phone or check numbers (D148, D149); the default one first.
  useEffect(() => {
    const controller = new AbortController();
    listConnections({ signal: controller.signal }).then(
      (all) => {
        const usable = all.filter((c) => c.channel === 'whatsapp');
        setConnections(usable);
        const preferred =
          usable.find((c) => c.isDefault && c.status === 'CONNECTED') ?? usable.find((c) => c.status === 'CONNECTED');
        setWhatsappId(preferred?.id ?? usable[0]?.id ?? null);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, []);

  const fieldLabel = (target: ImportTarget) => t(`contacts.import.fields.${target}`);
  const running = step.kind === 'running' ? step.progress : null;
  const runningId = running?.id;
  const finished = running && (running.status === 'done' || running.status === 'failed');

  const apply = (progress: ContactImportView) =>
    setStep((s) => {
      if (s.kind !== 'running' || s.progress.id !== progress.id) return s;
      if (progress.status === 'done' && s.progress.status !== 'done') {
        notifications.success(t('contacts.import.success'));
      }
      return { kind: 'running', progress };
    });

  useChannel(companyChannel(user.companyId, 'contactImport'), (event) => {
    const progress = event.import as ContactImportView | undefined;
    if (progress && typeof progress.id === 'string') apply(progress);
  });

  // The events may be missed (a reconnect): the progress is also read now and then until the end.
  const onProgress = useEffectEvent(apply);
  useEffect(() => {
    if (!runningId || finished) return undefined;
    const timer = setInterval(() => {
      getContactImport(runningId).then(onProgress, () => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [runningId, finished]);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setError('');
    if (!IMPORT_FILE_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext))) {
      setError(t('contacts.import.invalidFile'));
      return;
    }
    setStep({ kind: 'reading' });
    try {
      const importId = await uploadContactSheet(file);
      const preview = await previewContactImport(importId);
      const width = Math.max(preview.header.length, ...preview.rows.map((r) => r.length));
      setColumns(Array.from({ length: width }, () => null));
      const rows = preview.rows.map((cells, index) => ({ index, cells }));
      setSelected(rows);
      setStep({ kind: 'map', importId, preview });
    } catch (err) {
      setStep({ kind: 'choose' });
      if (isInvalidFile(err)) setError(t('contacts.import.invalidFile'));
      else notifications.error(err);
    }
  };

  const mapColumn = (index: number, target: ImportTarget | null) => {
    if (target && columns.some((c, i) => c === target && i !== index)) {
      setError(t('contacts.import.fieldTwice', { field: fieldLabel(target) }));
      return;
    }
    setError('');
    setColumns(columns.map((c, i) => (i === index ? target : c)));
  };

  const start = async () => {
    if (step.kind !== 'map') return;
    if (!columns.includes('number')) return setError(t('contacts.import.noNumber'));
    if (!columns.includes('name')) return setError(t('contacts.import.noName'));
    if (selected.length === 0 && !step.preview.more) return setError(t('contacts.import.noRows'));
    setError('');
    setStarting(true);
    const chosen = new Set(selected.map((r) => r.index));
    try {
      const progress = await startContactImport(step.importId, {
        columns,
        excludedRows: step.preview.rows.map((_, i) => i).filter((i) => !chosen.has(i)),
        ...(validate ? { validateContact: true, ...(whatsappId ? { whatsappId } : {}) } : {}),
      });
      setStep({ kind: 'running', progress });
    } catch (err) {
      if (isInvalidFile(err)) setError(t('contacts.import.invalidFile'));
      else if (isNotConnected(err)) setError(t('contacts.import.notConnected'));
      else notifications.error(err);
    } finally {
      setStarting(false);
    }
  };

  const fromPhone = async (source: 'contacts' | 'chats') => {
    if (!whatsappId) return setError(t('contacts.import.noConnection'));
    setError('');
    setPhoneBusy(source);
    try {
      setStep({ kind: 'running', progress: await importFromPhone(source, whatsappId) });
    } catch (err) {
      if (isNotConnected(err)) setError(t('contacts.import.notConnected'));
      else notifications.error(err);
    } finally {
      setPhoneBusy(null);
    }
  };

  const connectionOptions: SelectProps.Option[] = connections.map((c) => ({
    value: String(c.id),
    label: c.name,
    description: c.status === 'CONNECTED' ? undefined : t('contacts.import.offline'),
  }));
  const connectionSelect = (
    <Select
      ariaLabel={t('contacts.import.connection')}
      placeholder={t('contacts.import.noConnection')}
      selectedOption={connectionOptions.find((o) => o.value === String(whatsappId)) ?? null}
      options={connectionOptions}
      onChange={({ detail }) => setWhatsappId(Number(detail.selectedOption.value))}
    />
  );

  const again = () => {
    setStep({ kind: 'choose' });
    setError('');
  };

  const options: SelectProps.Option[] = [
    { value: '', label: t('contacts.import.fields.none') },
    ...TARGETS.map((target) => ({ value: target, label: fieldLabel(target) })),
  ];

  const previewColumns: TableProps.ColumnDefinition<PreviewRow>[] =
    step.kind === 'map'
      ? columns.map((target, i) => ({
          id: `c${i}`,
          header: (
            <SpaceBetween size="xxs">
              <span>{step.preview.header[i] || t('contacts.import.column', { n: i + 1 })}</span>
              <Select
                ariaLabel={t('contacts.import.mapColumn', { column: step.preview.header[i] || i + 1 })}
                selectedOption={options.find((o) => o.value === (target ?? '')) ?? options[0]!}
                options={options}
                onChange={({ detail }) => mapColumn(i, (detail.selectedOption.value || null) as ImportTarget | null)}
              />
            </SpaceBetween>
          ),
          cell: (row) => row.cells[i] ?? '',
        }))
      : [];

  return (
    <SpaceBetween size="l">
      <Header
        variant="h1"
        description={t('contacts.import.description')}
        actions={<Button onClick={() => void navigate('/contacts')}>{t('contacts.import.back')}</Button>}
      >
        {t('contacts.import.title')}
      </Header>
      {error && (
        <Alert type="error" data-testid="import-error">
          {error}
        </Alert>
      )}
      {(step.kind === 'choose' || step.kind === 'reading') && (
        <Container>
          <FormField label={t('contacts.import.file')} constraintText={t('contacts.import.fileHint')}>
            <FileInput
              value={[]}
              accept={IMPORT_FILE_EXTENSIONS.join(',')}
              ariaLabel={t('contacts.import.choose')}
              onChange={({ detail }) => void choose(detail.value[0])}
            >
              {step.kind === 'reading' ? t('contacts.import.reading') : t('contacts.import.choose')}
            </FileInput>
          </FormField>
        </Container>
      )}
      {step.kind === 'choose' && (
        <Container
          header={
            <Header variant="h2" description={t('contacts.import.phoneDescription')}>
              {t('contacts.import.phoneTitle')}
            </Header>
          }
        >
          <SpaceBetween size="m">
            <FormField label={t('contacts.import.connection')}>{connectionSelect}</FormField>
            <SpaceBetween direction="horizontal" size="xs">
              <Button
                loading={phoneBusy === 'contacts'}
                disabled={!whatsappId || phoneBusy !== null}
                onClick={() => void fromPhone('contacts')}
              >
                {t('contacts.import.phoneContacts')}
              </Button>
              <Button
                loading={phoneBusy === 'chats'}
                disabled={!whatsappId || phoneBusy !== null}
                onClick={() => void fromPhone('chats')}
              >
                {t('contacts.import.phoneChats')}
              </Button>
            </SpaceBetween>
          </SpaceBetween>
        </Container>
      )}
      {step.kind === 'map' && (
        <Table
          variant="container"
          items={step.preview.rows.map((cells, index) => ({ index, cells }))}
          trackBy="index"
          selectionType="multi"
          selectedItems={selected}
          onSelectionChange={({ detail }) => setSelected(detail.selectedItems)}
          ariaLabels={{
            selectionGroupLabel: t('contacts.import.selectRows'),
            allItemsSelectionLabel: () => t('contacts.import.selectAll'),
            itemSelectionLabel: (_, row) => t('contacts.import.selectRow', { n: row.index + 1 }),
          }}
          columnDefinitions={previewColumns}
          header={
            <Header
              variant="h2"
              description={step.preview.more ? t('contacts.import.moreRows') : undefined}
              actions={
                <SpaceBetween direction="horizontal" size="xs">
                  <Button onClick={again}>{t('contacts.import.otherFile')}</Button>
                  <Button variant="primary" loading={starting} onClick={() => void start()}>
                    {t('contacts.import.start')}
                  </Button>
                </SpaceBetween>
              }
            >
              {t('contacts.import.mapping')}
            </Header>
          }
          footer={
            <SpaceBetween size="s">
              <Checkbox
                data-testid="validate-contacts"
                checked={validate}
                onChange={({ detail }) => setValidate(detail.checked)}
              >
                {t('contacts.import.validate')}
              </Checkbox>
              {validate && <FormField label={t('contacts.import.connection')}>{connectionSelect}</FormField>}
            </SpaceBetween>
          }
        />
      )}
      {running && (
        <Container header={<Header variant="h2">{running.fileName}</Header>}>
          <SpaceBetween size="m">
            {running.status === 'failed' ? (
              <Alert type="error">{t(failureKey(running.error))}</Alert>
            ) : (
              <ProgressBar
                label={t('contacts.import.progress')}
                value={running.total ? Math.round((100 * running.processed) / running.total) : 0}
                status={running.status === 'done' ? 'success' : 'in-progress'}
                resultText={t('contacts.import.success')}
                additionalInfo={
                  running.source !== 'sheet' && running.status === 'uploaded'
                    ? t('contacts.import.readingPhone')
                    : running.total === null
                      ? t('contacts.import.counting')
                      : t('contacts.import.processed', { processed: running.processed, total: running.total })
                }
              />
            )}
            <ColumnLayout columns={running.invalid > 0 ? 4 : 3} variant="text-grid">
              <Box>
                <Box variant="awsui-key-label">{t('contacts.import.created')}</Box>
                <Box data-testid="import-created">{running.created}</Box>
              </Box>
              <Box>
                <Box variant="awsui-key-label">{t('contacts.import.merged')}</Box>
                <Box data-testid="import-merged">{running.merged}</Box>
              </Box>
              <Box>
                <Box variant="awsui-key-label">{t('contacts.import.ignored')}</Box>
                <Box data-testid="import-ignored">{running.ignored}</Box>
              </Box>
              {running.invalid > 0 && (
                <Box>
                  <Box variant="awsui-key-label">{t('contacts.import.invalid')}</Box>
                  <Box data-testid="import-invalid">{running.invalid}</Box>
                </Box>
              )}
            </ColumnLayout>
            {finished && (
              <SpaceBetween direction="horizontal" size="xs">
                <Button onClick={again}>{t('contacts.import.otherFile')}</Button>
                <Button variant="primary" onClick={() => void navigate('/contacts')}>
                  {t('contacts.import.toContacts')}
                </Button>
              </SpaceBetween>
            )}
          </SpaceBetween>
        </Container>
      )}
    </SpaceBetween>
  );
}
