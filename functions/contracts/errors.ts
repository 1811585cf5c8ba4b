/**
 * The JSON body of every error answer of the API (core spec §8 error codes): built in one place on the
 * server (functions/http/middleware/error-mapper.ts) and read in one place in the browser
 * (frontend/src/api/api-error.ts).
 */
/** One field problem of a 400 answer: `{field: 'body.email', reason: '...'}`. */
export interface FieldError {
  /** Dotted path of the offending field, e.g. `body.email` or `query.pageNumber`. */
  field: string;
  reason: string;
}

export interface ErrorBody {
  /** The spec's catalogue code (`ERR_NO_PERMISSION`, ...). */
  error: string;
  message: string;
  fields?: FieldError[];
  /** Extra JSON the caller may need (e.g. ERR_OTHER_OPEN_TICKET carries the other ticket). */
  details?: Record<string, unknown>;
  /** A 500's request id, to find it in the logs. */
  requestId?: string;
}
