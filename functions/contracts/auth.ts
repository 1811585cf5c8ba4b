import * as z from 'zod';
import type { UserView } from './users';

/**
 * The session calls on the wire (core spec §4 "Subscription and session", §5 sign-up rules, §7 Session):
 * what login, refresh and me answer, and the bodies functions/http/auth accepts. Shared by the handlers,
 * functions/core/auth and frontend/src/api/auth.ts and session.ts.
 */
/** The `user` of the session answers: the wire user plus its company and company settings (spec §7). */
export interface AuthUser extends UserView {
  company: { id: number; name: string; dueDate: string };
  companieSettings: { key: string; value: string }[];
}

/** What POST /auth/login and POST /auth/refresh_token answer (the refresh token goes in a cookie). */
export interface LoginAnswer {
  token: string;
  user: AuthUser;
}

/** POST /auth/login. */
export const loginBody = z.object({
  email: z.string({ error: 'Required' }).trim().toLowerCase().max(254),
  password: z.string({ error: 'Required' }).max(200),
});
export type LoginBody = z.input<typeof loginBody>;

/** POST /auth/signup: a new company on a public plan, with its admin user (the spec's form rules, core §5). */
export const signupBody = z.object({
  name: z.string({ error: 'Obrigatório' }).trim().min(2, 'Muito curto!').max(50, 'Muito longo!'),
  companyName: z.string({ error: 'Obrigatório' }).trim().min(2, 'Muito curto!').max(50, 'Muito longo!'),
  email: z.string({ error: 'Obrigatório' }).trim().toLowerCase().email('E-mail inválido').max(254),
  password: z.string({ error: 'Obrigatório' }).min(5, 'Muito curto!').max(50, 'Muito longo!'),
  phone: z
    .string({ error: 'Obrigatório' })
    .trim()
    .min(1, { error: 'Obrigatório', abort: true })
    .regex(/^\+?[\d\s()-]{8,20}$/, 'Telefone inválido: DDD e número'),
  planId: z.coerce.number({ error: 'Obrigatório' }).int().positive('Obrigatório'),
  // The spec's optional companyId (from the sign-up link) never joins an existing company (D19).
  companyId: z.coerce.number().int().positive().optional(),
});
/** What the browser sends: the numbers as numbers (the server also takes them as text). */
export type SignupBody = z.output<typeof signupBody>;
