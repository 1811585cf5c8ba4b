/**
 * Shared key conventions (docs/data-model.md). Entity key builders live beside their repositories and
 * compose these. Every tenant item's partition key starts with `C#<companyId>#`, so a Query can only
 * ever reach one company's items; platform items (plans, global settings, e-mail guards) use prefixes
 * that never start with `C#`.
 */
export const company = (companyId: number): string => {
  if (!Number.isSafeInteger(companyId) || companyId <= 0) throw new Error(`invalid companyId ${companyId}`);
  return `C#${companyId}`;
};

/** Zero-padded so numeric ids sort as strings (10 digits covers every per-company counter). */
export const pad = (n: number, width = 10): string => String(n).padStart(width, '0');

/** Sort-key form of a time: ISO-8601 UTC sorts lexicographically. */
export const isoTime = (d: Date | string | number): string => new Date(d).toISOString();

/**
 * Search form of a name: lower case, accents removed, spaces collapsed — "José  Álvares" -> "jose alvares".
 * Stored in sort keys so a `begins_with` Query finds names by prefix without scanning.
 */
export const searchForm = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/**
 * 32-bit FNV-1a of a string (UTF-8): a stable, cheap spread of ids over a fixed number of partitions
 * (`fnv1a(x) % n`), e.g. a connection's signal keys over 16 auth partitions (data-model §2.11).
 */
export const fnv1a = (s: string): number => {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(s, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
};
