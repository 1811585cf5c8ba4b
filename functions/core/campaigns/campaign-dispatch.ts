import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { CONFIRMATION_FIELDS, MESSAGE_FIELDS } from '../../contracts/campaigns';
import {
  campaignUpdateItem,
  claimShipment,
  deleteReplyMarkerItem,
  getCampaign,
  getReplyMarker,
  getShipment,
  listDueCampaigns,
  listWaitingShipments,
  purgeShipments,
  replyMarkerPutItem,
  shipmentPutItem,
  shipmentUpdateItem,
  transactOrLose,
  updateCampaign,
  type Campaign,
  type Shipment,
} from '../../data/campaign-repository';
import { getConnection, type Connection } from '../../data/connection-repository';
import { itemPartition, type ContactListItem } from '../../data/contact-list-repository';
import {
  createContact,
  findContactIdsByIdentities,
  getContact,
  IdentityTaken,
  type Contact,
} from '../../data/contact-repository';
import { fnv1a } from '../../data/keys';
import { getProviderRef } from '../../data/message-repository';
import { queryPage } from '../../data/query-page';
import { sendQueueMessage } from '../../data/queue-sender';
import { ReadScope } from '../../data/read-scope';
import { listContactsByTags } from '../../data/tag-repository';
import { getTickCheckpoint, setTickCheckpoint } from '../../data/tick-repository';
import {
  closeTicket,
  createTicket,
  getOpenTicketId,
  getTicket,
  OtherOpenTicket,
  type Ticket,
} from '../../data/ticket-repository';
import { errorFields, logger } from '../../shared/logger';
import { announceContact } from '../contacts/contact-service';
import { readCampaignSettings } from '../outbound/campaign-settings';
import { prepareSlots, reserveSendSlot, waitForSlot } from '../outbound/send-governor';
import { whatsappMessageId } from '../pipeline/outbound-queue';
import { publishTicketChange } from '../tickets/ticket-events';
import { postBotMessage } from '../tickets/ticket-texts';
import { announceCampaign } from './campaign-events';

/**
 * Sending a campaign (DESIGN §10; data-model §2.22; decisions D133–D135). An outbox with one shipment
 * item per (campaign, number):
 *
 * 1. **Waves.** The `campaigns` minute tick reads the due index (gsi4 `DUE#CAMPAIGN#<hour>#<s>`, `sk <= now`)
 *    and puts `{kind: 'wave'}` on the `campaign` queue; a wave near in time is also queued directly with
 *    DelaySeconds (≤ 900 s). A wave claims the campaign (`waveSeq` + 1, its due time moved WAVE_LEASE_MS
 *    ahead) and every write it makes is conditional on that claim, so two waves never run at once.
 * 2. **Materialise.** The first waves copy the audience (the contact list's items, or the tag's contacts)
 *    into shipments, ≤ 99 per transaction together with the audience cursor and `validContacts` (+ the
 *    per-variant counts): a crash redoes a page or nothing, and a number is a shipment once
 *    (`attribute_not_exists`). The variant is chosen here, by a stable hash of the number (D133).
 * 3. **Dispatch.** A wave walks the waiting shipments (PENDING, or SENDING with a dead claim) from
 *    `sendCursor`, takes a send-governor slot for each (`reserveSendSlot({kind: 'campaign'})`, at most
 *    MAX_DELAY_S ahead) and queues `{kind: 'send'}` with the slot's delay; it stops at WAVE_SIZE sends or the
 *    governor's first deferral and re-arms itself at the next slot.
 * 4. **Send.** The consumer claims the shipment (conditional write) before anything else, finds or makes the
 *    contact and its ticket, and posts the message through the bot's keyed path (`campaign:<id>:<number>:
 *    <message|confirmation>`: its provider id is claimed before the send, so a run taking over a dead one
 *    never sends twice). The shipment's final state and the campaign's counters move in one transaction.
 *    A bad number fails its shipment only.
 * 5. **FINALIZADA** exactly when every shipment is done: a conditional update `done = validContacts AND
 *    phase = sent`, tried by the last sender and by the wave that hands out the last shipment.
 * Cancelled campaigns stop at the next send (each checks `status = EM_ANDAMENTO`); restart walks the waiting
 * shipments again. Confirmation (D134): with `confirmation` on, the first send is a confirmation message;
 * the contact's reply (inbound pipeline, `recordCampaignReply`) queues `{kind: 'confirmed'}`, which sends the
 * campaign message.
 */
