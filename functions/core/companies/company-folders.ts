import { getCompanyUsage, putCompanyFolder } from '../../data/company-repository';
import { listCompanyMedia } from '../../data/company-purge-repository';
import { listCompanyIds } from '../../data/stats-backfill-repository';
import { errorFields, logger } from '../../shared/logger';

/**
 * The companies list's folder figures (administration §3 Company: folderSize, numberFileFolder,
 * updatedAtFolder; decisions D156): counted by a job from the company's S3 prefix `c/<c>/` about once a day
 * and kept on `C#<c>#USAGE / folder`, so GET /companiesPlan reads one small item per row and never lists a
 * bucket on a request. Media written since the last count shows at the next one.
 */
export const FOLDER_RECOUNT_MS = 24 * 60 * 60 * 1000;
/** Companies counted per run at most: the hourly tick spreads the platform over the day. */
export const FOLDERS_PER_RUN = 100;

/** Counts one company's media now: every object under its prefix, a page of 1000 at a time. */
export const countCompanyFolder = async (
  companyId: number,
  now = new Date(),
): Promise<{ bytes: number; files: number }> => {
  let bytes = 0;
  let files = 0;
  let token: string | undefined;
  do {
    const page = await listCompanyMedia(companyId, token);
    for (const o of page.objects) {
      bytes += o.size;
      files += 1;
    }
    token = page.next;
  } while (token);
  await putCompanyFolder(companyId, bytes, files, now);
  return { bytes, files };
};

/** One run: the companies whose count is a day old (or never made), up to FOLDERS_PER_RUN. */
export const recountCompanyFolders = async (now = new Date()): Promise<{ counted: number }> => {
  let counted = 0;
  for (const companyId of await listCompanyIds()) {
    if (counted >= FOLDERS_PER_RUN) break;
    try {
      const { updatedAtFolder } = await getCompanyUsage(companyId);
      if (updatedAtFolder && now.getTime() - Date.parse(updatedAtFolder) < FOLDER_RECOUNT_MS) continue;
      await countCompanyFolder(companyId, now);
      counted += 1;
    } catch (err) {
      logger.error('company folder count failed', { companyId, ...errorFields(err) });
    }
  }
  return { counted };
};
