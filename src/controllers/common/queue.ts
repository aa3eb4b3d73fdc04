// A controller's work loop: a de-duplicating queue with per-item exponential back-off (client-go's
// workqueue semantics: an item being processed that is added again is queued once it is done)
// and `workers` concurrent workers calling `sync(key)` until the signal aborts.
import type { WorkQueue } from '../../client/types.js';

export class SimpleWorkQueue implements WorkQueue<string> {
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters: ((v: string | undefined) => void)[] = [];
  private shuttingDown = false;

  constructor(
    private readonly baseDelayMs = 5,
    private readonly maxDelayMs = 1000_000,
  ) {}

  add(item: string): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    const w = this.waiters.shift();
    if (w) {
      this.dirty.delete(item);
      this.processing.add(item);
      w(item);
    } else this.queue.push(item);
  }
  addRateLimited(item: string): void {
    const n = this.failures.get(item) ?? 0;
    this.failures.set(item, n + 1);
    this.addAfter(item, Math.min(this.baseDelayMs * 2 ** n, this.maxDelayMs));
  }
  addAfter(item: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) return this.add(item);
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.add(item);
    }, delayMs);
    t.unref?.();
    this.timers.add(t);
  }
  forget(item: string): void {
    this.failures.delete(item);
  }
  numRequeues(item: string): number {
    return this.failures.get(item) ?? 0;
  }
  get(): Promise<string | undefined> {
    const item = this.queue.shift();
    if (item !== undefined) {
      this.dirty.delete(item);
      this.processing.add(item);
      return Promise.resolve(item);
    }
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  done(item: string): void {
    this.processing.delete(item);
    if (this.dirty.has(item)) {
      this.dirty.delete(item);
      this.add(item);
    }
  }
  shutDown(): void {
    this.shuttingDown = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const w of this.waiters.splice(0)) w(undefined);
  }
  len(): number {
    return this.queue.length;
  }
}

/** Runs `workers` workers over `queue` until `signal` aborts; failed syncs are retried with back-off. */
export async function runWorkers(
  queue: WorkQueue<string>,
  workers: number,
  signal: AbortSignal,
  sync: (key: string) => Promise<void>,
  onError: (key: string, err: unknown) => void,
  maxRetries = 15,
): Promise<void> {
  const stop = (): void => queue.shutDown();
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  const worker = async (): Promise<void> => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        await sync(key);
        queue.forget(key);
      } catch (err) {
        onError(key, err);
        if (queue.numRequeues(key) < maxRetries) queue.addRateLimited(key);
        else queue.forget(key);
      } finally {
        queue.done(key);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, workers) }, worker));
}
