import { config } from '../../shared/config';
import { DomainError } from '../../shared/errors';
import { logger } from '../../shared/logger';

/**
 * Audio transcription through OpenAI's `POST /audio/transcriptions` (model whisper-1) with the company's
 * own key (decisions D53). The key is sent only to OpenAI and never logged; OpenAI's error text is not
 * passed on either (it can echo the key's prefix), only its status.
 */
export const TRANSCRIPTION_MODEL = 'whisper-1';
const TIMEOUT_MS = 60_000;

export class TranscriptionFailed extends DomainError {
  constructor(reason: string) {
    super(502, 'ERR_TRANSCRIPTION_FAILED', `Audio transcription failed: ${reason}`);
  }
}

export const transcribeAudio = async (
  apiKey: string,
  audio: { bytes: Buffer; filename: string; contentType: string },
): Promise<string> => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(audio.bytes)], { type: audio.contentType }), audio.filename);
  form.append('model', TRANSCRIPTION_MODEL);
  form.append('response_format', 'json');
  let res: Response;
  try {
    res = await fetch(`${config().OPENAI_API_URL.replace(/\/$/, '')}/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    logger.warn('transcription request failed', { reason: err instanceof Error ? err.name : 'unknown' });
    throw new TranscriptionFailed('OpenAI could not be reached');
  }
  if (!res.ok) {
    logger.warn('transcription refused', { status: res.status });
    throw new TranscriptionFailed(res.status === 401 ? 'the OpenAI key was refused' : `OpenAI answered ${res.status}`);
  }
  const body = (await res.json().catch(() => null)) as { text?: unknown } | null;
  if (typeof body?.text !== 'string') throw new TranscriptionFailed('OpenAI answered without text');
  return body.text;
};
