import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { obj } from '../common/testutil.js';
import { PodGCController } from './controller.js';

const T0 = Date.UTC(2026, 0, 1);
const ts = (s: number) => new Date(T0 + s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

function pod(name: string, o: { phase?: string; reason?: string; node?: string; created?: number; deleting?: boolean } = {}): KubeObject {
  const status: Record<string, unknown> = { phase: o.phase ?? 'Running' };
  if (o.reason) status.reason = o.reason;
  return obj('v1', 'Pod', name, {
    namespace: 'default',
    creationTimestamp: ts(o.created ?? 0),
    deletionTimestamp: o.deleting ? ts(100) : undefined,
    spec: o.node ? { nodeName: o.node } : {},
    status,
  });
}

function node(name: string, o: { ready?: boolean; outOfService?: boolean } = {}): KubeObject {
  return obj('v1', 'Node', name, {
    spec: o.outOfService ? { taints: [{ key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' }] } : {},
    status: { conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  });
}

const deleted = (ctx: ReturnType<typeof fakeControllerContext>) =>
  ctx.clientset.actions
    .filter((a) => a.verb === 'delete')
    .map((a) => a.name)
    .sort();

test('terminated pods above the threshold: evicted first, then oldest, names breaking ties', async () => {
  const cases: { name: string; threshold: number; pods: KubeObject[]; want: string[] }[] = [
    {
      name: 'oldest first',
      threshold: 2,
      pods: [pod('a', { phase: 'Succeeded', created: 30 }), pod('b', { phase: 'Failed', created: 10 }), pod('c', { phase: 'Succeeded', created: 20 }), pod('d', { phase: 'Failed', created: 5 }), pod('running', { created: 0 })],
      want: ['b', 'd'],
    },
    {
      name: 'evicted first',
      threshold: 1,
      pods: [pod('old', { phase: 'Failed', created: 0 }), pod('evicted', { phase: 'Failed', reason: 'Evicted', created: 50 }), pod('new', { phase: 'Succeeded', created: 60 })],
      want: ['evicted', 'old'],
    },
    { name: 'ties by name', threshold: 1, pods: [pod('z', { phase: 'Failed' }), pod('y', { phase: 'Failed' }), pod('x', { phase: 'Failed' })], want: ['x', 'y'] },
    { name: 'at the threshold', threshold: 3, pods: [pod('a', { phase: 'Failed' }), pod('b', { phase: 'Failed' }), pod('c', { phase: 'Failed' })], want: [] },
    { name: '0 disables', threshold: 0, pods: [pod('a', { phase: 'Failed' })], want: [] },
    { name: 'negative disables', threshold: -1, pods: [pod('a', { phase: 'Failed' })], want: [] },
    { name: 'pending/unknown are not terminated', threshold: 0 + 1, pods: [pod('p', { phase: 'Pending' }), pod('u', { phase: 'Unknown' }), pod('r')], want: [] },
  ];
  for (const c of cases) {
    const ctx = fakeControllerContext({ objects: c.pods, options: { terminatedPodGcThreshold: c.threshold } });
    await new PodGCController(ctx).gc();
    assert.deepEqual(deleted(ctx), c.want, c.name);
    for (const a of ctx.clientset.actions.filter((x) => x.verb === 'delete')) assert.deepEqual(a.options, { gracePeriodSeconds: 0 }, c.name);
    // already-terminal pods are not patched
    assert.equal(ctx.clientset.actions.filter((a) => a.verb === 'patch').length, 0, c.name);
  }
});

test('the default threshold is 12500', () => {
  const ctx = fakeControllerContext({});
  assert.equal(new PodGCController(ctx).threshold, 12500);
});

test('orphaned pods (node gone) are marked Failed with DisruptionTarget and force-deleted after the quarantine', async () => {
  const ctx = fakeControllerContext({
    objects: [node('alive'), pod('on-alive', { node: 'alive' }), pod('on-gone', { node: 'gone' }), pod('done-on-gone', { node: 'gone', phase: 'Succeeded' }), pod('unscheduled')],
    now: T0,
  });
  const c = new PodGCController(ctx, { quarantineMs: 40_000 });
  await c.gc();
  assert.deepEqual(deleted(ctx), [], 'quarantined');
  ctx.clock.advance(40_000);
  await c.gc();
  assert.deepEqual(deleted(ctx), ['done-on-gone', 'on-gone']);
  const get = ctx.clientset.actions.find((a) => a.verb === 'get' && a.resource === 'nodes');
  assert.equal(get?.name, 'gone', 'the absence is checked with a live GET');
  const patch = ctx.clientset.actions.find((a) => a.verb === 'patch');
  assert.equal(patch?.name, 'on-gone');
  assert.equal(patch?.subresource, 'status');
  const status = (patch?.patch as { status: { phase: string; conditions: { type: string; reason: string; message: string }[] } }).status;
  assert.equal(status.phase, 'Failed');
  assert.deepEqual(
    status.conditions.map((x) => [x.type, x.reason, x.message]),
    [['DisruptionTarget', 'DeletionByPodGC', 'PodGC: node no longer exists']],
  );
});

test('a node that reappears during the quarantine keeps its pods', async () => {
  const ctx = fakeControllerContext({ objects: [pod('p', { node: 'late' })], now: T0 });
  const c = new PodGCController(ctx, { quarantineMs: 40_000 });
  await c.gc();
  ctx.clientset.tracker.add(node('late'));
  ctx.clock.advance(40_000);
  await c.gc();
  assert.deepEqual(deleted(ctx), []);
});

test('terminating pods: unscheduled ones, and those on not-ready out-of-service nodes, are force-deleted', async () => {
  const ctx = fakeControllerContext({
    objects: [
      node('oos', { ready: false, outOfService: true }),
      node('notready', { ready: false }),
      node('ready', { outOfService: true }),
      pod('unscheduled-terminating', { deleting: true }),
      pod('unscheduled'),
      pod('on-oos', { node: 'oos', deleting: true }),
      pod('on-oos-running', { node: 'oos' }),
      pod('on-notready', { node: 'notready', deleting: true }),
      pod('on-ready-tainted', { node: 'ready', deleting: true }),
    ],
  });
  await new PodGCController(ctx, { quarantineMs: 0 }).gc();
  assert.deepEqual(deleted(ctx), ['on-oos', 'unscheduled-terminating']);
});
