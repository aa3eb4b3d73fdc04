// Errors raised while applying a patch: StatusErrors (machinery/status.ts) carrying the code,
// reason, message and details kube-apiserver returns for them.
//
// The four shapes kube-apiserver uses for patch failures:
// - 400 BadRequest with the error text as message (undecodable patch, malformed directives).
// - 413 RequestEntityTooLarge (too many JSON patch operations).
// - 422 Invalid with the fixed message "the server rejected our request due to an error in our
//   request" and `details: {}` (apiserver's NewGenericServerResponse drops the underlying error:
//   see testdata errors/json-patch-*.txt). The underlying error is kept in `underlying` for logs.
// - 500 with no reason and the raw error text as message (any error the patch code returns that
//   is not a Status, e.g. strategic merge patch's "map: ... does not contain declared merge key").
// (415 for an unsupported Content-Type comes from content-type.ts.)

import { StatusError, type StatusDetails, type StatusReason } from '../status.js';

export type PatchErrorReason = Extract<StatusReason, 'BadRequest' | 'RequestEntityTooLarge' | 'UnsupportedMediaType' | 'Invalid' | ''>;

export class PatchError extends StatusError {
  override readonly name = 'PatchError';
  constructor(
    code: 400 | 413 | 415 | 422 | 500,
    reason: PatchErrorReason,
    message: string,
    /** `details` as kube-apiserver sends it; undefined = no details field. */
    details?: StatusDetails,
    /** The underlying error text when `message` is a generic one (422), for logs. */
    readonly underlying?: string,
  ) {
    super(code, reason, message, details ? { details } : {});
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
