import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../client/types.js';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import { ReplicaSetController } from './controller.js';
import { REPLICASETS, PODS } from './kinds.js';
import { slowStartBatch } from './slow-start.js';
import { comparePodsForDeletion, podsToDelete } from '../common/pods.js';
import { rfc3339 } from '../common/time.js';

const T0 = Date.UTC(2026, 0, 1);

function rs(name: string, replicas: number, extra: { minReadySeconds?: number; uid?: string; labels?: Record<string, string> } = {}): KubeObject {
  const labels = extra.labels ?? { app: 'web' };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', uid: extra.uid ?? `uid-${name}`, generation: 1 },
    spec: {
      replicas,
      minReadySeconds: extra.minReadySeconds ?? 0,
      selector: { matchLabels: labels },
      template: { metadata: { labels: { ...labels, tier: 'fe' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
    status: { replicas: 0 },
  };
}

interface PodOpts {
  owner?: KubeObject;
  labels?: Record<string, string>;
  node?: string;
  phase?: string;
  ready?: boolean;
  readySince?: number;
  restarts?: number;
  created?: number;
  deleting?: boolean;
}
function pod(name: string, o: PodOpts = {}): KubeObject {
  const om = (o.owner?.metadata ?? {}) as Record<string, string>;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: o.labels ?? { app: 'web', tier: 'fe' },
      creationTimestamp: rfc3339(o.created ?? T0 - 100_000),
      ...(o.deleting ? { deletionTimestamp: rfc3339(T0) } : {}),
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: om.name, uid: om.uid, controller: true, blockOwnerDeletion: true }] } : {}),
    },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...(o.node ? { nodeName: o.node } : {}) },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: rfc3339(o.readySince ?? T0 - 60_000) }],
      containerStatuses: [{ name: 'c', restartCount: o.restarts ?? 0 }],
    },
  };
}

function setup(objects: KubeObject[]) {
  const ctx = fakeControllerContext({ objects, now: T0 });
  const c = new ReplicaSetController(ctx);
  ctx.clientset.clearActions();
  return { ctx, c };
}

function pods(ctx: ReturnType<typeof fakeControllerContext>): KubeObject[] {
  return ctx.clientset.tracker.list(PODS, 'default');
}
function getRS(ctx: ReturnType<typeof fakeControllerContext>, name: string): KubeObject {
  return ctx.clientset.tracker.get(REPLICASETS, 'default', name)!;
}

test('replicaset: scale up creates pods from the template with a controller ref and generateName', async () => {
  const r = rs('web', 3);
  const { ctx, c } = setup([r]);
  await c.sync('default/web');
  const created = pods(ctx);
  assert.equal(created.length, 3);
  for (const p of created) {
    const m = p.metadata as Record<string, any>;
    assert.equal(m.generateName, 'web-');
    assert.match(m.name, /^web-/);
    assert.deepEqual(m.labels, { app: 'web', tier: 'fe' });
    assert.deepEqual(m.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true }]);
  }
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), ['create pods default/web-', 'create pods default/web-', 'create pods default/web-', 'update replicasets/status default/web']);
  // The status counts the pods the sync started from (as Kubernetes: the next sync sees the new ones).
  const st = getRS(ctx, 'web').status as Record<string, number>;
  assert.equal(st.replicas, 0);
  assert.equal(st.observedGeneration, 1);
  assert.equal(ctx.events.filter((e) => e.reason === 'SuccessfulCreate').length, 3);
  // The informer saw all three creations: expectations are satisfied and a second sync only updates the status.
  assert.equal(c.expectations.satisfiedExpectations('default/web'), true);
  ctx.clientset.clearActions();
  await c.sync('default/web');
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), ['update replicasets/status default/web']);
  assert.equal((getRS(ctx, 'web').status as Record<string, number>).replicas, 3);
  ctx.clientset.clearActions();
  await c.sync('default/web');
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), []);
});

test('replicaset: expectations stop duplicate creates while the cache lags', async () => {
  const r = rs('web', 2);
  const { ctx, c } = setup([r]);
  // Creations are not observed by the informer: drop them from the cache by a reactor that answers without storing.
  let n = 0;
  ctx.clientset.prependReactor('create', 'pods', (a) => ({ handled: true, result: { ...a.object!, metadata: { ...(a.object!.metadata as object), name: `web-x${n++}` } } }));
  await c.sync('default/web');
  assert.equal(n, 2);
  assert.equal(c.expectations.satisfiedExpectations('default/web'), false);
  await c.sync('default/web');
  assert.equal(n, 2, 'no duplicate creates while expectations are pending');
  // After the 5-minute expectations timeout the controller acts again.
  ctx.clock.advance(5 * 60 * 1000 + 1);
  await c.sync('default/web');
  assert.equal(n, 4);
});

