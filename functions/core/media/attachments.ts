import { detectImageType } from './images';

/**
 * Attachments of any kind (a connection's greeting media, later quick replies and schedules): any file is
 * accepted, but what browsers are told it is comes from its first bytes. Images, PDF, audio and video keep
 * their type so the app can preview them; everything else — HTML, SVG, scripts, whatever the name or the
 * browser claims — is stored as `application/octet-stream`, which browsers download instead of rendering on
 * our origin (CloudFront adds `X-Content-Type-Options: nosniff`).
 */
export interface AttachmentType {
  contentType: string;
}

const startsWith = (b: Buffer, text: string, offset = 0) =>
  b.subarray(offset, offset + text.length).toString('latin1') === text;

const SIGNATURES: { contentType: string; matches: (b: Buffer) => boolean }[] = [
  { contentType: 'application/pdf', matches: (b) => startsWith(b, '%PDF-') },
  { contentType: 'audio/ogg', matches: (b) => startsWith(b, 'OggS') },
  {
    contentType: 'audio/mpeg',
    matches: (b) => startsWith(b, 'ID3') || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0),
  },
  { contentType: 'audio/wav', matches: (b) => startsWith(b, 'RIFF') && startsWith(b, 'WAVE', 8) },
  { contentType: 'video/mp4', matches: (b) => startsWith(b, 'ftyp', 4) },
  { contentType: 'video/webm', matches: (b) => b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])) },
];

export const detectAttachmentType = (bytes: Buffer): AttachmentType => {
  const image = detectImageType(bytes);
  if (image) return { contentType: image.contentType };
  return { contentType: SIGNATURES.find((s) => s.matches(bytes))?.contentType ?? 'application/octet-stream' };
};

/**
 * A file name safe as the last segment of a media key and URL: letters, digits, dot, dash and underscore
 * (accents folded), at most 100 characters, never empty or hidden.
 */
export const safeFileName = (name: string): string => {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-100);
  return cleaned || 'file';
};

/**
 * The kind of message a stored file makes, from its detected content type (the spec's message
 * `mediaType` values): image, video, audio, else `application` (sent as a document).
 */
export const mediaKindOf = (contentType: string): 'image' | 'video' | 'audio' | 'application' =>
  contentType.startsWith('image/')
    ? 'image'
    : contentType.startsWith('video/')
      ? 'video'
      : contentType.startsWith('audio/')
        ? 'audio'
        : 'application';

/** A media key's extension: the file name's (letters and digits, at most 10), else `bin`. */
export const fileExtension = (filename: string): string => {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(safeFileName(filename));
  return match ? match[1]!.toLowerCase() : 'bin';
};

/** The name people see for an uploaded file: its last path segment, trimmed, at most 200 characters. */
export const displayFileName = (filename: string): string =>
  (filename.split(/[\\/]/).pop() ?? '').trim().slice(-200) || 'file';
