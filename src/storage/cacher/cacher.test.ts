// The watch cache's state side: initial load, lists and gets, consistent reads, readiness,
// re-initialisation after a lost storage watch, stop, late registration.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { waitFor } from '../../../test/support/wait.js';
import { MemoryStorage } from '../memory.js';
import { StorageError, type Storage } from '../types.js';
import { Cacher, type CacherOptions } from './cacher.js';
import { collect, encode, FaultyStorage, jsonMaterialize, obj, served } from './test-support.js';
import { isCacheError, type CacheErrorCode } from './types.js';

const PODS = '/registry/pods/';
const DEPLOYS = '/registry/deployments/';
const APISERVICES = '/registry/apiregistration.k8s.io/apiservices/';

const cachers: Cacher[] = [];
const stores: Storage[] = [];
after(async () => {
  for (const c of cachers) await c.stop();
  for (const s of stores) await s.close().catch(() => undefined);
});

function newCacher(storage: Storage, opts: CacherOptions = {}): Cacher {
  const c = new Cacher(storage, opts);
  cachers.push(c);
  return c;
}

function memory(): MemoryStorage {
  const s = new MemoryStorage();
  stores.push(s);
  return s;
}

async function throwsCode(fn: () => unknown, code: CacheErrorCode): Promise<void> {
  try {
    await fn();
  } catch (err) {
    assert.ok(isCacheError(err, code), `expected CacheError ${code}, got ${String(err)}`);
    return;
  }
  assert.fail(`expected CacheError ${code}`);
}

