import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getExport, startExport, type ExportView, type StartExportRequest } from '@/api/exports';
import { useNotifications } from '@/components/notifications';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useChannel } from '@/realtime/use-socket';
import { companyChannel } from '@contracts/realtime';

/** How often the export is read again while it runs (the live events come in between). */
export const EXPORT_POLL_MS = 2000;

/** Starts the browser's download of a finished export (a seam for component tests). */
export const exportDownloads = {
  open: (url: string, fileName: string): void => {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  },
};

/**
 * One spreadsheet export at a time for a screen (decisions D127): `start` asks the server for it, the
 * returned `panel` shows its progress bar (live from `company-{id}-export`, and read every
 * EXPORT_POLL_MS in case an event is missed), downloads the file as soon as it is ready and keeps a
 * "download" button for a fresh link; a failure says so.
 */
export function useExportJob(): {
  start: (body: StartExportRequest) => Promise<void>;
  busy: boolean;
  panel: ReactNode;
} {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const notifications = useNotifications();
  const [job, setJob] = useState<ExportView | null>(null);
  const [starting, setStarting] = useState(false);
  const running = job !== null && (job.status === 'queued' || job.status === 'running');

  const download = async (id: string) => {
    try {
      const ready = await getExport(id);
      if (ready.downloadUrl) exportDownloads.open(ready.downloadUrl, ready.fileName);
    } catch (err) {
      notifications.error(err);
    }
  };

  // The export shown, for event handlers (an event may arrive for another export, or after the end).
  const shown = useRef<ExportView | null>(null);
  const show = (view: ExportView | null) => {
    shown.current = view;
    setJob(view);
  };

  const apply = (view: ExportView) => {
    const current = shown.current;
    if (!current || current.id !== view.id || current.status === 'done' || current.status === 'failed') return;
    show(view);
    if (view.status === 'done') void download(view.id);
  };

  useChannel(companyChannel(user.companyId, 'export'), (event) => {
    const view = event.export as ExportView | undefined;
    if (view && typeof view.id === 'string') apply(view);
  });

  const onProgress = useEffectEvent(apply);
  const runningId = running ? job.id : undefined;
  useEffect(() => {
    if (!runningId) return undefined;
    const timer = setInterval(() => {
      getExport(runningId).then(onProgress, () => undefined);
    }, EXPORT_POLL_MS);
    return () => clearInterval(timer);
  }, [runningId]);

  const start = async (body: StartExportRequest) => {
    setStarting(true);
    try {
      show(await startExport(body));
    } catch (err) {
      notifications.error(err);
    } finally {
      setStarting(false);
    }
  };

  let panel: ReactNode = null;
  if (job) {
    const done = job.status === 'done';
    const failed = job.status === 'failed';
    panel = (
      <Alert
        type={failed ? 'error' : done ? 'success' : 'info'}
        dismissible={!running}
        onDismiss={() => show(null)}
        action={
          done ? (
            <Button onClick={() => void download(job.id)} iconName="download">
              {t('exports.download')}
            </Button>
          ) : undefined
        }
        data-testid="export-status"
      >
        {failed ? (
          t('exports.failed', { fileName: job.fileName })
        ) : (
          <ProgressBar
            label={
              done ? t('exports.ready', { fileName: job.fileName }) : t('exports.preparing', { fileName: job.fileName })
            }
            value={done ? 100 : job.total ? Math.min(100, Math.round((job.processed / job.total) * 100)) : 0}
            additionalInfo={
              job.total === null
                ? t('exports.rowsSoFar', { processed: job.processed })
                : t('exports.rows', { processed: job.processed, total: job.total })
            }
            status={done ? 'success' : 'in-progress'}
            resultText={t('exports.rows', { processed: job.processed, total: job.total ?? job.processed })}
          />
        )}
      </Alert>
    );
  }
  return { start, busy: starting || running, panel };
}
