// An in-memory Watch: a queue of events read as an async iterable, ended by close().
import type { Watch, WatchEvent } from './types.js';

export class QueueWatch implements Watch {
  private readonly buffer: WatchEvent[] = [];
  private waiter: ((r: IteratorResult<WatchEvent>) => void) | undefined;
  private closed = false;

  constructor(private readonly onClose: () => void = () => {}) {}

  get isClosed(): boolean {
    return this.closed;
  }

  push(ev: WatchEvent): void {
    if (this.closed) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: ev, done: false });
    } else this.buffer.push(ev);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return {
      next: () => {
        const ev = this.buffer.shift();
        if (ev) return Promise.resolve({ value: ev, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiter = resolve));
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
