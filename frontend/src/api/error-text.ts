import { ApiError } from './api-error';

/** The slice of an i18next instance the rule needs. */
export interface Translator {
  t: (key: string) => string;
  exists: (key: string) => boolean;
}

/** Translation keys of the catalogue codes: `backendErrors.ERR_NO_PERMISSION`, ... */
export const backendErrorKey = (code: string): string => `backendErrors.${code}`;
export const UNKNOWN_ERROR_KEY = 'errors.unknown';

/**
 * The text of an error toast (core spec §8): the translation of the answer's code when one exists, else
 * the raw code (or the message when there is no code), a plain string as is, else the generic text.
 */
export const errorText = (err: unknown, i18n: Translator): string => {
  if (err instanceof ApiError) {
    if (err.code) return i18n.exists(backendErrorKey(err.code)) ? i18n.t(backendErrorKey(err.code)) : err.code;
    if (err.message) return err.message;
  }
  if (typeof err === 'string') return err;
  return i18n.t(UNKNOWN_ERROR_KEY);
};
