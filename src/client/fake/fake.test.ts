import { test } from 'node:test';
import { nameOf } from '../../api/meta/object.js';
import assert from 'node:assert/strict';
import { isAlreadyExists, isConflict, isNotFound } from '../errors.js';
import type { KubeObject, Tombstone } from '../types.js';
import { keyOf } from '../cache.js';
import { FakeClientset, FakeInformerFactory, fakeControllerContext, flush } from './index.js';

const pods = { group: '', version: 'v1', resource: 'pods' };
const deployments = { group: 'apps', version: 'v1', resource: 'deployments' };

function pod(name: string, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] }, ...extra };
}

test('fake clientset: create/get/list/update/delete with resourceVersions and errors', async () => {
  const cs = new FakeClientset();
  const c = cs.resource(pods);
  const created = await c.create('default', pod('a'));
  const meta = created.metadata as Record<string, unknown>;
  assert.equal(meta.namespace, 'default');
  assert.ok(meta.uid);
  assert.equal(meta.resourceVersion, '1');
  await assert.rejects(c.create('default', pod('a')), (e) => isAlreadyExists(e) && (e as { code: number }).code === 409);
  await assert.rejects(c.get('default', 'zz'), (e) => isNotFound(e) && (e as { code: number }).code === 404);
  const got = await c.get('default', 'a');
  assert.deepEqual(got, created);
  (got.metadata as Record<string, unknown>).labels = { app: 'db' };
  const updated = await c.update('default', got);
  assert.equal((updated.metadata as Record<string, unknown>).resourceVersion, '2');
  // Stale resourceVersion → Conflict.
  await assert.rejects(c.update('default', created), (e) => isConflict(e));
  const list = await c.list('default', { labelSelector: 'app=db' });
  assert.equal(list.items.length, 1);
  assert.equal((await c.list('default', { labelSelector: 'app=web' })).items.length, 0);
  assert.equal((await c.list('other')).items.length, 0);
  assert.equal((await c.list('', { fieldSelector: 'metadata.name=a' })).items.length, 1);
  assert.equal(await c.delete('default', 'a'), undefined);
  await assert.rejects(c.delete('default', 'a'), (e) => isNotFound(e));
  assert.deepEqual(cs.actionStrings(), [
    'create pods default/a',
    'create pods default/a',
    'get pods default/zz',
    'get pods default/a',
    'update pods default/a',
    'update pods default/a',
    'list pods default/',
    'list pods default/',
    'list pods other/',
    'list pods ',
    'delete pods default/a',
    'delete pods default/a',
  ]);
  assert.deepEqual(cs.writes().map((a) => a.verb), ['create', 'create', 'update', 'update', 'delete', 'delete']);
});

test('fake clientset: generateName, status and scale subresources, generation', async () => {
  const cs = new FakeClientset();
  const d = cs.resource(deployments);
  const created = await d.create('ns', { metadata: { generateName: 'web-' }, spec: { replicas: 1, selector: { matchLabels: { a: 'b' } }, template: {} } });
  const name = (created.metadata as { name: string }).name;
  assert.match(name, /^web-[a-z0-9]{5}$/);
  assert.equal(created.kind, 'Deployment');
  assert.equal((created.metadata as { generation: number }).generation, 1);
  // status update changes status only.
  const st = await d.update('ns', { ...created, spec: { replicas: 9 }, status: { replicas: 1 } }, { subresource: 'status' });
  assert.deepEqual(st.status, { replicas: 1 });
  assert.equal((st.spec as { replicas: number }).replicas, 1);
  // main update keeps status and bumps generation on a spec change.
  const up = await d.update('ns', { ...st, spec: { ...(st.spec as object), replicas: 3 }, status: {} });
  assert.deepEqual(up.status, { replicas: 1 });
  assert.equal((up.metadata as { generation: number }).generation, 2);
  const scale = await d.update('ns', { metadata: { name }, spec: { replicas: 5 } }, { subresource: 'scale' });
  assert.equal(scale.kind, 'Scale');
  assert.equal((scale.spec as { replicas: number }).replicas, 5);
  assert.equal(((await d.get('ns', name)).spec as { replicas: number }).replicas, 5);
  assert.deepEqual(cs.actions.map((a) => [a.verb, a.subresource ?? '']), [
    ['create', ''],
    ['update', 'status'],
    ['update', ''],
    ['update', 'scale'],
    ['get', ''],
  ]);
});

