import type { ScheduleEntry } from '@contracts/queues';
import { api } from './transport';

/**
 * The company's settings (administration spec §3 "Company settings", §5; server:
 * functions/core/settings/company-settings.ts): every column as text ('enabled' / 'disabled' and the
 * like), the company's time zone and its working hours.
 */
export type CompanySettings = Record<string, string | boolean | null | undefined> & {
  scheduleType?: string;
  timezone?: string;
};
export type CompanySettingsView = CompanySettings & { schedules: ScheduleEntry[] };

/** GET /companySettings/{companyId}. */
export const getCompanySettings = (
  companyId: number,
  options: { signal?: AbortSignal } = {},
): Promise<CompanySettingsView> =>
  api().get<CompanySettingsView>(`/companySettings/${encodeURIComponent(String(companyId))}`, options);

/** PUT /companySettings {column, data}: one column; a 400 on body.data when a paired rule fails. */
export const updateCompanySetting = (column: string, data: string | boolean): Promise<unknown> =>
  api().put<unknown>('/companySettings', { column, data });

/** PUT /companies/{id}/schedules: the company's working hours (scheduleType `company`). */
export const updateCompanySchedules = (companyId: number, schedules: ScheduleEntry[]): Promise<unknown> =>
  api().put<unknown>(`/companies/${encodeURIComponent(String(companyId))}/schedules`, { id: companyId, schedules });
