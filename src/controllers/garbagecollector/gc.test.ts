import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FakeControllerContext } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { metadataOf } from '../../api/meta/object.js';
import { obj, ownerRef, waitFor } from '../common/testutil.js';
import { startGc } from './gc.testutil.js';

const NS = 'default';
const deploy = (name: string, o: Parameters<typeof obj>[3] = {}) => obj('apps/v1', 'Deployment', name, { namespace: NS, ...o });
const rs = (name: string, o: Parameters<typeof obj>[3] = {}) => obj('apps/v1', 'ReplicaSet', name, { namespace: NS, ...o });
const pod = (name: string, o: Parameters<typeof obj>[3] = {}) => obj('v1', 'Pod', name, { namespace: NS, ...o });
const cm = (name: string, o: Parameters<typeof obj>[3] = {}) => obj('v1', 'ConfigMap', name, { namespace: NS, ...o });

const REF = {
  deployments: { group: 'apps', resource: 'deployments' },
  replicasets: { group: 'apps', resource: 'replicasets' },
  pods: { group: '', resource: 'pods' },
  configmaps: { group: '', resource: 'configmaps' },
  nodes: { group: '', resource: 'nodes' },
} as const;

function exists(ctx: FakeControllerContext, res: keyof typeof REF, name: string, ns = NS): boolean {
  return ctx.clientset.tracker.get(REF[res], res === 'nodes' ? '' : ns, name) !== undefined;
}

function get(ctx: FakeControllerContext, res: keyof typeof REF, name: string): KubeObject {
  const o = ctx.clientset.tracker.get(REF[res], NS, name);
  assert.ok(o, `${res}/${name} exists`);
  return o;
}

async function start(objects: KubeObject[], options: Record<string, unknown> = {}) {
  return startGc(objects, options);
}

test('background: dependents of an absent owner are deleted (live GET, uid precondition), cascading', async () => {
  const d = deploy('gone');
  const r = rs('rs1', { owners: [ownerRef(d, { controller: true, blockOwnerDeletion: true })] });
  const p = pod('p1', { owners: [ownerRef(r, { controller: true, blockOwnerDeletion: true })] });
  const { ctx, stop } = await start([r, p]);
  try {
    await waitFor(() => !exists(ctx, 'replicasets', 'rs1') && !exists(ctx, 'pods', 'p1'), 2000, 'cascade');
    const del = ctx.clientset.actions.find((a) => a.verb === 'delete' && a.resource === 'replicasets');
    assert.deepEqual(del?.options, { propagationPolicy: 'Background', preconditions: { uid: metadataOf(r).uid } });
    // the absence of the owner was verified with a GET before deleting
    const i = ctx.clientset.actions.findIndex((a) => a.verb === 'get' && a.resource === 'deployments' && a.name === 'gone');
    assert.ok(i >= 0 && i < ctx.clientset.actions.indexOf(del!));
  } finally {
    await stop();
  }
});

test('dependents of an existing owner stay; an owner deleted later takes them along', async () => {
  const d = deploy('web');
  const r = rs('rs1', { owners: [ownerRef(d, { controller: true })] });
  const { ctx, stop } = await start([d, r]);
  try {
    await new Promise((res) => setTimeout(res, 30));
    assert.ok(exists(ctx, 'replicasets', 'rs1'));
    assert.deepEqual(ctx.clientset.writes(), []);
    await ctx.clientset.resource({ group: 'apps', version: 'v1', resource: 'deployments' }).delete(NS, 'web');
    await waitFor(() => !exists(ctx, 'replicasets', 'rs1'), 2000, 'rs deleted');
  } finally {
    await stop();
  }
});

test('an owner recreated under the same name (other uid) does not keep the dependent', async () => {
  const old = deploy('web');
  const fresh = deploy('web');
  const r = rs('rs1', { owners: [ownerRef(old)] });
  const { ctx, stop } = await start([fresh, r]);
  try {
    await waitFor(() => !exists(ctx, 'replicasets', 'rs1'), 2000, 'rs deleted');
    assert.ok(exists(ctx, 'deployments', 'web'));
  } finally {
    await stop();
  }
});

