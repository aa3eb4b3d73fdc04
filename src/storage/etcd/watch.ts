// One storage watch on an etcd watch stream that survives connection loss.
//
// We do not use etcd3's Watcher: on reconnect it resumes from the response header's revision + 1,
// and etcd sets that header to its *current* revision both in the "created" response and in every
// catch-up batch (at most 1,000 revisions per batch), so a stream that breaks during catch-up
// silently skips the events between the last batch and the head. Here the resume point is the
// revision of the last event actually delivered, and nothing else. Progress notifications could
// move it forward on quiet prefixes, but etcd 3.4.23 can send them ahead of pending events
// (etcd-io/etcd#15220, fixed in later 3.4 releases), so we do not request them.
import type { Etcd3, IEvent, IWatchResponse } from 'etcd3';
import { StorageError, type WatchEvent } from '../types.js';
import { WatchQueue } from '../watch-queue.js';
import { bytesOf, prefixEnd, revision } from './codec.js';
import { classifyEtcdError } from './errors.js';

type WatchStream = Awaited<ReturnType<Etcd3['watchClient']['watch']>>;

export interface EtcdWatchHooks {
  /** etcd told us history is compacted up to at least this revision. */
  onCompacted(revision: number): void;
  /** The watch ended for good (closed, failed or overflowed). */
  onDone(watch: EtcdWatch): void;
  /** How long reconnecting may keep failing before the watch fails with Unavailable. */
  reconnectTimeoutMs: number;
}

const EMPTY = new Uint8Array(0);

export class EtcdWatch {
  readonly queue: WatchQueue;
  /** Every event with a revision up to this one has been pushed; the stream resumes after it. */
  private delivered: number;
  private stream: WatchStream | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private failingSince: number | undefined;
  private backoffMs = 0;
  /** Diagnostics for tests: reconnect attempts so far, and the member serving the stream. */
  reconnects = 0;
  memberId: string | undefined;

  constructor(
    private readonly client: Etcd3,
    private readonly prefix: Buffer,
    fromRevision: number,
    capacity: number | undefined,
    /** Whether events carry prevValue: asks etcd for prev_kv. */
    private readonly prevValues: boolean,
    private readonly hooks: EtcdWatchHooks,
  ) {
    this.delivered = fromRevision;
    this.queue = new WatchQueue(() => this.stop(), capacity);
  }

  start(): void {
    void this.connect();
  }

  /** The revision the watch has delivered up to (for diagnostics). */
  get deliveredRevision(): number {
    return this.delivered;
  }

  private async connect(): Promise<void> {
    this.retryTimer = undefined;
    if (this.stopped) return;
    let stream: WatchStream;
    try {
      stream = await this.client.watchClient.watch();
    } catch (err) {
      this.retry(err);
      return;
    }
    if (this.stopped) {
      release(stream);
      return;
    }
    this.stream = stream;
    stream.on('data', (res: IWatchResponse) => {
      if (this.stream === stream) this.onResponse(res);
    });
    stream.on('error', (err: Error) => this.lost(stream, err));
    stream.on('end', () => this.lost(stream, new Error('etcd closed the watch stream')));
    stream.write({
      create_request: {
        key: this.prefix,
        range_end: prefixEnd(this.prefix),
        start_revision: String(this.delivered + 1),
        prev_kv: this.prevValues,
      },
    });
  }

  private onResponse(res: IWatchResponse): void {
    if (res.created) {
      this.failingSince = undefined;
      this.backoffMs = 0;
      this.memberId = res.header?.member_id;
    }
    if (res.canceled) {
      const compactedAt = revision(res.compact_revision);
      if (compactedAt > 0) {
        this.hooks.onCompacted(compactedAt);
        this.fail(
          new StorageError('Compacted', `watch from revision ${this.delivered + 1}: etcd history is compacted up to revision ${compactedAt}`, compactedAt),
        );
      } else {
        this.fail(new StorageError('Unavailable', `etcd canceled the watch: ${res.cancel_reason || 'no reason given'}`));
      }
      return;
    }
    // etcd never splits one revision across responses, so the resume point may advance to the
    // last revision in this response once all of its events are pushed.
    const floor = this.delivered;
    let last = floor;
    for (const ev of res.events) {
      const rev = revision(ev.kv.mod_revision);
      // A resumed stream can repeat what was already delivered only if etcd misbehaves; skip it.
      if (rev <= floor) continue;
      const event = toEvent(ev, rev, this.prevValues);
      if (!event) {
        // etcd sends an update or delete without its previous value only when the revision
        // before it is already compacted: the watch can no longer be complete.
        this.hooks.onCompacted(rev);
        this.fail(new StorageError('Compacted', `watch at revision ${rev}: the previous value is compacted away`, rev));
        return;
      }
      this.queue.push(event);
      if (!this.queue.active) return;
      last = rev;
    }
    this.delivered = last;
  }

  private lost(stream: WatchStream, err: unknown): void {
    if (this.stream !== stream) return;
    this.stream = undefined;
    release(stream);
    this.retry(err);
  }

  private retry(err: unknown): void {
    if (this.stopped) return;
    const { error } = classifyEtcdError(err);
    if (error.code === 'Closed') {
      this.fail(error);
      return;
    }
    const now = Date.now();
    this.failingSince ??= now;
    if (now - this.failingSince > this.hooks.reconnectTimeoutMs) {
      this.fail(new StorageError('Unavailable', `etcd watch could not be re-established for ${this.hooks.reconnectTimeoutMs} ms: ${error.message}`));
      return;
    }
    this.reconnects++;
    this.backoffMs = Math.min(Math.max(this.backoffMs * 2, 25), 1000);
    this.retryTimer = setTimeout(() => void this.connect(), this.backoffMs * (0.5 + Math.random()));
  }

  /** Ends the watch with `err` after the events already queued. */
  fail(err: StorageError): void {
    this.queue.fail(err);
    this.stop();
  }

  /** Called when the queue closes, fails or overflows: release the stream, never reconnect. */
  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const stream = this.stream;
    this.stream = undefined;
    if (stream) release(stream);
    this.hooks.onDone(this);
  }
}

/**
 * Cancels a stream without etcd3 counting it as a failure of the member: its pool marks a host
 * failed (and after three, avoids it for seconds) on any error of a still-writable stream, and
 * cancelling raises CANCELLED. Half-closing first makes the stream unwritable.
 */
function release(stream: WatchStream): void {
  stream.end();
  stream.cancel();
}

/**
 * The storage event for an etcd event, or undefined when a previous value it must carry
 * (`prevValues`) is missing.
 */
function toEvent(ev: IEvent, rev: number, prevValues: boolean): WatchEvent | undefined {
  const isDelete = String(ev.type).toUpperCase() === 'DELETE';
  const prev = ev.prev_kv ?? undefined;
  if (isDelete) {
    if (!prev && prevValues) return undefined;
    return {
      type: 'delete',
      key: ev.kv.key.toString('utf8'),
      value: EMPTY,
      prevValue: prev ? bytesOf(prev.value) : undefined,
      modRevision: rev,
      // etcd's delete event names only the key: the create revision comes with prev_kv.
      createRevision: prev ? revision(prev.create_revision) : 0,
    };
  }
  const createRevision = revision(ev.kv.create_revision);
  if (createRevision !== rev && !prev && prevValues) return undefined;
  return {
    type: 'put',
    key: ev.kv.key.toString('utf8'),
    value: bytesOf(ev.kv.value),
    prevValue: createRevision === rev || !prev ? undefined : bytesOf(prev.value),
    modRevision: rev,
    createRevision,
  };
}
