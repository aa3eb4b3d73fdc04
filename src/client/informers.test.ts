import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { Socket } from 'node:net';
import { startApiServer, type ApiServer } from '../apiserver/server.js';
import { nameOf, namespaceOf, resourceVersionOf } from '../api/meta/object.js';
import { keyOf } from './cache.js';
import { SharedInformerFactory, stripManagedFields, type SharedInformerFactoryOptions } from './informers.js';
import { RestClientset } from './rest.js';
import type { KubeObject, Tombstone } from './types.js';

const cms = { group: '', version: 'v1', resource: 'configmaps' };
const namespaces = { group: '', version: 'v1', resource: 'namespaces' };

async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function withServer(opts: Parameters<typeof startApiServer>[0], fn: (server: ApiServer, cs: RestClientset) => Promise<void>): Promise<void> {
  const server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, ...opts });
  const cs = new RestClientset({ config: { server: server.url }, qps: 0 });
  try {
    for (const ns of ['a', 'b']) await cs.resource(namespaces).create('', { metadata: { name: ns } });
    await fn(server, cs);
  } finally {
    cs.close();
    await server.close();
  }
}

/** A TCP-level proxy in front of the API server whose connections can be cut. */
async function proxyTo(server: ApiServer): Promise<{ url: string; urls: string[]; dropAll(): void; paused: boolean; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const target = new URL(server.url);
  const state = {
    paused: false,
    urls: [] as string[],
    url: '',
    dropAll() {
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    close: () => new Promise<void>((r) => p.close(() => r())),
  };
  const p = http.createServer((req, res) => {
    if (state.paused) {
      req.socket.destroy();
      return;
    }
    state.urls.push(req.url ?? '');
    const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (ur) => {
      res.writeHead(ur.statusCode ?? 500, ur.headers);
      res.flushHeaders();
      ur.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  p.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => p.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(p.address() as { port: number }).port}`;
  return state;
}

function snapshot(objs: KubeObject[]): string[] {
  return objs.map((o) => `${keyOf(o)}@${resourceVersionOf(o)}`).sort();
}

test('informer: sees every add/update/delete of 200 objects written concurrently; lister equals a fresh list', async () => {
  await withServer({}, async (_server, cs) => {
    const c = cs.resource(cms);
    // Some objects exist before the informer starts (initial list in pages of 50).
    await Promise.all(Array.from({ length: 120 }, (_, i) => c.create(i % 2 ? 'a' : 'b', { metadata: { name: `pre-${i}` } })));
    const factory = new SharedInformerFactory(cs, { pageSize: 50, resyncPeriodMs: 0 });
    const inf = factory.informer(cms);
    const events = new Map<string, string[]>();
    const note = (o: KubeObject | Tombstone, what: string) => {
      const k = keyOf(o);
      if (!events.has(k)) events.set(k, []);
      events.get(k)!.push(what);
    };
    let initialAdds = 0;
    inf.addEventHandler({
      // (the API server's own kube-system ConfigMaps are not this test's)
      onAdd: (o, initial) => (namespaceOf(o) === 'kube-system' ? undefined : initial ? initialAdds++ : note(o, 'add')),
      onUpdate: (_old, o) => note(o, 'update'),
      onDelete: (o) => note(o, 'delete'),
    });
    const ac = new AbortController();
    factory.start(ac.signal);
    assert.equal(await factory.waitForCacheSync(), true);
    assert.equal(initialAdds, 120);
    assert.equal(inf.stats.lists, 1);
    const names = Array.from({ length: 200 }, (_, i) => `obj-${i}`);
    await Promise.all(names.map((n, i) => c.create(i % 2 ? 'a' : 'b', { metadata: { name: n }, data: { v: '0' } })));
    await Promise.all(names.map((n, i) => c.patch(i % 2 ? 'a' : 'b', n, 'merge', { data: { v: '1' } })));
    await Promise.all(names.filter((_, i) => i % 4 === 0).map((n) => c.delete(names.indexOf(n) % 2 ? 'a' : 'b', n)));
    const fresh = await c.list('');
    await until(() => inf.lastSyncResourceVersion() === fresh.metadata.resourceVersion, 'the informer to catch up');
    assert.deepEqual(snapshot(inf.lister.list()), snapshot(fresh.items));
    for (const [i, n] of names.entries()) {
      const k = `${i % 2 ? 'a' : 'b'}/${n}`;
      assert.deepEqual(events.get(k), i % 4 === 0 ? ['add', 'update', 'delete'] : ['add', 'update'], k);
    }
    assert.equal(inf.lister.list('a').length, 120 / 2 + 100 - 0);
    assert.equal(inf.lister.byIndex('namespace', 'b').length, 60 + 50);
    // A late handler gets the cache as synthetic adds.
    let late = 0;
    inf.addEventHandler({ onAdd: (_o, initial) => void (initial && late++) });
    assert.equal(late, fresh.items.length);
    // Resync: onUpdate with identical objects.
    let same = 0;
    inf.addEventHandler({ onUpdate: (o, n) => void (o === n && same++) });
    inf.resync();
    assert.equal(same, fresh.items.length);
    ac.abort();
  });
});

test('informer: resumes from the last resourceVersion after a dropped watch (no relist)', async () => {
  await withServer({}, async (server, cs) => {
    const proxy = await proxyTo(server);
    const pcs = new RestClientset({ config: { server: proxy.url }, qps: 0, maxRetries: 10 });
    const c = cs.resource(cms);
    await c.create('a', { metadata: { name: 'x0' } });
    const factory = new SharedInformerFactory(pcs, { resyncPeriodMs: 0, backoffMs: { initial: 20, max: 100 } });
    const inf = factory.informer(cms);
    const ac = new AbortController();
    factory.start(ac.signal);
    await factory.waitForCacheSync();
    await c.create('a', { metadata: { name: 'x1' } });
    await until(() => inf.lister.get('a', 'x1') !== undefined, 'x1');
    const rvBefore = inf.lastSyncResourceVersion();
    proxy.dropAll();
    for (let i = 2; i < 6; i++) await c.create('a', { metadata: { name: `x${i}` } });
    await until(() => inf.lister.get('a', 'x5') !== undefined, 'x5 after the drop');
    assert.equal(inf.stats.lists, 1);
    assert.ok(inf.stats.watches >= 2);
    assert.ok(proxy.urls.some((u) => u.includes('watch=true') && u.includes(`resourceVersion=${rvBefore}`)), proxy.urls.join('\n'));
    ac.abort();
    pcs.close();
    await proxy.close();
  });
});

test('informer: relists on 410 Expired and delivers tombstones for deletes it missed', async () => {
  await withServer({ history: { minAgeMs: 0, minRevisions: 5 } }, async (server, cs) => {
    const proxy = await proxyTo(server);
    const pcs = new RestClientset({ config: { server: proxy.url }, qps: 0, maxRetries: 0 });
    const c = cs.resource(cms);
    for (let i = 0; i < 3; i++) await c.create('a', { metadata: { name: `y${i}` } });
    const logs: Record<string, unknown>[] = [];
    const factory = new SharedInformerFactory(pcs, { resyncPeriodMs: 0, backoffMs: { initial: 20, max: 50 }, log: (f) => logs.push(f) });
    const inf = factory.informer(cms);
    const deleted: (KubeObject | Tombstone)[] = [];
    inf.addEventHandler({ onDelete: (o) => deleted.push(o) });
    const ac = new AbortController();
    factory.start(ac.signal);
    await factory.waitForCacheSync();
    // Cut the informer off, change a lot, compact: its resourceVersion is now too old.
    proxy.paused = true;
    proxy.dropAll();
    await c.delete('a', 'y0');
    for (let i = 0; i < 30; i++) await c.create('b', { metadata: { name: `z${i}` } });
    await server.storage.compact(await server.storage.currentRevision());
    proxy.paused = false;
    const fresh = await c.list('');
    await until(async () => snapshot(inf.lister.list()).join() === snapshot((await c.list('')).items).join(), 'the relist');
    assert.ok(inf.stats.lists >= 2, `lists ${inf.stats.lists}`);
    assert.ok(inf.stats.relists >= 1);
    assert.ok(logs.some((l) => l.msg === 'watch expired; relisting'), JSON.stringify(logs));
    const tomb = deleted.find((d) => keyOf(d) === 'a/y0');
    assert.ok(tomb && 'finalStateUnknown' in tomb && tomb.finalStateUnknown, JSON.stringify(deleted));
    assert.equal(inf.lister.list().length, fresh.items.length);
    ac.abort();
    pcs.close();
    await proxy.close();
  });
});

test('informer: metadata-only informers hold PartialObjectMetadata', async () => {
  await withServer({}, async (_server, cs) => {
    const c = cs.resource(cms);
    await c.create('a', { metadata: { name: 'm0', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u-1' }] }, data: { big: 'x' } });
    const factory = new SharedInformerFactory(cs, { resyncPeriodMs: 0 });
    const inf = factory.informer(cms, { metadataOnly: true });
    const ac = new AbortController();
    factory.start(ac.signal);
    await factory.waitForCacheSync();
    await c.create('a', { metadata: { name: 'm1' }, data: { big: 'y' } });
    await until(() => inf.lister.get('a', 'm1') !== undefined, 'm1');
    for (const o of inf.lister.list()) {
      assert.equal(o.kind, 'PartialObjectMetadata');
      assert.equal(o.data, undefined);
    }
    assert.equal(inf.lister.byIndex('ownerUid', 'u-1').length, 1);
    ac.abort();
  });
});

test('informer: a field selector keeps what the server selects, in its list and its watch', async () => {
  await withServer({}, async (_server, cs) => {
    const c = cs.resource(cms);
    await c.create('a', { metadata: { name: 'in' }, data: { side: 'left' } });
    await c.create('a', { metadata: { name: 'out' }, data: { side: 'right' } });
    const factory = new SharedInformerFactory(cs, { resyncPeriodMs: 0 });
    const all = factory.informer(cms);
    const named = factory.informer(cms, { fieldSelector: 'metadata.namespace=a,metadata.name!=out' });
    assert.notEqual(all, named);
    const seen: string[] = [];
    named.addEventHandler({ onAdd: (o) => seen.push(`add ${nameOf(o)}`), onDelete: (o) => seen.push(`delete ${keyOf(o)}`) });
    const ac = new AbortController();
    factory.start(ac.signal);
    try {
      await factory.waitForCacheSync();
      assert.deepEqual(named.lister.list().map((o) => nameOf(o)), ['in']);
      await c.create('a', { metadata: { name: 'later' } });
      await c.delete('a', 'in');
      await until(() => seen.length === 3, 'the add and the delete');
      assert.deepEqual(seen, ['add in', 'add later', 'delete a/in']);
      await until(() => all.lister.list('a').length === 2, 'the unselected informer');
    } finally {
      ac.abort();
    }
  });
});

const dropping: Array<[string, SharedInformerFactoryOptions, string | undefined]> = [
  ['a transform (stripManagedFields)', { transform: stripManagedFields }, undefined],
  ['dropManagedFields, protobuf answers (skipped while decoding)', { dropManagedFields: true }, 'application/vnd.kubernetes.protobuf'],
  ['dropManagedFields, JSON answers', { dropManagedFields: true }, 'application/json'],
];
for (const [how, options, contentType] of dropping) test(`informer: ${how} keeps managedFields out of the cache and handlers; updates from the cache keep the live managedFields`, async () => {
  await withServer({}, async (_server, json) => {
    const cs = contentType === undefined ? json : new RestClientset({ config: { server: _server.url }, qps: 0, contentType });
    const c = cs.resource(cms);
    await c.create('a', { metadata: { name: 's0' }, data: { v: '0' } });
    const mf = (o: KubeObject | undefined) => (o?.metadata as { managedFields?: unknown[] } | undefined)?.managedFields;
    assert.ok(mf(await c.get('a', 's0')), 'the server records managedFields');
    const factory = new SharedInformerFactory(cs, { resyncPeriodMs: 0, ...options });
    const inf = factory.informer(cms);
    const seen: KubeObject[] = [];
    inf.addEventHandler({ onAdd: (o) => seen.push(o), onUpdate: (_old, o) => seen.push(o) });
    const ac = new AbortController();
    factory.start(ac.signal);
    await factory.waitForCacheSync();
    await c.create('a', { metadata: { name: 's1' }, data: { v: '0' } });
    await until(() => inf.lister.get('a', 's1') !== undefined, 's1');
    // An update sent from the cached object (which has none) leaves the server's managedFields.
    const cached = inf.lister.get('a', 's0')!;
    const updated = await c.update('a', { ...cached, data: { v: '1' } });
    assert.ok((mf(updated)?.length ?? 0) > 0, 'live managedFields kept');
    await until(() => (inf.lister.get('a', 's0')?.data as { v?: string } | undefined)?.v === '1', 'the update');
    for (const o of [...inf.lister.list(), ...seen]) assert.equal(mf(o), undefined, `${keyOf(o)} has managedFields`);
    assert.ok(seen.length >= 3);
    ac.abort();
    if (cs !== json) cs.close();
  });
});
