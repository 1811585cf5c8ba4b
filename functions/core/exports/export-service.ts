import { randomUUID } from 'node:crypto';
import { EXPORT_LINK_SECONDS, type ExportView, type StartExportBody } from '../../contracts/exports';
import { getExport, putExport, type ExportItem } from '../../data/export-repository';
import { presignedExportUrl } from '../../data/export-store';
import { sendQueueMessage } from '../../data/queue-sender';
import type { AuthContext } from '../../shared/auth-context';
import { NotFound, ValidationError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { onlyUser, publish } from '../notifier';
import { exportSource } from './export-sources';

/**
 * Spreadsheet exports (DESIGN §11; decisions D127–D129): one machinery for the attendants sheet, the
 * tickets report and the contacts.
 *
 * 1. `POST /exports` checks permission and filters as the screen's own API does, stores the export
 *    (status `queued`) and queues the job; it answers the export's view at once.
 * 2. The `export` job (export-job.ts) claims the export with a fresh runner token, walks the rows page by page with
 *    Queries, streams them into the file (exceljs' streaming writer or csv) that goes up to S3 in 5 MB
 *    parts, records progress and announces it on `company-{id}-export` to the requester. A crash or a
 *    redelivery starts over from the first row under a new token; the older delivery's writes are then
 *    refused and it drops its upload, so one file is ever finished (the key is the export's own).
 * 3. `GET /exports/{exportId}` answers the view and, when done, a presigned GET valid EXPORT_LINK_SECONDS.
 *
 * An export belongs to the user who asked for it; anyone else (another company included) gets a 404.
 */
const notFound = () => new NotFound('ERR_NO_EXPORT_FOUND', 'Export not found');

export const toView = (e: ExportItem): ExportView => ({
  id: e.id,
  kind: e.kind,
  format: e.format,
  fileName: e.fileName,
  status: e.status,
  processed: e.processed,
  total: e.total,
  ...(e.error ? { error: e.error } : {}),
  createdAt: e.createdAt,
  ...(e.finishedAt ? { finishedAt: e.finishedAt } : {}),
});

export const announce = async (e: ExportItem): Promise<void> => {
  try {
    await publish(e.companyId, { channel: 'export', action: 'update', export: toView(e) }, onlyUser(e.userId));
  } catch (err) {
    logger.warn('export event not sent', { companyId: e.companyId, exportId: e.id, ...errorFields(err) });
  }
};

/** A filter's 400 under the body's own field names (`body.filters.dateTo`, not the screen's `query.dateTo`). */
const asBodyErrors = (err: unknown): unknown =>
  err instanceof ValidationError && err.fields
    ? new ValidationError(
        err.fields.map((f) => ({ ...f, field: f.field.replace(/^query\./, 'body.filters.') })),
        err.message,
      )
    : err;

export const startExport = async (auth: AuthContext, body: StartExportBody): Promise<ExportView> => {
  const format = body.kind === 'contacts' ? body.format : 'xlsx';
  const filters = body.kind === 'contacts' ? {} : (body.filters as Record<string, unknown>);
  const source = exportSource(auth, body.kind, format, filters);
  try {
    await source.total();
  } catch (err) {
    throw asBodyErrors(err);
  }
  const id = randomUUID();
  const created = await putExport({
    id,
    companyId: auth.companyId,
    userId: auth.userId,
    kind: body.kind,
    format,
    fileName: source.fileName,
    key: `c/${auth.companyId}/exports/${id}/${source.fileName}`,
    filters,
    auth: {
      companyId: auth.companyId,
      userId: auth.userId,
      profile: auth.profile,
      super: auth.super,
      userFlags: auth.userFlags,
      planFlags: auth.planFlags,
    },
  });
  await sendQueueMessage('export', { companyId: auth.companyId, exportId: id });
  return toView(created);
};

export const showExport = async (auth: AuthContext, id: string): Promise<ExportView> => {
  const found = await getExport(auth.companyId, id);
  if (!found || found.userId !== auth.userId) throw notFound();
  const view = toView(found);
  if (found.status !== 'done') return view;
  return {
    ...view,
    downloadUrl: await presignedExportUrl(found.key, found.fileName, EXPORT_LINK_SECONDS),
    downloadExpiresIn: EXPORT_LINK_SECONDS,
  };
};