export const CAMPAIGN_TICK_NAME = 'campaigns';
export const WAVE_LEASE_MS = 2 * 60_000;
/** A send claim older than this belongs to a dead run (the queue's visibility timeout is 120 s). */
export const SEND_LEASE_MS = 90_000;
/** Sends handed out per wave at most (and the 15 minutes of governor slots SQS delays can hold). */
export const WAVE_SIZE = 250;
export const MAX_DELAY_S = 900;
/**
 * How long a wave hands out at most before it ends and queues the next one: far below the consumer's
 * timeout (100 s) and the wave's lease, however slow the table is that moment.
 */
export const WAVE_BUDGET_MS = 20_000;
/** Audience members copied into shipments per wave run at most (the next run continues). */
export const MATERIALIZE_PER_RUN = 1_000;
const PAGE = 99;
export const MAX_CATCH_UP_HOURS = 7 * 24;
/** A progress event after every this many finished shipments (and at the end). */
export const PROGRESS_EVERY = 10;

const ids = { companyId: z.number().int().positive(), campaignId: z.number().int().positive() };
export const campaignQueueMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('wave'), ...ids }),
  z.object({ kind: z.literal('send'), ...ids, number: z.string().min(1).max(40) }),
  z.object({ kind: z.literal('confirmed'), ...ids, number: z.string().min(1).max(40) }),
  z.object({ kind: z.literal('purge'), ...ids }),
]);
export type CampaignQueueMessage = z.infer<typeof campaignQueueMessage>;

const queue = (m: CampaignQueueMessage, delaySeconds = 0) =>
  sendQueueMessage('campaign', m, delaySeconds > 0 ? { delaySeconds: Math.min(MAX_DELAY_S, delaySeconds) } : {});

const secondsUntil = (at: number, now: number) => Math.max(0, Math.ceil((at - now) / 1000));

// ---------------------------------------------------------------------------------- texts and variants

/** The variants a campaign has: the numbers n of its non-empty message{n} (or confirmationMessage{n}). */
export const variantsOf = (c: Pick<Campaign, (typeof MESSAGE_FIELDS)[number]>): number[] =>
  MESSAGE_FIELDS.flatMap((f, i) => (c[f].trim() ? [i + 1] : []));

/** The variant a number draws (decisions D133): stable, so a retry or a restart keeps it; even over many. */
export const variantFor = (variants: readonly number[], number: string): number =>
  variants.length === 0 ? 1 : variants[fnv1a(number) % variants.length]!;

/** The confirmation text of variant n: its own, else the first one written. */
export const confirmationText = (c: Pick<Campaign, (typeof CONFIRMATION_FIELDS)[number]>, variant: number): string =>
  c[CONFIRMATION_FIELDS[variant - 1]!].trim() || CONFIRMATION_FIELDS.map((f) => c[f].trim()).find(Boolean) || '';

/** {nome}, {email}, {numero} and the settings' custom variables `{key}` (administration §3). */
export const fillVariables = (
  text: string,
  person: { name: string; email: string; number: string },
  custom: readonly { key: string; value: string }[],
): string => {
  const values = new Map<string, string>([
    ['nome', person.name],
    ['email', person.email],
    ['numero', person.number],
  ]);
  for (const v of custom) if (!values.has(v.key)) values.set(v.key, v.value);
  return text.replace(/\{([^{}]{1,50})\}/g, (whole, key: string) => values.get(key.trim()) ?? whole);
};

/** Digits of a WhatsApp number a campaign may send to: country, area code and number. */
export const SENDABLE_NUMBER = /^\d{8,15}$/;

// ------------------------------------------------------------------------------------------ arming

/** Queues the campaign's next wave when it is due within SQS's reach; the tick covers later ones. */
export const armFirstWave = async (c: Campaign, now = new Date()): Promise<void> => {
  if (!c.dueAt || (c.status !== 'PROGRAMADA' && c.status !== 'EM_ANDAMENTO')) return;
  const delay = secondsUntil(Date.parse(c.dueAt), now.getTime());
  if (delay <= MAX_DELAY_S) await queue({ kind: 'wave', companyId: c.companyId, campaignId: c.id }, delay);
};

export const queuePurge = (companyId: number, campaignId: number): Promise<void> =>
  queue({ kind: 'purge', companyId, campaignId });

const announce = async (companyId: number, id: number): Promise<void> => {
  const c = await getCampaign(companyId, id);
  if (!c) return;
  await announceCampaign(companyId, 'update', c);
};

/** FINALIZADA when every shipment is done and none is left to hand out (one conditional update). */
export const finishIfDone = async (companyId: number, id: number, now = new Date()): Promise<boolean> => {
  const ok = await updateCampaign(companyId, id, {
    set: { status: 'FINALIZADA', completedAt: now.toISOString(), dueAt: null, updatedAt: now.toISOString() },
    condition: '#status = :running AND #phase = :sent AND #done = #valid',
    names: { '#status': 'status', '#phase': 'phase', '#done': 'done', '#valid': 'validContacts' },
    values: { ':running': 'EM_ANDAMENTO', ':sent': 'sent' },
  });
  if (ok) await announce(companyId, id);
  return ok;
};

