import { api } from './transport';

/**
 * Quick replies (administration spec "Quick replies"; server: functions/http/quick-messages; decisions D58–D59
 * in docs/decisions/). A reply not shared (`geral`) exists only for its owner; `visao` locks a shared one to its owner.
 */
export interface QuickMessage {
  id: number;
  shortcode: string;
  message: string;
  geral: boolean;
  visao: boolean;
  status: boolean;
  userId: number;
  /** The attachment's URL (under /media), or null. */
  mediaPath: string | null;
  mediaName: string | null;
  isMedia: boolean;
  createdAt: string;
  updatedAt: string;
}

export type QuickMessageInput = Partial<Pick<QuickMessage, 'shortcode' | 'message' | 'geral' | 'visao' | 'status'>>;

export interface QuickMessagePage {
  records: QuickMessage[];
  hasMore: boolean;
  nextCursor?: string;
}

/** The attachment the server accepts (one file, up to 2.5 MB). */
export const QUICK_MESSAGE_MEDIA_MAX_BYTES = 2.5 * 1024 * 1024;

interface CallOptions {
  signal?: AbortSignal;
}

const path = (id: number) => `/quick-messages/${encodeURIComponent(String(id))}`;

/** GET /quick-messages {searchParam, pageNumber, cursor}: one page by shortcode. */
export const listQuickMessages = (
  query: { searchParam?: string; pageNumber?: number; cursor?: string } = {},
  options: CallOptions = {},
): Promise<QuickMessagePage> =>
  api().get<QuickMessagePage>('/quick-messages', {
    ...options,
    query: { searchParam: query.searchParam || undefined, pageNumber: query.pageNumber, cursor: query.cursor },
  });

/** GET /quick-messages/list: every active reply the user may use (the composer's `/` list). */
export const listComposerQuickMessages = (options: CallOptions = {}): Promise<QuickMessage[]> =>
  api().get<QuickMessage[]>('/quick-messages/list', options);

export const getQuickMessage = (id: number, options: CallOptions = {}): Promise<QuickMessage> =>
  api().get<QuickMessage>(path(id), options);

export const createQuickMessage = (input: QuickMessageInput & { shortcode: string }): Promise<QuickMessage> =>
  api().post<QuickMessage>('/quick-messages', input);

export const updateQuickMessage = (id: number, input: QuickMessageInput): Promise<QuickMessage> =>
  api().put<QuickMessage>(path(id), input);

export const deleteQuickMessage = (id: number): Promise<{ message: string }> =>
  api().delete<{ message: string }>(path(id));

/** POST /quick-messages/{id}/media-upload, multipart {typeArch, file}: the one attachment; answers the reply. */
export const uploadQuickMessageMedia = (id: number, file: File): Promise<QuickMessage> => {
  const form = new FormData();
  form.append('typeArch', 'quickMessage');
  form.append('file', file, file.name);
  return api().post<QuickMessage>(`${path(id)}/media-upload`, form);
};

/** DELETE /quick-messages/{id}/media-upload: removes the attachment. */
export const deleteQuickMessageMedia = (id: number): Promise<QuickMessage> =>
  api().delete<QuickMessage>(`${path(id)}/media-upload`);
