import assert from 'node:assert/strict';
import { test } from 'node:test';
import { labelsOf, metadataOf, nameOf, ownerReferencesOf } from '../../api/meta/object.js';
import type { ControllerRevision, Pod, StatefulSet } from '../../api/types.js';
import { fakeControllerContext, flush, type FakeControllerContext } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { obj } from '../common/testutil.js';
import { CLAIMS, PODS, REVISIONS, STATEFULSETS, StatefulSetController } from './controller.js';

const NS = 'default';
const T0 = Date.UTC(2026, 0, 1);

interface SetOpts {
  replicas?: number;
  image?: string;
  policy?: 'OrderedReady' | 'Parallel';
  strategy?: Record<string, unknown>;
  claims?: boolean;
  retention?: { whenDeleted: string; whenScaled: string };
  start?: number;
  historyLimit?: number;
}

function statefulSet(o: SetOpts = {}): KubeObject {
  const set = obj('apps/v1', 'StatefulSet', 'web', {
    namespace: NS,
    spec: {
      replicas: o.replicas ?? 3,
      selector: { matchLabels: { app: 'web' } },
      serviceName: 'web',
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: o.image ?? 'nginx:1' }] } },
      podManagementPolicy: o.policy ?? 'OrderedReady',
      updateStrategy: o.strategy ?? { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: o.historyLimit ?? 10,
      persistentVolumeClaimRetentionPolicy: o.retention ?? { whenDeleted: 'Retain', whenScaled: 'Retain' },
      ...(o.claims ? { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } : {}),
      ...(o.start !== undefined ? { ordinals: { start: o.start } } : {}),
    },
  });
  (set.metadata as Record<string, unknown>).generation = 1;
  return set;
}

function setup(objects: KubeObject[], options: Record<string, unknown> = {}): { ctx: FakeControllerContext; c: StatefulSetController } {
  const ctx = fakeControllerContext({ objects, now: T0, options });
  return { ctx, c: new StatefulSetController(ctx) };
}

const podList = (ctx: FakeControllerContext): Pod[] => (ctx.clientset.tracker.list(PODS, NS) as Pod[]).sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
const podNames = (ctx: FakeControllerContext): string[] => podList(ctx).map(nameOf);
const setOf = (ctx: FakeControllerContext): StatefulSet => ctx.clientset.tracker.get(STATEFULSETS, NS, 'web') as StatefulSet;
const revisions = (ctx: FakeControllerContext): ControllerRevision[] => ctx.clientset.tracker.list(REVISIONS, NS) as ControllerRevision[];