// -------------------------------------------------------------------------------------------- the tick

const hourOf = (ms: number): string => new Date(ms).toISOString().slice(0, 13);

/** The tick: every campaign with a wave due goes on the queue (or to `handle`, for tests). */
export const runCampaignTick = async (
  now = new Date(),
  handle: (m: CampaignQueueMessage) => Promise<unknown> = (m) => queue(m),
): Promise<number> => {
  const current = Math.floor(now.getTime() / 3600_000) * 3600_000;
  const checkpoint = await getTickCheckpoint(CAMPAIGN_TICK_NAME);
  const from = Math.max(
    checkpoint ? Date.parse(`${checkpoint.slice(0, 13)}:00:00.000Z`) - 3600_000 : current - 3600_000,
    current - MAX_CATCH_UP_HOURS * 3600_000,
  );
  const until = now.toISOString();
  let queued = 0;
  for (let hour = from; hour <= current; hour += 3600_000) {
    for (const due of await listDueCampaigns(hourOf(hour), until)) {
      try {
        await handle({ kind: 'wave', companyId: due.companyId, campaignId: due.id });
        queued += 1;
      } catch (err) {
        logger.error('due campaign not queued', { ...due, ...errorFields(err) });
      }
    }
  }
  await setTickCheckpoint(CAMPAIGN_TICK_NAME, until.slice(0, 16));
  return queued;
};

// --------------------------------------------------------------------------------------------- waves

export type WaveOutcome = 'gone' | 'not-due' | 'busy' | 'stopped' | 'materializing' | 'dispatched' | 'finished';

interface AudienceMember {
  number: string;
  name: string;
  email: string;
  isWhatsappValid: boolean | null;
}

const audiencePage = async (
  c: Campaign,
  cursor: string | null,
): Promise<{ members: AudienceMember[]; next: string | null }> => {
  if (c.contactListId !== null) {
    const partition = itemPartition(c.companyId, c.contactListId);
    const page = await queryPage<ContactListItem>({
      scope: `${partition}#CAMPAIGN`,
      partition,
      sortPrefix: 'NUM#',
      limit: PAGE,
      cursor: cursor ?? undefined,
    });
    return {
      members: page.items.map((i) => ({
        number: String(i.number).replace(/\D/g, ''),
        name: i.name,
        email: i.email ?? '',
        isWhatsappValid: i.isWhatsappValid ?? null,
      })),
      next: page.hasMore ? (page.nextCursor ?? null) : null,
    };
  }
  if (c.tagListId === null) return { members: [], next: null };
  const page = await listContactsByTags(c.companyId, {
    tagIds: [c.tagListId],
    kinds: [{ channel: 'whatsapp', isGroup: false }],
    limit: PAGE,
    cursor: cursor ?? undefined,
  });
  return {
    members: page.items
      .filter((p) => p.active && !p.deletedAt && !p.mergedInto)
      .map((p) => ({ number: p.number.replace(/\D/g, ''), name: p.name, email: p.email, isWhatsappValid: null })),
    next: page.hasMore ? (page.nextCursor ?? null) : null,
  };
};

const waveGuard = (seq: number) => ({
  condition: 'attribute_exists(pk) AND #waveSeq = :seq AND #status = :running',
  names: { '#waveSeq': 'waveSeq', '#status': 'status' },
  values: { ':seq': seq, ':running': 'EM_ANDAMENTO' },
});

const stillHeld = async (c: Campaign, seq: number): Promise<boolean> => {
  const fresh = await getCampaign(c.companyId, c.id);
  return !!fresh && fresh.waveSeq === seq && fresh.status === 'EM_ANDAMENTO';
};

