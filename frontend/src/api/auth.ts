import type { AuthUser, LoginAnswer, LoginBody, SignupBody } from '@contracts/auth';
import type { PlanView } from '@contracts/plans';
import type { Enabled } from '@contracts/users';
import { session } from './session';
import { api } from './transport';

/**
 * The session calls (core spec §7 Session): the typed client of functions/http/auth. The wire shapes are
 * the server's contracts (functions/contracts/auth.ts, users.ts, plans.ts).
 */
/** The super company (core spec §4): its subscription never expires. */
export const SUPER_COMPANY_ID = 1;

export type { AuthUser, Enabled, LoginAnswer };
/** A plan offered on the sign-up page (GET /plans/list answers only the public ones). */
export type PublicPlan = PlanView;
/** What the sign-up form sends; `companyId` from the sign-up link's query, when there is one. */
export type SignupInput = SignupBody;

interface CallOptions {
  signal?: AbortSignal;
}

const segment = (value: string) => encodeURIComponent(value);

/** POST /auth/login: on success the token is stored and session.onChange listeners get the user. */
export const login = async (credentials: LoginBody): Promise<LoginAnswer> => {
  const answer = await api().post<LoginAnswer>('/auth/login', credentials);
  session.start(answer);
  return answer;
};

/** DELETE /auth/logout; the local session ends even when the server cannot be reached. */
export const logout = async (): Promise<void> => {
  try {
    await api().delete<void>('/auth/logout');
  } finally {
    session.end();
  }
};

/** GET /auth/me: the signed-in user. */
export const getMe = (options?: CallOptions): Promise<AuthUser> => api().get<AuthUser>('/auth/me', options);

/** POST /auth/signup: a new company on the chosen public plan, with its admin user. */
export const signup = async (input: SignupInput): Promise<void> => {
  await api().post<unknown>('/auth/signup', input);
};

/** POST /forgetpassword/{email}: e-mails a reset code; rejects with status 404 for an unknown e-mail. */
export const requestPasswordReset = async (email: string): Promise<void> => {
  await api().post<unknown>(`/forgetpassword/${segment(email)}`);
};

/** POST /resetpasswords/{email}/{token}/{newPassword}: sets the new password with the e-mailed code. */
export const resetPassword = async ({
  email,
  token,
  newPassword,
}: {
  email: string;
  token: string;
  newPassword: string;
}): Promise<void> => {
  await api().post<unknown>(`/resetpasswords/${segment(email)}/${segment(token)}/${segment(newPassword)}`);
};

/** GET /plans/list (public): the plans a visitor may sign up for. */
export const listPublicPlans = (options?: CallOptions): Promise<PublicPlan[]> =>
  api().get<PublicPlan[]>('/plans/list', options);

/**
 * The server's rule (functions/core/auth/request-context.ts): usable while today (UTC calendar day) is not
 * after the due date; the super company never expires.
 */
export const isSubscriptionExpired = (company: AuthUser['company'], now = new Date()): boolean =>
  company.id !== SUPER_COMPANY_ID && company.dueDate.slice(0, 10) < now.toISOString().slice(0, 10);
