// kube-apiserver's max-in-flight filter (--max-requests-inflight 400, --max-mutating-requests-inflight
// 200): requests being served are counted in two pools, read-only (get, list) and mutating (every
// other verb); one that finds its pool full is answered 429 with `Retry-After: 1` at once, without
// queueing. Long-running requests (watches, proxy, exec, attach, log, portforward) are not counted,
// and system:masters is never refused ("a super-admin or a loopback connection"). 0 = no limit.
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
}

export const DEFAULT_INFLIGHT_LIMITS: InflightLimits = Object.freeze({ readOnly: 400, mutating: 200 });

/** Kubernetes' BasicLongRunningRequestCheck. */
export function isLongRunning(info: RequestInfo): boolean {
  return LONG_RUNNING_VERBS.has(info.verb) || (info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource));
}

export class InflightLimiter {
  private readOnly = 0;
  private mutating = 0;
  // Bound once: one listener function per pool, not a closure per request.
  private readonly releaseReadOnly = () => void this.readOnly--;
  private readonly releaseMutating = () => void this.mutating--;

  constructor(private readonly limits: InflightLimits) {}

  /** In flight now (for tests and metrics). */
  get counts(): { readOnly: number; mutating: number } {
    return { readOnly: this.readOnly, mutating: this.mutating };
  }

  /**
   * Admits a request or answers it 429 (returns false). An admitted request holds its place
   * until its response closes (finished or aborted).
   */
  admit(info: RequestInfo, user: UserInfo, res: ServerResponse): boolean {
    if (isLongRunning(info)) return true;
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
