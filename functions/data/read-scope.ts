import { getCompany, type Company } from './company-repository';
import { ReadAhead } from './consistent-reads';
import { getConnection, type Connection } from './connection-repository';
import { listQueues, type Queue } from './queue-repository';
import { getCompanySettingsItem } from './settings-repository';
import { getTicketViewers, type StoredTicketViewer } from './ticket-viewer-repository';
import { listCompanyConnections, type WsConnection } from './ws-connection-repository';

/**
 * A read scope: what one request or one SQS batch reads about a company — the connection, the company, its
 * settings item, its queues, and who is online — memoised, so a burst of one chat (or a request that
 * publishes several events) costs one read of each and nothing is older than the batch or the request. A
 * failed read is forgotten, so the next use tries again. It holds stored items only; core turns them into
 * domain values (defaults, visibility) through `memo`, so those are computed once per scope too.
 */
export type ReadKind = 'config' | 'viewers';

/** The company's open sockets and the users behind them (visibility fields only): who is online. */
export interface OnlineUsers {
  connections: WsConnection[];
  users: Map<number, StoredTicketViewer>;
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

  set(key: string, value: Promise<unknown>, kind: ReadKind): void {
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

export class ReadScope {
  private readonly cache = new Map<string, Promise<unknown>>();
  /** Reads started ahead for this batch (decisions D84): each is used once, then reads go to the table. */
  readonly readAhead = new ReadAhead();

  constructor(private readonly shared?: SharedReads) {}

  /**
   * `load` once per scope under `key` (and, with shared reads, once per `kind`'s time to live across
   * batches). Core uses it for values derived from the reads below.
   */
  memo<T>(key: string, load: () => Promise<T>, kind: ReadKind = 'config'): Promise<T> {
    let hit = this.cache.get(key) as Promise<T> | undefined;
    if (!hit) {
      hit = this.shared?.get<T>(key);
      if (!hit) {
        hit = load();
        this.shared?.set(key, hit, kind);
      }
      this.cache.set(key, hit);
      hit.catch(() => this.cache.delete(key));
    }
    return hit;
  }

  connection(companyId: number, whatsappId: number): Promise<Connection | null> {
    return this.memo(`connection:${companyId}:${whatsappId}`, () => getConnection(companyId, whatsappId));
  }

  company(companyId: number): Promise<Company | null> {
    return this.memo(`company:${companyId}`, () => getCompany(companyId));
  }

  /** The company's stored settings item (columns absent where never set). */
  settingsItem(companyId: number): Promise<Record<string, unknown>> {
    return this.memo(`settingsItem:${companyId}`, () => getCompanySettingsItem(companyId));
  }

  queues(companyId: number): Promise<Map<number, Queue>> {
    return this.memo(`queues:${companyId}`, async () => new Map((await listQueues(companyId)).map((q) => [q.id, q])));
  }

  /**
   * Who is online: the company's sockets (one Query) and the users behind them (one BatchGet of just the
   * visibility fields) — O(connected users), not O(company users). Sockets of users who no longer exist
   * have no entry in `users`.
   */
  onlineUsers(companyId: number): Promise<OnlineUsers> {
    return this.memo(
      `online:${companyId}`,
      async () => {
        const connections = await listCompanyConnections(companyId);
        const users =
          connections.length === 0
            ? []
            : await getTicketViewers(
                companyId,
                connections.map((c) => c.userId),
              );
        return { connections, users: new Map(users.map((u) => [u.id, u])) };
      },
      'viewers',
    );
  }

  /** The name of a ticket's assigned user: from the online users when there, else one read. */
  async userName(companyId: number, userId: number): Promise<string | null> {
    const online = (await this.onlineUsers(companyId)).users.get(userId);
    if (online !== undefined) return online.name;
    return this.memo(
      `user:${companyId}:${userId}`,
      async () => {
        const [user] = await getTicketViewers(companyId, [userId]);
        return user?.name ?? null;
      },
      'viewers',
    );
  }
}
