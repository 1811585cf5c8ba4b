import { I18nProvider, type I18nProviderProps } from '@cloudscape-design/components/i18n';
import ptMessages from '@cloudscape-design/components/i18n/messages/all.pt-BR';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, toLanguage, type Language } from './index';

type Messages = I18nProviderProps.Messages;

/** Cloudscape's own labels (pagination, table, date pickers, ...) in the interface language. */
const LOCALES: Record<Language, string> = { pt: 'pt-BR', en: 'en', es: 'es', tr: 'tr' };

/** pt ships with the app, like its own pt bundle; the others load the first time they are chosen. */
const loaders: Record<Exclude<Language, 'pt'>, () => Promise<{ default: Messages }>> = {
  en: () => import('@cloudscape-design/components/i18n/messages/all.en'),
  es: () => import('@cloudscape-design/components/i18n/messages/all.es'),
  tr: () => import('@cloudscape-design/components/i18n/messages/all.tr'),
};

const loaded = new Map<Language, Messages>([['pt', ptMessages]]);

const load = async (language: Language): Promise<Messages> => {
  const known = loaded.get(language);
  if (known) return known;
  const messages = (await loaders[language as Exclude<Language, 'pt'>]()).default;
  loaded.set(language, messages);
  return messages;
};

/**
 * Cloudscape's I18nProvider keyed to i18next's language. While another language's messages load, the
 * previous ones stay, so components never fall back to their built-in English mid-switch.
 */
export function CloudscapeI18n({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const language = toLanguage(i18n.resolvedLanguage) ?? DEFAULT_LANGUAGE;
  const [current, setCurrent] = useState<{ language: Language; messages: Messages }>(() => ({
    language: loaded.has(language) ? language : DEFAULT_LANGUAGE,
    messages: loaded.get(language) ?? ptMessages,
  }));

  useEffect(() => {
    let cancelled = false;
    load(language).then(
      (messages) => {
        if (!cancelled) setCurrent((c) => (c.language === language ? c : { language, messages }));
      },
      (err: unknown) => console.error('Cloudscape messages not loaded', err),
    );
    return () => {
      cancelled = true;
    };
  }, [language]);

  return (
    <I18nProvider locale={LOCALES[current.language]} messages={[current.messages]}>
      {children}
    </I18nProvider>
  );
}
