import type { HelpPage, HelpView } from '@contracts/helps';
import { api } from './transport';

/** Help entries (core §2 /helps; administration "Help"; server: functions/http/helps; decisions D146). */
export type Help = HelpView;
export type { HelpPage };
export interface HelpInput {
  title: string;
  video: string;
  description: string;
}

interface CallOptions {
  signal?: AbortSignal;
}

/** GET /helps/list: every entry. */
export const listHelps = (options: CallOptions = {}): Promise<Help[]> => api().get<Help[]>('/helps/list', options);

export const createHelp = (input: HelpInput): Promise<Help> => api().post<Help>('/helps', input);

export const updateHelp = (id: number, input: Partial<HelpInput>): Promise<Help> =>
  api().put<Help>(`/helps/${encodeURIComponent(String(id))}`, input);

export const deleteHelp = (id: number): Promise<{ message: string }> =>
  api().delete<{ message: string }>(`/helps/${encodeURIComponent(String(id))}`);

/** The video's thumbnail and its embedded player (the id is a YouTube id, D146). */
export const helpThumbnail = (video: string) => `https://i.ytimg.com/vi/${encodeURIComponent(video)}/hqdefault.jpg`;
export const helpPlayer = (video: string) =>
  `https://www.youtube-nocookie.com/embed/${encodeURIComponent(video)}?autoplay=1`;
