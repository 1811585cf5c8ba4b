import type { ExportView, StartExportRequest } from '@contracts/exports';
import { api } from './transport';

/**
 * Spreadsheet exports by job (decisions D127–D129; server: functions/core/exports): start one, follow it
 * (`company-{id}-export` events, or this read), download it from the short-lived `downloadUrl`.
 */
export type { ExportView, StartExportRequest };

export const startExport = (body: StartExportRequest): Promise<ExportView> => api().post<ExportView>('/exports', body);

export const getExport = (id: string): Promise<ExportView> =>
  api().get<ExportView>(`/exports/${encodeURIComponent(id)}`);