describe('watch cache: state', () => {
  it('loads pre-existing objects of several resources, page by page, at one revision', async () => {
    const s = memory();
    for (let i = 0; i < 7; i++) await s.create(`${PODS}ns${i % 2}/pod-${i}`, encode(obj(`pod-${i}`, `ns${i % 2}`)));
    for (let i = 0; i < 4; i++) await s.create(`${DEPLOYS}ns0/d-${i}`, encode(obj(`d-${i}`, 'ns0')));
    await s.create(`${APISERVICES}v1.apps`, encode(obj('v1.apps', undefined)));
    await s.create('/registry/unregistered/x', encode(obj('x', undefined)));
    const rev = await s.currentRevision();
    const c = newCacher(s, { pageSize: 3 });
    const pods = c.register({ prefix: PODS, materialize: jsonMaterialize });
    const deploys = c.register({ prefix: DEPLOYS, materialize: jsonMaterialize });
    const apis = c.register({ prefix: APISERVICES, materialize: jsonMaterialize });
    await throwsCode(() => pods.list({ prefix: PODS }), 'NotReady');
    c.start();
    await c.ready;
    assert.equal(c.revision, rev);
    const list = pods.list({ prefix: PODS });
    assert.equal(list.revision, rev);
    assert.deepEqual(
      list.items.map((o) => o.name),
      ['pod-0', 'pod-2', 'pod-4', 'pod-6', 'pod-1', 'pod-3', 'pod-5'],
    );
    assert.equal(deploys.list({ prefix: DEPLOYS }).items.length, 4);
    assert.equal(apis.get(`${APISERVICES}v1.apps`)?.name, 'v1.apps');
    assert.equal(c.resourceFor(`${PODS}ns0/pod-0`), pods);
    assert.equal(c.resourceFor('/registry/unregistered/x'), undefined);
    // The served bytes carry the object's own resourceVersion.
    const p0 = pods.get(`${PODS}ns0/pod-0`)!;
    assert.equal(served(p0).metadata.resourceVersion, String(p0.revision));
    assert.deepEqual(
      c.metrics.resources.map((m) => [m.prefix, m.objects]),
      [
        [PODS, 7],
        [DEPLOYS, 4],
        [APISERVICES, 1],
      ],
    );
  });

  it('the longest registered prefix wins', async () => {
    const s = memory();
    await s.create('/registry/services/specs/ns/a', encode(obj('a', 'ns')));
    await s.create('/registry/services/endpoints/ns/a', encode(obj('a', 'ns')));
    const c = newCacher(s);
    const all = c.register({ prefix: '/registry/services/', materialize: jsonMaterialize });
    const specs = c.register({ prefix: '/registry/services/specs/', materialize: jsonMaterialize });
    c.start();
    await c.ready;
    assert.deepEqual(
      all.list({ prefix: '/registry/services/' }).items.map((o) => o.key),
      ['/registry/services/endpoints/ns/a'],
    );
    assert.deepEqual(
      specs.list({ prefix: '/registry/services/specs/' }).items.map((o) => o.key),
      ['/registry/services/specs/ns/a'],
    );
    assert.throws(() => c.register({ prefix: '/registry/services/specs/x/', materialize: jsonMaterialize }), /overlaps/);
    assert.throws(() => c.register({ prefix: '/registry/pods', materialize: jsonMaterialize }), /end with/);
  });

  it('serves a consistent list right after writes (waitUntilFresh / waitForRevision)', async () => {
    const s = memory();
    const c = newCacher(s);
    const pods = c.register({ prefix: PODS, materialize: jsonMaterialize });
    c.start();
    await c.ready;
    for (let round = 0; round < 50; round++) {
      const rev = await s.create(`${PODS}ns/p-${round}`, encode(obj(`p-${round}`, 'ns')));
      if (round % 3 === 0) await s.update(`${PODS}ns/p-${round}`, encode(obj(`p-${round}`, 'ns', { round: String(round) })));
      const fresh = await c.waitUntilFresh();
      assert.ok(fresh >= rev);
      const list = pods.list({ prefix: `${PODS}ns/` });
      assert.ok(list.revision >= fresh);
      assert.equal(list.items.length, round + 1);
      if (round % 3 === 0) assert.equal(pods.get(`${PODS}ns/p-${round}`)!.labels.round, String(round));
    }
    const rev = await s.create(`${PODS}ns/last`, encode(obj('last', 'ns')));
    await c.waitForRevision(rev);
    assert.ok(pods.get(`${PODS}ns/last`));
  });

  it('lists in key order with limit, startAfter, remaining, namespace prefixes and filters', async () => {
    const s = memory();
    for (const ns of ['a', 'b', 'c']) {
      for (let i = 0; i < 10; i++) {
        const name = `p${String(i).padStart(2, '0')}`;
        await s.create(`${PODS}${ns}/${name}`, encode(obj(name, ns, { parity: i % 2 === 0 ? 'even' : 'odd' })));
      }
    }
    const c = newCacher(s);
    const pods = c.register({ prefix: PODS, materialize: jsonMaterialize });
    c.start();
    await c.ready;
    const all = pods.list({ prefix: PODS });
    assert.equal(all.items.length, 30);
    assert.equal(all.more, false);
    assert.equal(all.remaining, undefined);
    const keys = all.items.map((o) => o.key);
    assert.deepEqual(keys, [...keys].sort());

    // Pages without a filter: remaining counts what is left.
    const page1 = pods.list({ prefix: PODS, limit: 12 });
    assert.equal(page1.items.length, 12);
    assert.equal(page1.more, true);
    assert.equal(page1.remaining, 18);
    assert.equal(page1.lastKey, `${PODS}b/p01`);
    const page2 = pods.list({ prefix: PODS, limit: 12, startAfter: page1.lastKey });
    assert.equal(page2.items[0]!.key, `${PODS}b/p02`);
    const page3 = pods.list({ prefix: PODS, limit: 12, startAfter: page2.lastKey });
    assert.equal(page3.items.length, 6);
    assert.equal(page3.more, false);
    assert.deepEqual([...page1.items, ...page2.items, ...page3.items].map((o) => o.key), keys);
    // Exactly at the end: no more.
    const exact = pods.list({ prefix: `${PODS}c/`, limit: 10 });
    assert.equal(exact.items.length, 10);
    assert.equal(exact.more, false);

    // A namespace prefix.
    const nsB = pods.list({ prefix: `${PODS}b/` });
    assert.equal(nsB.items.length, 10);
    assert.ok(nsB.items.every((o) => o.namespace === 'b'));

    // A filter with a limit keeps scanning until `limit` matches; no remaining count.
    const even = (o: { labels: Readonly<Record<string, string>> }) => o.labels.parity === 'even';
    const f1 = pods.list({ prefix: PODS, filter: even, limit: 7 });
    assert.deepEqual(
      f1.items.map((o) => o.key.slice(PODS.length)),
      ['a/p00', 'a/p02', 'a/p04', 'a/p06', 'a/p08', 'b/p00', 'b/p02'],
    );
    assert.equal(f1.more, true);
    assert.equal(f1.remaining, undefined);
    assert.equal(f1.lastKey, `${PODS}b/p02`);
    const f2 = pods.list({ prefix: PODS, filter: even, limit: 100, startAfter: f1.lastKey });
    assert.equal(f2.items.length, 8);
    assert.equal(f2.more, false);
    // A filter matching nothing scans to the end.
    const none = pods.list({ prefix: PODS, filter: () => false, limit: 5 });
    assert.deepEqual([none.items.length, none.more], [0, false]);
    // The items are the cached objects themselves, not copies.
    assert.equal(pods.list({ prefix: PODS }).items[0], all.items[0]);
    assert.throws(() => pods.list({ prefix: '/registry/other/' }), /not under/);
  });

  it('get answers the current object or undefined, and tracks updates and deletes', async () => {
    const s = memory();
    const c = newCacher(s);
    const pods = c.register({ prefix: PODS, materialize: jsonMaterialize });
    c.start();
    await c.ready;
    const key = `${PODS}ns/x`;
    assert.equal(pods.get(key), undefined);
    const r1 = await s.create(key, encode(obj('x', 'ns')));
    await c.waitForRevision(r1);
    assert.equal(pods.get(key)!.revision, r1);
    const r2 = await s.update(key, encode(obj('x', 'ns', { v: '2' })));
    await c.waitForRevision(r2);
    assert.equal(pods.get(key)!.revision, r2);
    assert.equal(served(pods.get(key)!).metadata.resourceVersion, String(r2));
    const { revision: r3 } = await s.delete(key);
    await c.waitForRevision(r3);
    assert.equal(pods.get(key), undefined);
    assert.equal(c.revision, r3);
  });

  it('a read at a revision the cache does not reach times out with TooLargeResourceVersion', async () => {
    const s = memory();
    const c = newCacher(s, { waitTimeoutMs: 150 });
    c.register({ prefix: PODS, materialize: jsonMaterialize });
    c.start();
    await c.ready;
    const current = c.revision;
    const started = Date.now();
    try {
      await c.waitForRevision(current + 1000);
      assert.fail('resolved');
    } catch (err) {
      assert.ok(isCacheError(err, 'TooLargeResourceVersion'));
      assert.equal(err.message, `Too large resource version: ${current + 1000}, current: ${current}`);
      assert.equal(err.requested, current + 1000);
      assert.equal(err.current, current);
      assert.equal(err.retryAfterSeconds, 1);
    }
    assert.ok(Date.now() - started >= 140);
    // A future revision that arrives in time resolves.
    const waiting = c.waitForRevision(current + 1, 5000);
    await s.create(`${PODS}ns/late`, encode(obj('late', 'ns')));
    await waiting;
  });

  it('re-lists after losing the storage watch and ends its watchers so clients re-list', async () => {
    const s = new FaultyStorage();
    stores.push(s);
    const c = newCacher(s, { retryBaseMs: 5 });
    const pods = c.register({ prefix: PODS, materialize: jsonMaterialize });
    c.start();
    await c.ready;
    await s.create(`${PODS}ns/a`, encode(obj('a', 'ns')));
    await c.waitUntilFresh();
    const before = c.revision;
    const live = collect(pods.watch({ prefix: PODS, fromRevision: before }));
    const pending = collect(pods.watch({ prefix: PODS, fromRevision: before + 2, waitTimeoutMs: 10_000 }));
    const listsBefore = s.lists;
    // Writes the cache will not see through the broken watch.
    s.failNextLists = 2; // the first re-list attempts fail too (backoff, then success)
    s.failWatches(new StorageError('Compacted', 'injected: required revision has been compacted'));
    await live.ended;
    const last = live.events.at(-1)!;
    assert.equal(last.type, 'ERROR');
    assert.ok(last.type === 'ERROR' && last.error.code === 'Reinitialized');
    await s.create(`${PODS}ns/b`, encode(obj('b', 'ns')));
    await s.create(`${PODS}ns/c`, encode(obj('c', 'ns')));
    await waitFor(() => c.isReady, 'cache ready again');
    await c.ready;
    assert.ok(s.lists >= listsBefore + 3);
    assert.equal(c.metrics.reinitializations, 1);
    await c.waitUntilFresh();
    assert.deepEqual(
      pods.list({ prefix: PODS }).items.map((o) => o.name),
      ['a', 'b', 'c'],
    );
    // A watch from before the re-list is too old for the new window.
    const old = collect(pods.watch({ prefix: PODS, fromRevision: before }));
    await old.ended;
    assert.equal(old.events.length, 1);
    assert.ok(old.events[0]!.type === 'ERROR' && old.events[0]!.error.code === 'Expired');
    // The cache follows storage again, and the watch that had not started yet (it waited for a
    // revision the broken watch never delivered) survived and sees the new write.
    const r = await s.create(`${PODS}ns/d`, encode(obj('d', 'ns')));
    await c.waitForRevision(r);
    assert.ok(pods.get(`${PODS}ns/d`));
    await waitFor(() => pending.events.some((e) => e.type === 'ADDED' && e.object.name === 'd'), 'pending watch delivers');
    assert.ok(pending.events.every((e) => e.type === 'ADDED'));
  });

  it('stops when storage closes: watchers end with Stopped, waits and reads fail', async () => {
    const s = new MemoryStorage();
    const c = newCacher(s);
    const pods = c.register({ prefix: PODS, materialize: jsonMaterialize });
    c.start();
    await c.ready;
    const w = collect(pods.watch({ prefix: PODS, fromRevision: 'now' }));
    const waiting = c.waitForRevision(c.revision + 10, 10_000);
    await s.close();
    await w.ended;
    const last = w.events.at(-1)!;
    assert.ok(last.type === 'ERROR' && last.error.code === 'Stopped');
    await throwsCode(() => waiting, 'Stopped');
    await waitFor(() => c.stopped, 'cacher stopped');
    await throwsCode(() => pods.list({ prefix: PODS }), 'Stopped');
    const late = collect(pods.watch({ prefix: PODS, fromRevision: 'now' }));
    await late.ended;
    assert.ok(late.events[0]?.type === 'ERROR');
    await c.stop();
  });

  it('ready rejects when stopped before the first list completes', async () => {
    const s = new FaultyStorage();
    stores.push(s);
    s.failNextLists = 1000;
    const c = newCacher(s, { retryBaseMs: 5, retryMaxMs: 20 });
    c.register({ prefix: PODS, materialize: jsonMaterialize });
    c.start();
    await waitFor(() => s.lists >= 3, 'a few list attempts');
    assert.equal(c.isReady, false);
    await c.stop();
    await throwsCode(() => c.ready, 'Stopped');
  });

  it('lists again when its snapshot revision is compacted between pages', async () => {
    const s = new FaultyStorage();
    stores.push(s);
    for (let i = 0; i < 10; i++) await s.create(`${PODS}ns/p${i}`, encode(obj(`p${i}`, 'ns')));
    s.listFaults = [undefined, new StorageError('Compacted', 'injected compaction', 5)];
    const c = newCacher(s, { pageSize: 4 });
    const pods = c.register({ prefix: PODS, materialize: jsonMaterialize });
    c.start();
    await c.ready;
    assert.equal(s.lists, 2 + 3);
    assert.equal(pods.list({ prefix: PODS }).items.length, 10);
  });

  it('applies an event a resumed storage watch repeats only once', async () => {
    const s = new FaultyStorage();
    stores.push(s);
    s.duplicateEvents = true;
    const c = newCacher(s);
    const pods = c.register({ prefix: PODS, materialize: jsonMaterialize });
    c.start();
    await c.ready;
    const w = collect(pods.watch({ prefix: PODS, fromRevision: 'now' }));
    await s.create(`${PODS}ns/a`, encode(obj('a', 'ns')));
    await s.update(`${PODS}ns/a`, encode(obj('a', 'ns', { v: '2' })));
    const r = await s.create(`${PODS}ns/b`, encode(obj('b', 'ns')));
    await c.waitForRevision(r);
    await waitFor(() => w.events.length >= 3, 'events');
    assert.deepEqual(
      w.events.map((e) => e.type),
      ['ADDED', 'MODIFIED', 'ADDED'],
    );
    assert.equal(c.metrics.storageEvents, 3);
  });

  it('registers a resource after start by listing its prefix, without missing concurrent writes', async () => {
    const s = memory();
    await s.create(`${DEPLOYS}ns/d0`, encode(obj('d0', 'ns')));
    const c = newCacher(s);
    c.register({ prefix: PODS, materialize: jsonMaterialize });
    c.start();
    await c.ready;
    const writes = (async () => {
      for (let i = 1; i < 40; i++) await s.create(`${DEPLOYS}ns/d${i}`, encode(obj(`d${i}`, 'ns')));
    })();
    const deploys = c.register({ prefix: DEPLOYS, materialize: jsonMaterialize });
    await writes;
    await waitFor(() => deploys.ready, 'late resource loaded');
    await c.waitUntilFresh();
    assert.equal(deploys.list({ prefix: DEPLOYS }).items.length, 40);
    const w = collect(deploys.watch({ prefix: DEPLOYS, fromRevision: 'now' }));
    const r = await s.create(`${DEPLOYS}ns/d40`, encode(obj('d40', 'ns')));
    await waitFor(() => w.events.length === 1, 'live event on the late resource');
    assert.equal(w.events[0]!.revision, r);
  });

  it('registers a resource while the initial list runs', async () => {
    const s = memory();
    for (let i = 0; i < 20; i++) await s.create(`${DEPLOYS}ns/d${i}`, encode(obj(`d${i}`, 'ns')));
    const c = newCacher(s, { pageSize: 5 });
    c.register({ prefix: PODS, materialize: jsonMaterialize });
    c.start();
    await Promise.resolve();
    const deploys = c.register({ prefix: DEPLOYS, materialize: jsonMaterialize });
    // A watch made before the resource is loaded waits for it.
    const w = collect(deploys.watch({ prefix: DEPLOYS, fromRevision: 'now', initialEvents: true }));
    await c.ready;
    await waitFor(() => deploys.ready, 'resource loaded');
    assert.equal(deploys.list({ prefix: DEPLOYS }).items.length, 20);
    await waitFor(() => w.events.length === 20, 'initial events of the late resource');
  });
});
