import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startApiServer, type ApiServer } from '../apiserver/server.js';
import { AGGREGATED_ACCEPT, discoveryError, ErrGroupDiscoveryFailed, preferredResources, RestDiscoveryClient, withVerbs, type RawGet } from './discovery.js';
import { RestClientset } from './rest.js';

/** A RawGet answering from a table of paths (404 otherwise), recording each request. */
function table(answers: Record<string, unknown>, calls: string[] = []): RawGet {
  return async (path, accept) => {
    calls.push(`${path} ${accept}`);
    const a = answers[path];
    if (a === undefined) return { status: 404, contentType: 'application/json', body: JSON.stringify({ kind: 'Status', message: 'the server could not find the requested resource' }) };
    if (a instanceof Error) return { status: 503, contentType: 'application/json', body: JSON.stringify({ kind: 'Status', message: a.message }) };
    return { status: 200, contentType: 'application/json', body: JSON.stringify(a) };
  };
}

const widgetAggregated = {
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2',
  items: [
    {
      metadata: { name: 'example.com' },
      versions: [
        {
          version: 'v2',
          resources: [
            { resource: 'widgets', responseKind: { group: 'example.com', version: 'v2', kind: 'Widget' }, scope: 'Namespaced', singularResource: 'widget', verbs: ['delete', 'get', 'list', 'watch'], shortNames: ['wd'], subresources: [{ subresource: 'status', verbs: ['get'] }] },
            { resource: 'gadgets', responseKind: { kind: 'Gadget' }, scope: 'Cluster', verbs: ['get'] },
          ],
          freshness: 'Current',
        },
        { version: 'v1', resources: [{ resource: 'widgets', responseKind: { kind: 'Widget' }, scope: 'Namespaced', verbs: ['list'] }] },
      ],
    },
    { metadata: { name: 'broken.io' }, versions: [{ version: 'v1', resources: [], freshness: 'Stale' }] },
  ],
};

test('aggregated discovery: groups in preference order, kind, scope, verbs, subresources; a Stale version is a group failure', async () => {
  const calls: string[] = [];
  const client = new RestDiscoveryClient(table({ '/api': { kind: 'APIGroupDiscoveryList', items: [{ metadata: {}, versions: [{ version: 'v1', resources: [{ resource: 'pods', responseKind: { kind: 'Pod' }, scope: 'Namespaced', verbs: ['list'] }] }] }] }, '/apis': widgetAggregated }, calls));
  const doc = await client.serverGroupsAndResources();
  assert.deepEqual(calls, [`/api ${AGGREGATED_ACCEPT}`, `/apis ${AGGREGATED_ACCEPT}`], 'two requests in all');
  assert.deepEqual(doc.groups, [
    { name: '', versions: ['v1'] },
    { name: 'example.com', versions: ['v2', 'v1'] },
    { name: 'broken.io', versions: ['v1'] },
  ]);
  const widget = doc.resources.find((r) => r.resource === 'widgets' && r.version === 'v2');
  assert.deepEqual(widget, { group: 'example.com', version: 'v2', resource: 'widgets', kind: 'Widget', namespaced: true, verbs: ['delete', 'get', 'list', 'watch'], subresources: ['status'], singular: 'widget', shortNames: ['wd'] });
  assert.equal(doc.resources.find((r) => r.resource === 'gadgets')?.namespaced, false);
  assert.deepEqual(
    preferredResources(doc).map((r) => `${r.group}/${r.version}/${r.resource}`),
    ['/v1/pods', 'example.com/v2/widgets', 'example.com/v2/gadgets'],
  );
  assert.deepEqual(withVerbs(preferredResources(doc), ['list', 'delete']).map((r) => r.resource), ['widgets']);
  assert.equal(discoveryError(doc)?.message, 'unable to retrieve the complete list of server APIs: broken.io/v1: stale GroupVersion discovery');
});

