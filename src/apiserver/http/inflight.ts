// kube-apiserver's limits on requests being served at once (--max-requests-inflight 400,
// --max-mutating-requests-inflight 200). Long-running requests (watches, proxy, exec, attach, log,
// portforward) are not counted, and system:masters is never refused ("a super-admin or a loopback
// connection"). 0 = no limit. Two ways, as kube-apiserver's --enable-priority-and-fairness:
// - false: the max-in-flight filter. Two pools, read-only (get, list) and mutating (every other
//   verb); a request that finds its pool full is answered 429 with `Retry-After: 1` at once.
// - true (kube-apiserver's default): API Priority and Fairness' queuing. The server's concurrency
//   limit is the sum of the two flags; a request over it waits in a FIFO queue for a place and is
//   refused 429 only when the queue is full or it waited 15 s (a quarter of the request timeout,
//   APF's wait limit). Simplified: one queue for every request, not a priority level per
//   FlowSchema with fair queuing among flows; system:masters (the exempt level) never waits.
import type { ServerResponse } from 'node:http';
import type { RequestInfo } from '../request/request-info.js';
import { SYSTEM_MASTERS, type UserInfo } from '../auth/types.js';

const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
const NON_MUTATING_VERBS = new Set(['get', 'list', 'watch']);

export interface InflightLimits {
  /** --max-requests-inflight: read-only requests at once (0: unlimited). */
  readOnly: number;
  /** --max-mutating-requests-inflight: mutating requests at once (0: unlimited). */
  mutating: number;
  /** --enable-priority-and-fairness: over the limit, wait in a queue rather than be refused (default false here; the server's default is true). */
  priorityAndFairness?: boolean;
}

export const DEFAULT_INFLIGHT_LIMITS: InflightLimits = Object.freeze({ readOnly: 400, mutating: 200, priorityAndFairness: true });

/** APF's bound on the requests queued: its default priority levels' 64 queues of 50. */
export const MAX_QUEUED = 64 * 50;
/** How long a request may wait for a place: a quarter of the 60 s request timeout, as APF's wait limit. */
export const QUEUE_WAIT_LIMIT_MS = 15_000;

interface Waiter {
  admit: () => void;
  refuse: () => void;
}

/** Kubernetes' BasicLongRunningRequestCheck. */
export function isLongRunning(info: RequestInfo): boolean {
  return LONG_RUNNING_VERBS.has(info.verb) || (info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource));
}

export class InflightLimiter {
  private readOnly = 0;
  private mutating = 0;
  /** With priority and fairness: requests served at once (every verb), and those waiting for a place. */
  private served = 0;
  private readonly waiting: Waiter[] = [];
  // Bound once: one listener function per pool, not a closure per request.
  private readonly releaseReadOnly = () => void this.readOnly--;
  private readonly releaseMutating = () => void this.mutating--;
  /** A place freed: the first waiter takes it, or it is free. */
  private readonly releaseServed = () => {
    const next = this.waiting.shift();
    if (next) next.admit();
    else this.served--;
  };

  constructor(private readonly limits: InflightLimits) {}

  /** In flight now (for tests and metrics). */
  get counts(): { readOnly: number; mutating: number } {
    return { readOnly: this.readOnly, mutating: this.mutating };
  }

  /** With priority and fairness: requests being served, and waiting for a place. */
  get queue(): { served: number; waiting: number } {
    return { served: this.served, waiting: this.waiting.length };
  }

  /**
   * Admits a request or answers it 429 (false); with priority and fairness, a request over the
   * limit is admitted once a place frees (the promise). An admitted request holds its place until
   * its response closes (finished or aborted).
   */
  admit(info: RequestInfo, user: UserInfo, res: ServerResponse): boolean | Promise<boolean> {
    if (isLongRunning(info)) return true;
    if (this.limits.priorityAndFairness) return this.admitQueued(user, res);
    const mutating = !NON_MUTATING_VERBS.has(info.verb);
    const limit = mutating ? this.limits.mutating : this.limits.readOnly;
    if (limit <= 0) return true;
    if ((mutating ? this.mutating : this.readOnly) >= limit) {
      if (user.groups.includes(SYSTEM_MASTERS)) return true;
      tooManyRequests(res);
      return false;
    }
    if (mutating) this.mutating++;
    else this.readOnly++;
    res.once('close', mutating ? this.releaseMutating : this.releaseReadOnly);
    return true;
  }

  private admitQueued(user: UserInfo, res: ServerResponse): boolean | Promise<boolean> {
    const limit = this.limits.readOnly + this.limits.mutating;
    if (limit <= 0 || this.limits.readOnly <= 0 || this.limits.mutating <= 0 || user.groups.includes(SYSTEM_MASTERS)) return true;
    if (this.served < limit) {
      this.served++;
      res.once('close', this.releaseServed);
      return true;
    }
    if (this.waiting.length >= MAX_QUEUED) {
      tooManyRequests(res);
      return false;
    }
    return new Promise<boolean>((resolve) => {
      const leave = () => {
        clearTimeout(timer);
        res.off('close', gone);
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
      };
      const waiter: Waiter = {
        // the place is handed over by releaseServed (served stays counted)
        admit: () => {
          leave();
          res.once('close', this.releaseServed);
          resolve(true);
        },
        refuse: () => {
          leave();
          tooManyRequests(res);
          resolve(false);
        },
      };
      // a client that goes away stops waiting
      const gone = () => {
        leave();
        resolve(false);
      };
      const timer = setTimeout(waiter.refuse, QUEUE_WAIT_LIMIT_MS);
      res.once('close', gone);
      this.waiting.push(waiter);
    });
  }
}

/** What Kubernetes writes (Go's http.Error: plain text, not a Status). */
function tooManyRequests(res: ServerResponse): void {
  const body = 'Too many requests, please try again later.\n';
  res.setHeader('Retry-After', '1');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.writeHead(429);
  res.end(body);
}
