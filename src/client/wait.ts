// Waiting and periodic loops that stop with an AbortSignal (apimachinery's wait package).

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

/** Resolves once `signal` aborts (a controller with nothing to do runs until it is stopped). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}
