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

/**
 * Full collections in a process of ~30 MB of live heap that allocates 512 MiB of short-lived
 * 16 KiB ArrayBuffers (what relaying a stream does with socket reads), after limitHeapGrowth.
 */
function fullCollections(minGrowthBytes: number): number {
  const script = `
    const { PerformanceObserver, constants } = require('node:perf_hooks');
    const live = Array.from({ length: 200000 }, (_, i) => ({ i, s: 'x' + i, a: [i, i] }));
    require(${JSON.stringify(module)}).limitHeapGrowth(50, ${minGrowthBytes});
    // the flag is read when a full collection sets the next limit
    global.gc();
    let full = 0;
    new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++; }).observe({ entryTypes: ['gc'] });
    (async () => {
      let reads = [];
      for (let i = 0; i < 32768; i++) {
        reads.push(new Uint8Array(new ArrayBuffer(16384)));
        if (reads.length > 16) reads = [];
        if (i % 64 === 0) await new Promise((r) => setImmediate(r));
      }
      await new Promise((r) => setImmediate(r));
      process.stdout.write(String(full + live.length * 0));
    })();
  `;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=commonjs', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout);
}

test('a floor on the growth keeps short-lived buffers from starting full collections in a small heap', () => {
  const halfOnly = fullCollections(0);
  const floored = fullCollections(64 * 1024 * 1024);
  assert.ok(halfOnly >= 2, `only ${halfOnly} full collections with growth limited to half the heap`);
  assert.ok(floored < halfOnly, `${floored} full collections with a 64 MiB floor, ${halfOnly} without`);
});
