// What a remote command leaves on its error stream (kubelet remotecommand ServeExec): protocol v4
// and later carry a JSON metav1.Status — Success, NonZeroExitCode with the code as an ExitCode
// cause, or an InternalError — and older protocols only the text of a failure.
import type { StatusDetails } from '../status.js';

/** How a command ended: its exit code, or the reason it could not run. */
export type CommandOutcome = number | Error;

/** A meta/v1 Status as Go's json.Marshal writes it without TypeMeta (the kubelet's shape). */
export interface ExecStatus {
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

export const NON_ZERO_EXIT_CODE_REASON = 'NonZeroExitCode';
export const EXIT_CODE_CAUSE_TYPE = 'ExitCode';

export function execStatus(outcome: CommandOutcome): ExecStatus {
  if (outcome === 0) return { metadata: {}, status: 'Success' };
  if (typeof outcome === 'number') {
    return {
      metadata: {},
      status: 'Failure',
      message: `command terminated with non-zero exit code: exit status ${outcome}`,
      reason: NON_ZERO_EXIT_CODE_REASON,
      details: { causes: [{ reason: EXIT_CODE_CAUSE_TYPE, message: String(outcome) }] },
    };
  }
  const message = `error executing command in container: ${outcome.message}`;
  return { metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 };
}

/** The bytes of the error stream for a protocol version; empty when there is nothing to say. */
export function errorStreamPayload(outcome: CommandOutcome, jsonStatus: boolean): Buffer {
  const status = execStatus(outcome);
  if (jsonStatus) return Buffer.from(JSON.stringify(status));
  return status.status === 'Success' ? Buffer.alloc(0) : Buffer.from(status.message ?? '');
}
