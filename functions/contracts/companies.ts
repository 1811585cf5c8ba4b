import * as z from 'zod';

/**
 * Companies on the wire (administration §3 Company, §5, §7 "Companies and plans"): what the platform owner's
 * `/companies` screen sends and reads. Shared by functions/core/companies and frontend/src/api.
 */
export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;

/** A company row of GET /companiesPlan, /companies, /companies/list and the answer of GET /companies/{id}. */
export interface CompanyView {
  id: number;
  name: string;
  email: string;
  phone: string;
  document: string;
  status: boolean;
  planId: number;
  plan: {
    id: number;
    name: string;
    amount: number;
    useExternalApi: boolean;
    useSchedules: boolean;
    useCampaigns: boolean;
  } | null;
  recurrence: (typeof RECURRENCES)[number];
  dueDate: string;
  createdAt: string;
  lastLogin: string | null;
  /** Bytes of the company's media (`c/<c>/`), as the last daily count found them (decisions D156). */
  folderSize: number;
  numberFileFolder: number;
  updatedAtFolder: string | null;
  /** Users and connections in use (the plan-usage counters). */
  numberAttendants: number;
  numberConections: number;
}

export interface CompanyListAnswer {
  companies: CompanyView[];
  hasMore: boolean;
  nextCursor?: string;
}

const dueDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, 'must be a date like 2026-12-31')
  .transform((s) => s.slice(0, 10))
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a date like 2026-12-31');

/** The company dialog's fields (administration §5: name 2–50, e-mail valid and required, plan required). */
const companyFields = {
  name: z.string({ error: 'Nome é obrigatório' }).trim().min(2, 'Nome é obrigatório').max(50, 'Muito longo!'),
  email: z
    .string({ error: 'E-mail é obrigatório' })
    .trim()
    .min(1, 'E-mail é obrigatório')
    .max(254, 'Email é inválido')
    .pipe(z.email('Email é inválido'))
    .transform((e) => e.toLowerCase()),
  phone: z.string().trim().max(30).optional(),
  document: z.string().trim().max(30).optional(),
  planId: z.coerce.number({ error: 'Plano é obrigatório' }).int().positive('Plano é obrigatório'),
  status: z.boolean().optional(),
  recurrence: z.enum(RECURRENCES, { error: 'one of MENSAL, BIMESTRAL, TRIMESTRAL, SEMESTRAL, ANUAL' }).optional(),
  dueDate: dueDate.optional(),
  // Shown by the dialog (default 1); the plan's limits govern, so they are read and not stored.
  numberAttendants: z.coerce.number({ error: 'must be a number' }).int().min(0).optional(),
  numberConections: z.coerce.number({ error: 'must be a number' }).int().min(0).optional(),
  campaignsEnabled: z.boolean().optional(),
};

/** POST /companies: the company and its first admin, who logs in with `email` and `passwordDefault`. */
export const createCompanyBodySchema = z.object({
  ...companyFields,
  passwordDefault: z.string({ error: 'Obrigatório' }).min(5, 'Muito curto!').max(50, 'Muito longo!'),
});
export type CreateCompanyBody = z.infer<typeof createCompanyBodySchema>;

/** PUT /companies/{id}: any field of the dialog (the admin's password is not changed here). */
export const updateCompanyBodySchema = z
  .object({ ...companyFields, passwordDefault: z.string().max(50).optional() })
  .partial();
export type UpdateCompanyBody = z.infer<typeof updateCompanyBodySchema>;
