import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, type FakeControllerContext } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import type { PodDisruptionBudget } from '../../api/types.js';
import { obj, ownerRef } from '../common/testutil.js';
import { formatSelector, DisruptionController, PDBS } from './controller.js';

const NS = 'default';
const T0 = Date.UTC(2026, 0, 1);
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
const LABELS = { app: 'web' };

function pod(name: string, o: { ready?: boolean; owner?: KubeObject; deleting?: boolean; labels?: Record<string, string>; conditions?: unknown[]; phase?: string } = {}): KubeObject {
  const conditions = o.conditions ?? [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }];
  return obj('v1', 'Pod', name, {
    namespace: NS,
    labels: o.labels ?? LABELS,
    owners: o.owner ? [ownerRef(o.owner, { controller: true })] : undefined,
    deletionTimestamp: o.deleting ? at(0) : undefined,
    spec: { containers: [{ name: 'c', image: 'i' }] },
    status: { phase: o.phase ?? 'Running', conditions },
  });
}

function pdb(spec: Record<string, unknown>, status?: Record<string, unknown>, name = 'budget'): KubeObject {
  const o = obj('policy/v1', 'PodDisruptionBudget', name, { namespace: NS, spec: { selector: { matchLabels: LABELS }, ...spec }, status });
  (o.metadata as Record<string, unknown>).generation = 1;
  return o;
}

const workload = (apiVersion: string, kind: string, name: string, replicas: number, owner?: KubeObject) =>
  obj(apiVersion, kind, name, { namespace: NS, spec: { replicas, selector: { matchLabels: LABELS } }, owners: owner ? [ownerRef(owner, { controller: true })] : undefined });

function setup(objects: KubeObject[]): { ctx: FakeControllerContext; c: DisruptionController } {
  const ctx = fakeControllerContext({ objects, now: T0 });
  return { ctx, c: new DisruptionController(ctx) };
}

async function synced(objects: KubeObject[]): Promise<{ ctx: FakeControllerContext; c: DisruptionController; status: NonNullable<PodDisruptionBudget['status']> }> {
  const { ctx, c } = setup(objects);
  await c.sync(`${NS}/budget`);
  const stored = ctx.clientset.tracker.get(PDBS, NS, 'budget') as PodDisruptionBudget;
  return { ctx, c, status: stored.status ?? {} };
}

const rc = workload('v1', 'ReplicationController', 'rc', 3);
const deployment = workload('apps/v1', 'Deployment', 'd', 4);
const rsOfDeployment = workload('apps/v1', 'ReplicaSet', 'd-1', 4, deployment);
const rs = workload('apps/v1', 'ReplicaSet', 'rs', 5);
const sts = workload('apps/v1', 'StatefulSet', 'sts', 3);

test('status for minAvailable and maxUnavailable, as numbers and percentages, against each kind of controller', async () => {
  const cases: { name: string; spec: Record<string, unknown>; objects: KubeObject[]; want: Record<string, number>; reason: string }[] = [
    { name: 'minAvailable 2 of 3 ready pods (counted, no controller needed)', spec: { minAvailable: 2 }, objects: [pod('a'), pod('b'), pod('c')], want: { currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 1 }, reason: 'SufficientPods' },
    { name: 'minAvailable 3 with an unready pod', spec: { minAvailable: 3 }, objects: [pod('a'), pod('b'), pod('c', { ready: false })], want: { currentHealthy: 2, desiredHealthy: 3, expectedPods: 3, disruptionsAllowed: 0 }, reason: 'InsufficientPods' },
    { name: 'a pod being deleted is not healthy', spec: { minAvailable: 1 }, objects: [pod('a'), pod('b', { deleting: true })], want: { currentHealthy: 1, desiredHealthy: 1, expectedPods: 2, disruptionsAllowed: 0 }, reason: 'InsufficientPods' },
    { name: 'minAvailable 50% of an RC of 3 (rounded up)', spec: { minAvailable: '50%' }, objects: [rc, pod('a', { owner: rc }), pod('b', { owner: rc }), pod('c', { owner: rc })], want: { currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 1 }, reason: 'SufficientPods' },
    { name: 'maxUnavailable 1 of a Deployment of 4 through its ReplicaSet', spec: { maxUnavailable: 1 }, objects: [deployment, rsOfDeployment, ...['a', 'b', 'c'].map((n) => pod(n, { owner: rsOfDeployment }))], want: { currentHealthy: 3, desiredHealthy: 3, expectedPods: 4, disruptionsAllowed: 0 }, reason: 'InsufficientPods' },
    { name: 'maxUnavailable 30% of a ReplicaSet of 5 (2 rounded up)', spec: { maxUnavailable: '30%' }, objects: [rs, ...['a', 'b', 'c', 'd', 'e'].map((n) => pod(n, { owner: rs }))], want: { currentHealthy: 5, desiredHealthy: 3, expectedPods: 5, disruptionsAllowed: 2 }, reason: 'SufficientPods' },
    { name: 'maxUnavailable 1 of a StatefulSet of 3', spec: { maxUnavailable: 1 }, objects: [sts, ...['a', 'b', 'c'].map((n) => pod(n, { owner: sts }))], want: { currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 1 }, reason: 'SufficientPods' },
    { name: 'no pods: nothing expected, nothing allowed', spec: { minAvailable: 0 }, objects: [], want: { currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptionsAllowed: 0 }, reason: 'InsufficientPods' },
    { name: 'maxUnavailable 100%: desiredHealthy never negative', spec: { maxUnavailable: '100%' }, objects: [sts, pod('a', { owner: sts })], want: { currentHealthy: 1, desiredHealthy: 0, expectedPods: 3, disruptionsAllowed: 1 }, reason: 'SufficientPods' },
  ];
  for (const k of cases) {
    const { status } = await synced([pdb(k.spec), ...k.objects]);
    const got = { currentHealthy: status.currentHealthy, desiredHealthy: status.desiredHealthy, expectedPods: status.expectedPods, disruptionsAllowed: status.disruptionsAllowed };
    assert.deepEqual(got, k.want, k.name);
    assert.equal(status.observedGeneration, 1, k.name);
    const cond = status.conditions?.find((c) => c?.type === 'DisruptionAllowed');
    assert.equal(cond?.reason, k.reason, k.name);
    assert.equal(cond?.status, k.reason === 'SufficientPods' ? 'True' : 'False', k.name);
    assert.equal(cond?.observedGeneration, 1, k.name);
  }
});

