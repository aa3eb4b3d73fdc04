import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext } from '../../client/fake/index.js';
import { obj } from '../common/testutil.js';
import { TTL_ANNOTATION, TTLController } from './controller.js';

const node = (name: string, ttl?: string) => obj('v1', 'Node', name, ttl === undefined ? {} : { annotations: { [TTL_ANNOTATION]: ttl } });

test('desired TTL by cluster size, with hysteresis (Kubernetes TestDesiredTTL)', () => {
  const ctx = fakeControllerContext({});
  const c = new TTLController(ctx);
  assert.equal(c.desiredTTLSeconds, 0);
  const at = (count: number, step: number) => {
    c.nodeCount = count;
    c.boundaryStep = step;
    c.desiredTTLSeconds = 0;
  };
  const table: { count: number; step: number; op: 'add' | 'del'; wantStep: number; wantTTL?: number }[] = [
    { count: 100, step: 0, op: 'add', wantStep: 1, wantTTL: 15 }, // 101 > 100
    { count: 99, step: 0, op: 'add', wantStep: 0 }, // 100 is not above 100
    { count: 91, step: 1, op: 'del', wantStep: 1, wantTTL: 0 }, // 90 is not below 90: stays at 15 (unchanged)
    { count: 90, step: 1, op: 'del', wantStep: 0, wantTTL: 0 }, // 89 < 90
    { count: 500, step: 1, op: 'add', wantStep: 2, wantTTL: 30 },
    { count: 450, step: 2, op: 'del', wantStep: 1, wantTTL: 15 },
    { count: 1000, step: 2, op: 'add', wantStep: 3, wantTTL: 60 },
    { count: 900, step: 3, op: 'del', wantStep: 2, wantTTL: 30 },
    { count: 2000, step: 3, op: 'add', wantStep: 4, wantTTL: 300 },
    { count: 1800, step: 4, op: 'del', wantStep: 3, wantTTL: 60 },
    { count: 10000, step: 4, op: 'add', wantStep: 5, wantTTL: 600 },
    { count: 9000, step: 5, op: 'del', wantStep: 4, wantTTL: 300 },
    { count: 5000, step: 4, op: 'del', wantStep: 4 },
  ];
  for (const t of table) {
    at(t.count, t.step);
    if (t.op === 'add') c.addNode(node('n'));
    else c.deleteNode(node('n'));
    assert.equal(c.boundaryStep, t.wantStep, JSON.stringify(t));
    if (t.wantTTL !== undefined && t.wantStep !== t.step) assert.equal(c.desiredTTLSeconds, t.wantTTL, JSON.stringify(t));
  }
});

test('growing and shrinking a cluster walks the steps with hysteresis', () => {
  const c = new TTLController(fakeControllerContext({}));
  const ttlAt: number[] = [];
  for (let i = 1; i <= 2100; i++) {
    c.addNode(node(`n${i}`));
    if ([100, 101, 500, 501, 1000, 1001, 2000, 2001].includes(i)) ttlAt.push(c.desiredTTLSeconds);
  }
  assert.deepEqual(ttlAt, [0, 15, 15, 30, 30, 60, 60, 300]);
  const down: number[] = [];
  for (let i = 2100; i > 0; i--) {
    c.deleteNode(node(`n${i}`));
    const count = i - 1;
    if ([1800, 1799, 900, 899, 450, 449, 90, 89].includes(count)) down.push(c.desiredTTLSeconds);
  }
  assert.deepEqual(down, [300, 60, 60, 30, 30, 15, 15, 0]);
});

test('sync patches the annotation only when it differs from the desired TTL', async () => {
  const cases: { name: string; ttl?: string; desired: number; patch?: string }[] = [
    { name: 'missing', desired: 0, patch: '0' },
    { name: 'equal', ttl: '0', desired: 0 },
    { name: 'different', ttl: '0', desired: 15, patch: '15' },
    { name: 'not a number', ttl: 'abc', desired: 0, patch: '0' },
  ];
  for (const k of cases) {
    const ctx = fakeControllerContext({ objects: [node('n1', k.ttl)] });
    const c = new TTLController(ctx);
    c.desiredTTLSeconds = k.desired;
    ctx.clientset.clearActions();
    await c.sync('n1');
    const patches = ctx.clientset.actions.filter((a) => a.verb === 'patch');
    if (k.patch === undefined) assert.equal(patches.length, 0, k.name);
    else {
      assert.equal(patches.length, 1, k.name);
      assert.equal(patches[0]!.patchType, 'strategic');
      assert.deepEqual(patches[0]!.patch, { metadata: { annotations: { [TTL_ANNOTATION]: k.patch } } }, k.name);
      const stored = ctx.clientset.tracker.get({ group: '', resource: 'nodes' }, '', 'n1');
      assert.equal((stored?.metadata as { annotations: Record<string, string> }).annotations[TTL_ANNOTATION], k.patch);
    }
  }
});

test('run annotates the nodes it sees', async () => {
  const ctx = fakeControllerContext({ objects: [node('a'), node('b', '15')] });
  const c = new TTLController(ctx);
  const ac = new AbortController();
  const done = c.run(2, ac.signal);
  const ann = (n: string) => (ctx.clientset.tracker.get({ group: '', resource: 'nodes' }, '', n)?.metadata as { annotations?: Record<string, string> }).annotations?.[TTL_ANNOTATION];
  for (let i = 0; i < 50 && (ann('a') !== '0' || ann('b') !== '0'); i++) await new Promise((r) => setTimeout(r, 2));
  ac.abort();
  await done;
  assert.equal(ann('a'), '0');
  assert.equal(ann('b'), '0');
});
