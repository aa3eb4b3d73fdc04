import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Node } from '../../api/types.js';
import { fakeControllerContext, flush, type FakeControllerContext } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { obj } from '../common/testutil.js';
import { rfc3339 } from '../common/time.js';
import { LEASES, NODES, NodeLifecycleController } from './controller.js';
import { computeZoneState, RateLimitedTimedQueue } from './zones.js';

const T0 = Date.UTC(2026, 0, 1);

interface NodeOpts {
  ready?: 'True' | 'False' | 'Unknown';
  zone?: string;
  heartbeat?: number;
  taints?: { key: string; effect: string }[];
  unschedulable?: boolean;
  memoryPressure?: boolean;
}

function node(name: string, o: NodeOpts = {}): KubeObject {
  const at = rfc3339(o.heartbeat ?? T0);
  const conditions = [{ type: 'Ready', status: o.ready ?? 'True', lastHeartbeatTime: at, lastTransitionTime: rfc3339(T0 - 3_600_000) }];
  if (o.memoryPressure) conditions.push({ type: 'MemoryPressure', status: 'True', lastHeartbeatTime: at, lastTransitionTime: at });
  const n = obj('v1', 'Node', name, {
    labels: o.zone ? { 'topology.kubernetes.io/zone': o.zone } : {},
    creationTimestamp: rfc3339(T0 - 3_600_000),
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: { conditions },
  });
  return n;
}

const lease = (name: string, renewed: number): KubeObject =>
  obj('coordination.k8s.io/v1', 'Lease', name, { namespace: 'kube-node-lease', spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: new Date(renewed).toISOString().replace('Z', '000Z') } });

function setup(objects: KubeObject[], options: Record<string, unknown> = {}): { ctx: FakeControllerContext; c: NodeLifecycleController } {
  const ctx = fakeControllerContext({ objects, now: T0, options: { nodeMonitorGracePeriod: 3_600_000, nodeStartupGracePeriod: 60_000, nodeEvictionRate: 0.1, secondaryNodeEvictionRate: 0.01, unhealthyZoneThreshold: 0.55, largeClusterSizeThreshold: 50, ...options } });
  return { ctx, c: new NodeLifecycleController(ctx) };
}

const nodeOf = (ctx: FakeControllerContext, name: string): Node => ctx.clientset.tracker.get(NODES, '', name) as Node;
const taintsOf = (ctx: FakeControllerContext, name: string): string[] => (nodeOf(ctx, name).spec?.taints ?? []).map((t) => `${t?.key}:${t?.effect}`).sort();

test('NoSchedule taints follow the conditions and spec.unschedulable', async () => {
  const cases: { name: string; node: NodeOpts; want: string[] }[] = [
    { name: 'ready, with the API server\'s not-ready taint', node: { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] }, want: [] },
    { name: 'not ready', node: { ready: 'False' }, want: ['node.kubernetes.io/not-ready:NoSchedule'] },
    { name: 'unknown, with a stale not-ready taint', node: { ready: 'Unknown', taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] }, want: ['node.kubernetes.io/unreachable:NoSchedule'] },
    { name: 'memory pressure and cordoned', node: { memoryPressure: true, unschedulable: true }, want: ['node.kubernetes.io/memory-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule'] },
    { name: 'a user taint stays', node: { taints: [{ key: 'dedicated', effect: 'NoSchedule' }] }, want: ['dedicated:NoSchedule'] },
  ];
  for (const k of cases) {
    const { ctx, c } = setup([node('n', k.node)]);
    await c.doNoScheduleTaintingPass('n');
    assert.deepEqual(taintsOf(ctx, 'n'), k.want, k.name);
  }
});

