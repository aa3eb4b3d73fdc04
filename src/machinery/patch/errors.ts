// Errors raised while applying a patch, shaped like the metav1.Status kube-apiserver returns for
// them (code, reason, message, details). src/machinery/status.ts (the codec engineers' StatusError)
// did not exist when this was written; `toStatus()` gives the wire object so the API server can
// return it as is, or map a PatchError onto its own StatusError class.
//
// The four shapes kube-apiserver uses for patch failures:
// - 400 BadRequest with the error text as message (undecodable patch, malformed directives).
// - 413 RequestEntityTooLarge (too many JSON patch operations).
// - 422 Invalid with the fixed message "the server rejected our request due to an error in our
//   request" and `details: {}` (apiserver's NewGenericServerResponse drops the underlying error:
//   see testdata errors/json-patch-*.txt). The underlying error is kept in `underlying` for logs.
// - 500 with no reason and the raw error text as message (any error the patch code returns that
//   is not a Status, e.g. strategic merge patch's "map: ... does not contain declared merge key").

export type PatchErrorReason = 'BadRequest' | 'RequestEntityTooLarge' | 'UnsupportedMediaType' | 'Invalid' | 'InternalError' | '';

export interface PatchStatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: Array<{ reason?: string; message?: string; field?: string }>;
}

export class PatchError extends Error {
  override readonly name = 'PatchError';
  constructor(
    readonly code: 400 | 413 | 415 | 422 | 500,
    /** metav1 StatusReason; '' = StatusReasonUnknown (omitted on the wire). */
    readonly reason: PatchErrorReason,
    message: string,
    /** `details` as kube-apiserver sends it; undefined = no details field. */
    readonly details?: PatchStatusDetails,
    /** The underlying error text when `message` is a generic one (422), for logs. */
    readonly underlying?: string,
  ) {
    super(message);
  }

  /** The metav1.Status body kube-apiserver returns for this error (JSON key order as Go writes it). */
  toStatus(): Record<string, unknown> {
    const status: Record<string, unknown> = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
    };
    if (this.reason) status.reason = this.reason;
    if (this.details) status.details = this.details;
    status.code = this.code;
    return status;
  }
}

/** apierrors.NewBadRequest(message). */
export function badRequest(message: string): PatchError {
  return new PatchError(400, 'BadRequest', message);
}

/** apierrors.NewGenericServerResponse(422, ...): the message of `cause` is not sent (kept in `underlying`). */
export function genericInvalid(cause: string): PatchError {
  return new PatchError(422, 'Invalid', 'the server rejected our request due to an error in our request', {}, cause);
}

/** apierrors.NewRequestEntityTooLargeError(message). */
export function entityTooLarge(message: string): PatchError {
  return new PatchError(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

/** A plain Go error that reaches the API server's error writer: 500, no reason, raw message. */
export function unknownError(message: string): PatchError {
  return new PatchError(500, '', message);
}
