// The event recorder (client-go's record.EventBroadcaster + EventRecorder): core/v1 Events about
// objects, written in the background.
//
// - event() never blocks and never throws: events are queued (at most 1000 waiting; beyond that
//   they are dropped, as client-go's broadcaster does) and written one at a time; a failed write is
//   logged.
// - Aggregation: the same (object, type, reason, message, component) within 10 minutes patches
//   the existing Event's count and lastTimestamp instead of creating another.
// - Spam filter: at most 25 events per object at once, then one per 5 minutes (client-go's
//   EventSourceObjectSpamFilter).
import { realClock, type Clock } from './clock.js';
import { isNotFound } from './errors.js';
import { TokenBucket } from './rate-limit.js';
import type { Clientset, EventRecorder, KubeObject } from './types.js';

const events = { group: '', version: 'v1', resource: 'events' };
const AGGREGATE_WINDOW_MS = 10 * 60_000;
const MAX_QUEUED = 1000;

export interface EventBroadcasterOptions {
  clientset: Clientset;
  /** reportingInstance / source.host (the node or pod the component runs on). */
  host?: string;
  clock?: Clock;
  log?: (fields: Record<string, unknown>) => void;
}

interface Pending {
  component: string;
  obj: KubeObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  at: number;
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** The ObjectReference of an object (involvedObject). */
export function objectReference(obj: KubeObject): Record<string, string> {
  const m = (obj.metadata ?? {}) as Record<string, unknown>;
  const ref: Record<string, string> = {};
  if (typeof obj.kind === 'string' && obj.kind) ref.kind = obj.kind;
  if (typeof m.namespace === 'string' && m.namespace) ref.namespace = m.namespace;
  if (typeof m.name === 'string') ref.name = m.name;
  if (typeof m.uid === 'string' && m.uid) ref.uid = m.uid;
  if (typeof obj.apiVersion === 'string' && obj.apiVersion) ref.apiVersion = obj.apiVersion;
  if (typeof m.resourceVersion === 'string' && m.resourceVersion) ref.resourceVersion = m.resourceVersion;
  return ref;
}

export class EventBroadcaster {
  private readonly queue: Pending[] = [];
  private running = false;
  private idleWaiters: (() => void)[] = [];
  private readonly seen = new Map<string, { name: string; namespace: string; count: number; first: string; last: number }>();
  private readonly spam = new Map<string, TokenBucket>();
  private readonly clock: Clock;
  private readonly log: (fields: Record<string, unknown>) => void;
  /** Counters: written (created or patched), dropped (queue full or spam), failed writes. */
  readonly stats = { created: 0, patched: 0, dropped: 0, failed: 0 };
  private shutdown = false;
  private lastSuffix = 0n;

  constructor(private readonly opts: EventBroadcasterOptions) {
    this.clock = opts.clock ?? realClock;
    this.log = opts.log ?? (() => {});
  }

  newRecorder(component: string): EventRecorder {
    return { event: (obj, type, reason, message) => this.enqueue({ component, obj, type, reason, message, at: this.clock.now() }) };
  }

  /** Stops writing; queued events are dropped. */
  shutDown(): void {
    this.shutdown = true;
    this.queue.length = 0;
  }

  /** Resolves once every queued event has been written (or failed). */
  flush(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private enqueue(p: Pending): void {
    try {
      if (this.shutdown) return;
      const ref = objectReference(p.obj);
      const objKey = `${ref.uid ?? ''}/${ref.kind ?? ''}/${ref.namespace ?? ''}/${ref.name ?? ''}/${p.component}`;
      let bucket = this.spam.get(objKey);
      if (!bucket) this.spam.set(objKey, (bucket = new TokenBucket({ qps: 1 / 300, burst: 25, clock: this.clock })));
      if (!bucket.tryTake()) {
        this.stats.dropped++;
        return;
      }
      if (this.queue.length >= MAX_QUEUED) {
        this.stats.dropped++;
        return;
      }
      this.queue.push(p);
      if (!this.running) void this.drain();
    } catch (e) {
      this.log({ msg: 'event dropped', error: e instanceof Error ? e.message : String(e) });
    }
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const p = this.queue.shift()!;
      try {
        await this.write(p);
      } catch (e) {
        this.stats.failed++;
        this.log({ msg: 'failed to write event', reason: p.reason, object: objectReference(p.obj), error: e instanceof Error ? e.message : String(e) });
      }
    }
    this.running = false;
    const w = this.idleWaiters;
    this.idleWaiters = [];
    for (const f of w) f();
  }

  private async write(p: Pending): Promise<void> {
    const ref = objectReference(p.obj);
    const namespace = ref.namespace ?? 'default';
    const key = JSON.stringify([ref.uid, ref.kind, ref.namespace, ref.name, p.type, p.reason, p.message, p.component]);
    const client = this.opts.clientset.resource(events);
    const prev = this.seen.get(key);
    if (prev && p.at - prev.last < AGGREGATE_WINDOW_MS) {
      try {
        const count = prev.count + 1;
        await client.patch(prev.namespace, prev.name, 'merge', { count, lastTimestamp: rfc3339(p.at) });
        prev.count = count;
        prev.last = p.at;
        this.stats.patched++;
        return;
      } catch (e) {
        if (!isNotFound(e)) throw e;
        // The Event expired or was deleted: create a new one.
      }
    }
    // Prune expired aggregation entries now and then.
    if (this.seen.size > 4096) for (const [k, v] of this.seen) if (p.at - v.last >= AGGREGATE_WINDOW_MS) this.seen.delete(k);
    const ts = rfc3339(p.at);
    // Each name's suffix grows with the broadcaster's events (the kubelet's are its clock's
    // nanoseconds): a list, and kubectl describe's sort of same-second events, keeps their order.
    let suffix = BigInt(Math.floor(p.at)) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000));
    if (suffix <= this.lastSuffix) suffix = this.lastSuffix + 1n;
    this.lastSuffix = suffix;
    const name = `${ref.name ?? 'unknown'}.${suffix.toString(16)}`;
    const ev: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: ref,
      reason: p.reason,
      message: p.message,
      source: this.opts.host ? { component: p.component, host: this.opts.host } : { component: p.component },
      firstTimestamp: ts,
      lastTimestamp: ts,
      count: 1,
      type: p.type,
      reportingComponent: p.component,
      reportingInstance: this.opts.host ?? '',
    };
    await client.create(namespace, ev);
    this.stats.created++;
    this.seen.set(key, { name, namespace, count: 1, first: ts, last: p.at });
  }
}
