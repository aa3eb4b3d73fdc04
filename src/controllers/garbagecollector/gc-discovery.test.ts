// The garbage collector over discovery: a resource the compiled kind table does not know (a
// stand-in for a custom resource, served by the fake clientset) is monitored, resolves as an
// owner, appears and disappears with discovery resyncs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext } from '../../client/fake/index.js';
import { obj, ownerRef, waitFor } from '../common/testutil.js';
import { deletableResources } from './controller.js';
import { startGc } from './gc.testutil.js';

const NS = 'default';
const WIDGETS = { group: 'example.com', version: 'v1', resource: 'widgets', namespaced: true, kind: 'Widget' };
const GADGETS = { group: 'example.com', version: 'v1', resource: 'gadgets', namespaced: true, kind: 'Gadget' };
const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const CMS = { group: '', resource: 'configmaps' };

function setup() {
  return startGc([], {}, { discoveryResyncMs: 20 }, (ctx) => ctx.clientset.fakeDiscovery.add({ ...WIDGETS, verbs: VERBS }));
}

test('monitors are what discovery lists with delete, list and watch (preferred versions), minus events and the extensions group', async () => {
  const ctx = fakeControllerContext({});
  const doc = await ctx.clientset.fakeDiscovery.serverGroupsAndResources();
  const all = doc.resources;
  const names = deletableResources(all).map((r) => `${r.group}/${r.version}/${r.resource}`);
  assert.ok(names.includes('apps/v1/deployments'));
  assert.ok(!names.some((n) => n.endsWith('/events')), 'events are ignored');
  assert.ok(all.some((r) => r.group === 'extensions' && r.resource === 'replicasets'), 'discovery lists extensions/v1beta1');
  assert.ok(!names.some((n) => n.startsWith('extensions/')), "extensions' workloads are apps' objects again, watched there");
  assert.ok(names.includes('apps/v1/replicasets') && names.includes('apps/v1/daemonsets'));
  assert.ok(!names.includes('authorization.k8s.io/v1/subjectaccessreviews'), 'create-only resources cannot be listed');
  const readOnly = { group: 'example.com', version: 'v1', resource: 'readonly', kind: 'ReadOnly', namespaced: true, verbs: ['get', 'list', 'watch'], subresources: [] };
  assert.deepEqual(deletableResources([readOnly]), [], 'a resource that cannot be deleted is not monitored');
});

test('a kind compiled in is monitored through the shared typed informer, one known only from discovery as metadata', async () => {
  const asked: string[] = [];
  const { gc, stop } = startGc([], {}, { discoveryResyncMs: 0 }, (ctx) => {
    ctx.clientset.fakeDiscovery.add({ ...WIDGETS, verbs: VERBS });
    const informer = ctx.informers.informer.bind(ctx.informers);
    ctx.informers.informer = (ref, opts) => {
      asked.push(`${ref.group}/${ref.resource}${opts?.metadataOnly ? ' (metadata)' : ''}`);
      return informer(ref, opts);
    };
  });
  try {
    await waitFor(() => gc.monitors.has('example.com/v1/widgets'), 2000, 'monitors started');
    assert.ok(asked.includes('/pods') && asked.includes('apps/replicasets'), asked.join(', '));
    assert.ok(asked.includes('example.com/widgets (metadata)'));
    assert.deepEqual(asked.filter((a) => a.endsWith('(metadata)')), ['example.com/widgets (metadata)']);
  } finally {
    await stop();
  }
});

test('objects of a resource known only from discovery are monitored, and their dependents collected when they go', async () => {
  const { ctx, gc, stop } = setup();
  try {
    const widgets = ctx.clientset.resource(WIDGETS);
    const w = await widgets.create(NS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } });
    const uid = metadataUid(w);
    await ctx.clientset.resource({ ...CMS, version: 'v1' }).create(NS, obj('v1', 'ConfigMap', 'dep', { namespace: NS, owners: [ownerRef(w, { blockOwnerDeletion: true })] }));
    await waitFor(() => gc.monitors.has('example.com/v1/widgets') && gc.graph.uidToNode.get(uid)?.observed === true, 2000, 'widget observed');
    assert.ok(gc.graph.uidToNode.get(uid)!.dependents.size === 1, 'the graph links the configmap to its widget owner');
    await new Promise((r) => setTimeout(r, 30));
    assert.ok(ctx.clientset.tracker.get(CMS, NS, 'dep'), 'a dependent of a live widget stays');
    await widgets.delete(NS, 'w1');
    await waitFor(() => ctx.clientset.tracker.get(CMS, NS, 'dep') === undefined, 2000, 'dependent collected');
  } finally {
    await stop();
  }
});

test('an owner of a kind not yet in discovery is retried, and resolved once a resync finds its resource', async () => {
  const { ctx, gc, stop } = setup();
  try {
    await ctx.clientset.resource({ ...CMS, version: 'v1' }).create(NS, obj('v1', 'ConfigMap', 'dep', { namespace: NS, owners: [{ apiVersion: 'example.com/v1', kind: 'Gadget', name: 'ghost', uid: 'ghost-uid' }] }));
    await new Promise((r) => setTimeout(r, 60));
    assert.ok(ctx.clientset.tracker.get(CMS, NS, 'dep'), 'an owner that cannot be mapped is never taken as absent');
    assert.ok(gc.attemptToDelete.numRequeues('ghost-uid') > 0, "the owner's virtual node is requeued (RestMappingError)");
    // the resource appears: the next resync reads discovery, the owner's absence is verified
    ctx.clientset.fakeDiscovery.add({ ...GADGETS, verbs: VERBS });
    await waitFor(() => ctx.clientset.tracker.get(CMS, NS, 'dep') === undefined, 3000, 'dependent of the absent gadget collected');
    assert.ok(ctx.clientset.actions.some((a) => a.verb === 'get' && a.resource === 'gadgets' && a.name === 'ghost'), 'the owner was looked up in its resource');
    await waitFor(() => gc.monitors.has('example.com/v1/gadgets'), 2000, 'gadgets monitored');
  } finally {
    await stop();
  }
});

test('a resource gone from discovery loses its monitor; one whose group failed to be discovered keeps it', async () => {
  const { ctx, gc, stop } = setup();
  try {
    ctx.clientset.fakeDiscovery.add({ ...GADGETS, verbs: VERBS });
    await waitFor(() => gc.monitors.has('example.com/v1/widgets') && gc.monitors.has('example.com/v1/gadgets'), 2000, 'both monitored');
    ctx.clientset.fakeDiscovery.failing.set('example.com/v1', new Error('the server is currently unable to handle the request'));
    ctx.clientset.fakeDiscovery.remove('example.com', 'widgets');
    await new Promise((r) => setTimeout(r, 60));
    assert.ok(gc.monitors.has('example.com/v1/widgets'), 'kept while its group version fails');
    ctx.clientset.fakeDiscovery.failing.clear();
    await waitFor(() => !gc.monitors.has('example.com/v1/widgets'), 2000, 'widgets monitor stopped');
    assert.ok(gc.monitors.has('example.com/v1/gadgets'));
    assert.ok(gc.monitors.has('apps/v1/deployments'));
  } finally {
    await stop();
  }
});

function metadataUid(o: Record<string, unknown>): string {
  return String((o.metadata as { uid?: string }).uid);
}