test('a budget already up to date is not written again', async () => {
  const { ctx, c } = setup([pdb({ minAvailable: 1 }), pod('a'), pod('b')]);
  await c.sync(`${NS}/budget`);
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), ['update poddisruptionbudgets/status default/budget']);
  // the informer now holds the written status
  const written = ctx.clientset.tracker.get(PDBS, NS, 'budget')!;
  const c2 = new DisruptionController(fakeControllerContext({ objects: [written, pod('a'), pod('b')], now: T0 }));
  await c2.sync(`${NS}/budget`);
  assert.deepEqual((c2 as unknown as { ctx: FakeControllerContext }).ctx.clientset.actionStrings({ writesOnly: true }), []);
});

test('a custom resource counts through its scale subresource; a kind without one makes the sync fail safe', async () => {
  const crRef = { group: 'example.com', version: 'v1', resource: 'widgets', namespaced: true, kind: 'Widget' };
  const ctx = fakeControllerContext({ now: T0 });
  ctx.clientset.fakeDiscovery.add({ group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true, verbs: ['get', 'list'], subresources: ['scale'] });
  ctx.clientset.fakeDiscovery.add({ group: 'example.com', version: 'v1', resource: 'gadgets', kind: 'Gadget', namespaced: true, verbs: ['get', 'list'] });
  const widget = await ctx.clientset.resource(crRef).create(NS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: NS, uid: 'w-uid' }, spec: { replicas: 4 } });
  for (const o of [pdb({ minAvailable: '50%' }), pod('a', { owner: widget }), pod('b', { owner: widget })]) ctx.clientset.tracker.add(o);
  const c = new DisruptionController(ctx);
  await c.sync(`${NS}/budget`);
  let status = (ctx.clientset.tracker.get(PDBS, NS, 'budget') as PodDisruptionBudget).status!;
  assert.deepEqual([status.expectedPods, status.desiredHealthy, status.currentHealthy, status.disruptionsAllowed], [4, 2, 2, 0]);

  const gadget = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g', uid: 'g-uid' } };
  ctx.clientset.tracker.add(pod('c', { owner: gadget }));
  await c.sync(`${NS}/budget`);
  status = (ctx.clientset.tracker.get(PDBS, NS, 'budget') as PodDisruptionBudget).status!;
  const cond = status.conditions?.find((x) => x?.type === 'DisruptionAllowed');
  assert.deepEqual([cond?.status, cond?.reason, cond?.message, status.disruptionsAllowed], ['False', 'SyncFailed', 'gadgets.example.com does not implement the scale subresource', 0]);
  assert.ok(ctx.events.some((e) => e.reason === 'CalculateExpectedPodCountFailed' && e.message === 'Failed to calculate the number of expected pods: gadgets.example.com does not implement the scale subresource'));
});

