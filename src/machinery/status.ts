// StatusError: the one error type kubelite's request paths throw. It carries what Kubernetes puts
// in a meta/v1 Status (code, reason, message, details) and renders that Status exactly as
// kube-apiserver writes it: compact JSON with a trailing newline, or — for the errors Kubernetes
// writes with `WriteRawJSON` (a negotiation failure it cannot negotiate a format for) — indented
// JSON without one.

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'Timeout'
  | 'TooManyRequests'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable'
  | '';

/** meta/v1 StatusCause. `reason` is the cause type (FieldValueInvalid, FieldValueRequired, ...). */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** meta/v1 StatusDetails (keys in Kubernetes' JSON order when built with `details()`). */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The meta/v1 Status object as Kubernetes writes it (keys in this order). */
export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

export interface StatusErrorOptions {
  /**
   * `details` of the Status. Kubernetes leaves it out for most errors (decoding errors included);
   * an empty object is written as `"details":{}`.
   */
  details?: StatusDetails;
  /**
   * Field-level facts behind the error, for programs (e.g. `{field: '.spec.replicas', message:
   * 'expected integer, got string'}`). Not part of the wire Status unless also put in `details`:
   * Kubernetes' decoding errors carry none, and the bodies stay byte-identical to its own.
   */
  causes?: StatusCause[];
  /**
   * Kubernetes writes this error with `WriteRawJSON` (indented JSON, no trailing newline, always
   * `application/json`) because the client's Accept header could not be satisfied even for the
   * error itself. Set by content negotiation.
   */
  rawJson?: boolean;
  cause?: unknown;
}

export class StatusError extends Error {
  readonly code: number;
  readonly reason: StatusReason;
  readonly details: StatusDetails | undefined;
  readonly causes: readonly StatusCause[];
  readonly rawJson: boolean;

  constructor(code: number, reason: StatusReason, message: string, options: StatusErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StatusError';
    this.code = code;
    this.reason = reason;
    this.details = options.details;
    this.causes = options.causes ?? options.details?.causes ?? [];
    this.rawJson = options.rawJson ?? false;
  }

  /** The meta/v1 Status object (keys in Kubernetes' order; empty fields left out as Go does). */
  toStatus(): StatusObject {
    // Kubernetes' key order: kind, apiVersion, metadata, status, message, reason, details, code.
    const out: Record<string, unknown> = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
    if (this.message !== '') out.message = this.message;
    if (this.reason !== '') out.reason = this.reason;
    if (this.details !== undefined) out.details = orderDetails(this.details);
    out.code = this.code;
    return out as unknown as StatusObject;
  }

  /**
   * The response body exactly as kube-apiserver writes it for a JSON client: compact with a
   * trailing newline, or indented without one when `rawJson` is set. Go's encoder escapes `<`,
   * `>` and `&`; so does this.
   */
  toJson(): string {
    const status = this.toStatus();
    return this.rawJson ? goEscape(JSON.stringify(status, null, 2)) : goEscape(JSON.stringify(status)) + '\n';
  }

  /** The Content-Type header of `toJson()`'s body. */
  get contentType(): string {
    return 'application/json';
  }

  static badRequest(message: string, options?: StatusErrorOptions): StatusError {
    return new StatusError(400, 'BadRequest', message, options);
  }

  static notAcceptable(message: string, options?: StatusErrorOptions): StatusError {
    return new StatusError(406, 'NotAcceptable', message, options);
  }

  static unsupportedMediaType(message: string, options?: StatusErrorOptions): StatusError {
    return new StatusError(415, 'UnsupportedMediaType', message, options);
  }

  static requestEntityTooLarge(limit: number, options?: StatusErrorOptions): StatusError {
    return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`, options);
  }

  static internal(message: string, options?: StatusErrorOptions): StatusError {
    return new StatusError(500, 'InternalError', message, options);
  }
}

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}

function orderDetails(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes && d.causes.length > 0) {
    out.causes = d.causes.map((c) => {
      const o: StatusCause = {};
      if (c.reason) o.reason = c.reason;
      if (c.message) o.message = c.message;
      if (c.field) o.field = c.field;
      return o;
    });
  }
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

/**
 * Go's encoding/json escapes `<`, `>`, `&`, U+2028 and U+2029 (and writes \b, \f as \u0008,
 * \u000c). Applied to the output of JSON.stringify it gives Go's bytes. These characters can only
 * occur inside JSON strings, so a textual replacement is exact. (indexOf is a vectorized scan:
 * much cheaper than a regular expression when, as usual, there is nothing to replace.)
 */
export function goEscape(json: string): string {
  // replaceAll with a string pattern is several times faster than a regular expression.
  if (json.indexOf('<') !== -1) json = json.replaceAll('<', '\\u003c');
  if (json.indexOf('>') !== -1) json = json.replaceAll('>', '\\u003e');
  if (json.indexOf('&') !== -1) json = json.replaceAll('&', '\\u0026');
  if (json.indexOf('\u2028') !== -1) json = json.replaceAll('\u2028', '\\u2028');
  if (json.indexOf('\u2029') !== -1) json = json.replaceAll('\u2029', '\\u2029');
  if (json.indexOf('\\b') !== -1 || json.indexOf('\\f') !== -1) json = json.replace(/\\(\\|b|f)/g, goControlEscape);
  return json;
}

function goControlEscape(m: string, c: string): string {
  return c === 'b' ? '\\u0008' : c === 'f' ? '\\u000c' : m;
}