/** Copies audience pages into shipments; answers whether the audience is all read, or `lost` the claim. */
const materialize = async (c: Campaign, seq: number): Promise<'done' | 'more' | 'lost'> => {
  const variants = variantsOf(c);
  let cursor = c.audienceCursor;
  let copied = 0;
  while (copied < MATERIALIZE_PER_RUN) {
    const page = await audiencePage(c, cursor);
    const seen = new Set<string>();
    let members = page.members.filter((m) => m.number !== '' && !seen.has(m.number) && !!seen.add(m.number));
    for (let attempt = 0; ; attempt += 1) {
      const counts: Record<string, number> = { validContacts: members.length };
      const shipments: Shipment[] = members.map((m) => {
        const variant = variantFor(variants, m.number);
        counts[`contacts${variant}`] = (counts[`contacts${variant}`] ?? 0) + 1;
        return {
          campaignId: c.id,
          companyId: c.companyId,
          number: m.number,
          name: m.name,
          email: m.email,
          variant,
          isWhatsappValid: m.isWhatsappValid,
          contactId: null,
          status: 'PENDING',
          claimToken: null,
          claimedAt: null,
          ticketId: null,
          deliveredAt: null,
          confirmationRequestedAt: null,
          confirmedAt: null,
          readAt: null,
          repliedAt: null,
          error: null,
        };
      });
      const guard = waveGuard(seq);
      const ok = await transactOrLose([
        ...shipments.map(shipmentPutItem),
        campaignUpdateItem(c.companyId, c.id, {
          set: { audienceCursor: page.next, phase: page.next ? 'materialize' : 'dispatch' },
          add: counts,
          ...guard,
        }),
      ]);
      if (ok) break;
      if (!(await stillHeld(c, seq))) return 'lost';
      // A number this campaign already has (a tag's two contacts with one number, on different pages).
      const existing = await Promise.all(members.map((m) => getShipment(c.companyId, c.id, m.number)));
      const before = members.length;
      members = members.filter((_, i) => existing[i] === null);
      if (members.length === before || attempt > 3) throw new Error('campaign audience page could not be stored');
    }
    copied += members.length;
    cursor = page.next;
    if (!cursor) return 'done';
  }
  return 'more';
};

/** Hands out the next shipments with governor slots; answers what the campaign does next. */
const dispatch = async (c: Campaign, seq: number, now: Date): Promise<WaveOutcome> => {
  const stale = new Date(now.getTime() - SEND_LEASE_MS).toISOString();
  let cursor = c.sendCursor;
  let deferredUntil: number | null = null;
  let end = false;
  let handed = 0;
  // Sends go on the queue ten at a time as their slots are taken, so they start while the wave goes on;
  // the cursor moves only after (a crash re-queues some sends, which their claims keep single).
  let batch: { number: string; delay: number }[] = [];
  const flush = async () => {
    const out = batch;
    batch = [];
    await Promise.all(
      out.map((s) => queue({ kind: 'send', companyId: c.companyId, campaignId: c.id, number: s.number }, s.delay)),
    );
  };
  // The rules and the connection's state once per wave; the wave's time budget keeps them fresh enough.
  const prepared = await prepareSlots(c.companyId, c.whatsappId, 'campaign');
  const budgetEnds = Date.now() + WAVE_BUDGET_MS;
  while (handed < WAVE_SIZE && deferredUntil === null && Date.now() < budgetEnds) {
    const page = await listWaitingShipments(c.companyId, c.id, cursor, Math.min(100, WAVE_SIZE), stale);
    let stoppedAt: string | null = null;
    let outOfTime = false;
    for (const s of page.items) {
      if (Date.now() >= budgetEnds) {
        outOfTime = true;
        break;
      }
      const slot = await reserveSendSlot({
        companyId: c.companyId,
        whatsappId: c.whatsappId,
        kind: 'campaign',
        maxWaitMs: MAX_DELAY_S * 1000 - 5_000,
        prepared,
      });
      if ('deferredUntil' in slot) {
        deferredUntil = slot.deferredUntil.getTime();
        break;
      }
      batch.push({ number: s.number, delay: secondsUntil(slot.at.getTime(), Date.now()) });
      if (batch.length >= 10) await flush();
      handed += 1;
      stoppedAt = `SHIP#${s.number}`;
      if (handed >= WAVE_SIZE) break;
    }
    if (deferredUntil !== null || handed >= WAVE_SIZE || outOfTime) {
      cursor = stoppedAt ?? cursor;
      break;
    }
    cursor = page.last;
    if (!page.more) {
      end = true;
      break;
    }
  }
  await flush();
  const nowMs = Date.now();
  const nextDue = end ? null : (deferredUntil ?? nowMs);
  const guard = waveGuard(seq);
  const saved = await updateCampaign(c.companyId, c.id, {
    set: {
      sendCursor: cursor,
      phase: end ? 'sent' : 'dispatch',
      dueAt: nextDue === null ? null : new Date(nextDue).toISOString(),
    },
    ...guard,
  });
  if (!saved) return 'busy';
  if (end) {
    await finishIfDone(c.companyId, c.id);
    return 'finished';
  }
  if (nextDue !== null && nextDue - nowMs <= MAX_DELAY_S * 1000) {
    await queue({ kind: 'wave', companyId: c.companyId, campaignId: c.id }, secondsUntil(nextDue, nowMs));
  }
  return 'dispatched';
};

