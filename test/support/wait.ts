// Waiting for a condition instead of sleeping a fixed time, so tests hold on a loaded machine.
import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `check` until it returns a truthy value (which is returned) or `timeoutMs` passes. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 20_000, pollMs = 20): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(pollMs);
  }
}
