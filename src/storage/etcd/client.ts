// The etcd3 client as this backend configures it, and the one place that decides when a failed
// call is retried.
import { Etcd3, type IOptions } from 'etcd3';
import { setTimeout as sleep } from 'node:timers/promises';
import { classifyEtcdError, type ClassifiedError } from './errors.js';

type Policy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;

/**
 * etcd3's default global policy retries any "recoverable" error three times, writes included: a
 * put whose connection dropped after etcd applied it would be applied again. We retry ourselves,
 * knowing which calls are safe to repeat.
 */
const passThrough = {
  execute: async <T>(fn: (context: { signal: AbortSignal }) => PromiseLike<T> | T) => fn({ signal: new AbortController().signal }),
} as unknown as Policy;

export function createEtcdClient(endpoints: string[]): Etcd3 {
  return new Etcd3({
    hosts: endpoints,
    faultHandling: {
      global: passThrough,
      // With one endpoint a circuit breaker only delays recovery; with several, etcd3's default
      // breaker steers calls away from a dead member for a few seconds.
      ...(endpoints.length === 1 ? { host: () => passThrough } : {}),
    },
    grpcOptions: {
      // Lists and watch catch-up batches of 1.5 MiB objects exceed gRPC's 4 MiB default.
      'grpc.max_receive_message_length': -1,
      'grpc.max_send_message_length': -1,
      // Detects a member that vanished without closing the connection; etcd refuses pings more
      // often than every 5 s (--grpc-keepalive-min-time) and pings without active calls.
      'grpc.keepalive_time_ms': 20_000,
      'grpc.keepalive_timeout_ms': 10_000,
      'grpc.keepalive_permit_without_calls': 0,
      // A restarted member should be reconnected within seconds, not gRPC's 2-minute maximum.
      'grpc.max_reconnect_backoff_ms': 2_000,
      'grpc.initial_reconnect_backoff_ms': 100,
    },
  });
}

export interface RetryPolicy {
  /** How long one call, all retries included, may take before it fails with Unavailable. */
  budgetMs: number;
  /** Retry after an `unknown` delivery too (only for calls without side effects). */
  idempotent: boolean;
}

/** Per-attempt options: a deadline, so a call to a hung member cannot wait forever. */
export function deadline(ms: number): { deadline: Date } {
  return { deadline: new Date(Date.now() + ms) };
}

/**
 * Runs `attempt` until it succeeds, fails with an answered error, or the budget is spent.
 * Throws the ClassifiedError of the last attempt so the caller can tell an unknown outcome apart.
 */
export async function withRetry<T>(policy: RetryPolicy, attempt: (remainingMs: number) => Promise<T>): Promise<T> {
  const start = Date.now();
  let delay = 20;
  for (;;) {
    const remaining = policy.budgetMs - (Date.now() - start);
    try {
      return await attempt(Math.max(remaining, 1));
    } catch (err) {
      const c = classifyEtcdError(err);
      const retryable = c.delivery === 'not-sent' || (c.delivery === 'unknown' && policy.idempotent);
      if (!retryable || Date.now() - start + delay >= policy.budgetMs) throw new RetryFailed(c);
      await sleep(delay * (0.5 + Math.random()));
      delay = Math.min(delay * 2, 500);
    }
  }
}

/** Carries the classification of the last failed attempt out of `withRetry`. */
export class RetryFailed extends Error {
  constructor(readonly classified: ClassifiedError) {
    super(classified.error.message);
  }
}