/** One wave of a campaign (the `campaign` queue's `wave` message). */
export const runWave = async (companyId: number, campaignId: number, now = new Date()): Promise<WaveOutcome> => {
  let c = await getCampaign(companyId, campaignId);
  if (!c) return 'gone';
  const stamp = now.toISOString();
  if (c.status === 'PROGRAMADA') {
    if (!c.scheduledAt || c.scheduledAt > stamp) return 'not-due';
    const started = await updateCampaign(companyId, campaignId, {
      set: { status: 'EM_ANDAMENTO', updatedAt: stamp },
      condition: '#status = :scheduled AND #updatedAt = :seen',
      names: { '#status': 'status', '#updatedAt': 'updatedAt' },
      values: { ':scheduled': 'PROGRAMADA', ':seen': c.updatedAt },
    });
    if (!started) return 'busy';
    await announce(companyId, campaignId);
    c = await getCampaign(companyId, campaignId);
    if (!c) return 'gone';
  }
  if (c.status !== 'EM_ANDAMENTO' || !c.dueAt) return 'gone';
  if (c.dueAt > stamp) return 'not-due';

  // A campaign whose connection was deleted stops (decisions D135): CANCELADA with the reason.
  const connection = await getConnection(companyId, c.whatsappId);
  if (!connection) {
    const stopped = await updateCampaign(companyId, campaignId, {
      set: { status: 'CANCELADA', dueAt: null, lastError: 'A conexão da campanha foi excluída', updatedAt: stamp },
      condition: '#status = :running',
      names: { '#status': 'status' },
      values: { ':running': 'EM_ANDAMENTO' },
    });
    if (stopped) await announce(companyId, campaignId);
    return 'stopped';
  }

  // Claim the wave.
  const seq = c.waveSeq + 1;
  const claimed = await updateCampaign(companyId, campaignId, {
    set: { waveSeq: seq, dueAt: new Date(now.getTime() + WAVE_LEASE_MS).toISOString() },
    condition: '#waveSeq = :seen AND #status = :running',
    names: { '#waveSeq': 'waveSeq', '#status': 'status' },
    values: { ':seen': c.waveSeq, ':running': 'EM_ANDAMENTO' },
  });
  if (!claimed) return 'busy';

  if (c.phase === 'materialize') {
    const read = await materialize(c, seq);
    if (read === 'lost') return 'busy';
    if (read === 'more') {
      const rearmed = await updateCampaign(companyId, campaignId, {
        set: { dueAt: new Date().toISOString() },
        ...waveGuard(seq),
      });
      if (rearmed) await queue({ kind: 'wave', companyId, campaignId });
      return 'materializing';
    }
    c = await getCampaign(companyId, campaignId);
    if (!c || c.waveSeq !== seq || c.status !== 'EM_ANDAMENTO') return 'busy';
    await announce(companyId, campaignId);
  }
  if (c.phase === 'sent') {
    await updateCampaign(companyId, campaignId, { set: { dueAt: null }, ...waveGuard(seq) });
    await finishIfDone(companyId, campaignId);
    return 'finished';
  }
  return dispatch(c, seq, now);
};

// ---------------------------------------------------------------------------------------------- sends

export type SendOutcome = 'gone' | 'stopped' | 'duplicate' | 'delivered' | 'requested' | 'failed' | 'deferred';

/** The person with this WhatsApp number (the phone identity), made from the list's row when missing. */
const contactOfNumber = async (c: Campaign, s: Shipment): Promise<Contact> => {
  const identity = `wa#${s.number}`;
  const known = (await findContactIdsByIdentities(c.companyId, [identity])).get(identity);
  if (known !== undefined) {
    const contact = await getContact(c.companyId, known);
    if (contact && !contact.deletedAt) return contact;
  }
  try {
    const made = await createContact(
      c.companyId,
      {
        name: s.name || s.number,
        number: s.number,
        email: s.email,
        isGroup: false,
        channel: 'whatsapp',
        whatsappId: c.whatsappId,
      },
      [identity],
    );
    await announceContact(c.companyId, made);
    return made;
  } catch (err) {
    if (!(err instanceof IdentityTaken) || err.contactId === null) throw err;
    const winner = await getContact(c.companyId, err.contactId);
    if (!winner) throw err;
    return winner;
  }
};

/**
 * The contact's not-closed ticket on the connection, else a new one as the campaign asks: openTicket
 * enabled → `statusTicket` open (for userId, in queueId) or pending (in queueId); otherwise (disabled, or
 * closed) a ticket made only to carry the message, closed right after it (`closeAfter`).
 */
