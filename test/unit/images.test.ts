import { describe, expect, it } from 'vitest';
import { detectImageType } from '../../functions/core/media/images';

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('detectImageType', () => {
  it.each([
    ['png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'image/png'],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg'],
    ['gif87a', bytes('GIF87a', [1, 0]), 'image/gif'],
    ['gif89a', bytes('GIF89a', [1, 0]), 'image/gif'],
    ['webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
  ])('knows %s by its first bytes', (_name, data, contentType) => {
    expect(detectImageType(data)?.contentType).toBe(contentType);
  });

  it.each([
    ['text', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['a truncated PNG signature', bytes([0x89, 0x50, 0x4e, 0x47])],
    ['a RIFF that is not WebP', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
    ['nothing', Buffer.alloc(0)],
  ])('refuses %s', (_name, data) => {
    expect(detectImageType(data)).toBeNull();
  });
});
