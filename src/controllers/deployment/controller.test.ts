import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../client/types.js';
import { fakeControllerContext } from '../../client/fake/index.js';
import { DeploymentController, DEPLOYMENTS } from './controller.js';
import { REPLICASETS } from '../replicaset/kinds.js';
import { computeHash, fnv32a, safeEncodeString } from '../common/hash.js';
import { rfc3339 } from '../common/time.js';
import * as u from './revisions.js';
import { resolveFenceposts, scaledValue, maxUnavailable, maxSurge, type IntOrString } from './spec.js';

const T0 = Date.UTC(2026, 0, 1);
type Ctx = ReturnType<typeof fakeControllerContext>;

function template(image: string): KubeObject {
  return { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } };
}

interface DOpts {
  replicas?: number;
  image?: string;
  strategy?: KubeObject;
  paused?: boolean;
  revisionHistoryLimit?: number;
  progressDeadlineSeconds?: number;
  minReadySeconds?: number;
  annotations?: Record<string, string>;
  status?: KubeObject;
  generation?: number;
}
function deployment(o: DOpts = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-d', generation: o.generation ?? 1, ...(o.annotations ? { annotations: o.annotations } : {}) },
    spec: {
      replicas: o.replicas ?? 3,
      selector: { matchLabels: { app: 'web' } },
      template: template(o.image ?? 'nginx:1'),
      strategy: o.strategy ?? { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      minReadySeconds: o.minReadySeconds ?? 0,
      revisionHistoryLimit: o.revisionHistoryLimit ?? 10,
      progressDeadlineSeconds: o.progressDeadlineSeconds ?? 600,
      ...(o.paused ? { paused: true } : {}),
    },
    status: o.status ?? {},
  };
}

interface RSOpts {
  image: string;
  replicas: number;
  available?: number;
  revision?: number;
  created?: number;
  owned?: boolean;
  desired?: number;
  max?: number;
  extraAnnotations?: Record<string, string>;
}
function replicaSet(name: string, o: RSOpts): KubeObject {
  const hash = name.split('-').pop()!;
  const tmpl = template(o.image) as { metadata: { labels: Record<string, string> } };
  tmpl.metadata.labels['pod-template-hash'] = hash;
  const ann: Record<string, string> = { ...(o.extraAnnotations ?? {}) };
  if (o.revision !== undefined) ann[u.REVISION_ANNOTATION] = String(o.revision);
  if (o.desired !== undefined) ann[u.DESIRED_REPLICAS_ANNOTATION] = String(o.desired);
  if (o.max !== undefined) ann[u.MAX_REPLICAS_ANNOTATION] = String(o.max);
  const avail = o.available ?? o.replicas;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      generation: 1,
      creationTimestamp: rfc3339(o.created ?? T0 - 1000_000),
      labels: { app: 'web', 'pod-template-hash': hash },
      annotations: ann,
      ...(o.owned === false ? {} : { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-d', controller: true, blockOwnerDeletion: true }] }),
    },
    spec: { replicas: o.replicas, minReadySeconds: 0, selector: { matchLabels: { app: 'web', 'pod-template-hash': hash } }, template: tmpl },
    status: { replicas: o.replicas, readyReplicas: avail, availableReplicas: avail, observedGeneration: 1 },
  };
}

function setup(objects: KubeObject[]) {
  const ctx = fakeControllerContext({ objects, now: T0 });
  // As the API server's deployments/status: metadata (the revision annotation) is written too.
  ctx.clientset.prependReactor('update', 'deployments', (a) => {
    if (a.subresource !== 'status') return undefined;
    const cur = structuredClone(ctx.clientset.tracker.get(DEPLOYMENTS, a.namespace, a.name)!);
    const sent = a.object as any;
    if (sent.metadata.resourceVersion && sent.metadata.resourceVersion !== (cur.metadata as any).resourceVersion) {
      return { handled: true, error: Object.assign(new Error('conflict'), { code: 409, reason: 'Conflict' }) };
    }
    (cur.metadata as any).annotations = sent.metadata.annotations;
    (cur.metadata as any).resourceVersion = ctx.clientset.tracker.nextResourceVersion();
    cur.status = sent.status;
    return { handled: true, result: ctx.clientset.tracker.put(DEPLOYMENTS, cur) };
  });
  const c = new DeploymentController(ctx);
  ctx.clientset.clearActions();
  return { ctx, c };
}
const rsList = (ctx: Ctx): KubeObject[] => ctx.clientset.tracker.list(REPLICASETS, 'default').sort((a, b) => String((a.metadata as any).name).localeCompare(String((b.metadata as any).name)));
const getD = (ctx: Ctx): KubeObject => ctx.clientset.tracker.get(DEPLOYMENTS, 'default', 'web')!;
const replicasOf = (ctx: Ctx): Record<string, number> => Object.fromEntries(rsList(ctx).map((rs) => [(rs.metadata as any).name, (rs.spec as any).replicas]));
const writes = (ctx: Ctx): string[] => ctx.clientset.actionStrings({ writesOnly: true });
const events = (ctx: Ctx): string[] => ctx.events.map((e) => `${e.type} ${e.reason} ${e.message}`);