const ticketFor = async (
  c: Campaign,
  connection: Connection,
  contact: Contact,
): Promise<{ ticket: Ticket; closeAfter: boolean }> => {
  const keep = c.openTicket === 'enabled' && c.statusTicket !== 'closed';
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const openId = await getOpenTicketId(c.companyId, contact.id, connection.id);
    const open = openId === null ? null : await getTicket(c.companyId, openId);
    if (open && open.status !== 'closed') return { ticket: open, closeAfter: false };
    const asOpen = keep && c.statusTicket === 'open' && c.userId !== null;
    try {
      const ticket = await createTicket(c.companyId, {
        status: asOpen ? 'open' : 'pending',
        queueId: keep ? c.queueId : null,
        userId: asOpen ? c.userId : null,
        contactId: contact.id,
        whatsappId: connection.id,
        channel: connection.channel,
        isGroup: false,
        chatId: `${contact.number.replace(/\D/g, '')}@s.whatsapp.net`,
        origin: 'active',
        createdBy: c.userId,
      });
      await publishTicketChange(new ReadScope(), null, ticket, contact);
      return { ticket, closeAfter: !keep };
    } catch (err) {
      if (!(err instanceof OtherOpenTicket)) throw err;
    }
  }
  throw new Error('could not open a ticket for the campaign contact');
};

const providerIdOf = (c: Campaign, ticket: Ticket, key: string) =>
  whatsappMessageId(`${c.companyId}:${ticket.whatsappId}:${ticket.id}:bot:${key}`);

/**
 * Posts a keyed campaign message on the ticket; answers its provider id, or null when the connection
 * refused it. A message this key already stored (a run taking over a dead one) counts as posted.
 */
const post = async (
  c: Campaign,
  ticket: Ticket,
  contact: Contact,
  text: string,
  key: string,
  withMedia: boolean,
): Promise<string | null> => {
  const media =
    withMedia && c.mediaKey && c.mediaType
      ? { key: c.mediaKey, mimetype: c.mediaType, filename: c.mediaName ?? 'arquivo', size: c.mediaSize ?? 0 }
      : undefined;
  const stored = await postBotMessage(new ReadScope(), ticket, contact, text, key, media);
  const providerId = providerIdOf(c, ticket, key);
  if (stored) return providerId;
  return (await getProviderRef(c.companyId, ticket.whatsappId, providerId)) ? providerId : null;
};

const closeCarrier = async (ticket: Ticket, contact: Contact): Promise<void> => {
  try {
    const fresh = (await getTicket(ticket.companyId, ticket.id)) ?? ticket;
    if (fresh.status === 'closed') return;
    const closed = await closeTicket(fresh, { userId: null });
    await publishTicketChange(new ReadScope(), fresh, closed, contact);
  } catch (err) {
    logger.warn('campaign ticket left open', { companyId: ticket.companyId, ticketId: ticket.id, ...errorFields(err) });
  }
};

const campaignExists = { condition: 'attribute_exists(pk)' };

/**
 * After a shipment's counters moved: FINALIZADA when that was the last one (tried only then, so the hot
 * campaign item is not written once per send), else a progress event now and then (every PROGRESS_EVERY).
 */
const progress = async (companyId: number, id: number): Promise<void> => {
  const c = await getCampaign(companyId, id);
  if (!c) return;
  if (c.status === 'EM_ANDAMENTO' && c.phase === 'sent' && c.done >= c.validContacts) {
    if (await finishIfDone(companyId, id)) return;
  }
  if (c.done % PROGRESS_EVERY === 0 || c.done >= c.validContacts) {
    await announceCampaign(companyId, 'update', c);
  }
};

/**
 * The points of a send where a crash leaves something behind: the claim taken; the ticket remembered on it;
 * the message posted; the shipment recorded. Tests pass `at` to die there (a Lambda killed mid-way).
 */
export type SendPoint = 'claimed' | 'ticket' | 'posted' | 'recorded';
export interface SendHooks {
  at?: (point: SendPoint) => void;
}

