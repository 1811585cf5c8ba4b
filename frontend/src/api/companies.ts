import type { CompanyListAnswer, CompanyView } from '@contracts/companies';
import { api } from './transport';

/** Companies, for the platform owner (administration §7 "Companies and plans"; decisions D155–D157). */
export type Company = CompanyView;
export type Recurrence = CompanyView['recurrence'];
export const RECURRENCE_OPTIONS: readonly Recurrence[] = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'];

export interface CompanyInput {
  name: string;
  email: string;
  phone?: string;
  planId: number;
  status: boolean;
  recurrence: Recurrence;
  dueDate: string;
  passwordDefault?: string;
  numberAttendants?: number;
  numberConections?: number;
}

interface CallOptions {
  signal?: AbortSignal;
}

const path = (id: number) => `/companies/${encodeURIComponent(String(id))}`;

/** GET /companiesPlan: a page of companies with their plan, by name when searched. */
export const listCompanies = (
  query: { searchParam?: string; pageNumber?: number; cursor?: string } = {},
  options: CallOptions = {},
): Promise<CompanyListAnswer> =>
  api().get<CompanyListAnswer>('/companiesPlan', {
    ...options,
    query: { searchParam: query.searchParam || undefined, pageNumber: query.pageNumber, cursor: query.cursor },
  });

export const createCompany = (input: CompanyInput): Promise<Company> => api().post<Company>('/companies', input);

export const updateCompany = (id: number, input: Partial<CompanyInput>): Promise<Company> =>
  api().put<Company>(path(id), input);

export const deleteCompany = (id: number): Promise<{ message: string }> => api().delete<{ message: string }>(path(id));
