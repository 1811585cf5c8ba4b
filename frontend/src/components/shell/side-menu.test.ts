import { describe, expect, it } from 'vitest';
import { activeHrefFor } from './side-menu';
import type { MenuEntry } from './menu';

const MENU: MenuEntry[] = [
  { type: 'section', id: 'management', items: [{ type: 'link', id: 'dashboard', href: '/' }] },
  { type: 'link', id: 'tickets', href: '/tickets' },
  { type: 'link', id: 'contacts', href: '/contacts' },
];

describe('the active menu link', () => {
  it.each([
    ['/tickets', '/tickets'],
    ['/tickets/9b2c-uuid', '/tickets'],
    ['/contacts/import', '/contacts'],
    ['/', '/'],
    ['/contactsX', '/contactsX'], // a prefix of a word is not a parent
    ['/status', '/status'],
  ])('%s highlights %s', (pathname, expected) => {
    expect(activeHrefFor(MENU, pathname)).toBe(expected);
  });
});
