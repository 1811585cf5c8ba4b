/**
 * Image checks for uploads (avatars, logos): the type comes from the file's first bytes, never from the
 * name or the browser's Content-Type, so a renamed script is refused whatever it claims to be.
 */
export type ImageType = { contentType: string; extension: string };

const SIGNATURES: { type: ImageType; matches: (b: Buffer) => boolean }[] = [
  {
    type: { contentType: 'image/png', extension: 'png' },
    matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  {
    type: { contentType: 'image/jpeg', extension: 'jpg' },
    matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  },
  {
    type: { contentType: 'image/gif', extension: 'gif' },
    matches: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')),
  },
  {
    type: { contentType: 'image/webp', extension: 'webp' },
    matches: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** The image type of these bytes, or null when they are not a PNG, JPEG, GIF or WebP image. */
export const detectImageType = (bytes: Buffer): ImageType | null =>
  SIGNATURES.find((s) => s.matches(bytes))?.type ?? null;
