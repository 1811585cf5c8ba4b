import type { VersionAnswer } from '@contracts/system';
import { api } from './transport';

export type { VersionAnswer };

/** GET /version (public): the product version shown in the menu and on the status page. */
export const getVersion = (options?: { signal?: AbortSignal }): Promise<VersionAnswer> =>
  api().get<VersionAnswer>('/version', options);
