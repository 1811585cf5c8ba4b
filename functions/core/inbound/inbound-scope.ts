import { getCompany } from '../../data/company-repository';
import { ReadAhead } from '../../data/consistent-reads';
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

/**
 * What consecutive batches of one job instance may share (decisions D67), so a busy inbound job does not
 * read a company's configuration and online users once per batch when batches are small: the connection,
 * time zone, settings and queues for at most `configMs`; who is online and what they may see (sockets,
 * users) for at most `viewersMs` — about as old as a snapshot taken at the start of a long batch already
 * is (D32). Only the inbound job uses one; a request's scope (the tickets and messages services) never does.
 */
export class SharedReads {
  private readonly entries = new Map<string, { until: number; value: Promise<unknown> }>();

  constructor(
    readonly ttl: { configMs: number; viewersMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  get<T>(key: string): Promise<T> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() < entry.until) return entry.value as Promise<T>;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: Promise<unknown>, kind: 'config' | 'viewers'): void {
    // Bounded: old entries go first (a Map iterates in insertion order).
    if (this.entries.size >= 1_000) {
      for (const k of [...this.entries.keys()].slice(0, 100)) this.entries.delete(k);
    }
    const ttl = kind === 'viewers' ? this.ttl.viewersMs : this.ttl.configMs;
    this.entries.set(key, { until: this.now() + ttl, value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
  }
}

export class InboundScope {
  private readonly memo = new Map<string, Promise<unknown>>();
  /** Reads started ahead for this batch (decisions D84): each is used once, then reads go to the table. */
  readonly readAhead = new ReadAhead();

  constructor(private readonly shared?: SharedReads) {}

  private once<T>(key: string, load: () => Promise<T>, kind: 'config' | 'viewers' = 'config'): Promise<T> {
    let hit = this.memo.get(key) as Promise<T> | undefined;
    if (!hit) {
      hit = this.shared?.get<T>(key);
      if (!hit) {
        hit = load();
        this.shared?.set(key, hit, kind);
      }
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

  /** The company's settings item, read once for routing and for LGPD masking. */
  private settingsItem(companyId: number): Promise<Record<string, unknown>> {
    return this.once(`settingsItem:${companyId}`, () => getCompanySettingsItem(companyId));
  }

  settings(companyId: number): Promise<RoutingSettings> {
    return this.once(`settings:${companyId}`, async () => {
      const stored = await this.settingsItem(companyId);
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
      const stored = await this.settingsItem(companyId);
      return String(stored.lgpdHideNumber ?? COMPANY_SETTING_COLUMNS.lgpdHideNumber.default) === 'enabled';
    });
  }

  queues(companyId: number): Promise<Map<number, Queue>> {
    return this.once(`queues:${companyId}`, async () => new Map((await listQueues(companyId)).map((q) => [q.id, q])));
  }

  viewers(companyId: number): Promise<TicketViewers> {
    return this.once(`viewers:${companyId}`, () => loadTicketViewers(companyId), 'viewers');
  }

  /** The name of a ticket's assigned user: from the online users when there, else one read. */
  async userName(companyId: number, userId: number): Promise<string | null> {
    const online = (await this.viewers(companyId)).names.get(userId);
    if (online !== undefined) return online;
    return this.once(
      `user:${companyId}:${userId}`,
      async () => {
        const [user] = await getTicketViewers(companyId, [userId]);
        return user?.name ?? null;
      },
      'viewers',
    );
  }
}
