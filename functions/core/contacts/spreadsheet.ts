import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { BadRequest } from '../../shared/errors';

/**
 * Reading a contact spreadsheet (core spec §4, §5; decisions D104): the first sheet of an .xlsx (exceljs'
 * streaming reader, row by row), of an .xls (a current SheetJS build, `@e965/xlsx`: the registry's
 * `xlsx@0.18.5` carries CVEs), or a .csv / .txt (the small parser below: quoted fields, `;` `,` or tab
 * separators, a UTF-8 BOM, UTF-8 or Latin-1). The kind is read from the file's first bytes, never from its
 * name. Every cell comes out as trimmed text; anything unreadable is 'Arquivo inválido!' (ERR_INVALID_FILE).
 */
export type SheetKind = 'xlsx' | 'xls' | 'csv';

export const invalidFile = (): BadRequest => new BadRequest('ERR_INVALID_FILE', 'Arquivo inválido!');

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0];

const startsWith = (bytes: Buffer, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/** The kind of a file from its first bytes: a zip is an .xlsx, an OLE2 compound file an .xls, text a CSV. */
export const sheetKindOf = (start: Buffer): SheetKind => {
  if (startsWith(start, ZIP)) return 'xlsx';
  if (startsWith(start, OLE2)) return 'xls';
  // Text: no NUL bytes in what we saw (a binary file is not a CSV).
  if (start.length === 0 || start.includes(0)) throw invalidFile();
  return 'csv';
};

const decodeText = (bytes: Buffer): string => {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  // Not UTF-8 (replacement characters where bytes did not decode): read it as Latin-1, Excel's old default.
  return text.includes('\uFFFD') ? bytes.toString('latin1') : text;
};

/** The separator of a CSV: whichever of `;`, `,` and tab its first line has most of (outside quotes). */
const separatorOf = (text: string): string => {
  const firstLine = text.slice(0, Math.max(0, text.search(/\r?\n/)) || text.length);
  const counts = new Map<string, number>([
    [';', 0],
    [',', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  const [best] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return best && best[1] > 0 ? best[0] : ',';
};

/** The rows of a CSV text: RFC 4180 quoting (`""` inside quotes, line breaks inside quotes kept). */
export function* parseCsv(input: string): Generator<string[]> {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const sep = separatorOf(text);
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (ch === sep) {
      row.push(field.trim());
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      row.push(field.trim());
      field = '';
      yield row;
      row = [];
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
    } else field += ch;
    i += 1;
  }
  if (field !== '' || row.length > 0) {
    row.push(field.trim());
    yield row;
  }
}

/** A cell of exceljs as text: numbers without exponent (phone numbers), rich text joined, formulas' results. */
const cellText = (value: ExcelJS.CellValue): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value)
      return value.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('text' in value && typeof value.text === 'string') return value.text.trim();
    if ('result' in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
    if ('error' in value) return '';
  }
  return '';
};

async function* xlsxRows(bytes: Buffer): AsyncGenerator<string[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  let expected = 1;
  for await (const sheet of reader) {
    for await (const row of sheet) {
      // exceljs skips empty rows: keep the row numbers the user sees by yielding blanks for them.
      for (; expected < row.number; expected += 1) yield [];
      const values = row.values as ExcelJS.CellValue[];
      yield values.slice(1).map(cellText);
      expected = row.number + 1;
    }
    return; // the first sheet only
  }
}

async function* xlsRows(bytes: Buffer): AsyncGenerator<string[]> {
  const XLSX = await import('@e965/xlsx');
  const book = XLSX.read(bytes, { type: 'buffer', dense: true, cellDates: true });
  const first = book.SheetNames[0];
  if (!first) return;
  const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[first]!, {
    header: 1,
    raw: true,
    defval: '',
    blankrows: true,
  });
  for (const row of rows) yield row.map((v) => cellText(v as ExcelJS.CellValue));
}

/**
 * Every row of the file's first sheet, in order, as trimmed texts (trailing empty cells dropped). A file
 * that cannot be read throws 'Arquivo inválido!' — at once or when the reader meets the damage.
 */
export async function* readSheetRows(bytes: Buffer): AsyncGenerator<string[]> {
  const kind = sheetKindOf(bytes.subarray(0, 512));
  const source =
    kind === 'xlsx'
      ? xlsxRows(bytes)
      : kind === 'xls'
        ? xlsRows(bytes)
        : (async function* () {
            yield* parseCsv(decodeText(bytes));
          })();
  try {
    for await (const row of source) {
      let end = row.length;
      while (end > 0 && row[end - 1] === '') end -= 1;
      yield row.slice(0, end);
    }
  } catch (err) {
    if (err instanceof BadRequest) throw err;
    throw invalidFile();
  }
}
