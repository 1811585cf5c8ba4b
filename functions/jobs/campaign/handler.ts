import { campaignQueueMessage, handleCampaignMessage } from '../../core/campaigns/campaign-dispatch';
import { sqsConsumer } from '../consumer';

/**
 * The `campaign` queue's consumer (decisions D133): a campaign's waves (audience into shipments, shipments
 * onto the queue with governor slots), each shipment's send claimed and made once, the message after a
 * confirmation, and a deleted campaign's shipments purged (functions/core/campaigns/campaign-dispatch.ts).
 */
export const handler = sqsConsumer({
  name: 'campaign work',
  schema: campaignQueueMessage,
  describe: (m) => ({
    kind: m.kind,
    companyId: m.companyId,
    campaignId: m.campaignId,
    ...('number' in m ? { number: m.number } : {}),
  }),
  handle: (m) => handleCampaignMessage(m),
});