test('several owners: the dangling reference is removed, the object stays with its solid owner', async () => {
  const alive = cm('alive');
  const gone = cm('gone');
  const dep = cm('dep', { owners: [ownerRef(alive), ownerRef(gone)] });
  const { ctx, stop } = await start([alive, dep]);
  try {
    await waitFor(() => (metadataOf(get(ctx, 'configmaps', 'dep')).ownerReferences as unknown[]).length === 1, 2000, 'ref removed');
    assert.deepEqual(metadataOf(get(ctx, 'configmaps', 'dep')).ownerReferences, [ownerRef(alive)]);
    const patch = ctx.clientset.actions.find((a) => a.verb === 'patch');
    assert.equal(patch?.patchType, 'strategic');
    assert.deepEqual(patch?.patch, { metadata: { ownerReferences: [{ $patch: 'delete', uid: metadataOf(gone).uid }], uid: metadataOf(dep).uid } });
  } finally {
    await stop();
  }
});

test('orphan: dependents lose the owner reference, then the orphan finalizer goes and with it the owner', async () => {
  const d = deploy('web');
  const r1 = rs('rs1', { owners: [ownerRef(d, { controller: true, blockOwnerDeletion: true })] });
  const r2 = rs('rs2', { owners: [ownerRef(d, { controller: true, blockOwnerDeletion: true })] });
  const { ctx, stop } = await start([d, r1, r2]);
  try {
    await ctx.clientset.resource({ group: 'apps', version: 'v1', resource: 'deployments' }).delete(NS, 'web', { propagationPolicy: 'Orphan' });
    await waitFor(() => !exists(ctx, 'deployments', 'web'), 2000, 'owner gone');
    for (const n of ['rs1', 'rs2']) assert.equal(((metadataOf(get(ctx, 'replicasets', n)).ownerReferences as unknown[] | undefined) ?? []).length, 0, n);
    // the finalizer is removed only after both dependents were patched
    const writes = ctx.clientset.actionStrings({ writesOnly: true });
    assert.deepEqual(writes.slice(1).sort(), ['patch deployments default/web', 'patch replicasets default/rs1', 'patch replicasets default/rs2']);
    assert.equal(writes.at(-1), 'patch deployments default/web');
    await new Promise((res) => setTimeout(res, 20));
    assert.ok(exists(ctx, 'replicasets', 'rs1') && exists(ctx, 'replicasets', 'rs2'));
  } finally {
    await stop();
  }
});

test('orphan finalizer already present at start (after a restart) is processed', async () => {
  const d = deploy('web', { finalizers: ['orphan'], deletionTimestamp: '2026-01-01T00:00:00Z' });
  const r = rs('rs1', { owners: [ownerRef(d)] });
  const { ctx, stop } = await start([d, r]);
  try {
    await waitFor(() => !exists(ctx, 'deployments', 'web'), 2000, 'owner gone');
    assert.ok(exists(ctx, 'replicasets', 'rs1'));
  } finally {
    await stop();
  }
});