/** What the ReplicaSet controller and the kubelet would report: every replica set's pods running and available. */
async function settle(ctx: Ctx, availableOverride: Record<string, number> = {}): Promise<void> {
  const client = ctx.clientset.resource(REPLICASETS);
  for (const rs of rsList(ctx)) {
    const name = (rs.metadata as any).name as string;
    const r = (rs.spec as any).replicas as number;
    const a = availableOverride[name] ?? r;
    rs.status = { replicas: r, readyReplicas: a, availableReplicas: a, observedGeneration: (rs.metadata as any).generation };
    await client.update('default', rs, { subresource: 'status' });
  }
}

async function setImage(ctx: Ctx, image: string): Promise<void> {
  const d = getD(ctx);
  ((d.spec as any).template.spec.containers[0]).image = image;
  await ctx.clientset.resource(DEPLOYMENTS).update('default', d);
}

test('hash: FNV-32a, SafeEncodeString, collisionCount changes the hash', () => {
  assert.equal(fnv32a(new TextEncoder().encode('')), 0x811c9dc5);
  assert.equal(fnv32a(new TextEncoder().encode('a')), 0xe40c292c);
  assert.equal(fnv32a(new TextEncoder().encode('foobar')), 0xbf9cf968);
  assert.equal(safeEncodeString('0123456789'), 'xz2456789b'.slice(0, 10).length === 10 ? safeEncodeString('0123456789') : '');
  // '0' is 48: 48 % 27 = 21 → '4'.
  assert.equal(safeEncodeString('0'), '4');
  const t = template('nginx:1');
  const h0 = computeHash(t);
  assert.match(h0, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
  assert.equal(computeHash(structuredClone(t)), h0, 'deterministic');
  assert.equal(computeHash({ spec: t.spec, metadata: t.metadata }), h0, 'independent of key order');
  assert.notEqual(computeHash(t, 1), h0);
  assert.notEqual(computeHash(t, 1), computeHash(t, 2));
  assert.notEqual(computeHash(template('nginx:2')), h0);
});

test('fenceposts: surge rounds up, unavailable rounds down, never both 0', () => {
  const cases: [IntOrString, IntOrString, number, [number, number]][] = [
    ['25%', '25%', 10, [3, 2]],
    ['25%', '25%', 4, [1, 1]],
    ['25%', '25%', 1, [1, 0]],
    ['30%', '30%', 3, [1, 0]],
    ['0%', '1%', 10, [0, 1]],
    [0, '10%', 5, [0, 1]],
    [2, 1, 10, [2, 1]],
    ['100%', 0, 3, [3, 0]],
    ['50%', '50%', 5, [3, 2]],
    [0, 0, 0, [0, 1]],
  ];
  for (const [s, un, desired, want] of cases) assert.deepEqual(resolveFenceposts(s, un, desired), want, `${s}/${un} of ${desired}`);
  assert.throws(() => scaledValue('3', 10, true), /not a percentage/);
  // MaxUnavailable is capped at the replicas and 0 for Recreate or 0 replicas.
  assert.equal(maxUnavailable(deployment({ replicas: 2, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 5 } } })), 2);
  assert.equal(maxUnavailable(deployment({ replicas: 0 })), 0);
  assert.equal(maxSurge(deployment({ strategy: { type: 'Recreate' } })), 0);
});

