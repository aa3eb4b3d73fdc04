import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, type FakeControllerContext } from '../../client/fake/index.js';
import { ClientStatusError } from '../../client/errors.js';
import type { KubeObject } from '../../client/types.js';
import { labelsOf, metadataOf, nameOf } from '../../api/meta/object.js';
import { obj } from '../common/testutil.js';
import { DaemonSetController } from './controller.js';
import { nodeShouldRunDaemonPod, targetNodeName } from './placement.js';
import { scaledValue } from './spec.js';

const T0 = Date.UTC(2026, 0, 1);

function node(name: string, o: { labels?: Record<string, string>; taints?: { key: string; value?: string; effect: string }[] } = {}): KubeObject {
  return obj('v1', 'Node', name, { labels: { 'kubernetes.io/hostname': name, ...(o.labels ?? {}) }, spec: o.taints ? { taints: o.taints } : {} });
}

function daemonset(o: { nodeSelector?: Record<string, string>; tolerations?: unknown[]; strategy?: unknown; generation?: number; image?: string; affinity?: unknown } = {}): KubeObject {
  return obj('apps/v1', 'DaemonSet', 'ds', {
    namespace: 'default',
    annotations: { 'deprecated.daemonset.template.generation': String(o.generation ?? 1) },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          containers: [{ name: 'c', image: o.image ?? 'agent:1' }],
          ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
          ...(o.tolerations ? { tolerations: o.tolerations } : {}),
          ...(o.affinity ? { affinity: o.affinity } : {}),
        },
      },
      updateStrategy: o.strategy ?? { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      revisionHistoryLimit: 10,
    },
  });
}

const PODS = { group: '', resource: 'pods' };
const pods = (ctx: FakeControllerContext) => ctx.clientset.tracker.list(PODS, 'default');
const podNodes = (ctx: FakeControllerContext) => pods(ctx).map((p) => targetNodeName(p)).sort();
const dsStatus = (ctx: FakeControllerContext) => ctx.clientset.tracker.get({ group: 'apps', resource: 'daemonsets' }, 'default', 'ds')?.status as Record<string, number>;

function setup(objects: KubeObject[]): { ctx: FakeControllerContext; c: DaemonSetController } {
  const ctx = fakeControllerContext({ objects, now: T0 });
  return { ctx, c: new DaemonSetController(ctx) };
}

test('placement: nodeSelector, required node affinity, taints and the daemon pods default tolerations', () => {
  const cases: { name: string; node: KubeObject; ds: KubeObject; want: [boolean, boolean] }[] = [
    { name: 'plain node', node: node('n'), ds: daemonset(), want: [true, true] },
    { name: 'nodeSelector matches', node: node('n', { labels: { disk: 'ssd' } }), ds: daemonset({ nodeSelector: { disk: 'ssd' } }), want: [true, true] },
    { name: 'nodeSelector does not match', node: node('n'), ds: daemonset({ nodeSelector: { disk: 'ssd' } }), want: [false, false] },
    {
      name: 'required affinity NotIn',
      node: node('n', { labels: { zone: 'a' } }),
      ds: daemonset({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }] } } } }),
      want: [false, false],
    },
    {
      name: 'required affinity terms are ORed; matchFields metadata.name',
      node: node('n2'),
      ds: daemonset({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }] } } } }),
      want: [true, true],
    },
    { name: 'untolerated NoSchedule: not scheduled, existing pod continues', node: node('n', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }), ds: daemonset(), want: [false, true] },
    { name: 'untolerated NoExecute: evicted', node: node('n', { taints: [{ key: 'dedicated', effect: 'NoExecute' }] }), ds: daemonset(), want: [false, false] },
    { name: 'tolerated by the template', node: node('n', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }), ds: daemonset({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }] }), want: [true, true] },
    { name: 'default toleration: not-ready NoExecute', node: node('n', { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }] }), ds: daemonset(), want: [true, true] },
    { name: 'default toleration: unschedulable NoSchedule', node: node('n', { taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] }), ds: daemonset(), want: [true, true] },
    { name: 'default toleration: memory-pressure', node: node('n', { taints: [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }] }), ds: daemonset(), want: [true, true] },
    { name: 'network-unavailable only for host network', node: node('n', { taints: [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }] }), ds: daemonset(), want: [false, true] },
  ];
  for (const c of cases) assert.deepEqual(nodeShouldRunDaemonPod(c.node, c.ds), c.want, c.name);
});

