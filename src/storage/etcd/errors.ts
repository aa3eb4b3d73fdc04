// Turns what the etcd3 client and gRPC throw into StorageErrors, and says whether the request
// can have reached etcd: a write may be retried only when it certainly did not.
import { StorageError } from '../types.js';

/**
 * - `answered`: etcd answered (or refused before doing anything); the error is final.
 * - `not-sent`: the request certainly was not applied (no connection, no leader, rejected before
 *   proposing); safe to retry, even for writes.
 * - `unknown`: the request may or may not have been applied (connection lost mid-call, timeout);
 *   reads may retry, a write's outcome must be found out another way or reported as unknown.
 */
export type Delivery = 'answered' | 'not-sent' | 'unknown';

export interface ClassifiedError {
  error: StorageError;
  delivery: Delivery;
}

// gRPC status codes (numeric, as grpc-js reports them on raw stream errors).
const CANCELLED = 1;
const UNKNOWN = 2;
const DEADLINE_EXCEEDED = 4;
const RESOURCE_EXHAUSTED = 8;
const INTERNAL = 13;
const UNAVAILABLE = 14;

/** Messages meaning the request never got to be proposed: retrying cannot double-apply. */
const NOT_SENT = [
  'No connection established',
  'Failed to connect',
  'Stream refused by server',
  'Channel closed before call started',
  'circuit breaker is open',
  'etcdserver: no leader',
  'raft proposal dropped',
  'etcdserver: not capable',
  'etcdserver: too many requests',
  'etcdserver: unhealthy cluster',
];

export function classifyEtcdError(err: unknown): ClassifiedError {
  if (err instanceof StorageError) return { error: err, delivery: 'answered' };
  const e = (err ?? {}) as { message?: unknown; code?: unknown; isBrokenCircuitError?: unknown; constructor?: { name?: string } };
  const message = typeof e.message === 'string' ? e.message : String(err);
  const kind = e.constructor?.name ?? '';
  const code = typeof e.code === 'number' ? e.code : codeFromClass(kind);

  if (message.includes('required revision has been compacted')) {
    return answered('Compacted', `etcd: the requested revision has been compacted (${message})`);
  }
  if (message.includes('required revision is a future revision')) {
    return answered('FutureRevision', `etcd: the requested revision is newer than etcd's current revision (${message})`);
  }
  if (message.includes('request is too large') || /received message larger than max/i.test(message)) {
    return answered('ValueTooLarge', `etcd refused the request as too large; is etcd running with --max-request-bytes of at least 2 MiB? (${message})`);
  }
  if (message.includes('database space exceeded')) {
    return answered('Unavailable', `etcd is out of space (quota reached): compact and defragment etcd, or raise --quota-backend-bytes (${message})`);
  }
  if (kind === 'ClientClosedError') return answered('Closed', 'storage closed');
  if (e.isBrokenCircuitError === true || NOT_SENT.some((m) => message.includes(m))) {
    return { error: new StorageError('Unavailable', `etcd unavailable: ${message}`), delivery: 'not-sent' };
  }
  if (code === UNAVAILABLE || code === DEADLINE_EXCEEDED || code === CANCELLED || code === UNKNOWN || code === INTERNAL || code === RESOURCE_EXHAUSTED) {
    return { error: new StorageError('Unavailable', `etcd unavailable: ${message}`), delivery: 'unknown' };
  }
  if (message.includes('etcdserver:')) return answered('Unavailable', `etcd refused the request: ${message}`);
  // Anything else (a client bug, an unexpected status) is not worth retrying, but it is still an
  // etcd failure as far as the API layer is concerned.
  return { error: new StorageError('Unavailable', `etcd request failed: ${message}`), delivery: 'unknown' };
}

function answered(code: StorageError['code'], message: string): ClassifiedError {
  return { error: new StorageError(code, message), delivery: 'answered' };
}

/** The etcd3 client replaces gRPC errors by classes named after the status and drops `code`. */
function codeFromClass(name: string): number | undefined {
  switch (name) {
    case 'GRPCCancelledError':
      return CANCELLED;
    case 'GRPCUnknownError':
      return UNKNOWN;
    case 'GRPCDeadlineExceededError':
      return DEADLINE_EXCEEDED;
    case 'GRPCResourceExhastedError':
      return RESOURCE_EXHAUSTED;
    case 'GRPCInternalError':
      return INTERNAL;
    case 'GRPCUnavailableError':
      return UNAVAILABLE;
    default:
      return undefined;
  }
}