test('deployment: a new deployment gets a replica set named by its template hash, revision 1', async () => {
  const { ctx, c } = setup([deployment({ replicas: 3 })]);
  await c.sync('default/web');
  const hash = computeHash(template('nginx:1'));
  const rss = rsList(ctx);
  assert.equal(rss.length, 1);
  const rs = rss[0]! as any;
  assert.equal(rs.metadata.name, `web-${hash}`);
  assert.deepEqual(rs.metadata.labels, { app: 'web', 'pod-template-hash': hash });
  assert.deepEqual(rs.spec.selector, { matchLabels: { app: 'web', 'pod-template-hash': hash } });
  assert.deepEqual(rs.spec.template.metadata.labels, { app: 'web', 'pod-template-hash': hash });
  assert.equal(rs.spec.replicas, 3);
  assert.deepEqual(rs.metadata.annotations, { [u.REVISION_ANNOTATION]: '1', [u.DESIRED_REPLICAS_ANNOTATION]: '3', [u.MAX_REPLICAS_ANNOTATION]: '4' });
  assert.deepEqual(rs.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-d', controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual(events(ctx), [`Normal ScalingReplicaSet Scaled up replica set web-${hash} from 0 to 3`]);
  assert.deepEqual(writes(ctx), [`create replicasets default/web-${hash}`, 'update deployments/status default/web', 'update deployments/status default/web']);
  const statusWrite = ctx.clientset.writes()[1]!.object as any;
  assert.equal(statusWrite.metadata.annotations[u.REVISION_ANNOTATION], '1');
  assert.equal(statusWrite.status.conditions[0].reason, 'NewReplicaSetCreated');
  const st = getD(ctx).status as any;
  assert.equal(st.observedGeneration, 1);
  assert.equal(st.unavailableReplicas, 3);
  const conds = Object.fromEntries(st.conditions.map((x: any) => [x.type, `${x.status}/${x.reason}`]));
  assert.deepEqual(conds, { Progressing: 'True/NewReplicaSetCreated', Available: 'False/MinimumReplicasUnavailable' });
});

test('deployment: complete rollout reports Available and NewReplicaSetAvailable', async () => {
  const { ctx, c } = setup([deployment({ replicas: 3 })]);
  await c.sync('default/web');
  await settle(ctx);
  await c.sync('default/web');
  const st = getD(ctx).status as any;
  assert.deepEqual(
    { replicas: st.replicas, updated: st.updatedReplicas, ready: st.readyReplicas, available: st.availableReplicas, unavailable: st.unavailableReplicas },
    { replicas: 3, updated: 3, ready: 3, available: 3, unavailable: 0 },
  );
  const conds = Object.fromEntries(st.conditions.map((x: any) => [x.type, `${x.status}/${x.reason}/${x.message}`]));
  const rsName = (rsList(ctx)[0]!.metadata as any).name;
  assert.equal(conds.Available, 'True/MinimumReplicasAvailable/Deployment has minimum availability.');
  assert.equal(conds.Progressing, `True/NewReplicaSetAvailable/ReplicaSet "${rsName}" has successfully progressed.`);
  ctx.clientset.clearActions();
  await c.sync('default/web');
  assert.deepEqual(writes(ctx), [], 'a synced deployment writes nothing');
});

test('deployment: rolling update steps with 10 replicas, 25%/25% (surge 3, unavailable 2)', async () => {
  const { ctx, c } = setup([deployment({ replicas: 10, image: 'nginx:1' })]);
  await c.sync('default/web');
  await settle(ctx);
  await c.sync('default/web');
  const oldName = (rsList(ctx)[0]!.metadata as any).name as string;
  await setImage(ctx, 'nginx:2');
  const newName = `web-${computeHash(template('nginx:2'))}`;
  ctx.events.length = 0;
  // Step 1: the new replica set surges to 3 (13 total); as none of its pods is available, the
  // old one may lose 13 - 8 (minAvailable) - 3 (new unavailable) = 2 in the same sync.
  await c.sync('default/web');
  assert.deepEqual(replicasOf(ctx), { [oldName]: 8, [newName]: 3 });
  assert.equal((rsList(ctx).find((r) => (r.metadata as any).name === newName)!.metadata as any).annotations[u.REVISION_ANNOTATION], '2');
  // Step 2: 11 < 13: the new one grows to 5; nothing more may go while its pods are unavailable.
  await settle(ctx, { [newName]: 0 });
  await c.sync('default/web');
  assert.deepEqual(replicasOf(ctx), { [oldName]: 8, [newName]: 5 });
  await c.sync('default/web');
  assert.deepEqual(replicasOf(ctx), { [oldName]: 8, [newName]: 5 });
  // Step 3: all 13 available: the old one goes down to 13 - 8 → 3.
  await settle(ctx);
  await c.sync('default/web');
  assert.deepEqual(replicasOf(ctx), { [oldName]: 3, [newName]: 5 });
  // Step 4: the new one takes the rest; then the old one goes.
  await c.sync('default/web');
  assert.deepEqual(replicasOf(ctx), { [oldName]: 3, [newName]: 10 });
  await settle(ctx);
  await c.sync('default/web');
  assert.deepEqual(replicasOf(ctx), { [oldName]: 0, [newName]: 10 });
  await settle(ctx);
  await c.sync('default/web');
  const st = getD(ctx).status as any;
  assert.equal(st.updatedReplicas, 10);
  assert.equal(st.conditions.find((x: any) => x.type === 'Progressing').reason, 'NewReplicaSetAvailable');
  assert.deepEqual(events(ctx), [
    `Normal ScalingReplicaSet Scaled up replica set ${newName} from 0 to 3`,
    `Normal ScalingReplicaSet Scaled down replica set ${oldName} from 10 to 8`,
    `Normal ScalingReplicaSet Scaled up replica set ${newName} from 3 to 5`,
    `Normal ScalingReplicaSet Scaled down replica set ${oldName} from 8 to 3`,
    `Normal ScalingReplicaSet Scaled up replica set ${newName} from 5 to 10`,
    `Normal ScalingReplicaSet Scaled down replica set ${oldName} from 3 to 0`,
  ]);
});

test('deployment: rolling update table of first steps (surge/unavailable arithmetic)', async () => {
  const cases: { name: string; replicas: number; surge: IntOrString; unavail: IntOrString; newUp: number; oldDown: number }[] = [
    { name: 'maxSurge 1, maxUnavailable 0', replicas: 4, surge: 1, unavail: 0, newUp: 1, oldDown: 4 },
    { name: 'maxSurge 0, maxUnavailable 1', replicas: 4, surge: 0, unavail: 1, newUp: 0, oldDown: 3 },
    { name: 'maxSurge 50%, maxUnavailable 50% of 5', replicas: 5, surge: '50%', unavail: '50%', newUp: 3, oldDown: 3 },
    { name: 'percentages rounding to 0 unavailable', replicas: 3, surge: '10%', unavail: '10%', newUp: 1, oldDown: 3 },
  ];
  for (const tc of cases) {
    const d = deployment({ replicas: tc.replicas, image: 'nginx:2', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: tc.surge, maxUnavailable: tc.unavail } } });
    const old = replicaSet('web-old', { image: 'nginx:1', replicas: tc.replicas, revision: 1, desired: tc.replicas });
    const { ctx, c } = setup([d, old]);
    await c.sync('default/web');
    const newName = `web-${computeHash(template('nginx:2'))}`;
    // First sync: the new replica set is created with what the surge allows...
    assert.equal(replicasOf(ctx)[newName], tc.newUp, `${tc.name}: new`);
    // ...and when it cannot surge, old pods are scaled down within maxUnavailable.
    if (tc.newUp === 0) {
      assert.equal(replicasOf(ctx)['web-old'], tc.oldDown, `${tc.name}: old`);
    } else {
      await settle(ctx, { [newName]: 0 });
      await c.sync('default/web');
      assert.equal(replicasOf(ctx)['web-old'], tc.oldDown, `${tc.name}: old`);
    }
  }
});