test('foreground: dependents go first; a blocking dependent with a finalizer holds the owner', async () => {
  const d = deploy('web');
  const blocking = rs('blocking', { owners: [ownerRef(d, { blockOwnerDeletion: true })], finalizers: ['example.com/hold'] });
  const loose = rs('loose', { owners: [ownerRef(d)], finalizers: ['example.com/hold'] });
  const plain = rs('plain', { owners: [ownerRef(d, { blockOwnerDeletion: true })] });
  const { ctx, stop } = await start([d, blocking, loose, plain]);
  try {
    await ctx.clientset.resource({ group: 'apps', version: 'v1', resource: 'deployments' }).delete(NS, 'web', { propagationPolicy: 'Foreground' });
    await waitFor(() => !exists(ctx, 'replicasets', 'plain'), 2000, 'plain dependent deleted');
    await waitFor(() => metadataOf(get(ctx, 'replicasets', 'blocking')).deletionTimestamp !== undefined && metadataOf(get(ctx, 'replicasets', 'loose')).deletionTimestamp !== undefined, 2000, 'dependents terminating');
    await new Promise((res) => setTimeout(res, 30));
    assert.ok(exists(ctx, 'deployments', 'web'), 'owner waits for its blocking dependent');
    // the non-blocking dependent's finalizer does not hold the owner: release the blocking one
    await ctx.clientset.resource({ group: 'apps', version: 'v1', resource: 'replicasets' }).patch(NS, 'blocking', 'merge', { metadata: { finalizers: null } });
    await waitFor(() => !exists(ctx, 'deployments', 'web'), 2000, 'owner gone');
    assert.ok(exists(ctx, 'replicasets', 'loose'), 'loose dependent still held by its own finalizer');
  } finally {
    await stop();
  }
});

test('foreground through two levels: deployment → replicaset → pods', async () => {
  const d = deploy('web');
  const r = rs('rs1', { owners: [ownerRef(d, { controller: true, blockOwnerDeletion: true })] });
  const pods = ['a', 'b', 'c'].map((n) => pod(n, { owners: [ownerRef(r, { controller: true, blockOwnerDeletion: true })] }));
  const { ctx, stop } = await start([d, r, ...pods]);
  try {
    await ctx.clientset.resource({ group: 'apps', version: 'v1', resource: 'deployments' }).delete(NS, 'web', { propagationPolicy: 'Foreground' });
    await waitFor(() => !exists(ctx, 'deployments', 'web'), 3000, 'owner gone');
    assert.ok(!exists(ctx, 'replicasets', 'rs1'));
    for (const n of ['a', 'b', 'c']) assert.ok(!exists(ctx, 'pods', n));
    // the replicaset was deleted in the foreground too (its own dependents first)
    const rsDelete = ctx.clientset.actions.find((a) => a.verb === 'delete' && a.resource === 'replicasets');
    assert.equal((rsDelete?.options as { propagationPolicy?: string }).propagationPolicy, 'Foreground');
  } finally {
    await stop();
  }
});

test('a dependent that still has a solid owner drops its reference to an owner being deleted in the foreground', async () => {
  const d = deploy('web');
  const keeper = cm('keeper');
  const shared = rs('shared', { owners: [ownerRef(d, { blockOwnerDeletion: true }), ownerRef(keeper)] });
  const { ctx, stop } = await start([d, keeper, shared]);
  try {
    await ctx.clientset.resource({ group: 'apps', version: 'v1', resource: 'deployments' }).delete(NS, 'web', { propagationPolicy: 'Foreground' });
    await waitFor(() => !exists(ctx, 'deployments', 'web'), 2000, 'owner gone');
    assert.deepEqual(metadataOf(get(ctx, 'replicasets', 'shared')).ownerReferences, [ownerRef(keeper)]);
  } finally {
    await stop();
  }
});

test('an object without owners being deleted in the foreground loses its finalizer at once', async () => {
  const d = deploy('lonely');
  const { ctx, stop } = await start([d]);
  try {
    await ctx.clientset.resource({ group: 'apps', version: 'v1', resource: 'deployments' }).delete(NS, 'lonely', { propagationPolicy: 'Foreground' });
    await waitFor(() => !exists(ctx, 'deployments', 'lonely'), 2000, 'gone');
  } finally {
    await stop();
  }
});

