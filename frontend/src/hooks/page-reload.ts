/**
 * Reloading the whole page, behind an object so tests can replace it (`vi.spyOn(pageReload, 'reload')`):
 * jsdom implements no navigation and its `location.reload` cannot be redefined.
 */
export const pageReload = {
  reload(): void {
    window.location.reload();
  },
};