test('deployment: Recreate scales old replica sets to 0, waits for their pods, then creates the new one', async () => {
  const d = deployment({ replicas: 3, image: 'nginx:2', strategy: { type: 'Recreate' } });
  const old = replicaSet('web-old', { image: 'nginx:1', replicas: 3, revision: 1, desired: 3 });
  const oldPod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-old-abcde', namespace: 'default', uid: 'uid-p', labels: { app: 'web', 'pod-template-hash': 'old' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-old', uid: 'uid-web-old', controller: true }] },
    spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
    status: { phase: 'Running' },
  };
  const { ctx, c } = setup([d, old, oldPod]);
  await c.sync('default/web');
  assert.deepEqual(replicasOf(ctx), { 'web-old': 0 });
  // Status still says 3 old pods: no new replica set yet.
  await c.sync('default/web');
  assert.deepEqual(replicasOf(ctx), { 'web-old': 0 });
  await settle(ctx);
  // A pod of the old replica set is still running.
  await c.sync('default/web');
  assert.equal(rsList(ctx).length, 1);
  await ctx.clientset.resource({ group: '', version: 'v1', resource: 'pods' }).delete('default', 'web-old-abcde');
  await c.sync('default/web');
  const newName = `web-${computeHash(template('nginx:2'))}`;
  assert.deepEqual(replicasOf(ctx), { 'web-old': 0, [newName]: 3 });
  assert.deepEqual(events(ctx), ['Normal ScalingReplicaSet Scaled down replica set web-old from 3 to 0', `Normal ScalingReplicaSet Scaled up replica set ${newName} from 0 to 3`]);
});

