import type { PhoneContact, PhoneContactSource } from './driver';

/**
 * What a Baileys session learns of the phone's people (decisions D148). WhatsApp has no "read the address
 * book" call: a linked device is told the phone's contacts by events — the history sync after pairing
 * (`messaging-history.set` with `contacts` and `chats`), the app-state sync on every connect
 * (`contacts.upsert` / `contacts.update`) and new chats (`chats.upsert`). The session remembers them here,
 * bounded, and `POST /contacts/import` reads them.
 *
 * Only phone JIDs (`<digits>@s.whatsapp.net` or `@c.us`) count: groups, broadcasts, newsletters and LIDs
 * have no number to import. The name is the one the phone's owner saved (`name`), else the business's
 * verified name, else the person's own push name (`notify`).
 */
export const ADDRESS_BOOK_MAX = 20_000;

export interface BaileysContactLike {
  id?: string | null;
  name?: string | null;
  notify?: string | null;
  verifiedName?: string | null;
}

export interface BaileysChatLike {
  id?: string | null;
  name?: string | null;
}

const numberOfJid = (jid: string | null | undefined): string | null => {
  const match = /^(\d{8,15})(?::\d+)?@(s\.whatsapp\.net|c\.us)$/.exec(jid ?? '');
  return match ? match[1]! : null;
};

const clean = (name: string | null | undefined): string | undefined => {
  const trimmed = name?.replace(/\s+/g, ' ').trim();
  return trimmed ? trimmed.slice(0, 100) : undefined;
};

export class PhoneAddressBook {
  private readonly contacts = new Map<string, string | undefined>();
  private readonly chats = new Map<string, string | undefined>();

  constructor(private readonly max = ADDRESS_BOOK_MAX) {}

  rememberContacts(contacts: readonly BaileysContactLike[]): void {
    for (const c of contacts) {
      this.remember(this.contacts, numberOfJid(c.id), clean(c.name) ?? clean(c.verifiedName) ?? clean(c.notify));
    }
  }

  rememberChats(chats: readonly BaileysChatLike[]): void {
    for (const c of chats) this.remember(this.chats, numberOfJid(c.id), clean(c.name));
  }

  /** The address book, or the chats' people named as the address book names them when it does. */
  list(source: PhoneContactSource): PhoneContact[] {
    const from = source === 'contacts' ? this.contacts : this.chats;
    return [...from].map(([number, name]) => {
      const known = name ?? this.contacts.get(number);
      return known ? { number, name: known } : { number };
    });
  }

  /** A later event without a name never erases the name an earlier one gave. */
  private remember(into: Map<string, string | undefined>, number: string | null, name: string | undefined): void {
    if (!number) return;
    if (!into.has(number) && into.size >= this.max) return;
    into.set(number, name ?? into.get(number));
  }
}
