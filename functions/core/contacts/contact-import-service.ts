import { randomUUID } from 'node:crypto';
import {
  IMPORT_FILE_EXTENSIONS,
  IMPORT_PREVIEW_ROWS,
  type ContactImportPreview,
  type ContactImportView,
  type ContactUpload,
  type ImportTarget,
} from '../../contracts/contacts';
import { createContact, findContactIdsByIdentities, getContacts, IdentityTaken } from '../../data/contact-repository';
import {
  failContactImport,
  getContactImport,
  markContactImportRunning,
  putContactImport,
  queueContactImport,
  recordContactImportChunk,
  recordContactListImportChunk,
  type ContactImport,
} from '../../data/contact-import-repository';
import {
  contactListNotFound,
  getContactList,
  getItemsByNumbers,
  putImportedItem,
} from '../../data/contact-list-repository';
import { CONTACT_LIST_FILE_EXTENSIONS, MAX_CONTACT_LIST_UPLOAD_BYTES } from '../../contracts/contact-lists';
import { nextId } from '../../data/counter-repository';
import { getMediaObject, headMediaObject, presignedUploadUrl, putMediaObject } from '../../data/media-store';
import { sendQueueMessage } from '../../data/queue-sender';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, Conflict, NotFound, PayloadTooLarge, ValidationError, type FieldError } from '../../shared/errors';
import { safeFileName } from '../media/attachments';
import { importNumber } from '../phone-number';
import { invalidFile, readSheetRows } from './spreadsheet';
import { announceContactImport, toImportView } from './contact-import-events';
import { searchForm } from '../../data/keys';
import { announceContactList, toContactListView } from '../contact-lists/contact-list-events';
import { queueNumberCheck } from '../contact-lists/number-check';
import { askDirectory, connectedWhatsApp, DirectoryUnavailable } from './directory-check';

/**
 * Spreadsheet import of contacts (core spec §4, §5, §7 `/contacts/upload`; decisions D104, D105).
 *
 * 1. `POST /contacts/upload` makes the import (status `uploaded`) and answers a presigned PUT: the file goes
 *    from the browser straight to S3 (`c/<c>/imports/<id>/<file>`), never through a Lambda request.
 * 2. `GET /contacts/import/{id}/preview` reads the first rows (the header and IMPORT_PREVIEW_ROWS) for the
 *    mapping screen; an unreadable file is 'Arquivo inválido!'.
 * 3. `POST /contacts/import/{id}/start` takes the mapping (a contact field per column, the preview rows
 *    left out), checks the spec's rules and queues the job.
 * 4. The `contact-import` job reads the file through once to count its rows, then imports it in chunks of
 *    CHUNK_ROWS: each row's contact is found or created by its normalised number (the phone identity item
 *    is the idempotency key), then the offset and the counts move together, conditional on the offset
 *    the chunk started from. A crash or a redelivery resumes at the last chunk recorded; a replayed chunk
 *    finds its contacts and counts the ones its own rows created (`importRef`) as created again.
 */
export const CHUNK_ROWS = 250;
/** Rows of one chunk written at once. */
const PARALLEL_ROWS = 16;
/** A delivery stops after this long and queues the rest (the consumer's timeout is 300 s). */
const DELIVERY_BUDGET_MS = 120_000;
const UPLOAD_URL_SECONDS = 900;

const notFound = () => new NotFound('ERR_NO_IMPORT_FOUND', 'Import not found');

/** The import, for its user and the company's admins; anyone else (and another company) gets a 404. */
const visibleImport = async (auth: AuthContext, id: string): Promise<ContactImport> => {
  const found = await getContactImport(auth.companyId, id);
  if (!found || (found.userId !== auth.userId && auth.profile !== 'admin' && !auth.super)) throw notFound();
  return found;
};

export const createContactUpload = async (
  auth: AuthContext,
  input: { fileName: string; size: number },
): Promise<ContactUpload> => {
  const lower = input.fileName.toLowerCase();
  if (!IMPORT_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext))) throw invalidFile();
  const id = randomUUID();
  const key = `c/${auth.companyId}/imports/${id}/${safeFileName(input.fileName)}`;
  await putContactImport({
    id,
    companyId: auth.companyId,
    userId: auth.userId,
    fileName: input.fileName,
    key,
    size: input.size,
  });
  const contentType = 'application/octet-stream';
  return {
    importId: id,
    uploadUrl: await presignedUploadUrl(key, contentType, input.size, UPLOAD_URL_SECONDS),
    method: 'PUT',
    headers: { 'content-type': contentType },
    expiresIn: UPLOAD_URL_SECONDS,
  };
};