test('maxUnavailable: numbers, percentages rounding up', () => {
  assert.equal(scaledValue(2, 10, 1), 2);
  assert.equal(scaledValue('10%', 15, 1), 2);
  assert.equal(scaledValue('50%', 3, 1), 2);
  assert.equal(scaledValue(undefined, 3, 1), 1);
});

test('one pod per eligible node, bound to it, with the revision hash and template generation; status', async () => {
  const { ctx, c } = setup([node('a'), node('b', { labels: { role: 'x' } }), node('tainted', { taints: [{ key: 'k', effect: 'NoSchedule' }] }), daemonset()]);
  await c.sync('default/ds');
  assert.deepEqual(podNodes(ctx), ['a', 'b']);
  const p = pods(ctx)[0]!;
  const m = metadataOf(p);
  assert.equal(m.generateName, 'ds-');
  assert.deepEqual((m.ownerReferences as unknown[])[0], { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: metadataOf(ctx.clientset.tracker.get({ group: 'apps', resource: 'daemonsets' }, 'default', 'ds')!).uid, controller: true, blockOwnerDeletion: true });
  const spec = p.spec as { nodeName: string; affinity: unknown; tolerations: { key: string }[] };
  assert.deepEqual(spec.affinity, { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [spec.nodeName] }] }] } } });
  assert.deepEqual(
    spec.tolerations.map((t) => t.key),
    ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', 'node.kubernetes.io/disk-pressure', 'node.kubernetes.io/memory-pressure', 'node.kubernetes.io/pid-pressure', 'node.kubernetes.io/unschedulable'],
  );
  const revs = ctx.clientset.tracker.list({ group: 'apps', resource: 'controllerrevisions' }, 'default');
  assert.equal(revs.length, 1);
  const hash = labelsOf(revs[0]!)['controller-revision-hash']!;
  assert.equal(nameOf(revs[0]!), `ds-${hash}`);
  assert.equal(revs[0]!.revision, 1);
  assert.deepEqual(labelsOf(p), { app: 'agent', 'pod-template-generation': '1', 'controller-revision-hash': hash });
  assert.ok(ctx.events.some((e) => e.reason === 'SuccessfulCreate'));
  // a second sync creates nothing more; the status counts the pods (none ready yet)
  await c.sync('default/ds');
  assert.equal(pods(ctx).length, 2);
  assert.deepEqual(dsStatus(ctx), { desiredNumberScheduled: 2, currentNumberScheduled: 2, numberMisscheduled: 0, numberReady: 0, updatedNumberScheduled: 2, numberAvailable: 0, numberUnavailable: 2, observedGeneration: 0 });
});

test('a node relabelled out of the nodeSelector loses its pod; a new matching node gets one', async () => {
  const { ctx, c } = setup([node('a', { labels: { agent: 'yes' } }), node('b', { labels: { agent: 'yes' } }), daemonset({ nodeSelector: { agent: 'yes' } })]);
  await c.sync('default/ds');
  assert.deepEqual(podNodes(ctx), ['a', 'b']);
  ctx.clientset.tracker.add(node('b'));
  ctx.clientset.tracker.add(node('c', { labels: { agent: 'yes' } }));
  await c.sync('default/ds');
  assert.deepEqual(podNodes(ctx), ['a', 'c']);
  assert.ok(ctx.events.some((e) => e.reason === 'SuccessfulDelete'));
});

test('extra pods on a node: the oldest stays; failed pods are replaced', async () => {
  // (OnDelete: with RollingUpdate these unready pods of no known revision would also be replaced)
  const ds = daemonset({ strategy: { type: 'OnDelete' } });
  const ref = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: String(metadataOf(ds).uid), controller: true };
  const mk = (name: string, created: number, phase = 'Running') =>
    obj('v1', 'Pod', name, { namespace: 'default', labels: { app: 'agent' }, owners: [ref], creationTimestamp: new Date(T0 + created * 1000).toISOString().replace(/\.\d+Z$/, 'Z'), spec: { nodeName: 'a' }, status: { phase } });
  const { ctx, c } = setup([node('a'), node('b'), ds, mk('old', 0), mk('new', 10), mk('failed', 0, 'Failed')]);
  await c.sync('default/ds');
  const names = pods(ctx).map(nameOf).sort();
  assert.ok(names.includes('old') && !names.includes('new') && !names.includes('failed'), names.join(','));
  assert.deepEqual(podNodes(ctx), ['a', 'b']);
});

