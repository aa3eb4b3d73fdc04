// End-to-end over HTTP: componentstatuses probes the components' health URLs and the storage on
// every read (get, list, Table; nothing else), and POST /api/v1/namespaces/<ns>/bindings binds the
// pod its Binding names, as pods/<name>/binding does; discovery lists both as kube-apiserver does.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.js';
import { Client } from '../support/http.js';
import { freePort } from '../support/ports.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

describe('componentstatuses and bindings over HTTP', () => {
  let api: ApiServer;
  let c: Client;
  let healthy: Server;
  let deadPort: number;
  before(async () => {
    healthy = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => healthy.listen(0, '127.0.0.1', r));
    deadPort = await freePort();
    const port = (healthy.address() as { port: number }).port;
    api = await startApiServer({
      storage: 'memory',
      port: 0,
      log: () => {},
      admissionPlugins: ['NamespaceLifecycle'],
      componentHealthURLs: { scheduler: `http://127.0.0.1:${port}/healthz`, 'controller-manager': `http://127.0.0.1:${deadPort}/healthz` },
    });
    c = new Client(api.url);
  });
  after(async () => {
    await api.close();
    await new Promise((r) => healthy.close(r));
  });

  it('lists scheduler, controller-manager and etcd-0 with the real probe results, with the deprecation warning', async () => {
    const r = await c.get('/api/v1/componentstatuses');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('warning'), '299 - "v1 ComponentStatus is deprecated in v1.19+"');
    assert.equal(r.json.kind, 'ComponentStatusList');
    assert.deepEqual(
      r.json.items.map((i: any) => [i.metadata.name, i.conditions]),
      [
        ['scheduler', [{ type: 'Healthy', status: 'True', message: 'ok' }]],
        ['controller-manager', [{ type: 'Healthy', status: 'False', message: `Get "http://127.0.0.1:${deadPort}/healthz": dial tcp 127.0.0.1:${deadPort}: connect: connection refused` }]],
        ['etcd-0', [{ type: 'Healthy', status: 'True', message: 'ok' }]],
      ],
    );
    const t = await c.get('/api/v1/componentstatuses', { accept: TABLE });
    assert.deepEqual(t.json.columnDefinitions.map((d: any) => d.name), ['Name', 'Status', 'Message', 'Error']);
    assert.deepEqual(t.json.rows.map((row: any) => row.cells.slice(0, 2)), [['scheduler', 'Healthy'], ['controller-manager', 'Unhealthy'], ['etcd-0', 'Healthy']]);
  });

  it('get of one component; unknown ones, writes and watches are refused as kube-apiserver refuses them', async () => {
    const r = await c.get('/api/v1/componentstatuses/etcd-0');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
    const missing = await c.get('/api/v1/componentstatuses/nope');
    assert.equal(missing.status, 500);
    assert.equal(missing.json.message, 'Component not found: nope');
    assert.equal((await c.post('/api/v1/componentstatuses', { metadata: { name: 'x' } })).status, 405);
    assert.equal((await c.delete('/api/v1/componentstatuses/etcd-0')).status, 405);
    assert.equal((await c.get('/api/v1/componentstatuses?watch=true')).status, 405);
  });

  it('POST bindings binds the named pod; discovery: bindings create only, componentstatuses get and list (cs)', async () => {
    await c.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } });
    await c.create('/api/v1/namespaces/b/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    const r = await c.post('/api/v1/namespaces/b/bindings', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n1' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status, 'Success');
    assert.equal((await c.get('/api/v1/namespaces/b/pods/p')).json.spec.nodeName, 'n1');
    const again = await c.post('/api/v1/namespaces/b/bindings', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n2' } });
    assert.equal(again.status, 409, again.text);
    assert.equal((await c.post('/api/v1/namespaces/b/bindings', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'gone' }, target: { kind: 'Node', name: 'n1' } })).status, 404);
    assert.equal((await c.get('/api/v1/namespaces/b/bindings')).status, 405);

    const resources = (await c.get('/api/v1')).json.resources as any[];
    assert.deepEqual(resources.find((x) => x.name === 'bindings'), { name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] });
    assert.deepEqual(resources.find((x) => x.name === 'componentstatuses'), { name: 'componentstatuses', singularName: 'componentstatus', namespaced: false, kind: 'ComponentStatus', verbs: ['get', 'list'], shortNames: ['cs'] });
    assert.deepEqual(resources.find((x) => x.name === 'resourcequotas').shortNames, ['quota']);
    assert.deepEqual(resources.find((x) => x.name === 'limitranges').shortNames, ['limits']);
  });
});
