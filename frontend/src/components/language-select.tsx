import Select, { type SelectProps } from '@cloudscape-design/components/select';
import { useTranslation } from 'react-i18next';
import { changeLanguage, DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, toLanguage } from '@/i18n';

const OPTIONS: SelectProps.Option[] = LANGUAGES.map((lang) => ({ value: lang, label: LANGUAGE_NAMES[lang] }));

/** Picks the interface language (kept in localStorage by the i18n module). */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const current = toLanguage(i18n.resolvedLanguage) ?? DEFAULT_LANGUAGE;
  return (
    <Select
      ariaLabel={t('language.label')}
      selectedOption={OPTIONS.find((o) => o.value === current) ?? null}
      options={OPTIONS}
      onChange={({ detail }) => {
        const lang = toLanguage(detail.selectedOption.value);
        if (lang) void changeLanguage(lang);
      }}
    />
  );
}