test('legacy discovery when the server does not answer the aggregated form: preferred version first, subresources folded in, failed group versions collected', async () => {
  const client = new RestDiscoveryClient(
    table({
      '/api': { kind: 'APIVersions', versions: ['v1'] },
      '/apis': {
        kind: 'APIGroupList',
        groups: [
          { name: 'example.com', versions: [{ groupVersion: 'example.com/v1', version: 'v1' }, { groupVersion: 'example.com/v2', version: 'v2' }], preferredVersion: { groupVersion: 'example.com/v2', version: 'v2' } },
          { name: 'metrics.k8s.io', versions: [{ groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' }], preferredVersion: { version: 'v1beta1' } },
        ],
      },
      '/api/v1': { kind: 'APIResourceList', groupVersion: 'v1', resources: [{ name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['list', 'delete'] }, { name: 'pods/status', namespaced: true, kind: 'Pod', verbs: ['get'] }, { name: 'nodes', namespaced: false, kind: 'Node', verbs: ['list'] }] },
      '/apis/example.com/v1': { resources: [{ name: 'widgets', namespaced: true, kind: 'Widget', verbs: ['list'] }] },
      '/apis/example.com/v2': { resources: [{ name: 'widgets', namespaced: true, kind: 'Widget', verbs: ['list', 'watch', 'delete'] }] },
      '/apis/metrics.k8s.io/v1beta1': new Error('the server is currently unable to handle the request'),
    }),
  );
  const doc = await client.serverGroupsAndResources();
  assert.deepEqual(doc.groups, [
    { name: '', versions: ['v1'] },
    { name: 'example.com', versions: ['v2', 'v1'] },
    { name: 'metrics.k8s.io', versions: ['v1beta1'] },
  ]);
  const pods = doc.resources.find((r) => r.resource === 'pods')!;
  assert.deepEqual(pods.subresources, ['status']);
  assert.equal(pods.singular, 'pod');
  assert.deepEqual(preferredResources(doc).map((r) => `${r.group}/${r.version}/${r.resource}`), ['/v1/pods', '/v1/nodes', 'example.com/v2/widgets']);
  const err = discoveryError(doc);
  assert.ok(err instanceof ErrGroupDiscoveryFailed);
  assert.deepEqual([...err.groups.keys()], ['metrics.k8s.io/v1beta1']);
  assert.equal(err.message, 'unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request');
});

test('a failure of /api itself is an error, not a partial answer', async () => {
  const client = new RestDiscoveryClient(async () => ({ status: 500, contentType: 'application/json', body: JSON.stringify({ kind: 'Status', message: 'etcd is down' }) }));
  await assert.rejects(client.serverGroupsAndResources(), /etcd is down/);
});

let server: ApiServer;
before(async () => {
  server = await startApiServer({ storage: 'memory', port: 0, log: () => {} });
});
after(async () => {
  await server.close();
});

test("RestClientset.discovery() reads kubelite's aggregated discovery: every compiled resource, preferred versions first", async () => {
  const cs = new RestClientset({ config: { server: server.url }, qps: 0 });
  const before = [...cs.metrics.requests.values()].reduce((a, b) => a + b, 0);
  const doc = await cs.discovery().serverGroupsAndResources();
  assert.equal([...cs.metrics.requests.values()].reduce((a, b) => a + b, 0) - before, 2, 'aggregated: one request for /api, one for /apis');
  assert.equal(doc.failed.size, 0);
  const deploy = preferredResources(doc).find((r) => r.resource === 'deployments');
  assert.deepEqual([deploy?.group, deploy?.version, deploy?.kind, deploy?.namespaced], ['apps', 'v1', 'Deployment', true]);
  assert.ok(deploy?.subresources.includes('scale'));
  const ns = preferredResources(doc).find((r) => r.group === '' && r.resource === 'namespaces');
  assert.equal(ns?.namespaced, false);
  assert.ok(withVerbs([ns!], ['delete', 'list', 'watch']).length === 1);
  cs.close();
});
