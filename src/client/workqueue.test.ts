import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from './clock.js';
import { TokenBucket } from './rate-limit.js';
import { ItemExponentialRateLimiter, RateLimitingQueue, defaultControllerRateLimiter, runSyncWorkers, workQueueMetrics } from './workqueue.js';

const tick = () => new Promise<void>((r) => setImmediate(r));

test('workqueue: table of add/get/done sequences (dedup, no concurrent processing, re-add after done)', async () => {
  type Step = ['add', string] | ['get', string | undefined] | ['done', string] | ['len', number] | ['shutDown'];
  const cases: { name: string; steps: Step[] }[] = [
    { name: 'dedup while queued', steps: [['add', 'a'], ['add', 'a'], ['add', 'b'], ['len', 2], ['get', 'a'], ['get', 'b'], ['len', 0]] },
    { name: 're-add while processing waits for done', steps: [['add', 'a'], ['get', 'a'], ['add', 'a'], ['len', 0], ['done', 'a'], ['len', 1], ['get', 'a'], ['done', 'a'], ['len', 0]] },
    { name: 'several re-adds while processing → one more run', steps: [['add', 'a'], ['get', 'a'], ['add', 'a'], ['add', 'a'], ['done', 'a'], ['len', 1]] },
    { name: 'fifo order', steps: [['add', 'c'], ['add', 'a'], ['add', 'b'], ['get', 'c'], ['get', 'a'], ['get', 'b']] },
    { name: 'shutdown drains then ends', steps: [['add', 'a'], ['shutDown'], ['add', 'b'], ['len', 1], ['get', 'a'], ['get', undefined]] },
  ];
  for (const c of cases) {
    const q = new RateLimitingQueue<string>({ clock: new ManualClock() });
    for (const [i, s] of c.steps.entries()) {
      const where = `${c.name}, step ${i}`;
      switch (s[0]) {
        case 'add': q.add(s[1]); break;
        case 'done': q.done(s[1]); break;
        case 'shutDown': q.shutDown(); break;
        case 'len': assert.equal(q.len(), s[1], where); break;
        case 'get': assert.equal(await q.get(), s[1], where); break;
      }
    }
  }
});

test('workqueue: a blocked get wakes on add and on shutDown', async () => {
  const q = new RateLimitingQueue<string>({ clock: new ManualClock() });
  const p1 = q.get();
  const p2 = q.get();
  q.add('x');
  assert.equal(await p1, 'x');
  q.shutDown();
  assert.equal(await p2, undefined);
});

test('workqueue: two workers never hold the same item', async () => {
  const q = new RateLimitingQueue<string>();
  const active = new Set<string>();
  let processed = 0;
  const worker = async () => {
    for (;;) {
      const item = await q.get();
      if (item === undefined) return;
      assert.ok(!active.has(item), `item ${item} processed twice at once`);
      active.add(item);
      await tick();
      if (processed++ < 50) q.add(item); // re-added while processing
      active.delete(item);
      q.done(item);
    }
  };
  for (const k of ['a', 'b', 'c']) q.add(k);
  const workers = [worker(), worker(), worker(), worker()];
  while (processed < 53 || q.len() > 0) await tick();
  q.shutDown();
  await Promise.all(workers);
});

test('workqueue: addAfter and rate-limited adds follow the clock', async () => {
  const clock = new ManualClock();
  const q = new RateLimitingQueue<string>({ clock, rateLimiter: new ItemExponentialRateLimiter(5, 1000_000) });
  q.addAfter('a', 100);
  q.addAfter('a', 50); // earlier wins
  q.addAfter('a', 500); // later ignored
  assert.equal(q.len(), 0);
  clock.advance(49);
  assert.equal(q.len(), 0);
  clock.advance(1);
  assert.equal(q.len(), 1);
  assert.equal(await q.get(), 'a');
  q.done('a');
  // Exponential back-off: 5, 10, 20, 40 ms.
  const delays: number[] = [];
  for (let i = 0; i < 4; i++) {
    const start = clock.now();
    q.addRateLimited('b');
    while (q.len() === 0) clock.advance(1);
    delays.push(clock.now() - start);
    assert.equal(await q.get(), 'b');
    q.done('b');
  }
  assert.deepEqual(delays, [5, 10, 20, 40]);
  assert.equal(q.numRequeues('b'), 4);
  q.forget('b');
  assert.equal(q.numRequeues('b'), 0);
  q.addAfter('c', 10);
  q.shutDown();
  assert.equal(clock.pendingTimers(), 0);
});

