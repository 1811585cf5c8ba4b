import type {
  CreateQuickMessageBody,
  QuickMessagePage,
  QuickMessageView,
  UpdateQuickMessageBody,
} from '@contracts/quick-messages';
import { api } from './transport';

/**
 * Quick replies (administration spec "Quick replies"; server: functions/http/quick-messages; decisions D58–D59
 * in docs/decisions/). A reply not shared (`geral`) exists only for its owner; `visao` locks a shared one to its owner.
 * The wire shapes are the server's contract (functions/contracts/quick-messages.ts).
 */
export type { QuickMessagePage };
export type QuickMessage = QuickMessageView;
/** The fields a create or an update sends (the owner and the tenant come from the token). */
export type QuickMessageInput = Omit<UpdateQuickMessageBody, 'userId' | 'companyId'>;

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

export const createQuickMessage = (
  input: Omit<CreateQuickMessageBody, 'userId' | 'companyId'>,
): Promise<QuickMessage> => api().post<QuickMessage>('/quick-messages', input);

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
