import type { ErrorBody, FieldError } from '@contracts/errors';

/** The JSON body of every error answer of our API, and its field problems (functions/contracts/errors.ts). */
export type { ErrorBody, FieldError };

/** Network failures (no HTTP answer at all) carry status 0 and this code. */
export const NETWORK_ERROR = 'ERR_NETWORK';

const isErrorBody = (body: unknown): body is ErrorBody =>
  typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string';

/**
 * A failed call. `code` is the spec's catalogue code (`ERR_NO_PERMISSION`, ...) when the server sent one;
 * an answer that is not our JSON (a proxy's 502 page, say) has no code and a message naming the status.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly fields: FieldError[];
  readonly details: Record<string, unknown> | undefined;

  constructor(
    status: number,
    code: string | undefined,
    message: string,
    extra: { fields?: FieldError[]; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = extra.fields ?? [];
    this.details = extra.details;
  }

  /** Builds the error from an HTTP answer's status and (already parsed) body. */
  static fromResponse(status: number, body: unknown): ApiError {
    if (isErrorBody(body)) {
      return new ApiError(status, body.error, body.message ?? body.error, {
        ...(Array.isArray(body.fields) ? { fields: body.fields } : {}),
        ...(body.details ? { details: body.details } : {}),
      });
    }
    return new ApiError(status, undefined, `HTTP ${status}`);
  }

  static network(cause: unknown): ApiError {
    return new ApiError(0, NETWORK_ERROR, 'The server could not be reached', { cause });
  }
}