test('a node silent past the grace period goes Unknown; a renewed Lease keeps it healthy; it recovers', async () => {
  const { ctx, c } = setup([node('silent'), node('leased'), lease('leased', T0)], { nodeMonitorGracePeriod: 40_000 });
  await c.monitorNodeHealth();
  ctx.clock.advance(30_000);
  ctx.clientset.tracker.add(lease('leased', T0 + 30_000));
  await flush(3);
  await c.monitorNodeHealth();
  assert.equal(nodeOf(ctx, 'silent').status?.conditions?.[0]?.status, 'True', 'within the grace period');
  ctx.clock.advance(15_000);
  await c.monitorNodeHealth();
  const ready = nodeOf(ctx, 'silent').status?.conditions?.find((x) => x?.type === 'Ready');
  assert.deepEqual([ready?.status, ready?.reason, ready?.message], ['Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.']);
  const added = nodeOf(ctx, 'silent').status?.conditions?.filter((x) => x?.reason === 'NodeStatusNeverUpdated').map((x) => x?.type);
  assert.deepEqual(added, ['MemoryPressure', 'DiskPressure', 'PIDPressure']);
  assert.equal(nodeOf(ctx, 'leased').status?.conditions?.[0]?.status, 'True');
  assert.ok(ctx.events.some((e) => e.reason === 'NodeNotReady' && e.message === 'Node silent status is now: NodeNotReady'));

  // the next pass sees it Unknown; one node of two in the zone: Normal, so the NoExecute taint comes at once
  await flush(3);
  await c.monitorNodeHealth();
  await c.doNoExecuteTaintingPass();
  assert.deepEqual(taintsOf(ctx, 'silent'), ['node.kubernetes.io/unreachable:NoExecute']);
  // it posts Ready again: the taint goes
  ctx.clientset.tracker.add(node('silent', { heartbeat: ctx.clock.now(), taints: nodeOf(ctx, 'silent').spec!.taints as never }));
  await flush(3);
  await c.monitorNodeHealth();
  assert.deepEqual(taintsOf(ctx, 'silent'), []);
});

/** Runs the NoExecute pass every second of fake time for `seconds`; returns when each node got its taint (s after start). */
async function taintTimeline(ctx: FakeControllerContext, c: NodeLifecycleController, names: string[], seconds: number): Promise<Record<string, number>> {
  const at: Record<string, number> = {};
  for (let s = 0; s <= seconds; s++) {
    // the monitor passes see the tainted nodes again: they must not be queued (and spend tokens) again
    if (s % 5 === 0) {
      await flush(2);
      await c.monitorNodeHealth();
    }
    await c.doNoExecuteTaintingPass();
    await flush(2);
    for (const n of names) if (at[n] === undefined && taintsOf(ctx, n).some((t) => t.endsWith(':NoExecute'))) at[n] = s;
    ctx.clock.advance(1_000);
  }
  return at;
}

test('NoExecute tainting follows the zone rate: 0.1 nodes/s in a healthy zone', async () => {
  const healthy = Array.from({ length: 7 }, (_, i) => node(`ok-${i}`, { zone: 'a' }));
  const failing = ['f-0', 'f-1', 'f-2'].map((n) => node(n, { zone: 'a', ready: 'False' }));
  const { ctx, c } = setup([...healthy, ...failing]);
  await c.monitorNodeHealth();
  assert.equal(c.zoneStates.get(':\x00:a'), 'Normal');
  const at = await taintTimeline(ctx, c, ['f-0', 'f-1', 'f-2'], 25);
  assert.deepEqual(Object.values(at).sort((a, b) => a - b), [0, 10, 20]);
  assert.equal(c.metrics.evictions.get(':\x00:a'), 3);
  assert.deepEqual(c.metrics.zones.get(':\x00:a'), { size: 10, health: 70, unhealthy: 3 });
});

