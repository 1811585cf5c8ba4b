import type { CampaignView } from '../../contracts/campaigns';
import type { Campaign } from '../../data/campaign-repository';
import { getConnection } from '../../data/connection-repository';
import { getContactList } from '../../data/contact-list-repository';
import { mediaUrl } from '../../data/media-store';
import { errorFields, logger } from '../../shared/logger';
import { managers, publish } from '../notifier';

/**
 * A campaign's view and its `company-{id}-campaign` events (administration §7 live channels; decisions
 * D133), shared by the service (people's changes) and the dispatcher (progress).
 */
export const toCampaignView = (
  c: Campaign,
  names: { list?: string | null; whatsapp?: string | null } = {},
): CampaignView => ({
  id: c.id,
  name: c.name,
  message1: c.message1,
  message2: c.message2,
  message3: c.message3,
  message4: c.message4,
  message5: c.message5,
  confirmationMessage1: c.confirmationMessage1,
  confirmationMessage2: c.confirmationMessage2,
  confirmationMessage3: c.confirmationMessage3,
  confirmationMessage4: c.confirmationMessage4,
  confirmationMessage5: c.confirmationMessage5,
  status: c.status,
  confirmation: c.confirmation,
  scheduledAt: c.scheduledAt,
  completedAt: c.completedAt,
  contactListId: c.contactListId,
  contactList: c.contactListId && names.list ? { id: c.contactListId, name: names.list } : null,
  tagListId: c.tagListId,
  whatsappId: c.whatsappId,
  whatsapp: names.whatsapp ? { id: c.whatsappId, name: names.whatsapp } : null,
  userId: c.userId,
  queueId: c.queueId,
  statusTicket: c.statusTicket,
  openTicket: c.openTicket,
  companyId: c.companyId,
  mediaPath: c.mediaKey ? mediaUrl(c.mediaKey) : null,
  mediaName: c.mediaName,
  lastError: c.lastError,
  validContacts: c.validContacts,
  done: c.done,
  delivered: c.delivered,
  failed: c.failed,
  confirmationRequested: c.confirmationRequested,
  confirmed: c.confirmed,
  read: c.read,
  replied: c.replied,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

/** The view with the list's and the connection's names (two reads, memoised per call). */
export const campaignViewOf = async (c: Campaign): Promise<CampaignView> => {
  const [list, connection] = await Promise.all([
    c.contactListId ? getContactList(c.companyId, c.contactListId) : null,
    getConnection(c.companyId, c.whatsappId),
  ]);
  return toCampaignView(c, { list: list?.name ?? null, whatsapp: connection?.name ?? null });
};

/** Announces a change to the company's admins (best effort, like every list event). */
export const announceCampaign = async (
  companyId: number,
  action: 'create' | 'update' | 'delete',
  c: Campaign,
): Promise<void> => {
  try {
    await publish(
      companyId,
      action === 'delete'
        ? { channel: 'campaign', action, campaignId: c.id }
        : { channel: 'campaign', action, record: await campaignViewOf(c) },
      managers,
    );
  } catch (err) {
    logger.warn('campaign event not sent', { companyId, campaignId: c.id, ...errorFields(err) });
  }
};
