// Zones and the pace of NoExecute tainting (nodelifecycle's zone states and scheduler's
// RateLimitedTimedQueue): nodes are grouped by region and zone; a zone is Normal, PartialDisruption
// (at least 3 nodes not Ready and at least --unhealthy-zone-threshold of them) or FullDisruption (no
// node Ready). Each zone has a queue of nodes to taint drained through a token bucket (burst 1) at
// the zone's rate: --node-eviction-rate when Normal (or fully disrupted while another zone is not),
// --secondary-node-eviction-rate when partially disrupted in a cluster larger than
// --large-cluster-size-threshold, 0 in a smaller one.
import { labelsOf } from '../../api/meta/object.js';
import type { Node, NodeCondition } from '../../api/types.js';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** GetZoneKey: region and zone (the beta labels as fallback); '' when the node has neither. */
export function zoneKey(node: Node): string {
  const l = labelsOf(node);
  const region = l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/** ComputeZoneState: how many nodes are not Ready, and what that makes the zone. */
export function computeZoneState(conditions: readonly (NodeCondition | undefined)[], unhealthyZoneThreshold: number): [number, ZoneState] {
  let ready = 0;
  let notReady = 0;
  for (const c of conditions) {
    if (c?.status === 'True') ready++;
    else notReady++;
  }
  if (ready === 0 && notReady > 0) return [notReady, 'FullDisruption'];
  if (notReady > 2 && notReady / (notReady + ready) >= unhealthyZoneThreshold) return [notReady, 'PartialDisruption'];
  return [notReady, 'Normal'];
}

/** flowcontrol's token bucket: `qps` tokens a second, at most `burst`, starting full; qps 0 never accepts. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  tryAccept(now: number): boolean {
    if (this.qps <= 0) return false;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    // (a second's worth of tokens summed in steps is a hair under 1 in floating point)
    if (this.tokens < 1 - 1e-9) return false;
    this.tokens = Math.max(0, this.tokens - 1);
    return true;
  }
}

interface TimedValue {
  value: string;
  uid: string;
  addedAt: number;
  processAt: number;
}

/**
 * RateLimitedTimedQueue over a UniqueQueue: node names whose processing passes a token bucket. A
 * processed name stays known, so adding it again does nothing until it is removed (the node
 * recovered, or its taint must be redone).
 */
export class RateLimitedTimedQueue {
  private readonly items: TimedValue[] = [];
  private readonly known = new Set<string>();
  private limiter: TokenBucket;

  constructor(
    qps: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.limiter = new TokenBucket(qps, burst, now());
  }

  get qps(): number {
    return this.limiter.qps;
  }

  /** Adds the node unless it is queued or was processed since it was last removed; returns whether it was added. */
  add(value: string, uid: string): boolean {
    if (this.known.has(value)) return false;
    this.known.add(value);
    const now = this.now();
    this.items.push({ value, uid, addedAt: now, processAt: now });
    this.items.sort((a, b) => a.processAt - b.processAt);
    return true;
  }

  remove(value: string): boolean {
    this.known.delete(value);
    const i = this.items.findIndex((x) => x.value === value);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }

  has(value: string): boolean {
    return this.items.some((i) => i.value === value);
  }

  get length(): number {
    return this.items.length;
  }

  /** SwapLimiter: a new rate (a fresh bucket; 0 stops everything). */
  swapLimiter(qps: number): void {
    if (qps === this.limiter.qps) return;
    this.limiter = new TokenBucket(qps, this.burst, this.now());
  }

  /**
   * Try: processes queued nodes while the bucket has tokens and their time has come; `fn` answers
   * done, or not yet with a delay before the next attempt.
   */
  async try(fn: (value: TimedValue) => Promise<{ done: boolean; retryAfterMs?: number }>): Promise<void> {
    for (;;) {
      const head = this.items[0];
      if (!head) return;
      const now = this.now();
      if (!this.limiter.tryAccept(now)) return;
      if (now < head.processAt) return;
      const { done, retryAfterMs = 0 } = await fn(head);
      const i = this.items.indexOf(head);
      if (i >= 0) this.items.splice(i, 1);
      if (!done) {
        head.processAt = now + retryAfterMs + 1;
        this.items.push(head);
        this.items.sort((a, b) => a.processAt - b.processAt);
      }
    }
  }
}
