import type { CachedObject, Materialize, ObjectEvent, ObjectEventType, WindowOptions } from './types.js';

/**
 * One change of one object as the cache recorded it. `view` is the event every watcher that sees
 * the change unfiltered receives; `added` and `deleted()` are the shared views for watchers whose
 * filter the object starts or stops matching. All are built at most once per change.
 */
export class Change {
  /** The ADDED view of `object` (=== view for a create). Unset for a delete. */
  readonly added: ObjectEvent | undefined;
  readonly view: ObjectEvent;
  private deletedView: ObjectEvent | undefined;

  constructor(
    readonly type: ObjectEventType,
    readonly key: string,
    readonly revision: number,
    /** The new object; for a delete, the last state re-materialized at the delete's revision. */
    readonly object: CachedObject,
    /** The object before the change (MODIFIED, DELETED). */
    readonly prev: CachedObject | undefined,
    private readonly createRevision: number,
    /** Date.now() when the cache applied it. */
    readonly at: number,
    /** Approximate bytes the change holds. */
    readonly bytes: number,
  ) {
    this.view = { type, object, revision };
    this.added = type === 'ADDED' ? this.view : type === 'MODIFIED' ? { type: 'ADDED', object, revision } : undefined;
  }

  /**
   * The DELETED event for watchers whose filter matched the previous object but not the new one:
   * as Kubernetes, the previous object's content with the change's resourceVersion. Made from the
   * previous object's served bytes (they decode to the stored object but for the resourceVersion,
   * which materializing sets): the window holds no raw copy of every replaced version for this
   * rare case — at 10,000 pods updated a few times each, that copy was most of the window.
   */
  deleted(materialize: Materialize): ObjectEvent {
    if (this.type === 'DELETED') return this.view;
    if (this.deletedView) return this.deletedView;
    let object = this.prev!;
    try {
      object = materialize(this.key, this.prev!.json, this.revision, this.createRevision);
    } catch {
      // Keep the previous object as it was (older resourceVersion) rather than drop the event.
    }
    this.deletedView = { type: 'DELETED', object, revision: this.revision };
    return this.deletedView;
  }
}

/**
 * The bounded window of recent changes of one resource, in revision order. A change is evicted
 * when the window holds more than `maxEvents` changes or `maxBytes` bytes, or when it is older
 * than `minAgeMs` and more than `minEvents` changes are held. `start` is the oldest revision a
 * watch may resume from: every change after it is still held.
 */
export class EventWindow {
  /** Slots before `head` are cleared (undefined). */
  private events: Change[] = [];
  private head = 0;
  private heldBytes = 0;

  constructor(
    private readonly options: WindowOptions,
    /** The revision the resource's state was listed at: replay is complete after it. */
    private startRevision: number,
  ) {}

  get start(): number {
    return this.startRevision;
  }

  get size(): number {
    return this.events.length - this.head;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  push(change: Change, now: number): void {
    this.events.push(change);
    this.heldBytes += change.bytes;
    this.evict(now);
  }

  /** Drops what the bounds no longer allow; also run periodically so quiet resources shrink. */
  evict(now: number): void {
    const { maxEvents, maxBytes, minEvents, minAgeMs } = this.options;
    while (this.head < this.events.length) {
      const size = this.events.length - this.head;
      const oldest = this.events[this.head]!;
      const over = size > maxEvents || this.heldBytes > maxBytes || (size > minEvents && now - oldest.at > minAgeMs);
      if (!over) break;
      // Replays take copies of ranges, so the slot can be cleared for the collector at once.
      this.events[this.head] = undefined as unknown as Change;
      this.head++;
      this.heldBytes -= oldest.bytes;
      this.startRevision = oldest.revision;
    }
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  /** The held changes with a revision strictly greater than `revision` (a copy of the references). */
  since(revision: number): Change[] {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid]!.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo === this.events.length ? [] : this.events.slice(lo);
  }
}