/** What the API server and a node do to a pod: Pending at creation, then Running and Ready (or not). */
function setPhase(ctx: FakeControllerContext, name: string, phase: string, ready = phase === 'Running'): void {
  const pod = ctx.clientset.tracker.get(PODS, NS, name) as Pod;
  pod.status = { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2025-12-31T00:00:00Z' }] };
  ctx.clientset.tracker.add(pod as KubeObject);
}

/** One sync, then the created pods get their Pending phase (the API server's default). */
async function sync(ctx: FakeControllerContext, c: StatefulSetController): Promise<void> {
  await flush(3);
  await c.sync(`${NS}/web`);
  for (const pod of podList(ctx)) if (!pod.status?.phase) setPhase(ctx, nameOf(pod), 'Pending');
  await flush(3);
}

/** Syncs until no pod is created or deleted, marking every pod Running and Ready as it appears. */
async function converge(ctx: FakeControllerContext, c: StatefulSetController, ready = true): Promise<void> {
  for (let i = 0; i < 30; i++) {
    const before = JSON.stringify(podNames(ctx));
    await sync(ctx, c);
    for (const pod of podList(ctx)) {
      if (metadataOf(pod).deletionTimestamp) continue;
      if (ready && pod.status?.phase !== 'Running') setPhase(ctx, nameOf(pod), 'Running');
    }
    await flush(3);
    if (JSON.stringify(podNames(ctx)) === before && i > 0) return;
  }
}

test('OrderedReady: pods are created one at a time, each after its predecessor is Running and Ready', async () => {
  const { ctx, c } = setup([statefulSet()]);
  await sync(ctx, c);
  assert.deepEqual(podNames(ctx), ['web-0']);
  await sync(ctx, c);
  assert.deepEqual(podNames(ctx), ['web-0'], 'web-0 is Pending: nothing more');
  setPhase(ctx, 'web-0', 'Running', false);
  await sync(ctx, c);
  assert.deepEqual(podNames(ctx), ['web-0'], 'web-0 is Running but not Ready');
  setPhase(ctx, 'web-0', 'Running');
  await sync(ctx, c);
  assert.deepEqual(podNames(ctx), ['web-0', 'web-1']);
  const pod = podList(ctx)[0]!;
  assert.equal(pod.spec?.hostname, 'web-0');
  assert.equal(pod.spec?.subdomain, 'web');
  const labels = labelsOf(pod);
  assert.equal(labels['statefulset.kubernetes.io/pod-name'], 'web-0');
  assert.equal(labels['apps.kubernetes.io/pod-index'], '0');
  assert.equal(labels['controller-revision-hash'], setOf(ctx).status?.updateRevision);
  assert.deepEqual(ownerReferencesOf(pod).map((r) => [r.kind, r.name, r.controller]), [['StatefulSet', 'web', true]]);
  assert.ok(ctx.events.some((e) => e.reason === 'SuccessfulCreate' && e.message === 'create Pod web-0 in StatefulSet web successful'));
  await converge(ctx, c);
  assert.deepEqual(podNames(ctx), ['web-0', 'web-1', 'web-2']);
  const status = setOf(ctx).status!;
  assert.deepEqual([status.replicas, status.readyReplicas, status.availableReplicas, status.currentReplicas, status.updatedReplicas, status.observedGeneration], [3, 3, 3, 3, 3, 1]);
  assert.equal(status.currentRevision, status.updateRevision);
  assert.equal(revisions(ctx).length, 1);
  assert.equal(revisions(ctx)[0]!.revision, 1);
});

test('Parallel: every pod at once; ordinals.start shifts the names', async () => {
  const { ctx, c } = setup([statefulSet({ policy: 'Parallel', start: 5 })]);
  await sync(ctx, c);
  assert.deepEqual(podNames(ctx), ['web-5', 'web-6', 'web-7']);
  assert.equal(labelsOf(podList(ctx)[0]!)['apps.kubernetes.io/pod-index'], '5');
});

test('scale down removes the highest ordinal first, one at a time under OrderedReady', async () => {
  const { ctx, c } = setup([statefulSet({ replicas: 4 })]);
  await converge(ctx, c);
  assert.deepEqual(podNames(ctx), ['web-0', 'web-1', 'web-2', 'web-3']);
  const set = setOf(ctx);
  set.spec!.replicas = 1;
  ctx.clientset.tracker.add(set as KubeObject);
  ctx.clientset.clearActions();
  await sync(ctx, c);
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }).filter((a) => a.startsWith('delete')), ['delete pods default/web-3']);
  await converge(ctx, c);
  assert.deepEqual(podNames(ctx), ['web-0']);
});

