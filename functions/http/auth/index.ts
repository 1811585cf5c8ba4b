import * as z from 'zod';
import { config } from '../../config';
import { login, logout, me, refreshSession, REFRESH_TOKEN_TTL_SECONDS } from '../../core/auth/auth-service';
import type { SessionAnswer } from '../../core/auth/auth-service';
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
};

export const handler = createAreaHandler('auth', handlers);
