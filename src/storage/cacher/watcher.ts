import type { Change } from './window.js';
import {
  CacheError,
  jsonLength,
  type BookmarkEvent,
  type CachedObject,
  type CacheWatch,
  type ErrorEvent,
  type Materialize,
  type ObjectEvent,
  type ObjectFilter,
  type WatchCacheEvent,
} from './types.js';

/** What a watcher needs from the resource cache that owns it. */
export interface WatcherHost {
  readonly materialize: Materialize;
  /** The cache revision now (for bookmarks and error events). */
  revisionNow(): number;
  /** The watcher ended: unregister it and release its timers. */
  detach(watcher: CacheWatcher): void;
  /** Counts an event queued to a watcher (metrics). */
  countSent(n: number): void;
  /** Counts a watcher cut off for falling behind (metrics). */
  countTooSlow(): void;
}

export interface WatcherLimits {
  maxQueueEvents: number;
  maxQueueBytes: number;
}

const DEFAULT_BATCH = 1024;

/**
 * One watch on a resource cache. Events reach the consumer in this order: the initial events (a
 * snapshot of ADDED views, filtered as they are read), the initial-events-end bookmark, the replay
 * of window changes after the start revision (filtered as read), then live events, which the
 * resource pushes (already filtered) as it applies changes. Only live events count against the
 * queue limits: a snapshot or replay is a copy of references, not a backlog.
 */
export class CacheWatcher implements CacheWatch {
  /** The key this watcher is registered under in its host (prefix or exact key). */
  readonly prefix: string;
  readonly exactKey: boolean;
  readonly filter: ObjectFilter | undefined;
  readonly indexValue: string | undefined;

  private initial: ObjectEvent[] | undefined;
  private initialAt = 0;
  private endBookmark: BookmarkEvent | undefined;
  private replay: Change[] | undefined;
  private replayAt = 0;
  private live: WatchCacheEvent[] = [];
  private liveHead = 0;
  private liveBytes = 0;
  private final: ErrorEvent | undefined;
  private ended = false;
  private waiter: (() => void) | undefined;
  private wakeScheduled = false;
  /** Cleanup for whatever the watcher waits on or runs (start wait, bookmark timer). */
  private cleanups: Array<() => void> = [];
  private startWaits: Array<() => void> = [];
  /** True once registered for live events. */
  started = false;

  constructor(
    private readonly host: WatcherHost,
    target: { prefix: string; exactKey: boolean },
    filter: ObjectFilter | undefined,
    indexValue: string | undefined,
    private readonly limits: WatcherLimits,
  ) {
    this.prefix = target.prefix;
    this.exactKey = target.exactKey;
    this.filter = filter;
    this.indexValue = indexValue;
  }

  get done(): boolean {
    return this.ended;
  }

  get queued(): number {
    return this.live.length - this.liveHead;
  }

  /** Whether the watcher wants keys like this one (only replay and snapshot need to ask). */
  wantsKey(key: string): boolean {
    return this.exactKey ? key === this.prefix : key.startsWith(this.prefix);
  }

  /** The event this watcher should see for a change, applying Kubernetes' filter transitions. */
  transform(change: Change): ObjectEvent | undefined {
    const f = this.filter;
    if (f === undefined) return change.view;
    const cur = change.type !== 'DELETED' && safeMatch(f, change.object);
    const old = change.prev !== undefined && safeMatch(f, change.prev);
    if (cur) return old ? change.view : change.added;
    if (old) return change.deleted(this.host.materialize);
    return undefined;
  }

  // ---- set-up by the host, in the one synchronous step that registers the watcher ----

  setInitial(snapshot: ObjectEvent[], endBookmark: BookmarkEvent | undefined): void {
    this.initial = snapshot.length > 0 ? snapshot : undefined;
    this.endBookmark = endBookmark;
  }

  setReplay(changes: Change[]): void {
    this.replay = changes.length > 0 ? changes : undefined;
  }

  onEnd(cleanup: () => void): void {
    if (this.ended) cleanup();
    else this.cleanups.push(cleanup);
  }

  /** Runs `cleanup` when the watcher starts or ends, whichever comes first (start waits, timers). */
  onStartOrEnd(cleanup: () => void): void {
    if (this.ended || this.started) cleanup();
    else this.startWaits.push(cleanup);
  }

  markStarted(): void {
    this.started = true;
    this.runStartWaits();
    if (this.initial || this.endBookmark || this.replay) this.wake();
  }

  // ---- live side, called by the host while it applies a change ----

  offer(change: Change): void {
    const ev = this.transform(change);
    if (ev !== undefined) this.push(ev, jsonLength(ev.object));
  }

  pushBookmark(initialEventsEnd = false): void {
    if (this.ended) return;
    const ev: BookmarkEvent = { type: 'BOOKMARK', revision: this.host.revisionNow(), initialEventsEnd };
    // A consumer that is not reading does not need a pile of bookmarks: the newest one suffices.
    const last = this.live.length > this.liveHead ? this.live[this.live.length - 1] : undefined;
    if (last !== undefined && last.type === 'BOOKMARK' && !last.initialEventsEnd) {
      this.live[this.live.length - 1] = ev;
      this.wake();
      return;
    }
    this.push(ev, 0);
  }

