import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, type FakeControllerContext } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { metadataOf } from '../../api/meta/object.js';
import { emulateGracefulPods, emulateNamespaces, obj, waitFor } from '../common/testutil.js';
import type { NamespaceCondition } from './conditions.js';
import { ErrGroupDiscoveryFailed } from '../../client/discovery.js';
import { deletableNamespacedResources, NamespacedResourcesDeleter, ResourcesRemainingError } from './deleter.js';
import { NamespaceController } from './controller.js';

const NOW = Date.UTC(2026, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

function namespace(name: string, o: { deleting?: boolean; deletedAt?: number; finalizers?: string[]; phase?: string } = {}): KubeObject {
  const ns = obj('v1', 'Namespace', name, o.deleting === false ? {} : { deletionTimestamp: iso(o.deletedAt ?? NOW) });
  ns.spec = { finalizers: o.finalizers ?? ['kubernetes'] };
  ns.status = { phase: o.phase ?? (o.deleting === false ? 'Active' : 'Terminating') };
  return ns;
}

function setup(objects: KubeObject[]): FakeControllerContext {
  const ctx = fakeControllerContext({ objects, now: NOW });
  emulateNamespaces(ctx.clientset);
  emulateGracefulPods(ctx.clientset);
  return ctx;
}

const nsOf = (ctx: FakeControllerContext, name: string) => ctx.clientset.tracker.get({ group: '', resource: 'namespaces' }, '', name);
const conditions = (ns: KubeObject | undefined) => ((ns?.status as { conditions?: NamespaceCondition[] } | undefined)?.conditions ?? []).filter((c) => c.status === 'True').map((c) => [c.type, c.reason, c.message]);

test('a Terminating namespace is emptied of every kind, then finalized through namespaces/finalize and removed', async () => {
  const ctx = setup([
    namespace('doomed'),
    namespace('other', { deleting: false }),
    obj('v1', 'ConfigMap', 'cm', { namespace: 'doomed' }),
    obj('v1', 'Secret', 's', { namespace: 'doomed' }),
    obj('apps/v1', 'Deployment', 'd', { namespace: 'doomed', spec: {} }),
    obj('v1', 'Pod', 'p', { namespace: 'doomed', spec: {} }),
    obj('batch/v1', 'Job', 'j', { namespace: 'doomed', spec: {} }),
    obj('v1', 'ConfigMap', 'keep', { namespace: 'other' }),
  ]);
  const d = new NamespacedResourcesDeleter(ctx.clientset, ctx.now);
  await d.delete('doomed');
  assert.equal(nsOf(ctx, 'doomed'), undefined);
  const deletes = ctx.clientset.actionStrings({ writesOnly: true }).filter((a) => a.startsWith('delete')).sort();
  assert.deepEqual(deletes, ['delete configmaps doomed/cm', 'delete deployments doomed/d', 'delete jobs doomed/j', 'delete pods doomed/p', 'delete secrets doomed/s']);
  for (const a of ctx.clientset.actions.filter((x) => x.verb === 'delete')) assert.deepEqual(a.options, { propagationPolicy: 'Background' });
  // every namespaced resource discovery lists was listed in its preferred version; those that had content once more to verify
  const lists = ctx.clientset.actions.filter((a) => a.verb === 'list').map((a) => `${a.ref.group}/${a.ref.version}/${a.resource}`);
  const served = (await deletableNamespacedResources(ctx.clientset.discovery())()).resources.map((k) => `${k.group}/${k.version}/${k.resource}`);
  assert.deepEqual([...new Set(lists)].sort(), served.sort());
  assert.deepEqual(lists.filter((l, i) => lists.indexOf(l) !== i).sort(), ['/v1/configmaps', '/v1/pods', '/v1/secrets', 'apps/v1/deployments', 'batch/v1/jobs']);
  const writes = ctx.clientset.actionStrings({ writesOnly: true });
  assert.equal(writes.at(-1), 'update namespaces/finalize doomed');
  const finalize = ctx.clientset.actions.at(-1)!;
  assert.deepEqual((finalize.object?.spec as { finalizers: string[] }).finalizers, []);
  assert.ok(ctx.clientset.tracker.get({ group: '', resource: 'configmaps' }, 'other', 'keep'));
});

test('other finalizers in spec.finalizers are kept (sorted) when kubernetes is removed', async () => {
  const ctx = setup([namespace('n', { finalizers: ['z.example.com/f', 'kubernetes', 'a.example.com/f'] })]);
  await new NamespacedResourcesDeleter(ctx.clientset, ctx.now).delete('n');
  assert.deepEqual((nsOf(ctx, 'n')?.spec as { finalizers: string[] }).finalizers, ['a.example.com/f', 'z.example.com/f']);
});

test('namespaces not being deleted, or already finalized, are left alone', async () => {
  const ctx = setup([namespace('active', { deleting: false }), namespace('done', { finalizers: [] }), obj('v1', 'ConfigMap', 'cm', { namespace: 'active' })]);
  const d = new NamespacedResourcesDeleter(ctx.clientset, ctx.now);
  await d.delete('active');
  await d.delete('done');
  await d.delete('missing');
  assert.deepEqual(ctx.clientset.writes(), []);
});

test('the phase becomes Terminating first when the server did not set it', async () => {
  const ctx = setup([namespace('n', { phase: 'Active' })]);
  await new NamespacedResourcesDeleter(ctx.clientset, ctx.now).delete('n');
  assert.equal(ctx.clientset.actionStrings({ writesOnly: true })[0], 'update namespaces/status n');
  assert.equal((ctx.clientset.writes()[0]!.object!.status as { phase: string }).phase, 'Terminating');
});

test('pods within their grace period: ResourcesRemainingError with the estimate, NamespaceContentRemaining', async () => {
  const ctx = setup([
    namespace('n', { deletedAt: NOW - 10_000 }),
    obj('v1', 'Pod', 'slow', { namespace: 'n', spec: { nodeName: 'node1', terminationGracePeriodSeconds: 60 }, status: { phase: 'Running' } }),
    obj('v1', 'Pod', 'done', { namespace: 'n', spec: { nodeName: 'node1', terminationGracePeriodSeconds: 600 }, status: { phase: 'Succeeded' } }),
  ]);
  const d = new NamespacedResourcesDeleter(ctx.clientset, ctx.now);
  await assert.rejects(d.delete('n'), (e: unknown) => e instanceof ResourcesRemainingError && e.estimate === 60);
  const ns = nsOf(ctx, 'n');
  assert.deepEqual(conditions(ns), [['NamespaceContentRemaining', 'SomeResourcesRemain', 'Some resources are remaining: pods. has 1 resource instances']]);
  // the ok forms of the other four conditions are there too
  const all = (ns?.status as { conditions: NamespaceCondition[] }).conditions;
  assert.deepEqual(
    all.map((c) => [c.type, c.status, c.reason]),
    [
      ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered'],
      ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions'],
      ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted'],
      ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain'],
      ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers'],
    ],
  );
  assert.equal(all[2]!.message, 'All content successfully deleted, may be waiting on finalization');
  // once the pod is gone the namespace goes
  ctx.clientset.tracker.remove({ group: '', resource: 'pods' }, 'n', 'slow');
  await d.delete('n');
  assert.equal(nsOf(ctx, 'n'), undefined);
});

test('pods past their grace period that still remain are an error (NamespaceDeletionContentFailure)', async () => {
  const ctx = setup([namespace('n', { deletedAt: NOW - 120_000 }), obj('v1', 'Pod', 'stuck', { namespace: 'n', spec: { nodeName: 'node1', terminationGracePeriodSeconds: 30 } })]);
  await assert.rejects(new NamespacedResourcesDeleter(ctx.clientset, ctx.now).delete('n'), /unexpected items still remain in namespace: n for gvr: \/v1, Resource=pods/);
  assert.deepEqual(conditions(nsOf(ctx, 'n')), [
    ['NamespaceDeletionContentFailure', 'ContentDeletionFailed', 'Failed to delete all resource types, 1 remaining: unexpected items still remain in namespace: n for gvr: /v1, Resource=pods'],
    ['NamespaceContentRemaining', 'SomeResourcesRemain', 'Some resources are remaining: pods. has 1 resource instances'],
  ]);
});

test('objects held by finalizers: estimate 15 s and NamespaceFinalizersRemaining', async () => {
  const ctx = setup([
    namespace('n'),
    obj('v1', 'ConfigMap', 'a', { namespace: 'n', finalizers: ['example.com/keep'] }),
    obj('apps/v1', 'Deployment', 'b', { namespace: 'n', finalizers: ['example.com/keep', 'foregroundDeletion'], spec: {} }),
  ]);
  await assert.rejects(new NamespacedResourcesDeleter(ctx.clientset, ctx.now).delete('n'), (e: unknown) => e instanceof ResourcesRemainingError && e.estimate === 15);
  // deployments are served in apps and in extensions (one set of objects): discovery lists both
  // groups, so the deployment is counted in each, as kube-apiserver's deleter did while it served extensions
  assert.deepEqual(conditions(nsOf(ctx, 'n')), [
    ['NamespaceContentRemaining', 'SomeResourcesRemain', 'Some resources are remaining: configmaps. has 1 resource instances, deployments.apps has 1 resource instances, deployments.extensions has 1 resource instances'],
    ['NamespaceFinalizersRemaining', 'SomeFinalizersRemain', 'Some content in the namespace has finalizers remaining: example.com/keep in 3 resource instances, foregroundDeletion in 2 resource instances'],
  ]);
});

test('discovery and list failures are reported in conditions and the namespace is not finalized', async () => {
  const ctx = setup([namespace('n'), obj('v1', 'ConfigMap', 'cm', { namespace: 'n' })]);
  ctx.clientset.prependReactor('list', 'secrets', () => ({ handled: true, error: Object.assign(new Error('etcdserver: request timed out'), { code: 500, reason: 'InternalError', status: {} }) }));
  const discover = async () => {
    const { resources } = await deletableNamespacedResources(ctx.clientset.discovery())();
    return { resources, error: new ErrGroupDiscoveryFailed(new Map([['metrics.k8s.io/v1beta1', new Error('the server is currently unable to handle the request')]])) };
  };
  await assert.rejects(new NamespacedResourcesDeleter(ctx.clientset, ctx.now, discover).delete('n'));
  assert.deepEqual(conditions(nsOf(ctx, 'n')), [
    ['NamespaceDeletionDiscoveryFailure', 'DiscoveryFailed', 'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request'],
    ['NamespaceDeletionContentFailure', 'ContentDeletionFailed', 'Failed to delete all resource types, 1 remaining: etcdserver: request timed out'],
  ]);
  assert.ok(nsOf(ctx, 'n'));
  assert.equal(ctx.clientset.tracker.get({ group: '', resource: 'configmaps' }, 'n', 'cm'), undefined, 'the other kinds were still emptied');
});

test('conditions are written only when they change; lastTransitionTime moves only with the status', async () => {
  const ctx = setup([namespace('n'), obj('v1', 'ConfigMap', 'a', { namespace: 'n', finalizers: ['example.com/keep'] })]);
  const d = new NamespacedResourcesDeleter(ctx.clientset, ctx.now);
  await assert.rejects(d.delete('n'));
  const statusWrites = () => ctx.clientset.actionStrings({ writesOnly: true }).filter((a) => a === 'update namespaces/status n').length;
  assert.equal(statusWrites(), 1);
  await assert.rejects(d.delete('n'));
  assert.equal(statusWrites(), 1);
});

test('controller: a namespace deleted later is processed after the grace delay and removed', async () => {
  const ctx = setup([namespace('n', { deleting: false }), obj('v1', 'ConfigMap', 'cm', { namespace: 'n' }), obj('v1', 'Pod', 'p', { namespace: 'n', spec: {} })]);
  const c = new NamespaceController(ctx, { deletionGraceMs: 5 });
  const ac = new AbortController();
  const done = c.run(2, ac.signal);
  try {
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(ctx.clientset.writes(), []);
    // the API server marks the namespace: deletionTimestamp and phase Terminating
    const ns = nsOf(ctx, 'n')!;
    metadataOf(ns).deletionTimestamp = iso(NOW);
    (ns.status as { phase: string }).phase = 'Terminating';
    ctx.clientset.tracker.add(ns);
    await waitFor(() => nsOf(ctx, 'n') === undefined, 2000, 'namespace removed');
    assert.equal(ctx.clientset.tracker.get({ group: '', resource: 'configmaps' }, 'n', 'cm'), undefined);
  } finally {
    ac.abort();
    await done;
  }
});

test('resources known only from discovery are emptied with the namespace; those without list or delete, or cluster-scoped, are left alone', async () => {
  const ctx = setup([namespace('n'), namespace('keep', { deleting: false })]);
  const widgets = { group: 'example.com', version: 'v1', resource: 'widgets', namespaced: true, kind: 'Widget' };
  const d = ctx.clientset.fakeDiscovery;
  d.add({ ...widgets, verbs: ['create', 'delete', 'get', 'list', 'watch'] });
  d.add({ group: 'example.com', version: 'v1', resource: 'readonly', kind: 'ReadOnly', namespaced: true, verbs: ['get', 'list'] });
  d.add({ group: 'example.com', version: 'v1', resource: 'globals', kind: 'Global', namespaced: false, verbs: ['delete', 'list'] });
  const w = ctx.clientset.resource(widgets);
  await w.create('n', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } });
  await w.create('keep', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' } });
  const deleter = new NamespacedResourcesDeleter(ctx.clientset, ctx.now);
  await deleter.delete('n');
  assert.equal(nsOf(ctx, 'n'), undefined);
  assert.equal(ctx.clientset.tracker.get(widgets, 'n', 'w1'), undefined, 'the widget went with its namespace');
  assert.ok(ctx.clientset.tracker.get(widgets, 'keep', 'w2'), "another namespace's widget stays");
  const touched = new Set(ctx.clientset.actions.filter((a) => a.ref.group === 'example.com').map((a) => `${a.verb} ${a.resource}`));
  assert.deepEqual([...touched].sort(), ['create widgets', 'delete widgets', 'list widgets']);
  // discovery is read at each sync: a resource served later is covered by the next namespace deletion
  d.add({ group: 'example.com', version: 'v1', resource: 'gadgets', kind: 'Gadget', namespaced: true, verbs: ['delete', 'list'] });
  const gadgets = { group: 'example.com', version: 'v1', resource: 'gadgets', namespaced: true, kind: 'Gadget' };
  await ctx.clientset.resource(gadgets).create('keep', { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' } });
  const keep = nsOf(ctx, 'keep')!;
  metadataOf(keep).deletionTimestamp = iso(NOW);
  ctx.clientset.tracker.add(keep);
  await deleter.delete('keep');
  assert.equal(ctx.clientset.tracker.get(gadgets, 'keep', 'g'), undefined);
  assert.equal(nsOf(ctx, 'keep'), undefined);
});

test('a failing discovery group is reported in the conditions while the rest is deleted', async () => {
  const ctx = setup([namespace('n'), obj('v1', 'ConfigMap', 'cm', { namespace: 'n' })]);
  ctx.clientset.fakeDiscovery.failing.set('metrics.k8s.io/v1beta1', new Error('the server is currently unable to handle the request'));
  await assert.rejects(new NamespacedResourcesDeleter(ctx.clientset, ctx.now).delete('n'), (e) => e instanceof AggregateError && e.errors[0] instanceof ErrGroupDiscoveryFailed);
  assert.deepEqual(conditions(nsOf(ctx, 'n')), [
    ['NamespaceDeletionDiscoveryFailure', 'DiscoveryFailed', 'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request'],
  ]);
  assert.equal(ctx.clientset.tracker.get({ group: '', resource: 'configmaps' }, 'n', 'cm'), undefined);
});
