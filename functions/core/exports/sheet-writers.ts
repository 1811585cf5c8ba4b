import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * The two file formats of the exports (decisions D127, D129), both streaming: a row goes to the output as
 * soon as it is added, so memory holds the rows of one page, never the file.
 *
 * - xlsx: exceljs' streaming WorkbookWriter, one sheet, a bold header row; minutes are written as Excel
 *   durations (`[h]:mm`, value = minutes / 1440) and instants as the company's wall-clock date and time.
 * - csv: UTF-8 with a BOM and `;` between fields (Excel opens it in Brazilian Portuguese), CRLF, fields
 *   quoted when needed, and a leading `'` on text that Excel would take for a formula.
 */
export type CellKind = 'text' | 'number' | 'minutes' | 'datetime';

export interface SheetColumn {
  header: string;
  kind: CellKind;
  width: number;
}

/** A cell as the sources give it: text, a number, minutes, or a wall-clock time in the company's zone. */
export type Cell = string | number | Date | null;

export interface SheetWriter {
  addRow(cells: Cell[]): Promise<void>;
  /** Ends the file (the stream is ended too). */
  finish(): Promise<void>;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A wall-clock Date (its UTC fields are the local time) as `dd/mm/yyyy hh:mm`. */
export const wallClockText = (d: Date): string =>
  `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;

/** Minutes as `h:mm`, the text form of the xlsx duration. */
export const minutesText = (minutes: number): string => `${Math.floor(minutes / 60)}:${pad(Math.round(minutes % 60))}`;

export const xlsxWriter = (out: Writable, sheetName: string, columns: readonly SheetColumn[]): SheetWriter => {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet(sheetName);
  sheet.columns = columns.map((c, i) => ({
    key: String(i),
    header: c.header,
    width: c.width,
    ...(c.kind === 'minutes'
      ? { style: { numFmt: '[h]:mm' } }
      : c.kind === 'datetime'
        ? { style: { numFmt: 'dd/mm/yyyy hh:mm' } }
        : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  return {
    addRow: async (cells) => {
      sheet
        .addRow(
          cells.map((v, i) =>
            v === null ? null : columns[i]?.kind === 'minutes' && typeof v === 'number' ? v / 1440 : v,
          ),
        )
        .commit();
    },
    finish: async () => {
      sheet.commit();
      await book.commit();
    },
  };
};

const FORMULA_START = /^[=+\-@\t\r]/;

const csvField = (v: Cell, kind: CellKind | undefined): string => {
  if (v === null) return '';
  let text =
    v instanceof Date
      ? wallClockText(v)
      : typeof v === 'number'
        ? kind === 'minutes'
          ? minutesText(v)
          : String(v).replace('.', ',')
        : v;
  if (typeof v === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Writes to the stream, waiting when it asks to (one part of the upload in memory at most). */
const write = (out: Writable, text: string): Promise<void> =>
  new Promise((resolve, reject) => {
    out.write(text, (err) => (err ? reject(err) : resolve()));
  });

export const csvWriter = (out: Writable, columns: readonly SheetColumn[]): SheetWriter => {
  let started = false;
  const line = (cells: Cell[]) => `${cells.map((v, i) => csvField(v, columns[i]?.kind)).join(';')}\r\n`;
  return {
    addRow: async (cells) => {
      if (!started) {
        started = true;
        await write(out, `\uFEFF${line(columns.map((c) => c.header))}`);
      }
      await write(out, line(cells));
    },
    finish: async () => {
      if (!started) await write(out, `\uFEFF${line(columns.map((c) => c.header))}`);
      await new Promise<void>((resolve, reject) => {
        out.once('error', reject);
        out.end(() => resolve());
      });
    },
  };
};
