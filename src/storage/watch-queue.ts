import { DEFAULT_WATCH_BUFFER, StorageError, type Watch, type WatchEvent } from './types.js';

/**
 * The consumer side of a storage watch, shared by every backend: a bounded FIFO of events that a
 * backend pushes into and a consumer drains with `for await`. Writers never wait on it; when the
 * consumer falls `capacity` events behind, the watch ends with WatchOverflow instead of growing
 * memory without bound.
 */
export class WatchQueue implements Watch {
  /** Queued events from `head` on; consumed slots are cleared (see the iterator). */
  private buffer: Array<WatchEvent | undefined> = [];
  private head = 0;
  private failure: StorageError | undefined;
  private closed = false;
  private waiter: (() => void) | undefined;

  constructor(
    private readonly onClose: () => void,
    private readonly capacity = DEFAULT_WATCH_BUFFER,
  ) {}

  /** Whether the queue still accepts events (not closed, not failed). */
  get active(): boolean {
    return !this.closed && this.failure === undefined;
  }

  push(event: WatchEvent): void {
    if (!this.active) return;
    if (this.buffer.length - this.head >= this.capacity) {
      this.fail(new StorageError('WatchOverflow', `watch consumer fell more than ${this.capacity} events behind`));
      return;
    }
    this.buffer.push(event);
    this.wake();
  }

  /** Ends the watch with an error the consumer sees after the events already queued. */
  fail(err: StorageError): void {
    if (!this.active) return;
    this.failure = err;
    this.onClose();
    this.wake();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer = [];
    this.head = 0;
    if (this.failure === undefined) this.onClose();
    this.wake();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    try {
      for (;;) {
        if (this.closed) return;
        if (this.head < this.buffer.length) {
          const event = this.buffer[this.head]!;
          // A consumed event is released at once: its value may be a slice of Node's buffer pool,
          // which a reference kept here would pin (8 KiB each) for as long as the slot lives.
          this.buffer[this.head++] = undefined;
          if (this.head === this.buffer.length) {
            this.buffer.length = 0;
            this.head = 0;
          } else if (this.head > 1024 && this.head * 2 > this.buffer.length) {
            // Compact the array once the consumed part dominates, so memory tracks the backlog.
            this.buffer = this.buffer.slice(this.head);
            this.head = 0;
          }
          yield event;
          continue;
        }
        if (this.failure) throw this.failure;
        await new Promise<void>((resolve) => (this.waiter = resolve));
      }
    } finally {
      // A consumer that breaks out of `for await` ends the watch.
      this.close();
    }
  }
}
