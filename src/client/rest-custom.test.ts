// The REST client and informers for a resource outside the compiled kind table (a custom
// resource): JSON both ways even from a protobuf client, the scope discovery gives, kinds filled
// in from the ref. The server here is a stub that serves `widgets.example.com` as JSON only.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { SharedInformerFactory } from './informers.js';
import { RestClientset } from './rest.js';
import type { KubeObject } from './types.js';

interface Seen {
  method: string;
  url: string;
  accept: string;
  contentType: string;
  body: string;
}

const seen: Seen[] = [];
const widgets = new Map<string, KubeObject>();
let rv = 10;
let server: http.Server;
let url: string;

function answer(res: http.ServerResponse, status: number, obj: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(obj));
}

before(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = { method: req.method!, url: req.url!, accept: String(req.headers.accept), contentType: String(req.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString() };
      seen.push(s);
      // a custom resource's server refuses protobuf, as kube-apiserver does
      if (s.accept.startsWith('application/vnd.kubernetes.protobuf') && !s.accept.includes('application/json')) return answer(res, 406, { kind: 'Status', code: 406 });
      if (s.contentType.startsWith('application/vnd.kubernetes.protobuf')) return answer(res, 415, { kind: 'Status', code: 415 });
      const u = new URL(s.url, 'http://x');
      const m = /^\/apis\/example\.com\/v1(?:\/namespaces\/([^/]+))?\/widgets(?:\/([^/]+))?$/.exec(u.pathname);
      if (!m) return answer(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: `not found: ${u.pathname}` });
      const [, ns = '', name] = m;
      if (u.searchParams.get('watch') === 'true') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(JSON.stringify({ type: 'ADDED', object: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'late', namespace: 'team', resourceVersion: String(++rv), uid: 'u-late' } } }) + '\n');
        setTimeout(() => res.end(), 50);
        return;
      }
      if (s.method === 'POST') {
        const o = JSON.parse(s.body) as KubeObject;
        const meta = o.metadata as Record<string, unknown>;
        meta.namespace = ns;
        meta.resourceVersion = String(++rv);
        meta.uid = `u-${String(meta.name)}`;
        widgets.set(`${ns}/${String(meta.name)}`, o);
        return answer(res, 201, o);
      }
      if (s.method === 'GET' && name) {
        const o = widgets.get(`${ns}/${name}`);
        return o ? answer(res, 200, o) : answer(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: `widgets.example.com "${name}" not found` });
      }
      if (s.method === 'GET') {
        // items without kind, to see the client fill it in from the ref
        const items = [...widgets.entries()].filter(([k]) => ns === '' || k.startsWith(`${ns}/`)).map(([, o]) => ({ metadata: o.metadata, spec: o.spec }));
        return answer(res, 200, { apiVersion: 'example.com/v1', kind: 'WidgetList', metadata: { resourceVersion: String(rv) }, items });
      }
      if (s.method === 'DELETE' && name) {
        widgets.delete(`${ns}/${name}`);
        return answer(res, 200, { kind: 'Status', apiVersion: 'v1', status: 'Success' });
      }
      answer(res, 405, { kind: 'Status', code: 405 });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const WIDGETS = { group: 'example.com', version: 'v1', resource: 'widgets', namespaced: true, kind: 'Widget' };

test('a protobuf client speaks JSON to a resource it has no schema for, with the scope and kind discovery gave', async () => {
  const cs = new RestClientset({ config: { server: url }, contentType: 'application/vnd.kubernetes.protobuf', qps: 0 });
  seen.length = 0;
  const c = cs.resource(WIDGETS);
  const created = await c.create('team', { metadata: { name: 'w1' }, spec: { size: 3 } });
  assert.equal(created.kind, 'Widget', 'apiVersion and kind added from the ref');
  assert.equal(created.apiVersion, 'example.com/v1');
  assert.deepEqual(created.spec, { size: 3 });
  const got = await c.get('team', 'w1');
  assert.deepEqual((got.metadata as { uid: string }).uid, 'u-w1');
  const list = await c.list('team');
  assert.deepEqual(list.items.map((i) => [i.apiVersion, i.kind, (i.metadata as { name: string }).name]), [['example.com/v1', 'Widget', 'w1']]);
  assert.equal(await c.delete('team', 'w1'), undefined);
  // every request: JSON only, never a protobuf attempt (no 406/415 round trip)
  assert.deepEqual(
    seen.map((s) => `${s.method} ${s.url.split('?')[0]} ${s.accept} ${s.contentType}`),
    [
      'POST /apis/example.com/v1/namespaces/team/widgets application/json application/json',
      'GET /apis/example.com/v1/namespaces/team/widgets/w1 application/json ',
      'GET /apis/example.com/v1/namespaces/team/widgets application/json ',
      'DELETE /apis/example.com/v1/namespaces/team/widgets/w1 application/json application/json',
    ],
  );
  // a built-in resource from the same client still asks for protobuf
  assert.equal(cs.usesProtobuf({ group: 'apps', version: 'v1', resource: 'deployments' }), true);
  assert.equal(cs.usesProtobuf(WIDGETS), false);
  cs.close();
});

test('informers list and watch a resource outside the kind table (full and metadata-only)', async () => {
  const cs = new RestClientset({ config: { server: url }, contentType: 'application/vnd.kubernetes.protobuf', qps: 0 });
  await cs.resource(WIDGETS).create('team', { metadata: { name: 'w2' } });
  const factory = new SharedInformerFactory(cs, { resyncPeriodMs: 0, backoffMs: { initial: 10, max: 50 } });
  const full = factory.informer(WIDGETS);
  const meta = factory.informer(WIDGETS, { metadataOnly: true });
  const ac = new AbortController();
  factory.start(ac.signal);
  try {
    assert.equal(await factory.waitForCacheSync(ac.signal), true);
    assert.equal(full.lister.get('team', 'w2')?.kind, 'Widget');
    assert.equal(meta.lister.get('team', 'w2')?.kind, 'PartialObjectMetadata');
    // the watch's object arrives
    for (let i = 0; i < 50 && !full.lister.get('team', 'late'); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(full.lister.get('team', 'late'));
    // removing an informer stops it and waitForCacheSync no longer counts it
    factory.remove(WIDGETS);
    assert.equal(factory.all().length, 1);
    assert.notEqual(factory.informer(WIDGETS), full, 'a later informer() starts afresh');
  } finally {
    ac.abort();
    cs.close();
  }
});
