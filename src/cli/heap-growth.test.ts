import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const module = fileURLToPath(new URL('./heap-growth.js', import.meta.url));

/**
 * Peak used heap, in MB, of a process whose cache of 100,000 objects is replaced over and over
 * (replaced entries die old, in the old generation); with limitHeapGrowth(percent) first when given.
 */
function peakHeapMB(percent?: number, nodeArgs: string[] = []): number {
  const script = `
    const { getHeapStatistics } = require('node:v8');
    ${percent === undefined ? '' : `require(${JSON.stringify(module)}).limitHeapGrowth(${percent});`}
    const cache = new Array(100000);
    let peak = 0;
    for (let round = 0; round < 400; round++) {
      for (let i = 0; i < 2000; i++) {
        cache[(round * 2000 + i) % 100000] = { name: 'pod-' + round + '-' + i, spec: { containers: [{ image: 'x'.repeat(40 + (i % 7)) }] } };
      }
      peak = Math.max(peak, getHeapStatistics().used_heap_size);
    }
    process.stdout.write(String(peak / 2 ** 20));
  `;
  const r = spawnSync(process.execPath, [...nodeArgs, '--input-type=commonjs', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout);
}

test('limitHeapGrowth lowers the peak heap of a cache with churn, unless node was given the flag', () => {
  const free = peakHeapMB();
  const limited = peakHeapMB(50);
  assert.ok(limited < free * 0.75, `peak heap ${limited.toFixed(1)} MB with the limit, ${free.toFixed(1)} MB without`);
  // The user's own flag wins: a generous one given to node is not replaced by ours.
  const users = peakHeapMB(50, ['--heap-growing-percent=300']);
  assert.ok(users > limited * 1.3, `peak heap ${users.toFixed(1)} MB with the user's flag, ${limited.toFixed(1)} MB with ours`);
});