test('replicaset: slow start batches are 1, 2, 4, ... and stop at the first failing batch', async () => {
  const calls: number[] = [];
  let i = 0;
  const res = await slowStartBatch(10, 1, async () => {
    calls.push(i++);
  });
  assert.deepEqual(res, { successes: 10 });
  let k = 0;
  const res2 = await slowStartBatch(10, 1, async () => {
    if (k++ === 2) throw new Error('quota');
  });
  assert.equal(res2.successes, 2); // batch 1 ok (1), batch 2 has one failure → 1+1
  assert.equal((res2.error as Error).message, 'quota');
  assert.equal(k, 3);

  const r = rs('web', 10);
  const { ctx, c } = setup([r]);
  let creates = 0;
  ctx.clientset.prependReactor('create', 'pods', () => {
    creates++;
    if (creates === 4) return { handled: true, error: Object.assign(new Error('exceeded quota'), { code: 403, reason: 'Forbidden' }) };
    return undefined;
  });
  await assert.rejects(c.sync('default/web'), /exceeded quota/);
  assert.equal(creates, 7, '1 + 2 + 4, then stop');
  assert.equal(pods(ctx).length, 6);
  const st = getRS(ctx, 'web').status as Record<string, any>;
  assert.equal(st.conditions[0].type, 'ReplicaFailure');
  assert.equal(st.conditions[0].reason, 'FailedCreate');
  // Skipped creations were subtracted from the expectations: all observed now.
  assert.equal(c.expectations.satisfiedExpectations('default/web'), true);
  // The next successful sync clears the condition.
  await c.sync('default/web');
  assert.equal(pods(ctx).length, 10);
  assert.equal((getRS(ctx, 'web').status as Record<string, any>).conditions, undefined);
});

test('replicaset: adopts matching orphans, releases owned pods that no longer match, ignores others', async () => {
  const r = rs('web', 2);
  const other = rs('other', 1, { labels: { app: 'other' } });
  const orphan = pod('orphan');
  const released = pod('mine-relabelled', { owner: r, labels: { app: 'db' } });
  const foreign = pod('foreign', { owner: other });
  const unrelated = pod('unrelated', { labels: { app: 'db' } });
  const { ctx, c } = setup([r, other, orphan, released, foreign, unrelated]);
  await c.sync('default/web');
  const writes = ctx.clientset.writes();
  const patches = writes.filter((a) => a.verb === 'patch');
  assert.deepEqual(patches.map((a) => a.name).sort(), ['mine-relabelled', 'orphan']);
  const adopt = patches.find((a) => a.name === 'orphan')!;
  assert.deepEqual(adopt.patch, { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true }], uid: 'uid-orphan' } });
  const release = patches.find((a) => a.name === 'mine-relabelled')!;
  assert.deepEqual(release.patch, { metadata: { ownerReferences: [{ $patch: 'delete', uid: 'uid-web' }], uid: 'uid-mine-relabelled' } });
  const rel = ctx.clientset.tracker.get(PODS, 'default', 'mine-relabelled')!;
  assert.deepEqual((rel.metadata as Record<string, unknown>).ownerReferences ?? [], []);
  // orphan adopted + one created = 2.
  assert.equal(writes.filter((a) => a.verb === 'create').length, 1);
  assert.equal((getRS(ctx, 'web').status as Record<string, number>).replicas, 1);
  await c.sync('default/web');
  assert.equal((getRS(ctx, 'web').status as Record<string, number>).replicas, 2);
});

test('replicaset: no adoption when the owner is being deleted, and no management', async () => {
  const r = rs('web', 3);
  (r.metadata as Record<string, unknown>).deletionTimestamp = rfc3339(T0);
  (r.metadata as Record<string, unknown>).finalizers = ['foregroundDeletion'];
  const { ctx, c } = setup([r, pod('orphan')]);
  await c.sync('default/web');
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), ['update replicasets/status default/web']);
});

