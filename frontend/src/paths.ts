import { isSubscriptionExpired, type AuthUser } from './api/auth';

export const LOGIN_PATH = '/login';
export const SIGNUP_PATH = '/signup';
export const FORGOT_PASSWORD_PATH = '/forgetpsw';

/** Where a login lands (core spec §2: /tickets; a coming-soon page until the tickets issue builds it). */
export const AFTER_LOGIN_PATH = '/tickets';

/** Where a login lands when the company's subscription has expired (core spec §2, §4). */
export const EXPIRED_SUBSCRIPTION_PATH = '/financeiro';

/** The page a user goes to right after logging in. */
export const landingPathFor = (user: AuthUser, now = new Date()): string =>
  isSubscriptionExpired(user.company, now) ? EXPIRED_SUBSCRIPTION_PATH : AFTER_LOGIN_PATH;