test('orphan pods matching the selector are adopted instead of duplicated', async () => {
  const { ctx, c } = setup([node('a'), daemonset({ strategy: { type: 'OnDelete' } }), obj('v1', 'Pod', 'stray', { namespace: 'default', labels: { app: 'agent' }, spec: { nodeName: 'a' }, status: { phase: 'Running' } })]);
  await c.sync('default/ds');
  assert.deepEqual(pods(ctx).map(nameOf), ['stray']);
  assert.equal(((metadataOf(pods(ctx)[0]!).ownerReferences as { kind: string }[]) ?? [])[0]?.kind, 'DaemonSet');
});

async function rolled(strategy: unknown, nodes: number): Promise<{ deleted: number; ctx: FakeControllerContext }> {
  const names = Array.from({ length: nodes }, (_, i) => `n${i}`);
  const { ctx, c } = setup([...names.map((n) => node(n)), daemonset({ strategy })]);
  await c.sync('default/ds');
  // all pods ready and available
  for (const p of pods(ctx)) {
    p.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }] };
    ctx.clientset.tracker.add(p);
  }
  // a template change (the API server bumps the template generation)
  const ds = ctx.clientset.tracker.get({ group: 'apps', resource: 'daemonsets' }, 'default', 'ds')!;
  ((ds.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0]!).image = 'agent:2';
  (metadataOf(ds).annotations as Record<string, string>)['deprecated.daemonset.template.generation'] = '2';
  ctx.clientset.tracker.add(ds);
  ctx.clientset.clearActions();
  await c.sync('default/ds');
  return { deleted: ctx.clientset.actions.filter((a) => a.verb === 'delete' && a.resource === 'pods').length, ctx };
}

test('RollingUpdate deletes at most maxUnavailable available old pods; OnDelete none', async () => {
  assert.equal((await rolled({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }, 4)).deleted, 1);
  assert.equal((await rolled({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } }, 4)).deleted, 2);
  assert.equal((await rolled({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } }, 3)).deleted, 2);
  assert.equal((await rolled({ type: 'OnDelete' }, 4)).deleted, 0);
  const { ctx } = await rolled({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }, 2);
  // a second revision exists, the old one kept as history
  const revs = ctx.clientset.tracker.list({ group: 'apps', resource: 'controllerrevisions' }, 'default');
  assert.deepEqual(revs.map((r) => r.revision).sort(), [1, 2]);
});

test('revisionHistoryLimit: old revisions no pod uses are deleted, oldest first', async () => {
  const ds = daemonset();
  (ds.spec as { revisionHistoryLimit: number }).revisionHistoryLimit = 1;
  const ref = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: String(metadataOf(ds).uid), controller: true };
  const rev = (name: string, n: number) => ({ ...obj('apps/v1', 'ControllerRevision', name, { namespace: 'default', labels: { app: 'agent', 'controller-revision-hash': name }, owners: [ref] }), data: { spec: { template: { old: n } } }, revision: n });
  const { ctx, c } = setup([ds, rev('r1', 1), rev('r2', 2), rev('r3', 3)]);
  await c.sync('default/ds');
  const names = ctx.clientset.tracker
    .list({ group: 'apps', resource: 'controllerrevisions' }, 'default')
    .map((r) => [nameOf(r), r.revision])
    .sort();
  assert.equal(names.length, 2);
  assert.ok(names.some(([n]) => n === 'r3'));
  assert.ok(names.some(([, r]) => r === 4));
});

test('an empty selector selects all: a SelectingAll warning and nothing else', async () => {
  const ds = daemonset();
  (ds.spec as { selector: unknown }).selector = {};
  const { ctx, c } = setup([node('a'), ds]);
  await c.sync('default/ds');
  assert.deepEqual(ctx.clientset.writes(), []);
  assert.ok(ctx.events.some((e) => e.reason === 'SelectingAll'));
});