export const showContactImport = async (auth: AuthContext, id: string): Promise<ContactImportView> =>
  toImportView(await visibleImport(auth, id));

/** The uploaded file's bytes; a missing upload is 'Arquivo inválido!' too (there is nothing to read). */
const fileOf = async (i: ContactImport): Promise<Buffer> => {
  if (!(await headMediaObject(i.key))) throw invalidFile();
  return getMediaObject(i.key);
};

/** The header and up to `rows` data rows (one more is read to know whether more follow). */
const readStart = async (bytes: Buffer, rows: number): Promise<ContactImportPreview> => {
  let header: string[] | null = null;
  const data: string[][] = [];
  let more = false;
  for await (const row of readSheetRows(bytes)) {
    if (header === null) {
      header = row;
      continue;
    }
    if (data.length === rows) {
      more = true;
      break;
    }
    data.push(row);
  }
  if (header === null || header.length === 0) throw invalidFile();
  return { header, rows: data, more };
};

export const previewContactImport = async (auth: AuthContext, id: string): Promise<ContactImportPreview> =>
  readStart(await fileOf(await visibleImport(auth, id)), IMPORT_PREVIEW_ROWS);

/** The spec's mapping rules (core §5), each a field error of `body.columns` / `body.excludedRows`. */
const mappingProblems = (
  columns: (ImportTarget | null)[],
  excludedRows: number[],
  preview: ContactImportPreview,
): FieldError[] => {
  const problems: FieldError[] = [];
  if (!columns.includes('number')) problems.push({ field: 'body.columns', reason: 'no column is the number' });
  if (!columns.includes('name')) problems.push({ field: 'body.columns', reason: 'no column is the name' });
  for (const target of ['name', 'number', 'email'] as const) {
    if (columns.filter((c) => c === target).length > 1) {
      problems.push({ field: 'body.columns', reason: `${target} is chosen for more than one column` });
    }
  }
  const width = Math.max(preview.header.length, ...preview.rows.map((r) => r.length));
  if (columns.length > width) problems.push({ field: 'body.columns', reason: `the sheet has ${width} columns` });
  if (excludedRows.some((r) => r >= preview.rows.length)) {
    problems.push({ field: 'body.excludedRows', reason: 'only rows of the preview can be left out' });
  }
  if (!preview.more && new Set(excludedRows).size >= preview.rows.length) {
    problems.push({ field: 'body.excludedRows', reason: 'no row is selected' });
  }
  return problems;
};

export const startContactImport = async (
  auth: AuthContext,
  id: string,
  input: { columns: (ImportTarget | null)[]; excludedRows: number[]; validateContact?: boolean; whatsappId?: number },
): Promise<ContactImportView> => {
  const current = await visibleImport(auth, id);
  if (current.status !== 'uploaded' || current.source) {
    throw new Conflict('ERR_IMPORT_STARTED', 'This import has already started');
  }
  const preview = await readStart(await fileOf(current), IMPORT_PREVIEW_ROWS);
  const problems = mappingProblems(input.columns, input.excludedRows, preview);
  if (problems.length > 0) throw new ValidationError(problems);
  // Validation asks WhatsApp through a connected session (D149): checked now, so a start never waits in vain.
  const validation = input.validateContact
    ? { validateContact: true, whatsappId: await connectedWhatsApp(auth.companyId, input.whatsappId) }
    : { validateContact: false };
  const queued = await queueContactImport(
    current,
    input.columns,
    [...new Set(input.excludedRows)].sort((a, b) => a - b),
    validation,
  );
  await sendQueueMessage('contact-import', { companyId: queued.companyId, importId: queued.id });
  await announceContactImport(queued);
  return toImportView(queued);
};

// ---- contact lists (decisions D122) ----

/** Header names the list import recognises (lower case, accents removed), per item field. */
const LIST_HEADERS: Record<ImportTarget, readonly string[]> = {
  name: ['name', 'nome', 'contato', 'contact'],
  number: ['number', 'numero', 'telefone', 'phone', 'whatsapp', 'celular', 'fone'],
  email: ['email', 'e-mail', 'mail'],
};

/**
 * What each column of a list's sheet is, from its header row: the recognised names (nome, número, email,
 * …); when the header names neither a name nor a number, the example spreadsheet's order (name, number,
 * e-mail).
 */