test('a rolling update replaces pods from the highest ordinal down to the partition, one at a time', async () => {
  const { ctx, c } = setup([statefulSet()]);
  await converge(ctx, c);
  const firstRevision = setOf(ctx).status!.currentRevision!;
  const set = setOf(ctx);
  set.spec!.template!.spec!.containers![0]!.image = 'nginx:2';
  set.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 1 } };
  (set.metadata as Record<string, unknown>).generation = 2;
  ctx.clientset.tracker.add(set as KubeObject);
  ctx.clientset.clearActions();
  await sync(ctx, c);
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }).filter((a) => a.startsWith('delete')), ['delete pods default/web-2']);
  await converge(ctx, c);
  const images = Object.fromEntries(podList(ctx).map((p) => [nameOf(p), p.spec?.containers?.[0]?.image]));
  assert.deepEqual(images, { 'web-0': 'nginx:1', 'web-1': 'nginx:2', 'web-2': 'nginx:2' });
  let status = setOf(ctx).status!;
  assert.equal(status.currentRevision, firstRevision, 'the update is not complete below the partition');
  assert.deepEqual([status.currentReplicas, status.updatedReplicas], [1, 2]);
  assert.equal(revisions(ctx).length, 2);

  // partition 0 finishes it; the current revision becomes the update revision
  const again = setOf(ctx);
  again.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
  ctx.clientset.tracker.add(again as KubeObject);
  await converge(ctx, c);
  status = setOf(ctx).status!;
  assert.equal(status.currentRevision, status.updateRevision);
  assert.deepEqual([status.currentReplicas, status.updatedReplicas], [3, 3]);
  assert.ok(podList(ctx).every((p) => p.spec?.containers?.[0]?.image === 'nginx:2'));

  // rolling back to the first template reuses its revision with the next number
  const back = setOf(ctx);
  back.spec!.template!.spec!.containers![0]!.image = 'nginx:1';
  ctx.clientset.tracker.add(back as KubeObject);
  await converge(ctx, c);
  const byName = Object.fromEntries(revisions(ctx).map((r) => [nameOf(r), r.revision]));
  assert.equal(byName[firstRevision], 3);
  assert.equal(revisions(ctx).length, 2);
});

test('OnDelete: a template change replaces no pod; a deleted pod comes back at the update revision', async () => {
  const { ctx, c } = setup([statefulSet({ strategy: { type: 'OnDelete' } })]);
  await converge(ctx, c);
  const set = setOf(ctx);
  set.spec!.template!.spec!.containers![0]!.image = 'nginx:2';
  ctx.clientset.tracker.add(set as KubeObject);
  ctx.clientset.clearActions();
  await converge(ctx, c);
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }).filter((a) => a.startsWith('delete pods')), []);
  ctx.clientset.tracker.remove(PODS, NS, 'web-1');
  await converge(ctx, c);
  const images = Object.fromEntries(podList(ctx).map((p) => [nameOf(p), p.spec?.containers?.[0]?.image]));
  assert.deepEqual(images, { 'web-0': 'nginx:1', 'web-1': 'nginx:2', 'web-2': 'nginx:1' });
});

test('maxUnavailable replaces up to that many pods at once with the MaxUnavailableStatefulSet gate, and is ignored without it (as in 1.33)', async () => {
  for (const gate of [true, false]) {
    const strategy = { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } };
    const { ctx, c } = setup([statefulSet({ replicas: 4, strategy })], gate ? { featureGates: { MaxUnavailableStatefulSet: true } } : {});
    await converge(ctx, c);
    const set = setOf(ctx);
    set.spec!.template!.spec!.containers![0]!.image = 'nginx:2';
    ctx.clientset.tracker.add(set as KubeObject);
    ctx.clientset.clearActions();
    await sync(ctx, c);
    const deletes = ctx.clientset.actionStrings({ writesOnly: true }).filter((a) => a.startsWith('delete'));
    assert.deepEqual(deletes, gate ? ['delete pods default/web-3', 'delete pods default/web-2'] : ['delete pods default/web-3'], `gate ${gate}`);
  }
});

test('volumeClaimTemplates: a claim per pod before the pod, mounted as the template volume', async () => {
  const { ctx, c } = setup([statefulSet({ replicas: 2, claims: true })]);
  await sync(ctx, c);
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }).filter((a) => a.startsWith('create')).slice(0, 3), ['create controllerrevisions default/web-' + nameOf(revisions(ctx)[0]!).slice(4), 'create persistentvolumeclaims default/data-web-0', 'create pods default/web-0']);
  const claim = ctx.clientset.tracker.get(CLAIMS, NS, 'data-web-0')!;
  assert.deepEqual(labelsOf(claim), { app: 'web' });
  assert.deepEqual(ownerReferencesOf(claim), [], 'Retain/Retain: no owner');
  const pod = podList(ctx)[0]!;
  assert.deepEqual(pod.spec?.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }]);
  assert.ok(ctx.events.some((e) => e.message === 'create Claim data-web-0 Pod web-0 in StatefulSet web success'));
});