test('run: informer events drive syncs (a node added later gets its pod, a relabelled one loses it)', async () => {
  const { ctx, c } = setup([node('a', { labels: { agent: 'yes' } }), daemonset({ nodeSelector: { agent: 'yes' } })]);
  const ac = new AbortController();
  const done = c.run(2, ac.signal);
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
    assert.ok(cond());
  };
  try {
    await until(() => podNodes(ctx).join() === 'a');
    ctx.clientset.tracker.add(node('b', { labels: { agent: 'yes' } }));
    await until(() => podNodes(ctx).join() === 'a,b');
    ctx.clientset.tracker.add(node('a'));
    await until(() => podNodes(ctx).join() === 'b');
    await until(() => dsStatus(ctx)?.desiredNumberScheduled === 1 && dsStatus(ctx)?.numberMisscheduled === 0);
  } finally {
    ac.abort();
    await done;
  }
});

test('RollingUpdate with maxSurge: a new pod starts beside an available old one, which goes once the new one is available', async () => {
  const { ctx } = await rolled({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }, 3);
  const c = new DaemonSetController(ctx);
  const writes = () => ctx.clientset.actionStrings({ writesOnly: true }).filter((a) => a.startsWith('create pods') || a.startsWith('delete pods'));
  // the sync in rolled() surged onto one node: 4 pods, none deleted
  assert.deepEqual(writes(), ['create pods default/ds-']);
  assert.equal(pods(ctx).length, 4);
  const fresh = pods(ctx).find((p) => labelsOf(p)['pod-template-generation'] === '2')!;
  const node0 = targetNodeName(fresh);
  // not available yet: nothing more happens
  ctx.clientset.clearActions();
  await c.sync('default/ds');
  assert.deepEqual(writes(), []);
  // available: its old pod goes and the next node surges
  fresh.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }] };
  ctx.clientset.tracker.add(fresh);
  await c.sync('default/ds');
  const old0 = ctx.clientset.actions.find((a) => a.verb === 'delete');
  assert.ok(old0);
  assert.equal(pods(ctx).filter((p) => targetNodeName(p) === node0).length, 1);
  assert.equal(ctx.clientset.actions.filter((a) => a.verb === 'create' && a.resource === 'pods').length, 1);
});

test('failed daemon pods are deleted with a back-off per node (1 s, doubling)', async () => {
  const ds = daemonset({ strategy: { type: 'OnDelete' } });
  const ref = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: String(metadataOf(ds).uid), controller: true };
  const failed = (name: string) => obj('v1', 'Pod', name, { namespace: 'default', labels: { app: 'agent' }, owners: [ref], spec: { nodeName: 'a' }, status: { phase: 'Failed' } });
  const { ctx, c } = setup([node('a'), ds, failed('f1')]);
  await c.sync('default/ds');
  assert.ok(ctx.events.some((e) => e.reason === 'FailedDaemonPod'));
  // the replacement fails again at once: within the back-off it is left alone
  for (const p of pods(ctx)) ctx.clientset.tracker.remove(PODS, 'default', nameOf(p));
  ctx.clientset.tracker.add(failed('f2'));
  ctx.clientset.clearActions();
  await c.sync('default/ds');
  assert.equal(ctx.clientset.actions.filter((a) => a.verb === 'delete').length, 0);
  ctx.clock.advance(1001);
  await c.sync('default/ds');
  assert.deepEqual(ctx.clientset.actions.filter((a) => a.verb === 'delete').map((a) => a.name), ['f2']);
  assert.equal(c.failedPodsBackoff.get(`${String(metadataOf(ds).uid)}/a`), 2000);
});

test('pod creates refused because the namespace is terminating record no FailedCreate event (the cause travels as `reason`)', async () => {
  const { ctx, c } = setup([node('a'), daemonset()]);
  const status = { message: 'pods "ds-x" is forbidden: unable to create new content in namespace default because it is being terminated' };
  ctx.clientset.prependReactor('create', 'pods', () => ({
    handled: true,
    error: ClientStatusError.of(403, 'Forbidden', status.message, { causes: [{ reason: 'NamespaceTerminating', message: 'namespace default is being terminated', field: 'metadata.namespace' }] }),
  }));
  await c.sync('default/ds').catch(() => {});
  assert.deepEqual(ctx.events.filter((e) => e.reason === 'FailedCreate'), []);
  // Any other refusal is reported.
  ctx.clientset.prependReactor('create', 'pods', () => ({ handled: true, error: ClientStatusError.of(403, 'Forbidden', 'no') }));
  await c.sync('default/ds').catch(() => {});
  assert.equal(ctx.events.filter((e) => e.reason === 'FailedCreate').length, 1);
});
