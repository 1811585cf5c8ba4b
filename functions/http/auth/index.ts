import * as z from 'zod';
import { config } from '../../config';
import { login, logout, me, refreshSession, REFRESH_TOKEN_TTL_SECONDS } from '../../core/auth/auth-service';
import type { SessionAnswer } from '../../core/auth/auth-service';
import { signup } from '../../core/auth/signup-service';
import { clearedRefreshCookie, readCookie, REFRESH_COOKIE, refreshCookie } from '../../core/auth/refresh-cookie';
import { createAreaHandler, defineRoute, respond, type AreaHandlers, type HttpEvent } from '../stack';

/** Secure cookies everywhere but the plain-http local cloud and tests (D18). */
const cookieOptions = () => ({ secure: config().STAGE === 'aws' });

const sessionReply = ({ refreshToken, ...answer }: SessionAnswer) =>
  respond(200, answer, { cookies: [refreshCookie(refreshToken, REFRESH_TOKEN_TTL_SECONDS, cookieOptions())] });

const refreshTokenOf = (event: HttpEvent) => readCookie(event, REFRESH_COOKIE);

export const handlers: AreaHandlers = {
  login: defineRoute({
    body: z.object({
      email: z.string({ error: 'Required' }).trim().toLowerCase().max(254),
      password: z.string({ error: 'Required' }).max(200),
    }),
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
    body: z.object({
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
    }),
    handle: async ({ body, sourceIp }) => respond(201, await signup({ ...body, sourceIp })),
  }),
};

export const handler = createAreaHandler('auth', handlers);
