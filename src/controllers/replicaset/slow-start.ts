// Kubernetes' slowStartBatch: creates in batches of 1, 2, 4, ... so that a failing create (a quota,
// a webhook) costs a few calls rather than hundreds.

/** slowStartBatch: calls fn count times in batches of 1, 2, 4, ...; stops at the first batch with an error. */
export async function slowStartBatch(count: number, initialBatchSize: number, fn: () => Promise<void>): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const errors = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += batch - errors.length;
    if (errors.length > 0) return { successes, error: errors[0]!.reason };
    remaining -= batch;
  }
  return { successes };
}
