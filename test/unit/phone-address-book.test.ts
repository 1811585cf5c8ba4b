import { describe, expect, it } from 'vitest';
import { PhoneAddressBook } from '../../functions/channels/whatsapp/phone-address-book';

/** What a Baileys session remembers of the phone's people for the import from the phone (decisions D148). */
describe('PhoneAddressBook', () => {
  it('keeps phone JIDs only, with the saved name first, then the verified name, then the push name', () => {
    const book = new PhoneAddressBook();
    book.rememberContacts([
      { id: '5511900000001@s.whatsapp.net', name: 'Ana Salva', notify: 'ana' },
      { id: '5511900000002@s.whatsapp.net', verifiedName: 'Loja Verificada', notify: 'loja' },
      { id: '5511900000003@c.us', notify: '  Bruno   B ' },
      { id: '5511900000004:12@s.whatsapp.net' },
      { id: '120363000000000001@g.us', name: 'Grupo' },
      { id: '123456789@lid', name: 'Sem número' },
      { id: 'status@broadcast' },
      { id: null, name: 'Nada' },
    ]);
    expect(book.list('contacts')).toEqual([
      { number: '5511900000001', name: 'Ana Salva' },
      { number: '5511900000002', name: 'Loja Verificada' },
      { number: '5511900000003', name: 'Bruno B' },
      { number: '5511900000004' },
    ]);
  });

  it('a later event without a name keeps the earlier name; chats are named as the address book names them', () => {
    const book = new PhoneAddressBook();
    book.rememberContacts([{ id: '5511900000001@s.whatsapp.net', name: 'Ana' }]);
    book.rememberContacts([{ id: '5511900000001@s.whatsapp.net' }]);
    book.rememberChats([
      { id: '5511900000001@s.whatsapp.net' },
      { id: '5511900000009@s.whatsapp.net', name: 'Cliente' },
      { id: '120363000000000001@g.us', name: 'Grupo' },
    ]);
    expect(book.list('contacts')).toEqual([{ number: '5511900000001', name: 'Ana' }]);
    expect(book.list('chats')).toEqual([
      { number: '5511900000001', name: 'Ana' },
      { number: '5511900000009', name: 'Cliente' },
    ]);
  });

  it('is bounded: new people beyond the limit are not kept, known ones still get their names', () => {
    const book = new PhoneAddressBook(2);
    book.rememberContacts([
      { id: '5511900000001@s.whatsapp.net' },
      { id: '5511900000002@s.whatsapp.net' },
      { id: '5511900000003@s.whatsapp.net', name: 'Fora' },
      { id: '5511900000001@s.whatsapp.net', name: 'Ana' },
    ]);
    expect(book.list('contacts')).toEqual([{ number: '5511900000001', name: 'Ana' }, { number: '5511900000002' }]);
  });
});
