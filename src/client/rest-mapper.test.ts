import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ErrGroupDiscoveryFailed } from './discovery.js';
import { FakeDiscovery } from './fake/discovery.js';
import { DeferredDiscoveryRESTMapper, isNoMatchError } from './rest-mapper.js';

const widget = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true, verbs: ['create', 'delete', 'get', 'list', 'watch'] };

test('built-in kinds map to their resource and scope; a version is honoured, without one the preferred version answers', async () => {
  const m = new DeferredDiscoveryRESTMapper(new FakeDiscovery());
  assert.deepEqual(await m.mappingFor('apps/v1', 'Deployment'), { resource: { group: 'apps', version: 'v1', resource: 'deployments' }, kind: 'Deployment', namespaced: true, apiVersion: 'apps/v1' });
  assert.equal((await m.mappingFor('v1', 'Node')).namespaced, false);
  assert.equal((await m.restMapping('autoscaling', 'HorizontalPodAutoscaler')).apiVersion, 'autoscaling/v2');
  assert.equal((await m.restMapping('autoscaling', 'HorizontalPodAutoscaler', 'v1')).apiVersion, 'autoscaling/v1');
  assert.equal((await m.resourceFor({ group: 'apps', resource: 'deployments' }))?.version, 'v1');
  assert.equal(await m.resourceFor({ group: 'apps', resource: 'nothings' }), undefined);
});

test('a miss re-reads discovery once (a kind added since is found), and not again until reset()', async () => {
  const d = new FakeDiscovery();
  const m = new DeferredDiscoveryRESTMapper(d);
  await m.mappingFor('v1', 'Pod');
  assert.equal(d.calls, 1);
  // the cache is fresh: a miss does not read again
  await assert.rejects(m.mappingFor('example.com/v1', 'Widget'), (e) => isNoMatchError(e) && e.message === 'no matches for kind "Widget" in version "example.com/v1"');
  assert.equal(d.calls, 1);
  d.add(widget);
  await assert.rejects(m.mappingFor('example.com/v1', 'Widget'), isNoMatchError);
  assert.equal(d.calls, 1);
  // after reset, the next miss reads discovery again and finds it
  m.reset();
  assert.equal((await m.mappingFor('v1', 'Pod')).resource.resource, 'pods', 'a hit does not read again');
  assert.equal(d.calls, 1);
  const w = await m.mappingFor('example.com/v1', 'Widget');
  assert.deepEqual(w.resource, { group: 'example.com', version: 'v1', resource: 'widgets' });
  assert.equal(d.calls, 2);
  // a kind that does not exist costs one read per reset
  m.reset();
  await assert.rejects(m.mappingFor('example.com/v1', 'Nothing'), isNoMatchError);
  await assert.rejects(m.mappingFor('example.com/v1', 'Nothing'), isNoMatchError);
  assert.equal(d.calls, 3);
  // the version must be served
  await assert.rejects(m.mappingFor('example.com/v2', 'Widget'), (e) => isNoMatchError(e) && e.message === 'no matches for kind "Widget" in version "example.com/v2"');
});

test('a miss in a group whose discovery failed reports the failure, not a missing kind', async () => {
  const d = new FakeDiscovery();
  d.add(widget);
  d.failing.set('example.com/v1', new Error('the server is currently unable to handle the request'));
  const m = new DeferredDiscoveryRESTMapper(d);
  await assert.rejects(m.mappingFor('example.com/v1', 'Widget'), (e) => e instanceof ErrGroupDiscoveryFailed && e.message === 'unable to retrieve the complete list of server APIs: example.com/v1: the server is currently unable to handle the request');
  // other groups are unaffected
  await assert.rejects(m.mappingFor('other.io/v1', 'Thing'), isNoMatchError);
  d.failing.clear();
  m.reset();
  assert.equal((await m.mappingFor('example.com/v1', 'Widget')).kind, 'Widget');
});

test('a failed read is not cached: the next lookup tries again', async () => {
  let fail = true;
  const inner = new FakeDiscovery();
  const m = new DeferredDiscoveryRESTMapper({
    serverGroupsAndResources: async () => {
      if (fail) throw new Error('connection refused');
      return inner.serverGroupsAndResources();
    },
  });
  await assert.rejects(m.mappingFor('v1', 'Pod'), /connection refused/);
  fail = false;
  assert.equal((await m.mappingFor('v1', 'Pod')).resource.resource, 'pods');
});