test('cluster-scoped owner of namespaced dependents (node → pod)', async () => {
  const node = obj('v1', 'Node', 'n1');
  const p = pod('p1', { owners: [ownerRef(node)] });
  const { ctx, stop } = await start([node, p]);
  try {
    await new Promise((res) => setTimeout(res, 20));
    assert.ok(exists(ctx, 'pods', 'p1'));
    await ctx.clientset.resource({ group: '', version: 'v1', resource: 'nodes' }).delete('', 'n1');
    await waitFor(() => !exists(ctx, 'pods', 'p1'), 2000, 'pod deleted');
  } finally {
    await stop();
  }
});

test('an owner of an unknown kind is never taken as absent', async () => {
  const p = pod('p1', { owners: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'w-uid' }] });
  const { ctx, stop } = await start([p]);
  try {
    await new Promise((res) => setTimeout(res, 40));
    assert.ok(exists(ctx, 'pods', 'p1'));
    assert.deepEqual(ctx.clientset.writes(), []);
  } finally {
    await stop();
  }
});

test('--enable-garbage-collector=false: nothing is watched or collected', async () => {
  const r = rs('rs1', { owners: [ownerRef(deploy('gone'))] });
  const { ctx, gc, stop } = await start([r], { enableGarbageCollector: false });
  await stop();
  assert.equal(gc.enabled, false);
  assert.ok(exists(ctx, 'replicasets', 'rs1'));
  assert.deepEqual(ctx.clientset.actions, []);
});

test('owner references in another served version of the owner (extensions/v1beta1 Deployment) resolve to the same object', async () => {
  const d = deploy('web');
  const viaExtensions = { ...ownerRef(d), apiVersion: 'extensions/v1beta1' };
  const kept = rs('kept', { owners: [viaExtensions] });
  const orphan = rs('orphan', { owners: [{ ...viaExtensions, name: 'gone', uid: 'gone-uid' }] });
  const { ctx, stop } = await start([d, kept, orphan]);
  try {
    await waitFor(() => !exists(ctx, 'replicasets', 'orphan'), 2000, 'orphan collected');
    await new Promise((res) => setTimeout(res, 30));
    assert.ok(exists(ctx, 'replicasets', 'kept'));
    // read in the version the reference names (Kubernetes' RESTMapping(groupKind, version)): the server serves one set of objects in both
    const gets = ctx.clientset.actions.filter((a) => a.verb === 'get' && a.resource === 'deployments');
    assert.ok(gets.length > 0 && gets.every((a) => a.ref.group === 'extensions' && a.ref.version === 'v1beta1'), 'owners are read in the version named');
  } finally {
    await stop();
  }
});

test('a cluster-scoped dependent naming a namespaced owner is left alone', async () => {
  const n = obj('v1', 'Node', 'n1', { owners: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'x', uid: 'x-uid' }] });
  const { ctx, stop } = await start([n]);
  try {
    await new Promise((res) => setTimeout(res, 30));
    assert.ok(exists(ctx, 'nodes', 'n1'));
    assert.deepEqual(ctx.clientset.writes(), []);
  } finally {
    await stop();
  }
});

test('an owner reference to an object of another namespace: OwnerRefInvalidNamespace, and the dependent is collected', async () => {
  const owner = obj('v1', 'ConfigMap', 'o', { namespace: 'a' });
  const dep = obj('v1', 'ConfigMap', 'd', { namespace: 'b', owners: [ownerRef(owner)] });
  const { ctx, stop } = await start([owner, dep]);
  try {
    await waitFor(() => ctx.clientset.tracker.get(REF.configmaps, 'b', 'd') === undefined, 2000, 'dependent collected');
    assert.ok(ctx.clientset.tracker.get(REF.configmaps, 'a', 'o'));
    const ev = ctx.events.find((e) => e.reason === 'OwnerRefInvalidNamespace');
    assert.ok(ev, 'event recorded');
    assert.equal(ev.type, 'Warning');
    assert.equal(ev.message, `ownerRef [v1/ConfigMap, namespace: b, name: o, uid: ${String(metadataOf(owner).uid)}] does not exist in namespace "b"`);
  } finally {
    await stop();
  }
});
