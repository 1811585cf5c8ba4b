import * as z from 'zod';
import { dashboardQuery, reportQuery } from './dashboard';

/**
 * Spreadsheet exports written by a job to S3 and fetched by a presigned link (DESIGN §11; core §2 Dashboard
 * "relatorio-de-atendentes.xlsx"; admin §2 Reports "relatorio-de-atendimentos"; core §2 Contacts
 * import/export menu; decisions D127–D129). `POST /exports` starts one and answers its id at once; the job
 * reports progress on `company-{id}-export` and `GET /exports/{exportId}` answers the same view, with a
 * short-lived `downloadUrl` once it is done.
 */
export const EXPORT_KINDS = ['attendants', 'tickets-report', 'contacts'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** The report's filters exactly as `GET /ticketreport/reports` takes them, without the paging. */
export const reportExportFilters = reportQuery.omit({ page: true, pageSize: true, companyId: true });
export type ReportExportFilters = z.infer<typeof reportExportFilters>;

/** The dashboard's range exactly as `GET /dashboard` takes it (the attendants table ignores queues). */
export const attendantsExportFilters = dashboardQuery.omit({ companyId: true, queueIds: true });
export type AttendantsExportFilters = z.infer<typeof attendantsExportFilters>;

export const startExportBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('attendants'), filters: attendantsExportFilters }),
  z.object({ kind: z.literal('tickets-report'), filters: reportExportFilters }),
  z.object({ kind: z.literal('contacts'), format: z.enum(EXPORT_FORMATS).default('xlsx') }),
]);
export type StartExportBody = z.infer<typeof startExportBody>;
/** What a client sends (list filters as the report's query strings, e.g. `status: '["open"]'`). */
export type StartExportRequest = z.input<typeof startExportBody>;

export interface ExportView {
  id: string;
  kind: ExportKind;
  format: ExportFormat;
  /** The name the browser saves it under. */
  fileName: string;
  status: ExportStatus;
  /** Rows written so far. */
  processed: number;
  /** Rows expected, when known beforehand (null: unknown until done). */
  total: number | null;
  /** 'ERR_EXPORT_FAILED' when it gave up. */
  error?: string;
  createdAt: string;
  finishedAt?: string;
  /** Done only: a presigned GET of the file, valid for `downloadExpiresIn` seconds. */
  downloadUrl?: string;
  downloadExpiresIn?: number;
}

/** Exports are kept this long (item TTL and the bucket's lifecycle rule; decisions D127). */
export const EXPORT_KEEP_SECONDS = 24 * 3600;
/** A download link's validity. */
export const EXPORT_LINK_SECONDS = 300;
