import type { TagContactsPage, TagView, UpdateTagBody } from '../../contracts/tags';
import { getLiveContact } from '../../data/contact-repository';
import { ReadScope } from '../../data/read-scope';
import {
  clearLanePointers,
  deleteTagItem,
  listContactsOfTag,
  removeContactTag,
  updateTag,
  type TagChanges,
} from '../../data/tag-admin-repository';
import { getTag, type Tag } from '../../data/tag-repository';
import { getUser } from '../../data/user-repository';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, NotFound, type FieldError } from '../../shared/errors';
import { CHANGED_OR_BUSY, withRetry } from '../../shared/retry';
import { announceContact } from '../contacts/contact-service';
import { everyone, publish } from '../notifier';
import { fetchPage, type PagingInput } from '../paging';
import { maskContactFor, shouldMaskNumbers } from '../privacy/number-mask';
import { hidesNumbers } from '../settings/company-settings';
import { enqueueTagRemoval } from './tag-removal';

/**
 * Tag administration (administration §2 "Tags and kanban", §3 Tag, §7; decisions D100): edit (the kanban
 * lane's fields included), delete with its links removed by the `tag-removal` job, the contacts of a tag
 * and the removal of one. Like the list and create (D7), any signed-in user of the company may use them;
 * every change is announced on `company{id}-tag` (the spec's channel name) to the whole company.
 */
export const TAG_CONTACTS_PAGE_SIZE = 20;

export const tagView = ({ companyId: _companyId, ...tag }: Tag): TagView => tag;

const tagNotFound = () => new NotFound('ERR_NO_TAG_FOUND', 'Tag not found');

export const announceTag = (companyId: number, event: { action: 'create' | 'update'; tag: TagView }) =>
  publish(companyId, { channel: 'tag', ...event }, everyone);

const findTag = async (auth: AuthContext, id: number): Promise<Tag> => {
  const tag = await getTag(auth.companyId, id);
  if (!tag) throw tagNotFound();
  return tag;
};

/** `nextLaneId` / `rollbackLaneId`: 0 or null is none; otherwise another kanban tag of the company. */
const checkLane = async (
  auth: AuthContext,
  self: number,
  field: 'nextLaneId' | 'rollbackLaneId',
  value: number | null | undefined,
  errors: FieldError[],
): Promise<number | null | undefined> => {
  if (value === undefined) return undefined;
  if (value === null || value === 0) return null;
  if (value === self) {
    errors.push({ field: `body.${field}`, reason: 'a lane cannot lead to itself' });
    return undefined;
  }
  const lane = await getTag(auth.companyId, value);
  if (!lane || lane.kanban !== 1) errors.push({ field: `body.${field}`, reason: 'no such kanban lane' });
  return value;
};

/** `PUT /tags/{id}`: what the body names changes (400 naming the field for a bad lane or user). */
export const updateCompanyTag = async (auth: AuthContext, id: number, body: UpdateTagBody): Promise<TagView> => {
  const current = await findTag(auth, id);
  const errors: FieldError[] = [];
  const nextLaneId = await checkLane(auth, id, 'nextLaneId', body.nextLaneId as number | null | undefined, errors);
  const rollbackLaneId = await checkLane(
    auth,
    id,
    'rollbackLaneId',
    body.rollbackLaneId as number | null | undefined,
    errors,
  );
  let userId: number | null | undefined;
  if (body.userId !== undefined) {
    userId = body.userId === null || body.userId === 0 ? null : Number(body.userId);
    if (userId !== null && !(await getUser(auth.companyId, userId))) {
      errors.push({ field: 'body.userId', reason: 'no such user' });
    }
  }
  if (errors.length > 0) throw new BadRequest('ERR_VALIDATION', 'Invalid tag', errors);
  const changes: TagChanges = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.color !== undefined ? { color: body.color } : {}),
    ...(body.kanban !== undefined ? { kanban: body.kanban } : {}),
    ...(userId !== undefined ? { userId } : {}),
    ...(body.timeLane !== undefined
      ? { timeLane: body.timeLane === null || body.timeLane === 0 ? null : Number(body.timeLane) }
      : {}),
    ...(nextLaneId !== undefined ? { nextLaneId } : {}),
    ...(rollbackLaneId !== undefined ? { rollbackLaneId } : {}),
    ...(body.greetingMessageLane !== undefined ? { greetingMessageLane: body.greetingMessageLane } : {}),
  };
  const updated = tagView(await updateTag(current, changes));
  await announceTag(auth.companyId, { action: 'update', tag: updated });
  return updated;
};

/**
 * `DELETE /tags/{id}`: the tag goes at once, lanes that led to it stop doing so, and its contact and ticket
 * links are removed by the `tag-removal` job (O(links), in passes).
 */
export const deleteCompanyTag = async (auth: AuthContext, id: number): Promise<{ message: string }> => {
  await findTag(auth, id);
  await deleteTagItem(auth.companyId, id);
  for (const lane of await clearLanePointers(auth.companyId, id)) {
    await announceTag(auth.companyId, { action: 'update', tag: tagView(lane) });
  }
  await enqueueTagRemoval({ companyId: auth.companyId, tagId: id });
  await publish(auth.companyId, { channel: 'tag', action: 'delete', tagId: id }, everyone);
  return { message: 'Tag deleted' };
};

/** The contacts of a tag (the contacts-of-tag dialog): id, name, number, by name; numbers masked as D42 says. */
export const listTagContacts = async (auth: AuthContext, tagId: number, q: PagingInput): Promise<TagContactsPage> => {
  await findTag(auth, tagId);
  const mask = shouldMaskNumbers(auth, await hidesNumbers(new ReadScope(), auth.companyId));
  const page = await fetchPage(q, TAG_CONTACTS_PAGE_SIZE, (cursor) =>
    listContactsOfTag(auth.companyId, tagId, TAG_CONTACTS_PAGE_SIZE, cursor),
  );
  return {
    contacts: page.items.map((c) => {
      const shown = maskContactFor(c, mask);
      return { id: shown.id, name: shown.name, number: shown.number };
    }),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

/** `DELETE /tags-contacts/{tagId}/{contactId}`: the contact loses the tag; answers the tag (its new count). */
export const removeTagFromContact = async (auth: AuthContext, tagId: number, contactId: number): Promise<TagView> => {
  await findTag(auth, tagId);
  await getLiveContact(auth.companyId, contactId);
  const contact = await withRetry(CHANGED_OR_BUSY, () => removeContactTag(auth.companyId, contactId, tagId));
  if (contact) await announceContact(auth.companyId, contact);
  const tag = tagView(await findTag(auth, tagId));
  await announceTag(auth.companyId, { action: 'update', tag });
  return tag;
};
