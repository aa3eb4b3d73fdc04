import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServer } from '../apiserver/server.js';
import { isAlreadyExists, isConflict, isInvalid, isNotFound } from './errors.js';
import { loadRestConfig, parseKubeconfig } from './kubeconfig.js';
import { RestClientset, programName } from './rest.js';
import type { KubeObject } from './types.js';

let server: ApiServer;
before(async () => {
  server = await startApiServer({ storage: 'memory', port: 0, log: () => {} });
  await new RestClientset({ config: { server: server.url }, qps: 0 }).resource({ group: '', version: 'v1', resource: 'namespaces' }).create('', { metadata: { name: 'default' } }).catch(() => {});
});
after(async () => {
  await server.close();
});

const cms = { group: '', version: 'v1', resource: 'configmaps' };
const deployments = { group: 'apps', version: 'v1', resource: 'deployments' };
const namespaces = { group: '', version: 'v1', resource: 'namespaces' };

function deployment(name: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

for (const contentType of ['application/json', 'application/vnd.kubernetes.protobuf']) {
  test(`rest client (${contentType}): CRUD, subresources, patches, errors`, async () => {
    const cs = new RestClientset({ config: { server: server.url }, contentType, qps: 0, userAgent: 'kubelite-test/v1.33.0' });
    const ns = contentType.includes('protobuf') ? 'pb' : 'js';
    await cs.resource(namespaces).create('', { metadata: { name: ns } });
    const d = cs.resource(deployments);
    const created = await d.create(ns, deployment('web'));
    assert.equal(created.kind, 'Deployment');
    assert.equal((created.metadata as { namespace: string }).namespace, ns);
    await assert.rejects(d.create(ns, deployment('web')), (e) => isAlreadyExists(e) && (e as { code: number }).code === 409);
    await assert.rejects(d.get(ns, 'nope'), (e) => isNotFound(e));
    await assert.rejects(d.create(ns, { metadata: { name: 'bad' }, spec: {} }), (e) => isInvalid(e) && (e as { code: number }).code === 422);
    const got = await d.get(ns, 'web');
    assert.equal((got.spec as { replicas: number }).replicas, 2);
    const list = await d.list(ns, { labelSelector: 'app=web' });
    assert.equal(list.items.length, 1);
    assert.equal(list.items[0]!.kind, 'Deployment');
    assert.ok(list.metadata.resourceVersion);
    // update + stale update
    const upd = await d.update(ns, { ...got, spec: { ...(got.spec as object), replicas: 3 } });
    assert.equal((upd.spec as { replicas: number }).replicas, 3);
    await assert.rejects(d.update(ns, got), (e) => isConflict(e));
    // status and scale subresources
    const st = await d.update(ns, { ...upd, status: { replicas: 1, observedGeneration: 1 } }, { subresource: 'status' });
    assert.equal((st.status as { replicas: number }).replicas, 1);
    const scale = await d.update(ns, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: ns }, spec: { replicas: 5 } }, { subresource: 'scale' });
    assert.equal(scale.kind, 'Scale');
    assert.equal((scale.spec as { replicas: number }).replicas, 5);
    // patches
    const sp = await d.patch(ns, 'web', 'strategic', { metadata: { labels: { extra: 'x' } } });
    assert.equal((sp.metadata as { labels: Record<string, string> }).labels.extra, 'x');
    const mp = await d.patch(ns, 'web', 'merge', { metadata: { annotations: { a: 'b' } } });
    assert.equal((mp.metadata as { annotations: Record<string, string> }).annotations.a, 'b');
    const jp = await d.patch(ns, 'web', 'json', [{ op: 'replace', path: '/spec/replicas', value: 1 }]);
    assert.equal((jp.spec as { replicas: number }).replicas, 1);
    // cluster-scoped and core
    const c = cs.resource(cms);
    await c.create(ns, { metadata: { name: 'cm' }, data: { k: 'v' } });
    assert.deepEqual((await c.get(ns, 'cm')).data, { k: 'v' });
    // delete: gone → undefined; with a finalizer → the object
    assert.equal(await c.delete(ns, 'cm'), undefined);
    await assert.rejects(c.delete(ns, 'cm'), (e) => isNotFound(e));
    await c.create(ns, { metadata: { name: 'fin', finalizers: ['example.com/x'] } });
    const still = await c.delete(ns, 'fin');
    assert.ok((still?.metadata as { deletionTimestamp?: string }).deletionTimestamp);
    await c.patch(ns, 'fin', 'merge', { metadata: { finalizers: null } });
    await assert.rejects(c.get(ns, 'fin'), (e) => isNotFound(e));
    assert.equal(await d.delete(ns, 'web'), undefined);
    cs.close();
  });
}