test('fake clientset: merge and strategic patches, patch conflicts, finalizers', async () => {
  const cs = new FakeClientset({ objects: [pod('p', { metadata: { name: 'p', namespace: 'default', finalizers: ['x/y'] } })] });
  const c = cs.resource(pods);
  const sp = await c.patch('default', 'p', 'strategic', { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } });
  assert.deepEqual(sp.spec, { containers: [{ name: 'c', image: 'nginx:2' }] });
  const mp = await c.patch('default', 'p', 'merge', { metadata: { labels: { l: '1' } } });
  assert.deepEqual((mp.metadata as { labels: unknown }).labels, { l: '1' });
  await assert.rejects(c.patch('default', 'p', 'merge', { metadata: { resourceVersion: '1' } }), (e) => isConflict(e));
  await c.patch('default', 'p', 'merge', { status: { phase: 'Running' } }, { subresource: 'status' });
  assert.equal(((await c.get('default', 'p')).status as { phase: string }).phase, 'Running');
  // Delete with finalizers marks; removing the last finalizer deletes.
  const marked = await c.delete('default', 'p');
  assert.ok((marked?.metadata as { deletionTimestamp?: string }).deletionTimestamp);
  await c.patch('default', 'p', 'merge', { metadata: { finalizers: null } });
  await assert.rejects(c.get('default', 'p'), (e) => isNotFound(e));
});

test('fake clientset: reactors inject errors and answers', async () => {
  const cs = new FakeClientset();
  let calls = 0;
  cs.prependReactor('create', 'pods', () => (++calls === 1 ? { handled: true, error: new Error('boom') } : undefined));
  await assert.rejects(cs.resource(pods).create('default', pod('a')), /boom/);
  await cs.resource(pods).create('default', pod('a'));
  assert.equal(cs.actions.length, 2);
});

test('fake clientset: watch sees events of its namespace and selector', async () => {
  const cs = new FakeClientset();
  const c = cs.resource(pods);
  const w = await c.watch('default', { labelSelector: 'app=web' });
  await c.create('default', pod('a'));
  await c.create('other', pod('b'));
  await c.create('default', pod('c', { metadata: { name: 'c', labels: { app: 'db' } } }));
  await c.delete('default', 'a');
  const seen: string[] = [];
  for await (const ev of w) {
    seen.push(`${ev.type} ${(ev.object.metadata as { name: string }).name}`);
    if (seen.length === 2) w.close();
  }
  assert.deepEqual(seen, ['ADDED a', 'DELETED a']);
});

