// The error a bad labelSelector / fieldSelector query parameter gets from kube-apiserver: 400
// BadRequest whose message is the parser's (or the field label conversion's) error text, no
// details (testdata errors/invalid-label-selector.txt, errors/invalid-field-selector.txt).
// Shaped like machinery/status.ts's StatusError (code/reason/message + toStatus()) so it can be
// returned as is or mapped onto it.

export class SelectorError extends Error {
  override readonly name = 'SelectorError';
  readonly code = 400;
  readonly reason = 'BadRequest';

  /** The metav1.Status body kube-apiserver returns for this error. */
  toStatus(): Record<string, unknown> {
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, reason: this.reason, code: this.code };
  }
}