test('rest client: watch streams in JSON and protobuf', async () => {
  for (const contentType of ['application/json', 'application/vnd.kubernetes.protobuf']) {
    const cs = new RestClientset({ config: { server: server.url }, contentType, qps: 0 });
    const c = cs.resource(cms);
    const ns = 'default';
    const start = await c.list(ns);
    const w = await c.watch(ns, { resourceVersion: start.metadata.resourceVersion, allowWatchBookmarks: true });
    const name = `w-${contentType.length}`;
    await c.create(ns, { metadata: { name }, data: { a: '1' } });
    await c.patch(ns, name, 'merge', { data: { a: '2' } });
    await c.delete(ns, name);
    const seen: string[] = [];
    for await (const ev of w) {
      if (ev.type === 'BOOKMARK') continue;
      assert.equal(ev.object.kind, 'ConfigMap');
      seen.push(`${ev.type} ${(ev.object.metadata as { name: string }).name}`);
      if (seen.length === 3) w.close();
    }
    assert.deepEqual(seen, [`ADDED ${name}`, `MODIFIED ${name}`, `DELETED ${name}`]);
    cs.close();
  }
});

test('rest client: falls back to JSON when the server answers 415 to protobuf, and remembers', async () => {
  const seen: string[] = [];
  const proxy = http.createServer((req, res) => {
    const ct = String(req.headers['content-type'] ?? '');
    seen.push(`${req.method} ${ct || '-'}`);
    if (ct.includes('protobuf')) {
      req.resume();
      res.writeHead(415, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'UnsupportedMediaType', code: 415 }));
      return;
    }
    const u = new URL(server.url);
    const up = http.request({ host: u.hostname, port: u.port, path: req.url, method: req.method, headers: req.headers }, (ur) => {
      res.writeHead(ur.statusCode ?? 500, ur.headers);
      res.flushHeaders();
      ur.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const port = (proxy.address() as { port: number }).port;
  try {
    const cs = new RestClientset({ config: { server: `http://127.0.0.1:${port}` }, qps: 0 });
    await cs.resource(cms).create('default', { metadata: { name: 'fallback1' } });
    await cs.resource(cms).create('default', { metadata: { name: 'fallback2' } });
    assert.deepEqual(seen, ['POST application/vnd.kubernetes.protobuf', 'POST application/json', 'POST application/json']);
    cs.close();
  } finally {
    proxy.close();
  }
});

test('rest client: retries reads on connection errors until the server is up', async () => {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const logs: Record<string, unknown>[] = [];
  const cs = new RestClientset({ config: { server: `http://127.0.0.1:${port}` }, qps: 0, maxRetries: 2, log: (f) => logs.push(f) });
  await assert.rejects(cs.resource(cms).get('default', 'x'), (e) => (e as NodeJS.ErrnoException).code === 'ECONNREFUSED');
  assert.equal(logs.length, 2);
  assert.equal(cs.metrics.retries, 2);
  cs.close();
});

test('rest client: the token bucket spaces requests (50 gets at qps 50 / burst 10 ≥ ~0.8 s)', async () => {
  const cs = new RestClientset({ config: { server: server.url }, qps: 50, burst: 10 });
  const start = performance.now();
  await Promise.all(Array.from({ length: 50 }, () => cs.resource(namespaces).get('', 'default')));
  const took = performance.now() - start;
  assert.ok(took >= 750, `took ${took} ms`);
  assert.ok(took < 10_000);
  cs.close();
});

test('kubeconfig: current context, data and file forms, token file, errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
  writeFileSync(join(dir, 'ca.crt'), 'CA');
  writeFileSync(join(dir, 'token'), 'secret-token\n');
  const text = `apiVersion: v1
kind: Config
current-context: two
clusters:
- name: c1
  cluster: {server: https://one:6443, certificate-authority-data: ${Buffer.from('CADATA').toString('base64')}}
- name: c2
  cluster: {server: "http://127.0.0.1:8080/", certificate-authority: ca.crt, insecure-skip-tls-verify: true}
users:
- name: u1
  user: {client-certificate-data: ${Buffer.from('CERT').toString('base64')}, client-key-data: ${Buffer.from('KEY').toString('base64')}}
- name: u2
  user: {tokenFile: token}
contexts:
- name: one
  context: {cluster: c1, user: u1}
- name: two
  context: {cluster: c2, user: u2}
`;
  const path = join(dir, 'config');
  writeFileSync(path, text);
  const two = loadRestConfig({ kubeconfig: path });
  assert.equal(two.server, 'http://127.0.0.1:8080');
  assert.equal(two.token, 'secret-token');
  assert.equal(two.ca?.toString(), 'CA');
  assert.equal(two.insecureSkipTlsVerify, true);
  const one = parseKubeconfig(text, path, { context: 'one' });
  assert.equal(one.server, 'https://one:6443');
  assert.equal(one.ca?.toString(), 'CADATA');
  assert.equal(one.clientCert?.toString(), 'CERT');
  assert.equal(one.clientKey?.toString(), 'KEY');
  assert.equal(loadRestConfig({ kubeconfig: path, master: 'http://other:1' }).server, 'http://other:1');
  assert.equal(loadRestConfig({ master: 'localhost:8080' }).server, 'https://localhost:8080');
  assert.throws(() => loadRestConfig({}), /neither --kubeconfig nor --master/);
  assert.throws(() => loadRestConfig({ kubeconfig: join(dir, 'missing') }), /cannot read kubeconfig .*ENOENT/);
  assert.throws(() => parseKubeconfig(text, path, { context: 'nope' }), /context "nope" not found/);
  assert.throws(() => parseKubeconfig('clusters: [', path), /invalid kubeconfig/);
  assert.equal(programName('kubelite-controller-manager/v1.33.0 (linux/amd64) kubernetes/abc'), 'kubelite-controller-manager');
});

test('rest client: protobuf on the wire both ways (requests, answers, lists and watches)', async () => {
  const seen: string[] = [];
  const u = new URL(server.url);
  const proxy = http.createServer((req, res) => {
    const up = http.request({ host: u.hostname, port: u.port, path: req.url, method: req.method, headers: req.headers }, (ur) => {
      seen.push(`${req.method} ${String(req.headers['content-type'] ?? '-')} → ${String(ur.headers['content-type'])}`);
      res.writeHead(ur.statusCode ?? 500, ur.headers);
      res.flushHeaders();
      ur.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  try {
    const cs = new RestClientset({ config: { server: `http://127.0.0.1:${(proxy.address() as { port: number }).port}` }, qps: 0 });
    const c = cs.resource(cms);
    const w = await c.watch('default', { resourceVersion: (await c.list('default')).metadata.resourceVersion });
    await c.create('default', { metadata: { name: 'pb-1' }, data: { a: 'b' } });
    for await (const ev of w) {
      assert.equal(ev.type, 'ADDED');
      assert.deepEqual(ev.object.data, { a: 'b' });
      w.close();
    }
    await assert.rejects(c.get('default', 'missing'), (e) => isNotFound(e));
    assert.deepEqual(seen, [
      'GET - → application/vnd.kubernetes.protobuf',
      'GET - → application/vnd.kubernetes.protobuf;stream=watch',
      'POST application/vnd.kubernetes.protobuf → application/vnd.kubernetes.protobuf',
      'GET - → application/vnd.kubernetes.protobuf',
    ]);
    cs.close();
  } finally {
    proxy.close();
  }
});

test('rest client: a write with skipManagedFields answers without managedFields (protobuf and JSON); without it, with them', async () => {
  for (const contentType of ['application/vnd.kubernetes.protobuf', 'application/json']) {
    const cs = new RestClientset({ config: { server: server.url }, qps: 0, contentType });
    const c = cs.resource(cms);
    const name = `skip-mf-${contentType.length}`;
    const mf = (o: KubeObject) => (o.metadata as { managedFields?: unknown[] }).managedFields;
    const created = await c.create('default', { metadata: { name }, data: { a: '1' } }, { skipManagedFields: true });
    assert.equal(mf(created), undefined, contentType);
    assert.equal((created.data as Record<string, string>).a, '1');
    const patched = await c.patch('default', name, 'merge', { data: { a: '2' } }, { skipManagedFields: true });
    assert.equal(mf(patched), undefined, contentType);
    assert.equal((patched.data as Record<string, string>).a, '2');
    const updated = await c.update('default', { ...patched, data: { a: '3' } }, { skipManagedFields: true });
    assert.equal(mf(updated), undefined, contentType);
    assert.ok((mf(await c.patch('default', name, 'merge', { data: { a: '4' } })) ?? []).length > 0, 'by default the answer has them');
    cs.close();
  }
});

test('rest client: a protobuf list answer larger than the 3 MiB request limit decodes', async () => {
  const cs = new RestClientset({ config: { server: server.url }, contentType: 'application/vnd.kubernetes.protobuf', qps: 0 });
  await cs.resource(namespaces).create('', { metadata: { name: 'big' } });
  const value = 'x'.repeat(500_000);
  for (let i = 0; i < 8; i++) await cs.resource(cms).create('big', { metadata: { name: `cm-${i}` }, data: { value } });
  const list = await cs.resource(cms).list('big');
  assert.equal(list.items.length, 8);
  cs.close();
});

test('events reach the API server and aggregate there', async () => {
  const { EventBroadcaster } = await import('./events.js');
  const cs = new RestClientset({ config: { server: server.url }, qps: 0 });
  const cm = await cs.resource(cms).create('default', { metadata: { name: 'ev-target' } });
  const b = new EventBroadcaster({ clientset: cs, host: 'test-host' });
  const rec = b.newRecorder('test-controller');
  rec.event(cm, 'Normal', 'Touched', 'touched it');
  rec.event(cm, 'Normal', 'Touched', 'touched it');
  await b.flush();
  assert.deepEqual(b.stats, { created: 1, patched: 1, dropped: 0, failed: 0 });
  const evs = (await cs.resource({ group: '', version: 'v1', resource: 'events' }).list('default')).items.filter((e) => e.reason === 'Touched');
  assert.equal(evs.length, 1);
  assert.equal(evs[0]!.count, 2);
  assert.equal((evs[0]!.involvedObject as { name: string }).name, 'ev-target');
  cs.close();
});