export const listColumnsOf = (header: readonly string[]): (ImportTarget | null)[] => {
  const columns = header.map((cell) => {
    const key = searchForm(cell).replace(/\s+/g, '');
    const target = (Object.keys(LIST_HEADERS) as ImportTarget[]).find((t) => LIST_HEADERS[t].includes(key));
    return target ?? null;
  });
  const firsts = columns.map((c, i) => (c !== null && columns.indexOf(c) === i ? c : null));
  if (!firsts.includes('name') || !firsts.includes('number')) return ['name', 'number', 'email'];
  return firsts;
};

/**
 * POST /contact-lists/{id}/upload (multipart `file`): the sheet goes to the media bucket under the same
 * import prefix, the import item names the list as its target, its columns come from the header
 * (`listColumnsOf`), and the `contact-import` job makes the items in chunks, resumable like a contacts
 * import. Answers the import (201); its progress is `GET /contacts/import/{id}` and `contactImport` events.
 */
export const startContactListImport = async (
  auth: AuthContext,
  contactListId: number,
  file: { filename: string; bytes: Buffer },
): Promise<ContactImportView> => {
  if (!(await getContactList(auth.companyId, contactListId))) throw contactListNotFound();
  const lower = file.filename.toLowerCase();
  if (!CONTACT_LIST_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext))) throw invalidFile();
  if (file.bytes.length > MAX_CONTACT_LIST_UPLOAD_BYTES) throw new PayloadTooLarge(MAX_CONTACT_LIST_UPLOAD_BYTES);
  const start = await readStart(file.bytes, 1);
  const id = randomUUID();
  const key = `c/${auth.companyId}/imports/${id}/${safeFileName(file.filename)}`;
  await putMediaObject(key, file.bytes, 'application/octet-stream');
  const made = await putContactImport({
    id,
    companyId: auth.companyId,
    userId: auth.userId,
    fileName: file.filename,
    key,
    size: file.bytes.length,
    contactListId,
  });
  const queued = await queueContactImport(made, listColumnsOf(start.header), []);
  await sendQueueMessage('contact-import', { companyId: queued.companyId, importId: queued.id });
  await announceContactImport(queued);
  return toImportView(queued);
};

// ---- the job ----

interface RowOutcome {
  created: number;
  merged: number;
  ignored: number;
  invalid?: number;
}

/** How long a chunk waits for WhatsApp's directory before its delivery gives up and SQS retries it (D149). */
const DIRECTORY_WAIT_MS = 30_000;
const DIRECTORY_RETRY_SECONDS = 60;
const DIRECTORY_GIVE_UP_MS = 3_600_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface ContactRow {
  row: number;
  name: string;
  number: string;
  email: string;
}

const rowOf = (i: ContactImport, row: number, cells: string[]): ContactRow | null => {
  if (i.excludedRows.includes(row)) return null;
  const cell = (target: ImportTarget) => {
    const at = i.columns.indexOf(target);
    return at < 0 ? '' : (cells[at] ?? '').trim();
  };
  const name = cell('name').replace(/\s+/g, ' ').slice(0, 250);
  const number = importNumber(cell('number'));
  if (!name || !number) return null;
  const email = cell('email').toLowerCase();
  return { row, name, number, email: EMAIL.test(email) && email.length <= 254 ? email : '' };
};

/** Runs `work` over the items, at most `limit` at a time. */
const inParallel = async <T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
};

/**
 * One chunk's rows: the first row of each number finds or creates its contact; the other rows of the same
 * number in the chunk are merged into it. A row counts as created when the contact is the one its own row
 * created (`importRef`), so replaying the chunk after a crash counts the same.
 */
