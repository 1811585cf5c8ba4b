/**
 * Domain errors. Services and repositories throw these; the HTTP error middleware
 * (functions/http/middleware/error-mapper.ts) is the one place that turns them into responses.
 * Codes are the spec's catalogue codes (ERR_*) where one exists.
 */

export interface FieldError {
  /** Dotted path of the offending field, e.g. `body.email` or `query.pageNumber`. */
  field: string;
  reason: string;
}

export class DomainError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields?: FieldError[];
  /** Extra JSON the caller may need (e.g. ERR_OTHER_OPEN_TICKET carries the other ticket). */
  readonly details?: Record<string, unknown>;
  /** Extra response headers (e.g. Retry-After, Allow). */
  readonly headers?: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    extra: { fields?: FieldError[]; details?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    if (extra.fields) this.fields = extra.fields;
    if (extra.details) this.details = extra.details;
    if (extra.headers) this.headers = extra.headers;
  }
}

export class BadRequest extends DomainError {
  constructor(code = 'ERR_VALIDATION', message = 'Invalid request', fields?: FieldError[]) {
    super(400, code, message, fields ? { fields } : {});
  }
}

export class ValidationError extends BadRequest {
  constructor(fields: FieldError[], message = 'Invalid request') {
    super('ERR_VALIDATION', message, fields);
  }
}

export class Unauthorized extends DomainError {
  constructor(code = 'ERR_SESSION_EXPIRED', message = 'Authentication required') {
    super(401, code, message);
  }
}

export class Forbidden extends DomainError {
  constructor(code = 'ERR_NO_PERMISSION', message = 'No permission', details?: Record<string, unknown>) {
    super(403, code, message, details ? { details } : {});
  }
}

export class NotFound extends DomainError {
  constructor(code = 'ERR_NOT_FOUND', message = 'Not found') {
    super(404, code, message);
  }
}

export class MethodNotAllowed extends DomainError {
  constructor(allowed: string[]) {
    super(405, 'ERR_METHOD_NOT_ALLOWED', 'Method not allowed', { headers: { Allow: allowed.join(', ') } });
  }
}

export class Conflict extends DomainError {
  constructor(code = 'ERR_CONFLICT', message = 'Conflict', details?: Record<string, unknown>) {
    super(409, code, message, details ? { details } : {});
  }
}

export class PayloadTooLarge extends DomainError {
  constructor(limitBytes: number) {
    super(413, 'ERR_PAYLOAD_TOO_LARGE', `Request body exceeds ${limitBytes} bytes`);
  }
}

export class TooManyRequests extends DomainError {
  constructor(
    retryAfterSeconds: number,
    code = 'ERR_TOO_MANY_REQUESTS',
    message = 'Too many requests',
    details: Record<string, unknown> = {},
  ) {
    super(429, code, message, {
      details: { ...details, retryAfter: retryAfterSeconds },
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

/** A dependency (DynamoDB, SQS, ...) is throttling or unavailable: the caller may retry. */
export class ServiceUnavailable extends DomainError {
  constructor(retryAfterSeconds = 1) {
    super(503, 'ERR_SERVICE_UNAVAILABLE', 'Service temporarily unavailable, try again', {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}
