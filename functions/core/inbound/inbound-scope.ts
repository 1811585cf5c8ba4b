import { getCompany } from '../../data/company-repository';
import { getConnection, type Connection } from '../../data/connection-repository';
import { listQueues, type Queue } from '../../data/queue-repository';
import { getCompanySettingsItem } from '../../data/settings-repository';
import { getTicketViewers } from '../../data/ticket-viewer-repository';
import { loadTicketViewers, type TicketViewers } from '../../realtime/ticket-audience';
import { COMPANY_SETTING_COLUMNS } from '../settings/company-settings';
import { DEFAULT_TIME_ZONE } from './schedule';

/**
 * What the inbound job reads about a company while it handles one SQS batch: the connection, the company's
 * time zone and settings, its queues, and who is online with what they may see. Each is read at most once
 * per batch (≤ 10 events), so a burst of one chat costs one read of each, and nothing is older than the
 * batch. A failed read is forgotten, so the next event tries again.
 */
export interface RoutingSettings {
  scheduleType: string;
  sendGreetingMessageOneQueues: string;
}

export class InboundScope {
  private readonly memo = new Map<string, Promise<unknown>>();

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let hit = this.memo.get(key) as Promise<T> | undefined;
    if (!hit) {
      hit = load();
      this.memo.set(key, hit);
      hit.catch(() => this.memo.delete(key));
    }
    return hit;
  }

  connection(companyId: number, whatsappId: number): Promise<Connection | null> {
    return this.once(`connection:${companyId}:${whatsappId}`, () => getConnection(companyId, whatsappId));
  }

  timeZone(companyId: number): Promise<string> {
    return this.once(`timezone:${companyId}`, async () => {
      const company = (await getCompany(companyId)) as { timezone?: string } | null;
      return company?.timezone ?? DEFAULT_TIME_ZONE;
    });
  }

  settings(companyId: number): Promise<RoutingSettings> {
    return this.once(`settings:${companyId}`, async () => {
      const stored = await getCompanySettingsItem(companyId);
      return {
        scheduleType: String(stored.scheduleType ?? COMPANY_SETTING_COLUMNS.scheduleType.default),
        sendGreetingMessageOneQueues: String(
          stored.sendGreetingMessageOneQueues ?? COMPANY_SETTING_COLUMNS.sendGreetingMessageOneQueues.default,
        ),
      };
    });
  }

  /** LGPD: whether plain users see contact numbers masked (company setting `lgpdHideNumber`, D42). */
  hidesNumbers(companyId: number): Promise<boolean> {
    return this.once(`hideNumbers:${companyId}`, async () => {
      const stored = await getCompanySettingsItem(companyId);
      return String(stored.lgpdHideNumber ?? COMPANY_SETTING_COLUMNS.lgpdHideNumber.default) === 'enabled';
    });
  }

  queues(companyId: number): Promise<Map<number, Queue>> {
    return this.once(`queues:${companyId}`, async () => new Map((await listQueues(companyId)).map((q) => [q.id, q])));
  }

  viewers(companyId: number): Promise<TicketViewers> {
    return this.once(`viewers:${companyId}`, () => loadTicketViewers(companyId));
  }

  /** The name of a ticket's assigned user: from the online users when there, else one read. */
  async userName(companyId: number, userId: number): Promise<string | null> {
    const online = (await this.viewers(companyId)).names.get(userId);
    if (online !== undefined) return online;
    return this.once(`user:${companyId}:${userId}`, async () => {
      const [user] = await getTicketViewers(companyId, [userId]);
      return user?.name ?? null;
    });
  }
}