/** A shipment's first send (the `campaign` queue's `send` message). */
export const sendShipment = async (
  companyId: number,
  campaignId: number,
  number: string,
  now = new Date(),
  hooks: SendHooks = {},
): Promise<SendOutcome> => {
  const c = await getCampaign(companyId, campaignId);
  if (!c) return 'gone';
  if (c.status !== 'EM_ANDAMENTO') return 'stopped';
  const token = randomUUID();
  const stale = new Date(now.getTime() - SEND_LEASE_MS).toISOString();
  const s = await claimShipment(companyId, campaignId, number, token, now.toISOString(), stale);
  if (!s) {
    // Done already — maybe by a run that recorded the last shipment and died before finishing the
    // campaign: its redelivery finishes it, or the campaign would stay EM_ANDAMENTO.
    if (c.phase === 'sent' && c.done >= c.validContacts) await finishIfDone(companyId, campaignId);
    return 'duplicate';
  }
  hooks.at?.('claimed');
  const held = { condition: '#claimToken = :token', values: { ':token': token } };

  const fail = async (reason: string): Promise<SendOutcome> => {
    const ok = await transactOrLose([
      shipmentUpdateItem(s, { set: { status: 'FAILED', error: reason }, remove: ['claimToken'], ...held }),
      campaignUpdateItem(companyId, campaignId, { add: { done: 1, failed: 1 }, ...campaignExists }),
    ]);
    if (!ok) return 'duplicate';
    await progress(companyId, campaignId);
    return 'failed';
  };

  if (!SENDABLE_NUMBER.test(s.number)) return fail('Número inválido');
  if (s.isWhatsappValid === false) return fail('O número não tem WhatsApp');
  const connection = await getConnection(companyId, c.whatsappId);
  if (!connection) return fail('Conexão não encontrada');
  const contact = await contactOfNumber(c, s);
  if (!contact.active) return fail('Contato bloqueado');

  // The ticket, remembered on the claim so a run taking over this shipment posts on the same one.
  let ticket = s.ticketId !== null ? await getTicket(companyId, s.ticketId) : null;
  let closeAfter = false;
  if (!ticket || ticket.status === 'closed') {
    ({ ticket, closeAfter } = await ticketFor(c, connection, contact));
    const remembered = await transactOrLose([
      shipmentUpdateItem(s, { set: { ticketId: ticket.id, contactId: contact.id }, ...held }),
    ]);
    if (!remembered) return 'duplicate';
  }
  hooks.at?.('ticket');

  const settings = await readCampaignSettings(companyId);
  const person = { name: s.name || contact.name, email: s.email || contact.email, number: s.number };
  const asking = c.confirmation && confirmationText(c, s.variant) !== '';
  const template = asking ? confirmationText(c, s.variant) : c[MESSAGE_FIELDS[s.variant - 1]!];
  const text = fillVariables(template, person, settings.variables);
  const key = `campaign:${campaignId}:${s.number}:${asking ? 'confirmation' : 'message'}`;
  const providerId = await post(c, ticket, contact, text, key, !asking);
  if (!providerId) return fail('Não foi possível enviar a mensagem por esta conexão');
  hooks.at?.('posted');
  if (closeAfter && !asking) await closeCarrier(ticket, contact);

  const at = new Date().toISOString();
  const ok = await transactOrLose([
    shipmentUpdateItem(s, {
      set: asking
        ? { status: 'REQUESTED', confirmationRequestedAt: at, contactId: contact.id, ticketId: ticket.id }
        : { status: 'DELIVERED', deliveredAt: at, contactId: contact.id, ticketId: ticket.id },
      remove: ['claimToken'],
      ...held,
    }),
    campaignUpdateItem(companyId, campaignId, {
      add: asking ? { done: 1, confirmationRequested: 1 } : { done: 1, delivered: 1, [`delivered${s.variant}`]: 1 },
      ...campaignExists,
    }),
    replyMarkerPutItem(companyId, contact.id, {
      campaignId,
      number: s.number,
      variant: s.variant,
      awaitingConfirmation: asking,
      providerId: asking ? null : providerId,
    }),
  ]);
  if (!ok) return 'duplicate';
  hooks.at?.('recorded');
  await progress(companyId, campaignId);
  return asking ? 'requested' : 'delivered';
};