  private push(ev: WatchCacheEvent, bytes: number): void {
    if (this.ended) return;
    this.live.push(ev);
    this.liveBytes += bytes;
    this.host.countSent(1);
    if (this.live.length - this.liveHead > this.limits.maxQueueEvents || this.liveBytes > this.limits.maxQueueBytes) {
      this.host.countTooSlow();
      this.terminate(
        new CacheError(
          'TooSlow',
          `watcher fell behind: ${this.live.length - this.liveHead} events (${this.liveBytes} bytes) not read ` +
            `(limits ${this.limits.maxQueueEvents} events, ${this.limits.maxQueueBytes} bytes)`,
        ),
      );
      return;
    }
    this.wakeSoon();
  }

  // ---- consumer side ----

  bookmark(): void {
    if (this.started) this.pushBookmark(false);
  }

  /**
   * Ends the watch with `error` as the last event, dropping what was queued (the consumer has a
   * consistent prefix of the stream, so it can resume from the last revision it saw).
   */
  terminate(error: CacheError): void {
    if (this.ended) return;
    this.final = { type: 'ERROR', error, revision: this.host.revisionNow() };
    this.end();
  }

  close(): void {
    if (this.ended) {
      this.final = undefined;
      return;
    }
    this.end();
  }

  private end(): void {
    this.ended = true;
    this.initial = undefined;
    this.endBookmark = undefined;
    this.replay = undefined;
    this.live = [];
    this.liveHead = 0;
    this.liveBytes = 0;
    this.runStartWaits();
    const cleanups = this.cleanups;
    this.cleanups = [];
    for (const c of cleanups) c();
    this.host.detach(this);
    this.wake();
  }

  private runStartWaits(): void {
    const waits = this.startWaits;
    this.startWaits = [];
    for (const c of waits) c();
  }

  private wake(): void {
    const w = this.waiter;
    if (w === undefined) return;
    this.waiter = undefined;
    w();
  }

  /**
   * Wakes the consumer once the loop has run what is ready now, not at once: the writes the API
   * server completes in one turn of its loop then reach each watcher as one batch, one socket
   * write per watcher instead of one per event. In a 1,000-pod run on `up` the pod watchers' writes
   * went from ~7,800 (7,187 of them a single event) to ~680; the watch writes' CPU from 1.58 to
   * 1.26 s per 2,000 pods. The delay is one turn of the loop.
   */
  private wakeSoon(): void {
    if (this.waiter === undefined || this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      this.wake();
    });
  }

  async nextBatch(max = DEFAULT_BATCH): Promise<WatchCacheEvent[]> {
    for (;;) {
      const out = this.take(max);
      if (out.length > 0 || (this.ended && this.final === undefined)) return out;
      if (this.waiter !== undefined) throw new Error('a CacheWatch supports one reader at a time');
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  private take(max: number): WatchCacheEvent[] {
    const out: WatchCacheEvent[] = [];
    if (this.ended) {
      if (this.final !== undefined) {
        out.push(this.final);
        this.final = undefined;
      }
      return out;
    }
    if (!this.started) return out;
    if (this.initial !== undefined) {
      const snap = this.initial;
      let i = this.initialAt;
      const f = this.filter;
      for (; i < snap.length && out.length < max; i++) {
        const ev = snap[i]!;
        if (f === undefined || safeMatch(f, ev.object)) out.push(ev);
      }
      this.initialAt = i;
      if (i < snap.length) return out;
      this.initial = undefined;
    }
    if (this.endBookmark !== undefined) {
      if (out.length >= max) return out;
      out.push(this.endBookmark);
      this.endBookmark = undefined;
    }
    if (this.replay !== undefined) {
      const changes = this.replay;
      let i = this.replayAt;
      for (; i < changes.length && out.length < max; i++) {
        const change = changes[i]!;
        if (!this.wantsKey(change.key)) continue;
        const ev = this.transform(change);
        if (ev !== undefined) out.push(ev);
      }
      this.replayAt = i;
      if (i < changes.length) return out;
      this.replay = undefined;
    }
    while (this.liveHead < this.live.length && out.length < max) {
      const ev = this.live[this.liveHead]!;
      this.liveHead++;
      if (ev.type !== 'BOOKMARK' && ev.type !== 'ERROR') this.liveBytes -= jsonLength(ev.object);
      out.push(ev);
    }
    if (this.liveHead === this.live.length) {
      this.live = [];
      this.liveHead = 0;
    } else if (this.liveHead > 1024 && this.liveHead * 2 > this.live.length) {
      this.live = this.live.slice(this.liveHead);
      this.liveHead = 0;
    }
    return out;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchCacheEvent> {
    try {
      for (;;) {
        const batch = await this.nextBatch();
        if (batch.length === 0) return;
        for (const ev of batch) yield ev;
      }
    } finally {
      this.close();
    }
  }
}

/** A filter that throws does not match (Kubernetes' predicates fail closed the same way). */
function safeMatch(f: ObjectFilter, o: CachedObject): boolean {
  try {
    return f(o);
  } catch {
    return false;
  }
}
