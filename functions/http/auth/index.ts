import * as z from 'zod';
import { config } from '../../shared/config';
import { loginBody, signupBody } from '../../contracts/auth';
import { login, logout, me, refreshSession, REFRESH_TOKEN_TTL_SECONDS } from '../../core/auth/auth-service';
import type { SessionAnswer } from '../../core/auth/auth-service';
import { requestPasswordReset, resetPassword } from '../../core/auth/password-reset-service';
import { signup } from '../../core/auth/signup-service';
import { clearedRefreshCookie, readCookie, REFRESH_COOKIE, refreshCookie } from '../../core/auth/refresh-cookie';
import { createAreaHandler, defineRoute, respond, type AreaHandlers, type HttpEvent } from '../stack';

/** Secure cookies everywhere but the plain-http local cloud and tests (D18). */
const cookieOptions = () => ({ secure: config().STAGE === 'aws' });

const sessionReply = ({ refreshToken, ...answer }: SessionAnswer) =>
  respond(200, answer, { cookies: [refreshCookie(refreshToken, REFRESH_TOKEN_TTL_SECONDS, cookieOptions())] });

const refreshTokenOf = (event: HttpEvent) => readCookie(event, REFRESH_COOKIE);

const emailParam = z.string({ error: 'Obrigatório' }).trim().toLowerCase().email('E-mail inválido').max(254);

/** The spec's password-reset rule (core §5), counted in characters as the reset form does. */
const NEW_PASSWORD_RULE =
  'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.';
const newPasswordParam = z
  .string({ error: 'Obrigatório' })
  .refine((p) => [...p].length <= 50, { error: 'Muito longo!', abort: true })
  .refine((p) => [...p].length >= 8 && /\p{Lu}/u.test(p) && /\p{Ll}/u.test(p) && /\p{Nd}/u.test(p), NEW_PASSWORD_RULE);

export const handlers: AreaHandlers = {
  login: defineRoute({
    body: loginBody,
    handle: async ({ body, sourceIp }) => sessionReply(await login({ ...body, sourceIp })),
  }),
  'refresh-token': defineRoute({
    handle: async ({ event }) => sessionReply(await refreshSession(refreshTokenOf(event))),
  }),
  logout: defineRoute({
    handle: async ({ event }) => {
      await logout(refreshTokenOf(event));
      return respond(204, undefined, { cookies: [clearedRefreshCookie(cookieOptions())] });
    },
  }),
  'get-me': defineRoute({ handle: async ({ auth }) => me(auth!) }),
  // The spec's sign-up form rules and texts (core §5).
  signup: defineRoute({
    body: signupBody,
    handle: async ({ body, sourceIp }) => respond(201, await signup({ ...body, sourceIp })),
  }),
  // 404 'Email não encontrado' for an unknown e-mail (core spec §7, §8).
  'request-password-reset': defineRoute({
    params: z.object({ email: emailParam }),
    handle: async ({ params, sourceIp }) => {
      await requestPasswordReset({ email: params.email, sourceIp });
      return { message: 'Email enviado com sucesso!' };
    },
  }),
  // The new password is checked here, before any limit or code is spent; the code by the service.
  'reset-password': defineRoute({
    params: z.object({
      email: emailParam,
      token: z.string({ error: 'Obrigatório' }).trim().min(1, 'Obrigatório').max(64),
      newPassword: newPasswordParam,
    }),
    handle: async ({ params, sourceIp }) => {
      await resetPassword({ ...params, sourceIp });
      return { message: 'Senha redefinida com sucesso.' };
    },
  }),
};

export const handler = createAreaHandler('auth', handlers);
