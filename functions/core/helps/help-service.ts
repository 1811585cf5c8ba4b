import type { HelpPage, HelpView } from '../../contracts/helps';
import { MAX_HELPS } from '../../contracts/helps';
import {
  createHelp,
  deleteHelp,
  getHelp,
  helpNotFound,
  listHelps,
  updateHelp,
  type Help,
} from '../../data/help-repository';
import type { AuthContext } from '../../shared/auth-context';
import { Conflict } from '../../shared/errors';

/**
 * Help entries (core §2 /helps, §3 Help entry; administration "Help", §3, §6, §7; decisions D146): hosted
 * videos the platform owner keeps for every company. Everyone reads them (the /helps page, and the menu
 * shows its entry only when one exists); only the owner writes them.
 */
export const HELP_CACHE_MS = 60_000;

const toView = (h: Help): HelpView => ({
  id: h.id,
  title: h.title,
  description: h.description,
  video: h.video,
  createdAt: h.createdAt,
  updatedAt: h.updatedAt,
});

let cache: { at: number; records: HelpView[] } | undefined;

/** Every entry in id order; tenants are served from memory for at most 60 s (data-model §2.25), the owner fresh. */
const allHelps = async (auth: AuthContext, now = Date.now()): Promise<HelpView[]> => {
  if (!auth.super && cache && now - cache.at < HELP_CACHE_MS) return cache.records;
  const records = (await listHelps()).map(toView);
  cache = { at: now, records };
  return records;
};

/** `GET /helps` (the spec's params are accepted and ignored: the whole short list is one page). */
export const listHelpPage = async (auth: AuthContext): Promise<HelpPage> => ({
  records: await allHelps(auth),
  hasMore: false,
});

/** `GET /helps/list`: the same entries as a plain array. */
export const listAllHelps = (auth: AuthContext): Promise<HelpView[]> => allHelps(auth);

export const createPlatformHelp = async (input: {
  title: string;
  video: string;
  description?: string | undefined;
}): Promise<HelpView> => {
  if ((await listHelps()).length >= MAX_HELPS) {
    throw new Conflict('ERR_TOO_MANY_HELPS', `At most ${MAX_HELPS} help entries`);
  }
  const help = await createHelp({ title: input.title, video: input.video, description: input.description ?? '' });
  cache = undefined;
  return toView(help);
};

export const updatePlatformHelp = async (
  id: number,
  input: { title?: string | undefined; video?: string | undefined; description?: string | undefined },
): Promise<HelpView> => {
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<Help>;
  const help = Object.keys(changes).length === 0 ? await getHelp(id) : await updateHelp(id, changes);
  if (!help) throw helpNotFound();
  cache = undefined;
  return toView(help);
};

export const deletePlatformHelp = async (id: number): Promise<void> => {
  await deleteHelp(id);
  cache = undefined;
};
