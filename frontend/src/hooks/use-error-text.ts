import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/api/error-text';

/** errorText (the spec's toast text rule) in the current language. */
export function useErrorText(): (err: unknown) => string {
  const { i18n } = useTranslation();
  return useCallback(
    (err: unknown) =>
      errorText(err, { t: (key, values) => i18n.t(key, values ?? {}), exists: (key) => i18n.exists(key) }),
    [i18n],
  );
}
