import type { ContactImportView } from '../../contracts/contacts';
import type { ContactImport } from '../../data/contact-import-repository';
import { errorFields, logger } from '../../shared/logger';
import { adminsAnd, publish } from '../notifier';

/**
 * A contact import as the browser sees it, and its progress event on `company-{id}-contactImport` (to the
 * importing user and the admins; decisions D104). Kept apart from the import service so the WhatsApp
 * worker (phone imports, D148) does not load the spreadsheet readers.
 */
export const toImportView = (i: ContactImport): ContactImportView => ({
  id: i.id,
  fileName: i.fileName,
  status: i.status,
  total: i.total,
  processed: i.offset,
  created: i.created,
  merged: i.merged,
  ignored: i.ignored,
  invalid: i.invalid ?? 0,
  source: i.source ?? 'sheet',
  ...(i.error ? { error: i.error } : {}),
  createdAt: i.createdAt,
  ...(i.finishedAt ? { finishedAt: i.finishedAt } : {}),
});

export const announceContactImport = async (i: ContactImport): Promise<void> => {
  try {
    await publish(
      i.companyId,
      { channel: 'contactImport', action: 'update', import: toImportView(i) },
      adminsAnd([i.userId]),
    );
  } catch (err) {
    logger.warn('contact import event not sent', { companyId: i.companyId, importId: i.id, ...errorFields(err) });
  }
};