const importChunk = async (i: ContactImport, first: number, rows: string[][]): Promise<RowOutcome> => {
  const counts: RowOutcome = { created: 0, merged: 0, ignored: 0 };
  const byNumber = new Map<string, ContactRow>();
  rows.forEach((cells, k) => {
    const row = rowOf(i, first + k, cells);
    if (!row) counts.ignored += 1;
    else if (byNumber.has(row.number)) counts.merged += 1;
    else byNumber.set(row.number, row);
  });
  const unique = [...byNumber.values()];
  const identities = unique.map((r) => `wa#${r.number}`);
  const owners = await findContactIdsByIdentities(i.companyId, identities);
  const existing = await getContacts(i.companyId, [...new Set(owners.values())]);
  const refOf = (r: ContactRow) => `${i.id}#${r.row}`;
  let missing = unique.filter((r) => !owners.has(`wa#${r.number}`));
  if (i.validateContact && missing.length > 0) {
    // Only numbers WhatsApp knows become contacts (D149); existing contacts are not asked again.
    const known = await askDirectory(
      i.companyId,
      i.whatsappId!,
      missing.map((r) => r.number),
      { timeoutMs: DIRECTORY_WAIT_MS },
    );
    const invalid = missing.filter((r) => known[r.number] !== true);
    counts.invalid = invalid.length;
    missing = missing.filter((r) => known[r.number] === true);
  }
  // One counter write reserves the ids of the chunk's new contacts (data-model §1.4).
  const last = missing.length > 0 ? await nextId(i.companyId, 'contact', missing.length) : 0;
  const idOf = new Map(missing.map((r, k) => [r, last - missing.length + 1 + k]));
  for (const r of unique) {
    const owner = owners.get(`wa#${r.number}`);
    if (owner === undefined) continue;
    if (existing.get(owner)?.importRef === refOf(r)) counts.created += 1;
    else counts.merged += 1;
  }
  await inParallel(missing, PARALLEL_ROWS, async (r) => {
    try {
      await createContact(
        i.companyId,
        { name: r.name, number: r.number, email: r.email, isGroup: false, channel: 'whatsapp', whatsappId: null },
        [`wa#${r.number}`],
        // Counted with the chunk's record (leads and the contact count once per chunk).
        { id: idOf.get(r)!, importRef: refOf(r), uncounted: true },
      );
      counts.created += 1;
    } catch (err) {
      // Someone else (an inbound message, another delivery of this chunk) made the person meanwhile.
      if (!(err instanceof IdentityTaken)) throw err;
      const winner =
        err.contactId === null ? null : (await getContacts(i.companyId, [err.contactId])).get(err.contactId);
      if (winner?.importRef === refOf(r)) counts.created += 1;
      else counts.merged += 1;
    }
  });
  return counts;
};

/**
 * A contact list chunk (D122): the first row of each number makes its item (`Put attribute_not_exists`,
 * ids reserved per chunk); a number already in the list counts as merged. A row counts as created when
 * the item is the one its own row made (`importRef`), so a replayed chunk counts the same and the list's
 * count, moved once with the chunk's offset, stays exact.
 */
const importListChunk = async (i: ContactImport, first: number, rows: string[][]): Promise<RowOutcome> => {
  const listId = i.contactListId!;
  const counts: RowOutcome = { created: 0, merged: 0, ignored: 0 };
  const byNumber = new Map<string, ContactRow>();
  rows.forEach((cells, k) => {
    const row = rowOf(i, first + k, cells);
    if (!row || row.name.length < 2) counts.ignored += 1;
    else if (byNumber.has(row.number)) counts.merged += 1;
    else byNumber.set(row.number, { ...row, name: row.name.slice(0, 50) });
  });
  const unique = [...byNumber.values()];
  const refOf = (r: ContactRow) => `${i.id}#${r.row}`;
  const existing = await getItemsByNumbers(
    i.companyId,
    listId,
    unique.map((r) => r.number),
  );
  const missing = unique.filter((r) => !existing.has(r.number));
  for (const r of unique) {
    const item = existing.get(r.number);
    if (!item) continue;
    if (item.importRef === refOf(r)) counts.created += 1;
    else counts.merged += 1;
  }
  const last = missing.length > 0 ? await nextId(i.companyId, 'contactListItem', missing.length) : 0;
  await inParallel(missing, PARALLEL_ROWS, async (r) => {
    const id = last - missing.length + 1 + missing.indexOf(r);
    const item = { contactListId: listId, name: r.name, number: r.number, email: r.email, importRef: refOf(r) };
    if (await putImportedItem(i.companyId, item, id)) {
      counts.created += 1;
      return;
    }
    // Someone added the number meanwhile (a person, another delivery of this chunk).
    const winner = (await getItemsByNumbers(i.companyId, listId, [r.number])).get(r.number);
    if (winner?.importRef === refOf(r)) counts.created += 1;
    else counts.merged += 1;
  });
  // The chunk's numbers go to WhatsApp's directory through the connection (D122); a replay asks again.
  await queueNumberCheck(
    i.companyId,
    listId,
    unique.filter((r) => existing.get(r.number)?.isWhatsappValid == null).map((r) => r.number),
  );
  return counts;
};

export interface ImportRunOptions {
  /** Fault injection (tests): runs after a chunk's contacts are written, before its offset is recorded. */
  beforeRecord?: (from: number) => void | Promise<void>;
  /** Fault injection (tests): runs after each chunk is recorded, with the offset reached. */
  afterChunk?: (offset: number) => void | Promise<void>;
  /** How long one delivery may work before it queues the rest (default DELIVERY_BUDGET_MS). */
  budgetMs?: number;
}

