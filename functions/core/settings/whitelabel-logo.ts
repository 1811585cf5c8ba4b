import { randomUUID } from 'node:crypto';
import { deleteMediaObject, putMediaObject } from '../../data/media-store';
import { getGlobalSetting, putGlobalSetting } from '../../data/settings-repository';
import { ValidationError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { detectImageType, type ImageType } from '../media/images';
import type { SettingView } from './global-settings';

/**
 * `POST /settings-whitelabel/logo` (core §7 Settings; §3 Global settings; decisions D171): the platform
 * owner's logos for the light and dark themes and the favicon. The file goes to the media bucket under the
 * platform's own prefix (`platform/branding/`, no company's), and its key becomes appLogoLight, appLogoDark
 * or appLogoFavicon — public settings the app reads at start, so the sign-in page, the top bar and the tab
 * show it without a rebuild. The type comes from the bytes, never the name.
 */
export const LOGO_MODES = ['Light', 'Dark', 'Favicon'] as const;
export type LogoMode = (typeof LOGO_MODES)[number];
export const LOGO_MAX_BYTES = 1024 * 1024;
export const FAVICON_MAX_BYTES = 256 * 1024;
export const LOGO_PREFIX = 'platform/branding/';

const SETTING_OF: Record<LogoMode, 'appLogoLight' | 'appLogoDark' | 'appLogoFavicon'> = {
  Light: 'appLogoLight',
  Dark: 'appLogoDark',
  Favicon: 'appLogoFavicon',
};

const ICO: ImageType = { contentType: 'image/x-icon', extension: 'ico' };
const isIco = (b: Buffer) => b.length >= 6 && b.readUInt32BE(0) === 0x00000100 && b.readUInt16LE(4) > 0;

const invalidFile = (reason: string) => new ValidationError([{ field: 'body.file', reason }]);

/** The image's type when this mode accepts it: PNG, JPEG or WebP for a logo; PNG or ICO for the favicon. */
const acceptedType = (mode: LogoMode, bytes: Buffer): ImageType => {
  const max = mode === 'Favicon' ? FAVICON_MAX_BYTES : LOGO_MAX_BYTES;
  if (bytes.byteLength === 0) throw invalidFile('the file is empty');
  if (bytes.byteLength > max) throw invalidFile(`the file is larger than ${max / 1024} KB`);
  const type = detectImageType(bytes) ?? (isIco(bytes) ? ICO : null);
  const allowed = mode === 'Favicon' ? ['image/png', 'image/x-icon'] : ['image/png', 'image/jpeg', 'image/webp'];
  if (!type || !allowed.includes(type.contentType)) {
    throw invalidFile(mode === 'Favicon' ? 'not a PNG or ICO image' : 'not a PNG, JPEG or WebP image');
  }
  return type;
};

export const uploadWhitelabelLogo = async (mode: LogoMode, file: { bytes: Buffer }): Promise<SettingView> => {
  const type = acceptedType(mode, file.bytes);
  const setting = SETTING_OF[mode];
  const previous = (await getGlobalSetting(setting))?.value;
  const key = `${LOGO_PREFIX}${mode.toLowerCase()}/${randomUUID()}.${type.extension}`;
  await putMediaObject(key, file.bytes, type.contentType);
  try {
    await putGlobalSetting(setting, key);
  } catch (err) {
    await deleteMediaObject(key).catch(() => undefined);
    throw err;
  }
  // The replaced logo is no longer referenced (only ours, under the platform prefix, are removed).
  if (previous?.startsWith(LOGO_PREFIX)) {
    await deleteMediaObject(previous).catch((err: unknown) =>
      logger.warn('old whitelabel logo not removed', { key: previous, ...errorFields(err) }),
    );
  }
  return { key: setting, value: key };
};
