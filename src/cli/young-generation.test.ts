import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { capYoungGeneration } from './young-generation.js';

const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;

test('the young generation stops growing at the cap under sustained allocation with survivors', async () => {
  const cap = 4 * 1024 * 1024;
  capYoungGeneration(cap);
  const live: unknown[] = [];
  for (let t = 0; t < 400; t++) {
    // Requests in flight: short-lived garbage, and some that survives a few collections.
    for (let i = 0; i < 2000; i++) {
      const o = { a: [i, { b: `x${i}`, c: [1, 2, 3] }], d: 'y'.repeat(20) };
      if (i % 4 === 0) live[(t * 500 + i / 4) % 20_000] = o;
    }
    await turn();
  }
  assert.ok(young() <= cap, `young generation ${young()} > ${cap}`);
});