test('replicaset: scale down deletes the least valuable pods first', async () => {
  const r = rs('web', 1);
  const ps = [
    pod('old-ready', { owner: r, node: 'n1', created: T0 - 900_000, readySince: T0 - 800_000 }),
    pod('unscheduled', { owner: r, phase: 'Pending', ready: false }),
    pod('pending', { owner: r, node: 'n2', phase: 'Pending', ready: false }),
    pod('unknown', { owner: r, node: 'n3', phase: 'Unknown', ready: false }),
    pod('notready', { owner: r, node: 'n4', ready: false }),
    pod('ready-recently', { owner: r, node: 'n5', readySince: T0 - 10_000 }),
  ];
  const { ctx, c } = setup([r, ...ps]);
  await c.sync('default/web');
  const deletes = ctx.clientset.writes().filter((a) => a.verb === 'delete').map((a) => a.name);
  assert.deepEqual(deletes, ['unscheduled', 'pending', 'unknown', 'notready', 'ready-recently']);
  assert.deepEqual(pods(ctx).map((p) => (p.metadata as Record<string, string>).name), ['old-ready']);
  assert.equal(c.expectations.satisfiedExpectations('default/web'), true);
  assert.equal(ctx.events.filter((e) => e.reason === 'SuccessfulDelete').length, 5);
});

test('replicaset: deletion order table (ActivePodsWithRanks)', () => {
  const cases: { name: string; a: KubeObject; b: KubeObject; rank?: [number, number] }[] = [
    { name: 'unassigned before assigned', a: pod('a'), b: pod('b', { node: 'n' }) },
    { name: 'pending before running', a: pod('a', { node: 'n', phase: 'Pending' }), b: pod('b', { node: 'n' }) },
    { name: 'unknown before running', a: pod('a', { node: 'n', phase: 'Unknown' }), b: pod('b', { node: 'n' }) },
    { name: 'not ready before ready', a: pod('a', { node: 'n', ready: false }), b: pod('b', { node: 'n' }) },
    { name: 'doubled up before alone', a: pod('a', { node: 'n' }), b: pod('b', { node: 'm' }), rank: [2, 1] },
    { name: 'ready for less time first', a: pod('a', { node: 'n', readySince: T0 - 1000 }), b: pod('b', { node: 'n', readySince: T0 - 5000 }) },
    { name: 'more restarts first', a: pod('a', { node: 'n', restarts: 5 }), b: pod('b', { node: 'n', restarts: 1 }) },
    { name: 'newer first', a: pod('a', { node: 'n', created: T0 - 1000 }), b: pod('b', { node: 'n', created: T0 - 5000 }) },
  ];
  for (const tc of cases) {
    const [ra, rb] = tc.rank ?? [0, 0];
    assert.ok(comparePodsForDeletion(tc.a, tc.b, ra, rb) < 0, tc.name);
    assert.ok(comparePodsForDeletion(tc.b, tc.a, rb, ra) > 0, `${tc.name} (reversed)`);
  }
  const costly = pod('costly', { node: 'n' });
  (costly.metadata as Record<string, any>).annotations = { 'controller.kubernetes.io/pod-deletion-cost': '100' };
  assert.ok(comparePodsForDeletion(pod('cheap', { node: 'n' }), costly) < 0, 'lower deletion cost first');
  // Ranking by pods on the same node.
  const a = pod('a', { node: 'n1' });
  const b = pod('b', { node: 'n2' });
  const c2 = pod('c', { node: 'n2' });
  assert.deepEqual(podsToDelete([a, b, c2], [a, b, c2], 1).map((p) => (p.metadata as Record<string, string>).name), ['b']);
});

test('replicaset: status counts ready, available (minReadySeconds) and fully labeled pods, requeues for availability', async () => {
  const r = rs('web', 3, { minReadySeconds: 30 });
  const ps = [
    pod('a', { owner: r, readySince: T0 - 60_000 }),
    pod('b', { owner: r, readySince: T0 - 10_000 }),
    pod('c', { owner: r, labels: { app: 'web' }, ready: false }),
  ];
  const { ctx, c } = setup([r, ...ps]);
  const queued: [string, number][] = [];
  c.queue.addAfter = (k: string, ms: number) => void queued.push([k, ms]);
  await c.sync('default/web');
  const st = getRS(ctx, 'web').status as Record<string, number>;
  assert.deepEqual({ ...st }, { replicas: 3, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 1, observedGeneration: 1 });
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), ['update replicasets/status default/web']);
  // Once all are ready but not yet available, the controller re-checks after minReadySeconds.
  const p = ctx.clientset.tracker.get(PODS, 'default', 'c')!;
  (p.status as Record<string, any>).conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: rfc3339(T0) }];
  await ctx.clientset.resource(PODS).update('default', p, { subresource: 'status' });
  queued.length = 0;
  await c.sync('default/web');
  assert.deepEqual(queued, [['default/web', 30_000]]);
  ctx.clock.advance(31_000);
  await c.sync('default/web');
  assert.equal((getRS(ctx, 'web').status as Record<string, number>).availableReplicas, 3);
});