test('a partially disrupted zone: no tainting in a small cluster, the secondary rate in a large one', async () => {
  const zone = (failing: number, total: number) => [
    ...Array.from({ length: total - failing }, (_, i) => node(`ok-${i}`, { zone: 'a' })),
    ...Array.from({ length: failing }, (_, i) => node(`f-${i}`, { zone: 'a', ready: 'False' })),
    node('other', { zone: 'b' }),
  ];
  const small = setup(zone(3, 4));
  await small.c.monitorNodeHealth();
  assert.equal(small.c.zoneStates.get(':\x00:a'), 'PartialDisruption');
  assert.deepEqual(await taintTimeline(small.ctx, small.c, ['f-0', 'f-1', 'f-2'], 30), {});

  const large = setup(zone(3, 4), { largeClusterSizeThreshold: 3, secondaryNodeEvictionRate: 0.05 });
  await large.c.monitorNodeHealth();
  const at = await taintTimeline(large.ctx, large.c, ['f-0', 'f-1', 'f-2'], 45);
  assert.deepEqual(Object.values(at).sort((a, b) => a - b), [0, 20, 40]);
});

test('when every zone is fully disrupted nothing is tainted and NoExecute taints are removed', async () => {
  const { ctx, c } = setup([node('a-0', { zone: 'a', ready: 'False' }), node('b-0', { zone: 'b', ready: 'Unknown', taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] })]);
  await c.monitorNodeHealth();
  assert.equal(c.zoneStates.get(':\x00:a'), 'FullDisruption');
  assert.deepEqual(await taintTimeline(ctx, c, ['a-0', 'b-0'], 15), {});
});

test('without the taint manager, the pods of a node not Ready for --pod-eviction-timeout are deleted', async () => {
  const pod = (name: string, nodeName: string, owner?: string) =>
    obj('v1', 'Pod', name, { namespace: 'default', owners: owner ? [{ apiVersion: 'apps/v1', kind: owner, name: 'x', uid: 'u', controller: true }] : undefined, spec: { nodeName, containers: [] }, status: { phase: 'Running' } });
  const { ctx, c } = setup([node('ok-0'), node('ok-1'), node('bad', { ready: 'False' }), pod('p', 'bad'), pod('ds', 'bad', 'DaemonSet'), pod('q', 'ok-0')], { enableTaintManager: false, podEvictionTimeout: 60_000 });
  await c.monitorNodeHealth();
  await c.doEvictionPass();
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }).filter((a) => a.startsWith('delete')), []);
  ctx.clock.advance(61_000);
  ctx.clientset.tracker.add(node('bad', { ready: 'False', heartbeat: ctx.clock.now() }));
  ctx.clientset.tracker.add(node('ok-0', { heartbeat: ctx.clock.now() }));
  ctx.clientset.tracker.add(node('ok-1', { heartbeat: ctx.clock.now() }));
  await flush(3);
  await c.monitorNodeHealth();
  await c.doEvictionPass();
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }).filter((a) => a.startsWith('delete')), ['delete pods default/p']);
  assert.deepEqual(taintsOf(ctx, 'bad'), []);
});

test('zone state and the token bucket', () => {
  const c = (s: string) => ({ type: 'Ready', status: s });
  assert.deepEqual(computeZoneState([c('False'), c('False')], 0.55), [2, 'FullDisruption']);
  assert.deepEqual(computeZoneState([c('False'), c('False'), c('True')], 0.55), [2, 'Normal']);
  assert.deepEqual(computeZoneState([c('False'), c('Unknown'), undefined, c('True')], 0.55), [3, 'PartialDisruption']);
  let now = 0;
  const q = new RateLimitedTimedQueue(0.5, 1, () => now);
  assert.ok(q.add('a', '1') && !q.add('a', '1') && q.add('b', '2'));
  assert.equal(q.length, 2);
  q.swapLimiter(0);
  now = 100_000;
  let done: string[] = [];
  void q.try(async (v) => (done.push(v.value), { done: true }));
  assert.deepEqual(done, []);
  q.swapLimiter(0.5);
  done = [];
  return q.try(async (v) => (done.push(v.value), { done: true })).then(() => assert.deepEqual(done, ['a']));
});