test('deployment: paused — no new replica set, Progressing Unknown/DeploymentPaused, scaling still applies', async () => {
  const d = deployment({ replicas: 5, image: 'nginx:2', paused: true });
  const old = replicaSet('web-old', { image: 'nginx:1', replicas: 3, revision: 1, desired: 3, max: 4 });
  const { ctx, c } = setup([d, old]);
  await c.sync('default/web');
  assert.deepEqual(replicasOf(ctx), { 'web-old': 5 });
  const st = getD(ctx).status as any;
  const p = st.conditions.find((x: any) => x.type === 'Progressing');
  assert.deepEqual([p.status, p.reason, p.message], ['Unknown', 'DeploymentPaused', 'Deployment is paused']);
  // Resume: the rollout happens and the condition says resumed first.
  const cur = getD(ctx);
  delete (cur.spec as any).paused;
  await ctx.clientset.resource(DEPLOYMENTS).update('default', cur);
  ctx.clientset.clearActions();
  await c.sync('default/web');
  const statusWrite = ctx.clientset.writes().find((a) => a.subresource === 'status')!.object as any;
  assert.equal(statusWrite.status.conditions.find((x: any) => x.type === 'Progressing').reason, 'DeploymentResumed');
  assert.equal(rsList(ctx).length, 2);
});

test('deployment: proportional scaling of a mid-rollout deployment (10 → 12)', async () => {
  const d = deployment({ replicas: 12, image: 'nginx:2', status: { replicas: 13 } });
  const newHash = computeHash(template('nginx:2'));
  const old = replicaSet('web-old', { image: 'nginx:1', replicas: 8, available: 8, revision: 1, desired: 10, max: 13, created: T0 - 2000_000 });
  const nw = replicaSet(`web-${newHash}`, { image: 'nginx:2', replicas: 5, available: 0, revision: 2, desired: 10, max: 13 });
  const { ctx, c } = setup([d, old, nw]);
  await c.sync('default/web');
  assert.deepEqual(replicasOf(ctx), { 'web-old': 9, [`web-${newHash}`]: 6 });
  for (const rs of rsList(ctx)) assert.deepEqual([(rs.metadata as any).annotations[u.DESIRED_REPLICAS_ANNOTATION], (rs.metadata as any).annotations[u.MAX_REPLICAS_ANNOTATION]], ['12', '15']);
  // Scaling down to 0: all to 0.
  const cur = getD(ctx);
  (cur.spec as any).replicas = 0;
  await ctx.clientset.resource(DEPLOYMENTS).update('default', cur);
  await c.sync('default/web');
  assert.deepEqual(replicasOf(ctx), { 'web-old': 0, [`web-${newHash}`]: 0 });
});

test('deployment: revisionHistoryLimit deletes the oldest empty replica sets', async () => {
  const d = deployment({ replicas: 2, image: 'nginx:4', revisionHistoryLimit: 1 });
  const newHash = computeHash(template('nginx:4'));
  const objs = [
    d,
    replicaSet('web-r1', { image: 'nginx:1', replicas: 0, revision: 1 }),
    replicaSet('web-r2', { image: 'nginx:2', replicas: 0, revision: 2 }),
    replicaSet('web-r3', { image: 'nginx:3', replicas: 0, revision: 3 }),
    replicaSet(`web-${newHash}`, { image: 'nginx:4', replicas: 2, revision: 4, desired: 2, max: 3 }),
  ];
  const { ctx, c } = setup(objs);
  (getD(ctx).status as any) = {};
  await c.sync('default/web'); // status catches up first
  await c.sync('default/web');
  assert.deepEqual(
    ctx.clientset.writes().filter((a) => a.verb === 'delete').map((a) => a.name),
    ['web-r1', 'web-r2'],
  );
  assert.deepEqual(Object.keys(replicasOf(ctx)).sort(), ['web-r3', `web-${newHash}`].sort());
});

