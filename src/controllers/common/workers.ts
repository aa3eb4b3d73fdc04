// The worker loop every controller runs (client-go's `wait.Until(worker)` over a work queue).
import type { WorkQueue } from '../../client/types.js';

/**
 * Runs `workers` loops taking items from `queue` until it is shut down (which happens when `signal`
 * aborts). `process` decides itself whether to forget or requeue the item; it must not throw (a
 * throw is logged through `onError` and the item requeued rate-limited).
 */
export async function runWorkers<T>(
  queue: WorkQueue<T>,
  workers: number,
  signal: AbortSignal,
  process: (item: T) => Promise<void>,
  onError: (item: T, err: unknown) => void = () => {},
): Promise<void> {
  if (signal.aborted) {
    queue.shutDown();
    return;
  }
  signal.addEventListener('abort', () => queue.shutDown(), { once: true });
  const loop = async (): Promise<void> => {
    for (;;) {
      const item = await queue.get();
      if (item === undefined) return;
      try {
        await process(item);
      } catch (err) {
        onError(item, err);
        if (!signal.aborted) queue.addRateLimited(item);
      } finally {
        queue.done(item);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, workers) }, () => loop()));
}

/** Resolves after `ms`, or early when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Calls `fn` every `periodMs` (first call immediately) until `signal` aborts (wait.Until). */
export async function every(periodMs: number, signal: AbortSignal, fn: () => Promise<void> | void): Promise<void> {
  while (!signal.aborted) {
    try {
      await fn();
    } catch {
      // logged by fn's owner; the loop goes on as wait.Until does
    }
    await sleep(periodMs, signal);
  }
}