/**
 * One delivery of the import's job: reads the file, skips the rows already recorded and imports the rest
 * chunk by chunk, announcing the progress after each. Stops after the budget and queues a message for
 * the rest. An unreadable file fails the import ('Arquivo inválido!'); any other error is thrown so SQS
 * redelivers the message, which resumes at the offset recorded.
 */
export const runContactImport = async (
  companyId: number,
  importId: string,
  options: ImportRunOptions = {},
): Promise<'done' | 'more' | 'failed' | 'nothing'> => {
  const started = Date.now();
  let current = await getContactImport(companyId, importId);
  if (!current || !['queued', 'running'].includes(current.status)) return 'nothing';
  let bytes: Buffer;
  try {
    bytes = await fileOf(current);
    if (current.total === null) {
      let rows = -1; // the header is not a data row
      for await (const _row of readSheetRows(bytes)) rows += 1;
      current = await markContactImportRunning(current, Math.max(rows, 0));
    }
  } catch (err) {
    if (!(err instanceof BadRequest)) throw err;
    await announceContactImport(await failContactImport(current, err.code));
    return 'failed';
  }
  const total = current.total ?? 0;
  if (current.offset >= total) {
    if (current.status !== 'done')
      await announceContactImport(
        await recordContactImportChunk(current, total, total, { created: 0, merged: 0, ignored: 0 }, true),
      );
    return 'done';
  }
  let chunk: string[][] = [];
  let chunkStart = current.offset;
  let index = -1; // data row index; -1 is the header
  const flush = async (): Promise<void> => {
    const forList = current!.contactListId !== undefined;
    const counts = await (forList ? importListChunk : importChunk)(current!, chunkStart, chunk);
    const to = chunkStart + chunk.length;
    await options.beforeRecord?.(chunkStart);
    try {
      current = await (forList ? recordContactListImportChunk : recordContactImportChunk)(
        current!,
        chunkStart,
        to,
        counts,
        to >= total,
      );
    } catch (err) {
      // Another delivery recorded this chunk first: it counted it; this one stops.
      if (err instanceof Conflict) throw new ImportOvertaken();
      throw err;
    }
    await announceContactImport(current!);
    if (forList) await announceListImport(current!);
    await options.afterChunk?.(to);
    chunk = [];
    chunkStart = to;
  };
  try {
    for await (const row of readSheetRows(bytes)) {
      if (index >= current.offset) {
        chunk.push(row);
        if (chunk.length === CHUNK_ROWS) {
          await flush();
          if (current.status === 'done') return 'done';
          if (Date.now() - started > (options.budgetMs ?? DELIVERY_BUDGET_MS)) {
            await sendQueueMessage('contact-import', { companyId, importId });
            return 'more';
          }
        }
      }
      index += 1;
    }
    if (chunk.length > 0) await flush();
  } catch (err) {
    if (err instanceof ImportOvertaken) return 'nothing';
    if (err instanceof DirectoryUnavailable) {
      // The connection cannot ask WhatsApp now (D149): try again in a minute; after an hour without
      // progress the import fails with the reason, rather than waiting forever.
      if (Date.now() - Date.parse(current.updatedAt) > DIRECTORY_GIVE_UP_MS) {
        await announceContactImport(await failContactImport(current, err.code));
        return 'failed';
      }
      await sendQueueMessage('contact-import', { companyId, importId }, { delaySeconds: DIRECTORY_RETRY_SECONDS });
      return 'more';
    }
    if (err instanceof NotFound && current.contactListId !== undefined) {
      // The list was deleted while its import ran: nothing is left to fill.
      await announceContactImport(await failContactImport(current, err.code));
      return 'failed';
    }
    if (err instanceof BadRequest) {
      await announceContactImport(await failContactImport(current, err.code));
      return 'failed';
    }
    throw err;
  }
  return 'done';
};

class ImportOvertaken extends Error {}

/** A list import's chunk is in: the items screen reloads and the lists screen shows the new count. */
const announceListImport = async (i: ContactImport): Promise<void> => {
  const listId = i.contactListId!;
  const list = await getContactList(i.companyId, listId);
  await announceContactList(i.companyId, [
    { channel: 'ContactListItem', action: 'reload', contactListId: listId },
    ...(list ? [{ channel: 'ContactList' as const, action: 'update' as const, record: toContactListView(list) }] : []),
  ]);
};
