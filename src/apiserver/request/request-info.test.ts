import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRequestInfo, selectedName, type RequestInfo } from './request-info.js';

function info(method: string, url: string): RequestInfo {
  const u = new URL(url, 'http://x');
  return parseRequestInfo(method, u.pathname, u.searchParams);
}

test('resource paths map to Kubernetes request attributes', () => {
  const cases: Array<[string, string, Partial<RequestInfo>]> = [
    ['GET', '/api/v1/namespaces/ns/pods', { group: '', version: 'v1', namespace: 'ns', resource: 'pods', name: '', verb: 'list' }],
    ['GET', '/api/v1/namespaces/ns/pods?watch=1', { resource: 'pods', verb: 'watch' }],
    ['GET', '/api/v1/namespaces/ns/pods?watch=true', { verb: 'watch' }],
    ['GET', '/api/v1/namespaces/ns/pods?watch=false', { verb: 'list' }],
    ['GET', '/api/v1/watch/namespaces/ns/pods', { namespace: 'ns', resource: 'pods', verb: 'watch' }],
    ['GET', '/api/v1/watch/pods', { namespace: '', resource: 'pods', verb: 'watch' }],
    ['GET', '/api/v1/pods', { namespace: '', resource: 'pods', verb: 'list' }],
    ['GET', '/api/v1/namespaces/ns/pods/p', { name: 'p', verb: 'get' }],
    ['PUT', '/api/v1/namespaces/ns/pods/p/status', { name: 'p', subresource: 'status', verb: 'update' }],
    ['POST', '/api/v1/namespaces/ns/pods/p/binding', { subresource: 'binding', verb: 'create' }],
    ['GET', '/api/v1/namespaces/ns/pods/p/proxy/a/b', { subresource: 'proxy', rest: ['a', 'b'] }],
    // the legacy proxy verb: no subresource, the rest is the proxied path
    ['POST', '/api/v1/proxy/namespaces/ns/pods/p:8080/a/b', { namespace: 'ns', resource: 'pods', name: 'p:8080', subresource: '', rest: ['a', 'b'], verb: 'proxy' }],
    ['GET', '/api/v1/proxy/nodes/n1/healthz', { namespace: '', resource: 'nodes', name: 'n1', subresource: '', rest: ['healthz'], verb: 'proxy' }],
    ['DELETE', '/api/v1/namespaces/ns/pods', { verb: 'deletecollection' }],
    ['DELETE', '/api/v1/namespaces/ns/pods/p', { verb: 'delete' }],
    ['PATCH', '/apis/apps/v1/namespaces/ns/deployments/d/scale', { group: 'apps', version: 'v1', resource: 'deployments', subresource: 'scale', verb: 'patch' }],
    ['GET', '/api/v1/namespaces', { namespace: '', resource: 'namespaces', verb: 'list' }],
    ['GET', '/api/v1/namespaces/ns', { namespace: 'ns', resource: 'namespaces', name: 'ns', verb: 'get' }],
    ['PUT', '/api/v1/namespaces/ns/finalize', { namespace: 'ns', resource: 'namespaces', name: 'ns', subresource: 'finalize', verb: 'update' }],
    ['GET', '/api/v1/namespaces/ns/status', { resource: 'namespaces', name: 'ns', subresource: 'status' }],
    ['GET', '/api/v1/nodes/n1', { namespace: '', resource: 'nodes', name: 'n1', verb: 'get' }],
    ['POST', '/apis/batch/v1/namespaces/ns/jobs', { group: 'batch', resource: 'jobs', verb: 'create' }],
  ];
  for (const [method, url, want] of cases) {
    const got = info(method, url);
    assert.equal(got.isResourceRequest, true, url);
    for (const [k, v] of Object.entries(want)) assert.deepEqual((got as unknown as Record<string, unknown>)[k], v, `${method} ${url}: ${k}`);
  }
});

test('discovery and other paths are non-resource requests', () => {
  for (const url of ['/api', '/api/v1', '/apis', '/apis/apps', '/apis/apps/v1', '/version', '/healthz', '/openapi/v3/apis/apps/v1', '/', '/api//v1/pods']) {
    const got = info('GET', url);
    assert.equal(got.isResourceRequest, false, url);
    assert.equal(got.verb, 'get');
  }
});

test('selectedName: a list or watch with a metadata.name field selector is authorized for that name', () => {
  const name = (method: string, url: string) => {
    const u = new URL(url, 'http://x');
    const i = parseRequestInfo(method, u.pathname, u.searchParams);
    assert.ok(i.isResourceRequest);
    return selectedName(i, u.searchParams);
  };
  assert.equal(name('GET', '/api/v1/namespaces/ns/secrets?fieldSelector=metadata.name%3Ds1'), 's1');
  assert.equal(name('GET', '/api/v1/namespaces/ns/secrets?watch=1&fieldSelector=metadata.name%3D%3Ds1,type%3Dx'), 's1');
  assert.equal(name('GET', '/api/v1/namespaces/ns/secrets/s2'), 's2');
  assert.equal(name('GET', '/api/v1/namespaces/ns/secrets?fieldSelector=metadata.name!%3Ds1'), '');
  assert.equal(name('GET', '/api/v1/namespaces/ns/secrets?fieldSelector=metadata.namespace%3Dns'), '');
  assert.equal(name('GET', '/api/v1/namespaces/ns/secrets?fieldSelector=metadata.name%3D..'), '', 'not a path segment');
  assert.equal(name('GET', '/api/v1/namespaces/ns/secrets?fieldSelector=%3D%3D%3D'), '', 'unparsable');
  assert.equal(name('DELETE', '/api/v1/namespaces/ns/secrets?fieldSelector=metadata.name%3Ds1'), '', 'deletecollection keeps no name');
});