test('workqueue: back-off caps at 1000 s; default limiter = max(exponential, bucket 10 qps burst 100)', () => {
  const exp = new ItemExponentialRateLimiter<string>(5, 1000_000);
  let d = 0;
  for (let i = 0; i < 40; i++) d = exp.when('x');
  assert.equal(d, 1000_000);
  const clock = new ManualClock();
  const lim = defaultControllerRateLimiter<string>(clock);
  // 100 distinct items use the burst (5 ms each), then the bucket spaces them 100 ms apart.
  for (let i = 0; i < 100; i++) assert.equal(lim.when(`i${i}`), 5);
  assert.equal(lim.when('next'), 100);
  assert.equal(lim.when('next2'), 200);
});

test('workqueue: metrics counters', async () => {
  const clock = new ManualClock();
  const q = new RateLimitingQueue<string>({ clock, name: 'test-queue' });
  q.add('a');
  q.add('a');
  q.add('b');
  assert.equal(q.metrics.depth, 2);
  assert.equal(q.metrics.adds, 2);
  clock.advance(30);
  const a = await q.get();
  clock.advance(10);
  q.done(a!);
  q.addRateLimited('a');
  assert.equal(q.metrics.retries, 1);
  assert.equal(q.metrics.queueLatencyMsSum, 30);
  assert.equal(q.metrics.workDurationMsSum, 10);
  assert.ok(workQueueMetrics().some((m) => m.name === 'test-queue'));
});

test('token bucket: burst then qps, first come first served', async () => {
  const clock = new ManualClock();
  const b = new TokenBucket({ qps: 50, burst: 10, clock });
  const waits: number[] = [];
  for (let i = 0; i < 50; i++) waits.push(b.reserve());
  assert.deepEqual(waits.slice(0, 10), Array(10).fill(0));
  assert.equal(waits[10], 20);
  assert.ok(Math.abs(waits[49]! - 800) < 1e-6);
  // Tokens refill with time, never beyond the burst.
  clock.advance(10_000);
  for (let i = 0; i < 10; i++) assert.equal(b.reserve(), 0);
  assert.ok(b.reserve() > 0);
  assert.equal(new TokenBucket({ qps: 0, burst: 1 }).reserve(), 0);
});

test('token bucket: 50 waits at qps 50 / burst 10 take about 0.8 s of real time', async () => {
  const b = new TokenBucket({ qps: 50, burst: 10 });
  const start = performance.now();
  await Promise.all(Array.from({ length: 50 }, () => b.wait()));
  const took = performance.now() - start;
  assert.ok(took >= 750, `took ${took} ms`);
  assert.ok(took < 5000, `took ${took} ms`);
});

test('runSyncWorkers: a failing key is retried with back-off up to maxRetries, then dropped; a success forgets it', async () => {
  const clock = new ManualClock();
  const q = new RateLimitingQueue<string>({ clock, rateLimiter: new ItemExponentialRateLimiter(5, 1000_000) });
  const calls: string[] = [];
  const errors: string[] = [];
  const ac = new AbortController();
  const done = runSyncWorkers(
    q,
    1,
    ac.signal,
    async (key) => {
      calls.push(key);
      if (key === 'bad') throw new Error('boom');
    },
    (key) => errors.push(key),
    2,
  );
  q.add('bad');
  q.add('good');
  for (let i = 0; i < 5; i++) {
    await tick();
    clock.advance(1000);
  }
  await tick();
  assert.deepEqual(calls, ['bad', 'good', 'bad', 'bad']);
  assert.equal(errors.length, 3);
  assert.equal(q.numRequeues('bad'), 0, 'dropped after maxRetries: its back-off is forgotten');
  assert.equal(q.numRequeues('good'), 0);
  ac.abort();
  await done;
});