test('fake informers: listers with indexes, handlers after start, tombstones, metadata only', async () => {
  const owner = 'uid-1';
  const cs = new FakeClientset({
    objects: [
      pod('a', { metadata: { name: 'a', namespace: 'n1', ownerReferences: [{ uid: owner, kind: 'ReplicaSet', name: 'rs', apiVersion: 'apps/v1' }] }, spec: { nodeName: 'node1' } }),
      pod('b', { metadata: { name: 'b', namespace: 'n2', labels: { app: 'web' } } }),
    ],
  });
  const factory = new FakeInformerFactory(cs);
  const inf = factory.informer(pods);
  const seen: string[] = [];
  inf.addEventHandler({
    onAdd: (o, initial) => seen.push(`add ${(o.metadata as { name: string }).name} ${initial}`),
    onUpdate: (_o, n) => seen.push(`update ${(n.metadata as { name: string }).name}`),
    onDelete: (o) => seen.push(`delete ${'finalStateUnknown' in o ? `tombstone ${(o as Tombstone).key}` : (o.metadata as { name: string }).name}`),
  });
  assert.equal(inf.hasSynced(), false);
  assert.deepEqual(seen, []);
  factory.start(new AbortController().signal);
  assert.equal(await factory.waitForCacheSync(), true);
  assert.deepEqual(seen.sort(), ['add a true', 'add b true']);
  seen.length = 0;
  assert.equal(inf.lister.byIndex('ownerUid', owner).length, 1);
  assert.equal(inf.lister.byIndex('nodeName', 'node1').length, 1);
  assert.equal(inf.lister.byIndex('namespace', 'n2').length, 1);
  assert.equal(inf.lister.list('', 'app=web').length, 1);
  assert.equal(inf.lister.list('n1').length, 1);
  assert.ok(inf.lister.get('n2', 'b'));
  const c = cs.resource(pods);
  await c.create('n1', pod('c'));
  await c.patch('n1', 'c', 'merge', { metadata: { labels: { x: 'y' } } });
  await c.delete('n1', 'c');
  inf.delete(inf.lister.get('n1', 'a')!, true);
  assert.deepEqual(seen, ['add c false', 'update c', 'delete c', 'delete tombstone n1/a']);
  // A late handler gets synthetic adds.
  const late: string[] = [];
  inf.addEventHandler({ onAdd: (o, initial) => late.push(`${(o.metadata as { name: string }).name} ${initial}`) });
  assert.deepEqual(late, ['b true']);
  const meta = factory.informer(pods, { metadataOnly: true });
  assert.equal(meta.lister.get('n2', 'b')?.kind, 'PartialObjectMetadata');
  assert.equal(meta.lister.get('n2', 'b')?.spec, undefined);
  await flush();
});

test('fake informers: a field selector (spec.nodeName!=) drops objects that stop matching', async () => {
  const cs = new FakeClientset({ objects: [pod('a', { metadata: { name: 'a', namespace: 'n1' }, spec: { nodeName: 'node1' } }), pod('b', { metadata: { name: 'b', namespace: 'n1' } })] });
  const factory = new FakeInformerFactory(cs);
  const bound = factory.informer(pods, { fieldSelector: 'spec.nodeName!=' });
  assert.notEqual(bound, factory.informer(pods));
  const seen: string[] = [];
  bound.addEventHandler({ onAdd: (o) => seen.push(`add ${nameOf(o)}`), onUpdate: (_o, n) => seen.push(`update ${nameOf(n)}`), onDelete: (o) => seen.push(`delete ${keyOf(o)}`) });
  factory.start(new AbortController().signal);
  assert.deepEqual(seen, ['add a']);
  const c = cs.resource(pods);
  const b = await c.get('n1', 'b');
  await c.update('n1', { ...b, spec: { ...(b.spec as object), nodeName: 'node2' } });
  const a = await c.get('n1', 'a');
  await c.update('n1', { ...a, spec: { ...(a.spec as object), nodeName: '' } });
  assert.deepEqual(seen, ['add a', 'add b', 'delete n1/a']);
  assert.deepEqual(bound.lister.list().map((o) => nameOf(o)), ['b']);
});

test('fakeControllerContext: clock, recorders, options', () => {
  const ctx = fakeControllerContext({ objects: [pod('a', { metadata: { name: 'a', namespace: 'default' } })], options: { concurrentDeploymentSyncs: 5 }, now: Date.UTC(2030, 0, 1) });
  assert.equal(ctx.now(), Date.UTC(2030, 0, 1));
  ctx.clock.advance(1000);
  assert.equal(ctx.now(), Date.UTC(2030, 0, 1) + 1000);
  ctx.recorder('deployment-controller').event(pod('a'), 'Normal', 'ScalingReplicaSet', 'Scaled up');
  assert.deepEqual(ctx.events.map((e) => `${e.component} ${e.reason}`), ['deployment-controller ScalingReplicaSet']);
  assert.ok(ctx.informers.informer(pods).lister.get('default', 'a'));
  assert.equal(ctx.informers.informer(pods).hasSynced(), true);
  assert.equal(ctx.options.concurrentDeploymentSyncs, 5);
});
