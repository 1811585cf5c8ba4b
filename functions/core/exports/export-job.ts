import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  claimExport,
  ExportOvertaken,
  failExport,
  finishExport,
  getExport,
  recordExportProgress,
  type ExportItem,
} from '../../data/export-repository';
import { ExportUpload } from '../../data/export-store';
import { DomainError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { exportSource } from './export-sources';
import { announce } from './export-service';
import { csvWriter, xlsxWriter, type SheetColumn, type SheetWriter } from './sheet-writers';

/**
 * The `export` job's work (decisions D127): kept apart from export-service.ts so the HTTP Lambda that
 * starts and shows exports never bundles exceljs. See export-service.ts for the whole flow.
 */

/** Announce progress at most this often (and after the last row). */
const PROGRESS_EVERY_MS = 1000;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ExportRunOptions {
  /** Fault injection (tests): runs after each page is written and recorded, with the rows so far. */
  afterPage?: (processed: number) => void | Promise<void>;
  /** The delivery's receive count and the queue's limit: the last one marks a failure as final. */
  lastAttempt?: boolean;
}

const writerFor = (
  e: ExportItem,
  upload: ExportUpload,
  sheetName: string,
  columns: readonly SheetColumn[],
): SheetWriter => (e.format === 'csv' ? csvWriter(upload, columns) : xlsxWriter(upload, sheetName, columns));

/**
 * One delivery of an export's job: claims it, writes the whole file from the first row, finishes it.
 * Answers what happened; throws (for SQS to redeliver) on an unexpected error, unless it was the last
 * attempt — then the export is marked failed for the user to ask again.
 */
export const runExport = async (
  companyId: number,
  exportId: string,
  options: ExportRunOptions = {},
): Promise<'done' | 'failed' | 'overtaken' | 'nothing'> => {
  const current = await getExport(companyId, exportId);
  if (!current || (current.status !== 'queued' && current.status !== 'running')) return 'nothing';
  const runner = randomUUID();
  let upload: ExportUpload | undefined;
  try {
    const source = exportSource(current.auth, current.kind, current.format, current.filters);
    let item = await claimExport(current, runner, await source.total());
    await announce(item);
    upload = new ExportUpload(item.key, item.format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE, item.fileName);
    const writer = writerFor(item, upload, source.sheetName, source.columns);
    let processed = 0;
    let announced = Date.now();
    for await (const page of source.pages()) {
      for (const row of page) await writer.addRow(row);
      // The writer may run ahead of the upload (exceljs does not wait): let the last part go up first.
      if (upload.writableNeedDrain) await once(upload, 'drain');
      processed += page.length;
      item = await recordExportProgress(item, runner, processed);
      if (Date.now() - announced >= PROGRESS_EVERY_MS) {
        announced = Date.now();
        await announce(item);
      }
      await options.afterPage?.(processed);
    }
    await writer.finish();
    // Still ours? Then the file becomes visible and the export done; a newer delivery makes its own.
    await recordExportProgress(item, runner, processed);
    await upload.complete();
    item = await finishExport(item, runner, { processed, size: upload.size });
    await announce(item);
    return 'done';
  } catch (err) {
    await upload?.abort();
    if (err instanceof ExportOvertaken) return 'overtaken';
    const final = options.lastAttempt || (err instanceof DomainError && err.status < 500);
    if (!final) throw err;
    logger.error('export failed', { companyId, exportId, ...errorFields(err) });
    try {
      await announce(await failExport(current, err instanceof DomainError ? err.code : 'ERR_EXPORT_FAILED'));
    } catch (failErr) {
      if (!(failErr instanceof ExportOvertaken)) throw failErr;
    }
    return 'failed';
  }
};