test('persistentVolumeClaimRetentionPolicy: claims owned by the set (whenDeleted) or by the scaled-away pod (whenScaled)', async () => {
  const cases: { retention: { whenDeleted: string; whenScaled: string }; kept: string[]; gone: string[] }[] = [
    { retention: { whenDeleted: 'Delete', whenScaled: 'Retain' }, kept: ['StatefulSet'], gone: ['StatefulSet'] },
    { retention: { whenDeleted: 'Retain', whenScaled: 'Delete' }, kept: [], gone: ['Pod'] },
    { retention: { whenDeleted: 'Delete', whenScaled: 'Delete' }, kept: ['StatefulSet'], gone: ['Pod'] },
  ];
  for (const k of cases) {
    const { ctx, c } = setup([statefulSet({ replicas: 2, claims: true, retention: k.retention })]);
    await converge(ctx, c);
    const owners = (claim: string) => ownerReferencesOf(ctx.clientset.tracker.get(CLAIMS, NS, claim)!).map((r) => r.kind);
    assert.deepEqual(owners('data-web-1'), k.kept, JSON.stringify(k.retention));
    const set = setOf(ctx);
    set.spec!.replicas = 1;
    ctx.clientset.tracker.add(set as KubeObject);
    await sync(ctx, c);
    assert.deepEqual(owners('data-web-1'), k.gone, `${JSON.stringify(k.retention)} after scale down`);
    assert.deepEqual(owners('data-web-0'), k.kept);
  }
});

test('a failed pod is recreated; the revision history keeps revisionHistoryLimit unused revisions', async () => {
  const { ctx, c } = setup([statefulSet({ replicas: 1, historyLimit: 1 })]);
  await converge(ctx, c);
  const uid = metadataOf(podList(ctx)[0]!).uid;
  setPhase(ctx, 'web-0', 'Failed', false);
  await converge(ctx, c);
  assert.notEqual(metadataOf(podList(ctx)[0]!).uid, uid);
  assert.ok(ctx.events.some((e) => e.reason === 'RecreatingFailedPod' && e.message === 'StatefulSet default/web is recreating failed Pod web-0'));
  for (const image of ['nginx:2', 'nginx:3', 'nginx:4']) {
    const set = setOf(ctx);
    set.spec!.template!.spec!.containers![0]!.image = image;
    ctx.clientset.tracker.add(set as KubeObject);
    await converge(ctx, c);
  }
  // the live one and one more
  assert.deepEqual(revisions(ctx).map((r) => r.revision).sort(), [3, 4]);
});

test('orphan pods matching the selector and the name are adopted; others are left alone', async () => {
  const orphan = obj('v1', 'Pod', 'web-0', { namespace: NS, labels: { app: 'web' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
  const stranger = obj('v1', 'Pod', 'other-0', { namespace: NS, labels: { app: 'web' }, status: { phase: 'Running' } });
  const { ctx, c } = setup([statefulSet({ replicas: 1 }), orphan, stranger]);
  await sync(ctx, c);
  const writes = ctx.clientset.actionStrings({ writesOnly: true });
  assert.ok(writes.includes('patch pods default/web-0'), writes.join('\n'));
  assert.ok(!writes.some((w) => w.includes('other-0')));
  assert.deepEqual(ownerReferencesOf(ctx.clientset.tracker.get(PODS, NS, 'other-0')!), []);
  // adopted without a revision label, it is not at the update revision: the rolling update replaces it
  assert.ok(writes.includes('delete pods default/web-0'));
});
