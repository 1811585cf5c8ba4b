import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { runExport } from '../../functions/core/exports/export-job';
import { setNotifier } from '../../functions/core/notifier';
import { realtimeNotifier } from '../../functions/realtime/publisher';
import { EXPORT_PAGE_ROWS } from '../../functions/core/exports/export-sources';
import { xlsxWriter, type SheetColumn } from '../../functions/core/exports/sheet-writers';
import { getExport, putExport } from '../../functions/data/export-repository';
import type { Benchmark } from '../benchmark';
import { markdownTable } from '../stats';
import { FIRST_DAY, LAST_DAY, seedTickets, tenant } from './dashboard';

/**
 * The tickets report's Excel export (issue 18 item 9; decisions D127, D128): how long the export job takes
 * to write `relatorio-de-atendimentos.xlsx` for 100 000 report rows, run in this process the way the
 * `export` consumer runs it — Queries of the creation index a page at a time, BatchGets of tickets and
 * contacts, exceljs' streaming writer, a multipart upload to the S3 emulator — with the heap it needed.
 * The quick CI check writes 5 000 rows through the same xlsx writer into a sink (no cloud).
 */
const SIZE = 100_000;
const QUICK_ROWS = 5_000;
/** The consumer's Lambda timeout (functions/jobs/registry.ts): the export must fit in one delivery. */
const TIMEOUT_S = 900;

const COLUMNS: SheetColumn[] = [
  { header: 'Ticket', kind: 'number', width: 10 },
  { header: 'Contato', kind: 'text', width: 28 },
  { header: 'Status', kind: 'text', width: 20 },
  { header: 'Última mensagem', kind: 'text', width: 40 },
  { header: 'Abertura', kind: 'datetime', width: 18 },
  { header: 'T. de atendimento', kind: 'minutes', width: 18 },
];

/** Samples the heap while `work` runs: the most it grew above where it started, MB. */
const heapGrowth = async <T>(work: () => Promise<T>): Promise<{ result: T; mb: number }> => {
  const start = process.memoryUsage().heapUsed;
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 100);
  try {
    const result = await work();
    return { result, mb: (peak - start) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
};

export const reportExport: Benchmark = {
  name: 'report-export',
  description: `The tickets report's Excel export job for ${SIZE.toLocaleString('en')} rows (seeded tickets), end to end into S3.`,
  goal: `${SIZE.toLocaleString('en')} rows within one delivery (< ${TIMEOUT_S} s), heap bounded by pages, not rows`,
  needsCloud: true,
  run: async (ctx) => {
    if (!ctx.cloud) throw new Error('report-export needs the local cloud');
    // The job announces its progress as the consumer would (to nobody here: no sockets are open).
    setNotifier(realtimeNotifier);
    const t = await tenant('export');
    ctx.log(`report-export: seeding ${SIZE} tickets`);
    const seeded = Date.now();
    await seedTickets(t.companyId, SIZE);
    ctx.log(`report-export: seeded in ${((Date.now() - seeded) / 1000).toFixed(0)} s; exporting`);
    const id = randomUUID();
    // The tenant's first user is its admin (user ids are per company); the export runs as them.
    const userId = 1;
    await putExport({
      id,
      companyId: t.companyId,
      userId,
      kind: 'tickets-report',
      format: 'xlsx',
      fileName: 'relatorio-de-atendimentos.xlsx',
      key: `c/${t.companyId}/exports/${id}/relatorio-de-atendimentos.xlsx`,
      filters: { dateFrom: FIRST_DAY, dateTo: LAST_DAY },
      auth: { companyId: t.companyId, userId, profile: 'admin', super: false, userFlags: {}, planFlags: {} },
    });
    const started = performance.now();
    const { result, mb } = await heapGrowth(() => runExport(t.companyId, id));
    const seconds = (performance.now() - started) / 1000;
    const done = await getExport(t.companyId, id);
    if (result !== 'done' || !done) throw new Error(`the export ended ${result}`);
    const rows = done.processed;
    const fileMb = (done.size ?? 0) / 1024 / 1024;
    return {
      table: markdownTable(
        ['rows', 'seconds', 'rows/s', 'file MB', 'heap growth MB', 'rows per page'],
        [
          [
            rows.toLocaleString('en'),
            seconds.toFixed(1),
            Math.round(rows / seconds).toLocaleString('en'),
            fileMb.toFixed(1),
            mb.toFixed(0),
            String(EXPORT_PAGE_ROWS),
          ],
        ],
        ['r', 'r', 'r', 'r', 'r', 'r'],
      ),
      goalMet: rows === SIZE && seconds < TIMEOUT_S,
      summary: `${rows.toLocaleString('en')} rows in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s), a ${fileMb.toFixed(1)} MB file; heap grew ${mb.toFixed(0)} MB.`,
      notes:
        'Run in the benchmark process against DynamoDB Local and the fauxqs S3 emulator, as one delivery of the ' +
        '`export` consumer would. Per page of 200 rows: one Query of the creation index, BatchGets of the ' +
        'tickets and their contacts, one progress update; the xlsx goes up in 5 MB parts. The seeded tickets ' +
        'have no stored contacts or connection, so those cells are empty. Heap growth is sampled every 100 ms ' +
        '(garbage collection makes it approximate); it should not grow with the row count.',
    };
  },
  quick: async () => {
    // A sink that counts bytes: the writer's own cost, no cloud.
    let bytes = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback();
      },
    });
    const started = performance.now();
    const writer = xlsxWriter(sink, 'RelatorioDeAtendimentos', COLUMNS);
    for (let i = 0; i < QUICK_ROWS; i += 1) {
      await writer.addRow([i, `Cliente ${i}`, 'Finalizado', 'Obrigado pelo atendimento!', new Date(), 42]);
    }
    await writer.finish();
    const seconds = (performance.now() - started) / 1000;
    return {
      ok: bytes > 0,
      lines: [
        `${QUICK_ROWS} rows written in ${seconds.toFixed(2)} s (${Math.round(QUICK_ROWS / seconds)} rows/s), ${bytes} bytes`,
      ],
    };
  },
};
