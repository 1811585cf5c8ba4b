import { api } from './transport';

/**
 * The platform's global settings (core §3 "Global settings", §7; server: functions/core/settings/
 * global-settings.ts, decisions D17, D158): the owner reads every key (secrets masked) and writes one at a
 * time.
 */
export interface PlatformSetting {
  key: string;
  value: string;
  /** True when `value` is a secret shown masked (`••••` + its last 4 characters). */
  masked?: true;
}

interface CallOptions {
  signal?: AbortSignal;
}

/** GET /settings: every key with its value or default (the owner). */
export const listPlatformSettings = (options: CallOptions = {}): Promise<PlatformSetting[]> =>
  api().get<PlatformSetting[]>('/settings', options);

/** PUT /settings/{key}: one key's new value; answers it as a read shows it (masked when secret). */
export const savePlatformSetting = (key: string, value: string): Promise<PlatformSetting> =>
  api().put<PlatformSetting>(`/settings/${encodeURIComponent(key)}`, { key, value });

/**
 * POST /settings-whitelabel/logo, multipart {typeArch logo, mode Light|Dark|Favicon, file} (decisions D171):
 * answers the setting it set (appLogoLight, appLogoDark or appLogoFavicon) with the stored file's key.
 */
export const uploadWhitelabelLogo = (mode: string, file: File): Promise<PlatformSetting> => {
  const form = new FormData();
  form.append('typeArch', 'logo');
  form.append('mode', mode);
  form.append('file', file);
  return api().post<PlatformSetting>('/settings-whitelabel/logo', form);
};