test('pods without a controller under a percentage budget are reported, not counted', async () => {
  const { ctx, status } = await synced([pdb({ maxUnavailable: '50%' }), pod('a'), pod('b')]);
  assert.deepEqual([status.expectedPods, status.disruptionsAllowed], [0, 0]);
  const ev = ctx.events.find((e) => e.reason === 'UnmanagedPods');
  assert.match(ev?.message ?? '', /^Pods selected by this PodDisruptionBudget \(selector: &LabelSelector\{MatchLabels:map\[string\]string\{app: web,\},MatchExpressions:\[\]LabelSelectorRequirement\{\},\}\) were found to be unmanaged\./);
});

test('recorded evictions: pending ones keep the pod unhealthy and schedule a recheck; expired ones are dropped', async () => {
  const recorded = { 'recent': at(-60), 'expired': at(-180), 'gone': at(-10) };
  const { ctx, c } = setup([pdb({ minAvailable: 1 }, { disruptedPods: recorded, observedGeneration: 1 }), pod('recent'), pod('expired'), pod('other')]);
  const delayed: [string, number][] = [];
  c.queue.addAfter = (k: string, ms: number) => void delayed.push([k, ms]);
  await c.sync(`${NS}/budget`);
  const status = (ctx.clientset.tracker.get(PDBS, NS, 'budget') as PodDisruptionBudget).status!;
  assert.deepEqual(status.disruptedPods, { recent: at(-60) });
  assert.equal(status.currentHealthy, 2);
  assert.equal(status.disruptionsAllowed, 1);
  assert.ok(ctx.events.some((e) => e.reason === 'NotDeleted' && e.message === "Pod was expected by PDB default/default to be deleted but it wasn't"));
  // checked again when the recent one expires, 60 s from now
  assert.deepEqual(delayed, [[`${NS}/budget`, 60_000]]);
});

test('a pod selected by two budgets gets a warning and the first is used', async () => {
  const { ctx, c } = setup([pdb({ minAvailable: 1 }, undefined, 'a-budget'), pdb({ minAvailable: 1 }, undefined, 'b-budget'), pod('p')]);
  const chosen = c.budgetForPod(ctx.clientset.tracker.get({ group: '', resource: 'pods' }, NS, 'p') as never);
  assert.ok(chosen);
  assert.ok(ctx.events.some((e) => e.reason === 'MultiplePodDisruptionBudgets' && e.type === 'Warning'));
});

test('an empty selector selects every pod for the budget, but no pod picks the budget', async () => {
  const { ctx, c, status } = await synced([pdb({ minAvailable: 1, selector: {} }), pod('a', { labels: { x: 'y' } })]);
  assert.equal(status.currentHealthy, 1);
  assert.equal(c.budgetForPod(ctx.clientset.tracker.get({ group: '', resource: 'pods' }, NS, 'a') as never), undefined);
});

test('a stale DisruptionTarget condition is reset after two minutes; the kubelet\'s and terminal pods\' are not', async () => {
  const target = (reason: string, since: number) => [{ type: 'Ready', status: 'True' }, { type: 'DisruptionTarget', status: 'True', reason, lastTransitionTime: at(since) }];
  const cases: { name: string; pod: KubeObject; wait?: number; reset: boolean }[] = [
    { name: 'stale', pod: pod('stale', { conditions: target('EvictionByEvictionAPI', -180) }), wait: 0, reset: true },
    { name: 'fresh', pod: pod('fresh', { conditions: target('EvictionByEvictionAPI', -30) }), wait: 90_000, reset: false },
    { name: 'kubelet', pod: pod('kubelet', { conditions: target('TerminationByKubelet', -180) }), reset: false },
    { name: 'terminal', pod: pod('terminal', { conditions: target('EvictionByEvictionAPI', -180), phase: 'Failed' }), reset: false },
    { name: 'deleting', pod: pod('deleting', { conditions: target('EvictionByEvictionAPI', -180), deleting: true }), reset: false },
  ];
  for (const k of cases) {
    const { ctx, c } = setup([k.pod]);
    assert.equal(c.staleDisruptionCondition(k.pod as never), k.wait, k.name);
    await c.syncStalePodDisruption(`${NS}/${k.name}`);
    const writes = ctx.clientset.actionStrings({ writesOnly: true });
    assert.deepEqual(writes, k.reset ? [`update pods/status ${NS}/${k.name}`] : [], k.name);
    if (k.reset) {
      const cond = (ctx.clientset.tracker.get({ group: '', resource: 'pods' }, NS, k.name) as { status: { conditions: { type: string; status: string }[] } }).status.conditions.find((x) => x.type === 'DisruptionTarget');
      assert.equal(cond?.status, 'False');
    }
  }
});

test('formatSelector prints a selector as Go does', () => {
  assert.equal(formatSelector(undefined), 'nil');
  assert.equal(
    formatSelector({ matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['x', 'y'] }] }),
    '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}',
  );
});