/** The campaign message after the contact confirmed (the `campaign` queue's `confirmed` message). */
export const sendConfirmedMessage = async (
  companyId: number,
  campaignId: number,
  number: string,
): Promise<SendOutcome> => {
  const c = await getCampaign(companyId, campaignId);
  if (!c || c.status === 'CANCELADA') return c ? 'stopped' : 'gone';
  const s = await getShipment(companyId, campaignId, number);
  if (!s || !s.confirmedAt || s.deliveredAt || s.contactId === null) return 'duplicate';
  const slot = await reserveSendSlot({ companyId, whatsappId: c.whatsappId, kind: 'campaign', maxWaitMs: 60_000 });
  if ('deferredUntil' in slot) {
    await queue(
      { kind: 'confirmed', companyId, campaignId, number },
      secondsUntil(slot.deferredUntil.getTime(), Date.now()),
    );
    return 'deferred';
  }
  await waitForSlot(slot.at);
  const connection = await getConnection(companyId, c.whatsappId);
  const contact = await getContact(companyId, s.contactId);
  if (!connection || !contact) return 'gone';
  const { ticket } = await ticketFor({ ...c, openTicket: 'enabled', statusTicket: 'pending' }, connection, contact);
  const settings = await readCampaignSettings(companyId);
  const text = fillVariables(
    c[MESSAGE_FIELDS[s.variant - 1]!],
    { name: s.name || contact.name, email: s.email || contact.email, number: s.number },
    settings.variables,
  );
  const providerId = await post(c, ticket, contact, text, `campaign:${campaignId}:${s.number}:message`, true);
  if (!providerId) return 'failed';
  const ok = await transactOrLose([
    shipmentUpdateItem(s, {
      set: { status: 'DELIVERED', deliveredAt: new Date().toISOString() },
      condition: 'attribute_not_exists(#deliveredAt)',
    }),
    campaignUpdateItem(companyId, campaignId, {
      add: { delivered: 1, [`delivered${s.variant}`]: 1 },
      ...campaignExists,
    }),
    replyMarkerPutItem(companyId, contact.id, {
      campaignId,
      number: s.number,
      variant: s.variant,
      awaitingConfirmation: false,
      providerId,
    }),
  ]);
  if (ok) await progress(companyId, campaignId);
  return ok ? 'delivered' : 'duplicate';
};

// ----------------------------------------------------------------------------- replies and reads

/**
 * The inbound pipeline's hook (a contact's own message): the campaign that last reached the contact
 * records the reply once — a confirmation when one was asked (and the campaign message follows), else a
 * reply to the variant it sent. One Get when no campaign reached the contact.
 */
export const recordCampaignReply = async (companyId: number, contactId: number): Promise<void> => {
  const marker = await getReplyMarker(companyId, contactId);
  if (!marker) return;
  const ship = { companyId, campaignId: marker.campaignId, number: marker.number };
  const at = new Date().toISOString();
  if (marker.awaitingConfirmation) {
    const ok = await transactOrLose([
      shipmentUpdateItem(ship, {
        set: { confirmedAt: at, repliedAt: at },
        condition: 'attribute_exists(pk) AND attribute_not_exists(#confirmedAt)',
      }),
      campaignUpdateItem(companyId, marker.campaignId, {
        add: { confirmed: 1, replied: 1, [`replied${marker.variant}`]: 1 },
        ...campaignExists,
      }),
      replyMarkerPutItem(companyId, contactId, { ...marker, awaitingConfirmation: false }),
    ]);
    if (ok) await queue({ kind: 'confirmed', companyId, campaignId: marker.campaignId, number: marker.number });
    return;
  }
  const ok = await transactOrLose([
    shipmentUpdateItem(ship, {
      set: { repliedAt: at },
      condition: 'attribute_exists(pk) AND attribute_not_exists(#repliedAt)',
    }),
    campaignUpdateItem(companyId, marker.campaignId, {
      add: { replied: 1, [`replied${marker.variant}`]: 1 },
      ...campaignExists,
    }),
    deleteReplyMarkerItem(companyId, contactId, marker.campaignId),
  ]);
  if (ok) await progress(companyId, marker.campaignId);
};

/**
 * The ack hook: a campaign message read (ack ≥ 3: read or played) on the contact's phone counts once for its variant. Runs
 * only for automatic messages (the caller filters), so an attendant's acks cost nothing.
 */
export const recordCampaignRead = async (companyId: number, contactId: number, providerId: string): Promise<void> => {
  const marker = await getReplyMarker(companyId, contactId);
  if (!marker || marker.providerId !== providerId) return;
  const ok = await transactOrLose([
    shipmentUpdateItem(
      { companyId, campaignId: marker.campaignId, number: marker.number },
      {
        set: { readAt: new Date().toISOString() },
        condition: 'attribute_exists(pk) AND attribute_not_exists(#readAt)',
      },
    ),
    campaignUpdateItem(companyId, marker.campaignId, {
      add: { read: 1, [`read${marker.variant}`]: 1 },
      ...campaignExists,
    }),
  ]);
  if (ok) await progress(companyId, marker.campaignId);
};

// ---------------------------------------------------------------------------------------- the queue

/** The `campaign` queue's consumer body. */
export const handleCampaignMessage = async (m: CampaignQueueMessage): Promise<string> => {
  switch (m.kind) {
    case 'wave':
      return runWave(m.companyId, m.campaignId);
    case 'send':
      return sendShipment(m.companyId, m.campaignId, m.number);
    case 'confirmed':
      return sendConfirmedMessage(m.companyId, m.campaignId, m.number);
    case 'purge': {
      const removed = await purgeShipments(m.companyId, m.campaignId, 500);
      if (removed === 500) await queuePurge(m.companyId, m.campaignId);
      return `purged ${removed}`;
    }
  }
};
