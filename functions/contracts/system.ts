/** GET /version (public): the product version shown in the menu and on the status page. */
export interface VersionAnswer {
  version: string;
}