test('replicaset: terminating and finished pods do not count', async () => {
  const r = rs('web', 2);
  const { ctx, c } = setup([r, pod('gone', { owner: r, deleting: true }), pod('done', { owner: r, phase: 'Succeeded' }), pod('live', { owner: r })]);
  await c.sync('default/web');
  assert.equal(ctx.clientset.writes().filter((a) => a.verb === 'create').length, 1);
});

test('replicaset: event handlers enqueue owners and track expectations; run() syncs from the queue', async () => {
  const r = rs('web', 2);
  const { ctx, c } = setup([r]);
  const ac = new AbortController();
  const done = c.run(2, ac.signal);
  await flush(30);
  assert.equal(pods(ctx).length, 2);
  // Deleting a pod brings it back.
  const name = (pods(ctx)[0]!.metadata as Record<string, string>).name!;
  await ctx.clientset.resource(PODS).delete('default', name);
  await flush(30);
  assert.equal(pods(ctx).length, 2);
  // Scaling the replicaset down.
  const cur = getRS(ctx, 'web');
  (cur.spec as Record<string, number>).replicas = 0;
  await ctx.clientset.resource(REPLICASETS).update('default', cur);
  await flush(30);
  assert.equal(pods(ctx).length, 0);
  ac.abort();
  await done;
});

test('replicationcontroller: the same controller over core/v1 ReplicationControllers (map selector)', async () => {
  const { REPLICATIONCONTROLLER_KIND, REPLICATIONCONTROLLERS } = await import('./kinds.js');
  const rc: KubeObject = {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'legacy', namespace: 'default', uid: 'uid-legacy', generation: 2 },
    spec: { replicas: 2, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    status: { replicas: 0 },
  };
  const ctx = fakeControllerContext({ objects: [pod('orphan', { labels: { app: 'web' } })], now: T0 });
  ctx.clientset.tracker.add(rc, REPLICATIONCONTROLLERS);
  const c = new ReplicaSetController(ctx, REPLICATIONCONTROLLER_KIND);
  ctx.clientset.clearActions();
  await c.sync('default/legacy');
  const adopt = ctx.clientset.writes().find((a) => a.verb === 'patch')!;
  assert.deepEqual((adopt.patch as any).metadata.ownerReferences[0], { apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', uid: 'uid-legacy', controller: true, blockOwnerDeletion: true });
  assert.equal(ctx.clientset.writes().filter((a) => a.verb === 'create').length, 1);
  const st = ctx.clientset.tracker.get(REPLICATIONCONTROLLERS, 'default', 'legacy')!.status as Record<string, number>;
  assert.equal(st.observedGeneration, 2);
  assert.equal(st.replicas, 1);
});

test('replicationcontroller: the controller manager registers it (--concurrent-rc-syncs) and its instance keeps the replicas', async () => {
  const { CONTROLLERS } = await import('../../controller-manager/controllers.js');
  const { REPLICATIONCONTROLLERS } = await import('./kinds.js');
  const { newReplicationControllerController } = await import('./controller.js');
  const entry = CONTROLLERS.replicationcontroller!;
  assert.equal(entry.ctor, newReplicationControllerController);
  assert.equal(entry.workersOption, 'concurrentRcSyncs');
  assert.equal(entry.enabledByDefault, true);
  const rc: KubeObject = {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-web', generation: 1 },
    spec: { replicas: 3, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
  const ctx = fakeControllerContext({ objects: [], now: T0 });
  ctx.clientset.tracker.add(rc, REPLICATIONCONTROLLERS);
  const c = entry.ctor!(ctx);
  const ac = new AbortController();
  const done = c.run(2, ac.signal);
  await flush(30);
  const owned = pods(ctx);
  assert.equal(owned.length, 3);
  for (const p of owned) {
    const refs = (p.metadata as { ownerReferences: Array<Record<string, unknown>> }).ownerReferences;
    assert.equal(refs[0]!.kind, 'ReplicationController');
    assert.equal(refs[0]!.name, 'web');
  }
  const status = ctx.clientset.tracker.get(REPLICATIONCONTROLLERS, 'default', 'web')!.status as Record<string, number>;
  assert.equal(status.replicas, 3);
  assert.equal(status.observedGeneration, 1);
  ac.abort();
  await done;
});