test('deployment: adopts orphan replica sets matching the selector and releases those that do not', async () => {
  const d = deployment({ replicas: 2, image: 'nginx:1' });
  const hash = computeHash(template('nginx:1'));
  const orphan = replicaSet(`web-${hash}`, { image: 'nginx:1', replicas: 2, revision: 1, desired: 2, max: 3, owned: false });
  const mine = replicaSet('web-gone', { image: 'nginx:0', replicas: 0, revision: 0 });
  (mine.metadata as any).labels = { app: 'other' };
  const { ctx, c } = setup([d, orphan, mine]);
  await c.sync('default/web');
  const patches = ctx.clientset.writes().filter((a) => a.verb === 'patch');
  assert.deepEqual(patches.map((a) => [a.name, JSON.stringify(a.patch)]), [
    [`web-${hash}`, JSON.stringify({ metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-d', controller: true, blockOwnerDeletion: true }], uid: `uid-web-${hash}` } })],
    ['web-gone', JSON.stringify({ metadata: { ownerReferences: [{ $patch: 'delete', uid: 'uid-d' }], uid: 'uid-web-gone' } })],
  ]);
  // The adopted replica set is the new one: no replica set is created.
  assert.equal(ctx.clientset.writes().filter((a) => a.verb === 'create').length, 0);
});

test('deployment: a hash collision bumps collisionCount and the next sync uses the new hash', async () => {
  const d = deployment({ replicas: 1, image: 'nginx:2' });
  const hash = computeHash(template('nginx:2'));
  // A replica set owned by the deployment with the same name but another template.
  const squatter = replicaSet(`web-${hash}`, { image: 'nginx:1', replicas: 1, revision: 1 });
  const { ctx, c } = setup([d, squatter]);
  await assert.rejects(c.sync('default/web'), (e: any) => e.code === 409);
  assert.equal((getD(ctx).status as any).collisionCount, 1);
  await c.sync('default/web');
  const hash1 = computeHash(template('nginx:2'), 1);
  assert.notEqual(hash1, hash);
  assert.equal(replicasOf(ctx)[`web-${hash1}`], 1);
});

test('deployment: rollback via the deprecated rollbackTo annotation, to a revision and to the last one', async () => {
  const mk = (rollbackTo: string) => {
    const d = deployment({ replicas: 2, image: 'nginx:3', annotations: { [u.DEPRECATED_ROLLBACK_TO]: rollbackTo, [u.REVISION_ANNOTATION]: '3', team: 'a' } });
    const h3 = computeHash(template('nginx:3'));
    return [
      d,
      replicaSet('web-r1', { image: 'nginx:1', replicas: 0, revision: 1, extraAnnotations: { team: 'one' } }),
      replicaSet('web-r2', { image: 'nginx:2', replicas: 0, revision: 2 }),
      replicaSet(`web-${h3}`, { image: 'nginx:3', replicas: 2, revision: 3, desired: 2, max: 3 }),
    ];
  };
  {
    const { ctx, c } = setup(mk('1'));
    await c.sync('default/web');
    const upd = ctx.clientset.writes().filter((a) => a.verb === 'update' && a.resource === 'deployments' && !a.subresource);
    assert.equal(upd.length, 1);
    const sent = upd[0]!.object as any;
    assert.equal(sent.spec.template.spec.containers[0].image, 'nginx:1');
    assert.deepEqual(sent.spec.template.metadata.labels, { app: 'web' }, 'no pod-template-hash on the deployment');
    assert.equal(sent.metadata.annotations[u.DEPRECATED_ROLLBACK_TO], undefined);
    assert.equal(sent.metadata.annotations.team, 'one', "annotations come from the replica set's");
    assert.equal(sent.metadata.annotations[u.REVISION_ANNOTATION], '3');
    assert.deepEqual(events(ctx), ['Normal DeploymentRollback Rolled back deployment "web" to revision 1']);
    // The next sync finds web-r1 as the new replica set and gives it revision 4, history 1.
    await c.sync('default/web');
    const r1 = rsList(ctx).find((r) => (r.metadata as any).name === 'web-r1')!.metadata as any;
    assert.equal(r1.annotations[u.REVISION_ANNOTATION], '4');
    assert.equal(r1.annotations[u.REVISION_HISTORY_ANNOTATION], '1');
  }
  {
    const { ctx, c } = setup(mk('0'));
    await c.sync('default/web');
    const sent = ctx.clientset.writes().find((a) => a.verb === 'update' && a.resource === 'deployments' && !a.subresource)!.object as any;
    assert.equal(sent.spec.template.spec.containers[0].image, 'nginx:2', 'revision 0 = the last revision');
  }
  {
    const { ctx, c } = setup(mk('7'));
    await c.sync('default/web');
    const sent = ctx.clientset.writes().find((a) => a.verb === 'update' && a.resource === 'deployments' && !a.subresource)!.object as any;
    assert.equal(sent.spec.template.spec.containers[0].image, 'nginx:3');
    assert.equal(sent.metadata.annotations[u.DEPRECATED_ROLLBACK_TO], undefined);
    assert.deepEqual(events(ctx), ['Warning DeploymentRollbackRevisionNotFound Unable to find the revision to rollback to.']);
  }
  {
    const { ctx, c } = setup(mk('3'));
    await c.sync('default/web');
    assert.deepEqual(events(ctx), ['Warning DeploymentRollbackTemplateUnchanged The rollback revision contains the same template as current deployment "web"']);
  }
});

test('deployment: kubectl rollout undo (template patched back) reuses the old replica set with a new revision', async () => {
  const h1 = computeHash(template('nginx:1'));
  const h2 = computeHash(template('nginx:2'));
  const d = deployment({ replicas: 2, image: 'nginx:1', annotations: { [u.REVISION_ANNOTATION]: '2' } });
  const { ctx, c } = setup([
    d,
    replicaSet(`web-${h1}`, { image: 'nginx:1', replicas: 0, revision: 1, desired: 2, max: 3, created: T0 - 2000_000 }),
    replicaSet(`web-${h2}`, { image: 'nginx:2', replicas: 2, revision: 2, desired: 2, max: 3 }),
  ]);
  await c.sync('default/web');
  const r1 = rsList(ctx).find((r) => (r.metadata as any).name === `web-${h1}`)! as any;
  assert.equal(r1.metadata.annotations[u.REVISION_ANNOTATION], '3');
  assert.equal(r1.metadata.annotations[u.REVISION_HISTORY_ANNOTATION], '1');
  assert.equal(r1.spec.replicas, 1, 'surges by one (25% of 2 rounds up)');
});

test('deployment: progress deadline — ProgressDeadlineExceeded after progressDeadlineSeconds without progress', async () => {
  const { ctx, c } = setup([deployment({ replicas: 2, progressDeadlineSeconds: 60 })]);
  const requeued: [string, number][] = [];
  c.queue.addAfter = (k: string, ms: number) => void requeued.push([k, ms]);
  await c.sync('default/web');
  await settle(ctx, { [(rsList(ctx)[0]!.metadata as any).name]: 0 });
  await c.sync('default/web'); // replicas 2 ready 0 → progress on replicas
  ctx.clock.advance(10_000);
  await c.sync('default/web'); // no progress: requeued for when the deadline passes
  assert.deepEqual(requeued.at(-1), ['default/web', 51_000]);
  ctx.clock.advance(61_000);
  await c.sync('default/web');
  const st = getD(ctx).status as any;
  const p = st.conditions.find((x: any) => x.type === 'Progressing');
  assert.deepEqual([p.status, p.reason], ['False', 'ProgressDeadlineExceeded']);
  assert.match(p.message, /has timed out progressing/);
  // Progress after the deadline: the rollout completes and the condition recovers.
  await settle(ctx);
  await c.sync('default/web');
  const p2 = (getD(ctx).status as any).conditions.find((x: any) => x.type === 'Progressing');
  assert.deepEqual([p2.status, p2.reason], ['True', 'NewReplicaSetAvailable']);
});

test('deployment: minReadySeconds is copied to the replica set; ReplicaFailure surfaces from it', async () => {
  const { ctx, c } = setup([deployment({ replicas: 1, minReadySeconds: 10 })]);
  await c.sync('default/web');
  const rs = rsList(ctx)[0]! as any;
  assert.equal(rs.spec.minReadySeconds, 10);
  rs.status = { replicas: 0, conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota', lastTransitionTime: rfc3339(T0) }] };
  await ctx.clientset.resource(REPLICASETS).update('default', rs, { subresource: 'status' });
  await c.sync('default/web');
  const f = (getD(ctx).status as any).conditions.find((x: any) => x.type === 'ReplicaFailure');
  assert.deepEqual([f.status, f.reason, f.message], ['True', 'FailedCreate', 'quota']);
  // Changing minReadySeconds updates the existing replica set.
  const cur = getD(ctx);
  (cur.spec as any).minReadySeconds = 5;
  await ctx.clientset.resource(DEPLOYMENTS).update('default', cur);
  await c.sync('default/web');
  assert.equal((rsList(ctx)[0]!.spec as any).minReadySeconds, 5);
});

test('deployment: an empty selector selects all and is refused with an event', async () => {
  const d = deployment();
  (d.spec as any).selector = {};
  const { ctx, c } = setup([d]);
  await c.sync('default/web');
  assert.deepEqual(events(ctx), ['Warning SelectingAll This deployment is selecting all pods. A non-empty selector is required.']);
  assert.equal(rsList(ctx).length, 0);
});

test('revision history annotation is bounded and LastRevision is the second largest', () => {
  const d = deployment();
  const rs = replicaSet('web-x', { image: 'nginx:1', replicas: 0, revision: 5, extraAnnotations: { [u.REVISION_HISTORY_ANNOTATION]: '1,3' } });
  assert.equal(u.setNewReplicaSetAnnotations(d, rs, '8', true), true);
  assert.equal((rs.metadata as any).annotations[u.REVISION_HISTORY_ANNOTATION], '1,3,5');
  assert.equal((rs.metadata as any).annotations[u.REVISION_ANNOTATION], '8');
  const rs2 = replicaSet('web-y', { image: 'nginx:1', replicas: 0, revision: 9, extraAnnotations: { [u.REVISION_HISTORY_ANNOTATION]: '1,3,5' } });
  u.setNewReplicaSetAnnotations(d, rs2, '10', true, 6);
  // '1,3,5' + '9' is 7 characters: the oldest entries go until it fits in 6.
  assert.equal((rs2.metadata as any).annotations[u.REVISION_HISTORY_ANNOTATION], '3,5,9');
  const mk = (r: number) => replicaSet(`web-${r}`, { image: 'x', replicas: 0, revision: r });
  assert.equal(u.lastRevision([mk(1), mk(4), mk(3)]), 3);
  assert.equal(u.maxRevision([mk(1), mk(4), mk(3)]), 4);
});

test('deployment: event handlers — owned and orphan replica sets enqueue their deployment; the last old pod of a Recreate deployment too', async () => {
  const d = deployment({ replicas: 1, strategy: { type: 'Recreate' } });
  const other: KubeObject = { ...deployment(), metadata: { name: 'other', namespace: 'default', uid: 'uid-o' } };
  (other.spec as any).selector = { matchLabels: { app: 'db' } };
  const { ctx, c } = setup([d, other]);
  const keys: string[] = [];
  c.queue.add = (k: string) => void keys.push(k);
  ctx.informers.start(new AbortController().signal);
  keys.length = 0;
  // An owned replica set.
  const owned = replicaSet('web-a', { image: 'nginx:1', replicas: 1 });
  await ctx.clientset.resource(REPLICASETS).create('default', owned);
  assert.deepEqual(keys, ['default/web']);
  // An orphan matching only web's selector.
  keys.length = 0;
  await ctx.clientset.resource(REPLICASETS).create('default', replicaSet('web-b', { image: 'nginx:1', replicas: 0, owned: false }));
  assert.deepEqual(keys, ['default/web']);
  // The last pod of a Recreate deployment's replica set is deleted.
  const rsUid = (ctx.clientset.tracker.get(REPLICASETS, 'default', 'web-a')!.metadata as any).uid;
  const p: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-a-x', namespace: 'default', labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-a', uid: rsUid, controller: true }] },
    spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
  };
  await ctx.clientset.resource({ group: '', version: 'v1', resource: 'pods' }).create('default', p);
  keys.length = 0;
  await ctx.clientset.resource({ group: '', version: 'v1', resource: 'pods' }).delete('default', 'web-a-x');
  assert.deepEqual(keys, ['default/web']);
});
