// The fuzz targets (targets.ts) in the test suite: each kept failing input (test/vectors/fuzz/)
// replayed, then `testRuns` generated cases with a fixed seed. `npm run fuzz` runs the long version.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FUZZ_TARGETS } from './targets.js';
import { TEST_SEED, runTarget, vectorsOf } from './target.js';

for (const target of FUZZ_TARGETS) {
  describe(`fuzz: ${target.name}`, () => {
    it('keeps its property on every kept regression vector', async () => {
      await target.setup?.();
      try {
        for (const [file, input] of vectorsOf(target.name)) {
          await assert.doesNotReject(async () => target.check(input as never), `vector ${target.name}/${file}`);
        }
      } finally {
        await target.teardown?.();
      }
    });
    it(`keeps its property on ${target.testRuns} generated inputs`, async () => {
      const run = await runTarget(target, target.testRuns, TEST_SEED);
      assert.ok(!run.failed, `${target.name} failed (seed ${run.seed}) on ${JSON.stringify(run.counterexample)?.slice(0, 2000)}\n${run.error}`);
    });
  });
}
