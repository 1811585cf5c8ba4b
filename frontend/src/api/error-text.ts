import { ApiError } from './api-error';

/** The slice of an i18next instance the rule needs. */
export interface Translator {
  t: (key: string, values?: Record<string, unknown>) => string;
  exists: (key: string) => boolean;
}

/** Translation keys of the catalogue codes: `backendErrors.ERR_NO_PERMISSION`, ... */
export const backendErrorKey = (code: string): string => `backendErrors.${code}`;
export const UNKNOWN_ERROR_KEY = 'errors.unknown';

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * What a translation may interpolate from the answer's `details` (e.g. ERR_SUBSCRIPTION_EXPIRED's
 * `{{dueDate}}`, ERR_PLAN_LIMIT_*'s `{{limit}}`): the details as sent, calendar dates as dd/MM/yyyy.
 */
const interpolationOf = (details: Record<string, unknown> | undefined): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(details ?? {}).map(([key, value]) => {
      const day = typeof value === 'string' ? ISO_DAY.exec(value) : null;
      return [key, day ? `${day[3]}/${day[2]}/${day[1]}` : value];
    }),
  );

/**
 * The text of an error toast (core spec §8): the translation of the answer's code when one exists, else
 * the raw code (or the message when there is no code), a plain string as is, else the generic text. The
 * translation may name values of the answer's `details` (the expired subscription's due date).
 */
export const errorText = (err: unknown, i18n: Translator): string => {
  if (err instanceof ApiError) {
    if (err.code) {
      const key = backendErrorKey(err.code);
      return i18n.exists(key) ? i18n.t(key, interpolationOf(err.details)) : err.code;
    }
    if (err.message) return err.message;
  }
  if (typeof err === 'string') return err;
  return i18n.t(UNKNOWN_ERROR_KEY);
};
