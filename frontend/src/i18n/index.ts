import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import pt from './pt.json';

/**
 * i18next with the product's four languages. Portuguese is the default and the fallback, so it ships in the
 * entry chunk; en, es and tr are separate chunks fetched the first time someone picks them. The choice is
 * kept in localStorage under `i18nextLng` (the key the product has always used).
 */
export const LANGUAGES = ['pt', 'en', 'es', 'tr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'pt';
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/** Each language in its own name, as a language picker shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  pt: 'Português',
  en: 'English',
  es: 'Español',
  tr: 'Türkçe',
};

const HTML_LANG: Record<Language, string> = { pt: 'pt-BR', en: 'en', es: 'es', tr: 'tr' };

const loaders: Record<Exclude<Language, 'pt'>, () => Promise<{ default: ResourceKey }>> = {
  en: () => import('./en.json'),
  es: () => import('./es.json'),
  tr: () => import('./tr.json'),
};

/** `pt-BR` -> `pt`, `EN` -> `en`; undefined for languages we do not have. */
export const toLanguage = (value: string | null | undefined): Language | undefined => {
  const base = value?.toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.find((l) => l === base);
};

const lazyBundles: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init: () => undefined,
  read: (language, _namespace, callback) => {
    const lang = toLanguage(language);
    if (!lang || lang === 'pt') {
      callback(null, pt);
      return;
    }
    loaders[lang]().then(
      (bundle) => callback(null, bundle.default),
      (err: unknown) => callback(err instanceof Error ? err : String(err), false),
    );
  },
};

const rememberLanguage = (lng: string) => {
  const lang = toLanguage(lng) ?? DEFAULT_LANGUAGE;
  localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  document.documentElement.lang = HTML_LANG[lang];
};

let ready: Promise<typeof i18n> | undefined;

/** Initialises i18next once (main.tsx before the first render; the test setup). */
export const initI18n = (): Promise<typeof i18n> => {
  ready ??= (async () => {
    i18n.on('languageChanged', rememberLanguage);
    await i18n
      .use(lazyBundles)
      .use(initReactI18next)
      .init({
        lng: toLanguage(localStorage.getItem(LANGUAGE_STORAGE_KEY)) ?? DEFAULT_LANGUAGE,
        fallbackLng: DEFAULT_LANGUAGE,
        supportedLngs: LANGUAGES,
        load: 'languageOnly',
        resources: { pt: { translation: pt } },
        partialBundledLanguages: true,
        interpolation: { escapeValue: false }, // React escapes what it renders
      });
    return i18n;
  })();
  return ready;
};

/** Switches the interface language; resolves once its texts are loaded. */
export const changeLanguage = async (language: Language): Promise<void> => {
  await i18n.changeLanguage(language);
};

export { i18n };
