// The watch cache's watch side: replay + live without gaps or duplicates under concurrent
// writers, Kubernetes' selector transitions, initial events and bookmarks, Expired, future
// revisions, slow watchers, shared payloads, index routing.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { waitFor } from '../../../test/support/wait.js';
import { MemoryStorage } from '../memory.js';
import { Cacher, type CacherOptions } from './cacher.js';
import type { ResourceConfig, ResourceCache } from './resource-cache.js';
import { collect, encode, jsonMaterialize, obj, served } from './test-support.js';
import type { CachedObject, ObjectEvent, WatchCacheEvent } from './types.js';

const PODS = '/registry/pods/';
const DEPLOYS = '/registry/deployments/';

const cachers: Cacher[] = [];
const stores: MemoryStorage[] = [];
after(async () => {
  for (const c of cachers) await c.stop();
  for (const s of stores) await s.close();
});

async function setup(
  opts: CacherOptions = {},
  resource: Partial<ResourceConfig> = {},
): Promise<{ s: MemoryStorage; c: Cacher; pods: ResourceCache; deploys: ResourceCache }> {
  const s = new MemoryStorage();
  stores.push(s);
  const c = new Cacher(s, opts);
  cachers.push(c);
  const pods = c.register({ prefix: PODS, materialize: jsonMaterialize, ...resource });
  const deploys = c.register({ prefix: DEPLOYS, materialize: jsonMaterialize });
  c.start();
  await c.ready;
  return { s, c, pods, deploys };
}

const summary = (events: WatchCacheEvent[]): string[] =>
  events.map((e) =>
    e.type === 'BOOKMARK'
      ? `BOOKMARK@${e.revision}${e.initialEventsEnd ? '(end)' : ''}`
      : e.type === 'ERROR'
        ? `ERROR:${e.error.code}`
        : `${e.type} ${e.object.name}@${e.revision}`,
  );

const objects = (events: WatchCacheEvent[]): ObjectEvent[] => events.filter((e): e is ObjectEvent => e.type !== 'BOOKMARK' && e.type !== 'ERROR');

describe('watch cache: watch', () => {
  it('replays window events after the start revision, then goes live', async () => {
    const { s, c, pods } = await setup();
    const r1 = await s.create(`${PODS}ns/a`, encode(obj('a', 'ns')));
    const r2 = await s.create(`${PODS}ns/b`, encode(obj('b', 'ns')));
    const r3 = await s.update(`${PODS}ns/a`, encode(obj('a', 'ns', { x: '1' })));
    await s.create(`${DEPLOYS}ns/other`, encode(obj('other', 'ns')));
    await c.waitUntilFresh();
    const w = collect(pods.watch({ prefix: PODS, fromRevision: r1 }));
    const { revision: r4 } = await s.delete(`${PODS}ns/b`);
    await waitFor(() => w.events.length === 3, 'three events');
    assert.deepEqual(summary(w.events), [`ADDED b@${r2}`, `MODIFIED a@${r3}`, `DELETED b@${r4}`]);
    // A deleted object is its last state with the delete's resourceVersion.
    const del = w.events[2] as ObjectEvent;
    assert.equal(served(del.object).metadata.resourceVersion, String(r4));
    assert.equal(del.object.revision, r4);
    // From 'now': only what happens next.
    const now = collect(pods.watch({ prefix: PODS, fromRevision: 'now' }));
    const r5 = await s.create(`${PODS}ns/c`, encode(obj('c', 'ns')));
    await waitFor(() => now.events.length === 1 && w.events.length === 4, 'live event');
    assert.deepEqual(summary(now.events), [`ADDED c@${r5}`]);
    // An exact-key watch sees only its key.
    const one = collect(pods.watch({ key: `${PODS}ns/a`, fromRevision: r1 - 1 }));
    await s.update(`${PODS}ns/c`, encode(obj('c', 'ns', { y: '1' })));
    const r7 = await s.delete(`${PODS}ns/a`);
    await waitFor(() => one.events.length === 3, 'key events');
    assert.deepEqual(summary(one.events), [`ADDED a@${r1}`, `MODIFIED a@${r3}`, `DELETED a@${r7.revision}`]);
  });

  it('loses, duplicates and reorders nothing over 5,000 concurrent writes', async () => {
    const { s, c, pods } = await setup();
    const start = c.revision;
    type Write = { rev: number; key: string; type: 'ADDED' | 'MODIFIED' | 'DELETED' };
    const writes: Write[] = [];
    const WRITERS = 4;
    const PER_WRITER = 1300;
    let done = 0;
    const writer = async (wi: number): Promise<void> => {
      const live = new Set<string>();
      for (let i = 0; i < PER_WRITER; i++) {
        const name = `w${wi}-k${i % 37}`;
        const key = `${PODS}ns${wi}/${name}`;
        const labels = { color: i % 3 === 0 ? 'red' : 'blue' };
        if (!live.has(key)) {
          writes.push({ rev: await s.create(key, encode(obj(name, `ns${wi}`, labels))), key, type: 'ADDED' });
          live.add(key);
        } else if (i % 5 === 0) {
          writes.push({ rev: (await s.delete(key)).revision, key, type: 'DELETED' });
          live.delete(key);
        } else {
          writes.push({ rev: await s.update(key, encode(obj(name, `ns${wi}`, labels))), key, type: 'MODIFIED' });
        }
        done++;
        // Let the cache and the watchers interleave with the writers.
        if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      }
    };
    const others = async (): Promise<void> => {
      for (let i = 0; i < 200; i++) {
        await s.create(`${DEPLOYS}ns/d${i}`, encode(obj(`d${i}`, 'ns')));
        if (i % 20 === 0) await new Promise((r) => setImmediate(r));
      }
    };
    const all = collect(pods.watch({ prefix: PODS, fromRevision: start }));
    const ns1 = collect(pods.watch({ prefix: `${PODS}ns1/`, fromRevision: start }));
    const red = (o: CachedObject) => o.labels.color === 'red';
    const filtered = collect(pods.watch({ prefix: PODS, fromRevision: start, filter: red }));
    const running = [0, 1, 2, 3].map(writer).concat(others());
    // Watchers that join mid-stream, from a revision already written and from the current state.
    await waitFor(() => done >= 1500, 'writers under way', 60_000, 1);
    const midRev = writes[1000]!.rev;
    const mid = collect(pods.watch({ prefix: PODS, fromRevision: midRev }));
    const init = collect(pods.watch({ prefix: PODS, fromRevision: 'now', initialEvents: true }));
    await Promise.all(running);
    assert.equal(writes.length, WRITERS * PER_WRITER);
    const finalRev = await c.waitUntilFresh();

    writes.sort((a, b) => a.rev - b.rev);
    const expect = (ws: Write[]) => ws.map((w) => `${w.type} ${w.key}@${w.rev}`);
    const got = (events: WatchCacheEvent[]) => objects(events).map((e) => `${e.type} ${e.object.key}@${e.revision}`);
    await waitFor(() => all.events.length === writes.length, 'all events', 60_000);
    assert.deepEqual(got(all.events), expect(writes));
    const ns1Writes = writes.filter((w) => w.key.startsWith(`${PODS}ns1/`));
    await waitFor(() => ns1.events.length === ns1Writes.length, 'ns1 events');
    assert.deepEqual(got(ns1.events), expect(ns1Writes));
    const afterMid = writes.filter((w) => w.rev > midRev);
    await waitFor(() => mid.events.length === afterMid.length, 'mid-stream events');
    assert.deepEqual(got(mid.events), expect(afterMid));

    // Folding a filtered or initial-events stream gives exactly the final (filtered) state.
    const fold = (events: WatchCacheEvent[]): Map<string, number> => {
      const state = new Map<string, number>();
      for (const e of objects(events)) {
        if (e.type === 'DELETED') {
          assert.ok(state.delete(e.object.key), `DELETED for ${e.object.key} that was not there`);
        } else {
          assert.equal(state.has(e.object.key), e.type === 'MODIFIED', `${e.type} for ${e.object.key}`);
          state.set(e.object.key, e.object.revision);
        }
      }
      return state;
    };
    const finalAll = new Map(pods.list({ prefix: PODS }).items.map((o) => [o.key, o.revision] as const));
    const finalRed = new Map(pods.list({ prefix: PODS, filter: red }).items.map((o) => [o.key, o.revision] as const));
    await waitFor(() => {
      const last = objects(init.events).at(-1);
      return last !== undefined && last.revision >= Math.max(...finalAll.values());
    }, 'initial-events watcher caught up');
    assert.deepEqual(fold(init.events), finalAll);
    await waitFor(() => {
      try {
        assert.deepEqual(fold(filtered.events), finalRed);
        return true;
      } catch {
        return false;
      }
    }, 'filtered watcher caught up');
    // Revisions only go up in every stream.
    for (const stream of [all, ns1, mid, filtered]) {
      const revs = objects(stream.events).map((e) => e.revision);
      assert.ok(revs.every((r, i) => i === 0 || r > revs[i - 1]!));
    }
    assert.ok(finalRev >= writes.at(-1)!.rev);
  });

  it('applies selector transitions as Kubernetes does (live and replayed)', async () => {
    const { s, c, pods } = await setup();
    const key = `${PODS}ns/t`;
    const sel = (o: CachedObject) => o.labels.app === 'web';
    const start = c.revision;
    const live = collect(pods.watch({ prefix: PODS, fromRevision: 'now', filter: sel }));
    const r1 = await s.create(key, encode(obj('t', 'ns', { app: 'db' }))); // not matching: nothing
    const r2 = await s.update(key, encode(obj('t', 'ns', { app: 'web' }))); // starts matching: ADDED
    const r3 = await s.update(key, encode(obj('t', 'ns', { app: 'web', v: '2' }))); // still: MODIFIED
    const r4 = await s.update(key, encode(obj('t', 'ns', { app: 'db', v: '3' }))); // stops: DELETED
    const r5 = await s.update(key, encode(obj('t', 'ns', { app: 'db', v: '4' }))); // neither: nothing
    const r6 = await s.update(key, encode(obj('t', 'ns', { app: 'web', v: '5' }))); // ADDED
    const { revision: r7 } = await s.delete(key); // matching delete: DELETED
    const r8 = await s.create(key, encode(obj('t', 'ns', { app: 'db' })));
    const { revision: r9 } = await s.delete(key); // non-matching delete: nothing
    await c.waitForRevision(r9);
    void r1, void r5, void r8;
    const expected = [`ADDED t@${r2}`, `MODIFIED t@${r3}`, `DELETED t@${r4}`, `ADDED t@${r6}`, `DELETED t@${r7}`];
    await waitFor(() => live.events.length === 5, 'transition events');
    assert.deepEqual(summary(live.events), expected);
    // The DELETED for "stopped matching" carries the previous content at the new resourceVersion.
    const stopped = served((live.events[2] as ObjectEvent).object);
    assert.deepEqual(stopped.metadata.labels, { app: 'web', v: '2' });
    assert.equal(stopped.metadata.resourceVersion, String(r4));
    // A delete's DELETED carries the last state at the delete's resourceVersion.
    const deleted = served((live.events[4] as ObjectEvent).object);
    assert.deepEqual(deleted.metadata.labels, { app: 'web', v: '5' });
    assert.equal(deleted.metadata.resourceVersion, String(r7));
    // The ADDED for "started matching" is the new object.
    assert.deepEqual(served((live.events[1] as ObjectEvent).object).metadata.labels, { app: 'web', v: '2' });
    // Replayed from the window: the same events, the same shared objects.
    const replay = collect(pods.watch({ prefix: PODS, fromRevision: start, filter: sel }));
    await waitFor(() => replay.events.length === 5, 'replayed transitions');
    assert.deepEqual(summary(replay.events), expected);
    for (let i = 0; i < 5; i++) assert.equal(replay.events[i], live.events[i]);
  });

  it('sends initial events, then the initial-events-end bookmark, then live events', async () => {
    const { s, c, pods } = await setup();
    for (const n of ['c', 'a', 'b']) await s.create(`${PODS}ns/${n}`, encode(obj(n, 'ns', { keep: n === 'b' ? 'no' : 'yes' })));
    await s.create(`${PODS}other/z`, encode(obj('z', 'other', { keep: 'yes' })));
    const rev = await c.waitUntilFresh();
    const keep = (o: CachedObject) => o.labels.keep === 'yes';
    const streaming = collect(pods.watch({ prefix: `${PODS}ns/`, fromRevision: 'now', filter: keep, sendInitialEvents: true, allowBookmarks: true }));
    const legacy = collect(pods.watch({ prefix: `${PODS}ns/`, fromRevision: 'now', filter: keep, initialEvents: true, allowBookmarks: true }));
    const noBookmarks = collect(pods.watch({ prefix: `${PODS}ns/`, fromRevision: 'now', sendInitialEvents: true }));
    const future = collect(pods.watch({ prefix: `${PODS}ns/`, fromRevision: rev + 1, sendInitialEvents: true, allowBookmarks: true }));
    const r = await s.create(`${PODS}ns/d`, encode(obj('d', 'ns', { keep: 'yes' })));
    await waitFor(() => streaming.events.length === 4 && legacy.events.length === 3 && noBookmarks.events.length === 4, 'events');
    const a = pods.get(`${PODS}ns/a`)!.revision;
    const cRev = pods.get(`${PODS}ns/c`)!.revision;
    assert.deepEqual(summary(streaming.events), [`ADDED a@${a}`, `ADDED c@${cRev}`, `BOOKMARK@${rev}(end)`, `ADDED d@${r}`]);
    assert.deepEqual(summary(legacy.events), [`ADDED a@${a}`, `ADDED c@${cRev}`, `ADDED d@${r}`]);
    assert.deepEqual(
      summary(noBookmarks.events).map((x) => x.split('@')[0]),
      ['ADDED a', 'ADDED b', 'ADDED c', 'ADDED d'],
    );
    // With a future resourceVersion, the snapshot is taken once the cache has reached it.
    await waitFor(() => future.events.length === 5, 'future snapshot');
    assert.deepEqual(summary(future.events).slice(3), [`ADDED d@${r}`, `BOOKMARK@${r}(end)`]);
    // Initial events share the cached objects (no per-watcher copies).
    assert.equal((streaming.events[0] as ObjectEvent).object, pods.get(`${PODS}ns/a`));
  });

  it('sends periodic bookmarks at the cache revision when allowed', async () => {
    const { s, c, pods } = await setup({ bookmarkIntervalMs: 20 });
    const w = collect(pods.watch({ prefix: PODS, fromRevision: 'now', allowBookmarks: true }));
    const none = collect(pods.watch({ prefix: PODS, fromRevision: 'now' }));
    await waitFor(() => w.events.some((e) => e.type === 'BOOKMARK'), 'a bookmark');
    const first = w.events.find((e) => e.type === 'BOOKMARK')!;
    assert.equal(first.revision, c.revision);
    assert.ok(first.type === 'BOOKMARK' && !first.initialEventsEnd);
    // A write to another resource advances the bookmark revision too.
    const r = await s.create(`${DEPLOYS}ns/d`, encode(obj('d', 'ns')));
    await waitFor(() => w.events.some((e) => e.type === 'BOOKMARK' && e.revision >= r), 'a later bookmark');
    // An explicit bookmark (e.g. before a watch timeout).
    const count = w.events.length;
    const w2 = pods.watch({ prefix: PODS, fromRevision: 'now' });
    w2.bookmark();
    const batch = await w2.nextBatch();
    assert.deepEqual(summary(batch), [`BOOKMARK@${c.revision}`]);
    w2.close();
    assert.ok(w.events.length >= count);
    assert.equal(none.events.length, 0);
  });

  it('coalesces bookmarks for a watcher that is not reading', async () => {
    const { c, pods } = await setup({ bookmarkIntervalMs: 5 });
    const w = pods.watch({ prefix: PODS, fromRevision: 'now', allowBookmarks: true });
    await waitFor(() => w.queued === 1, 'a queued bookmark');
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(w.queued, 1);
    assert.deepEqual(summary(await w.nextBatch()), [`BOOKMARK@${c.revision}`]);
    w.close();
  });

  it('answers Expired for a revision older than the window', async () => {
    const { s, c, pods } = await setup({}, { window: { maxEvents: 5, minEvents: 0 } });
    const listRev = c.revision;
    const revs: number[] = [];
    for (let i = 0; i < 12; i++) revs.push(await s.create(`${PODS}ns/p${i}`, encode(obj(`p${i}`, 'ns'))));
    await c.waitUntilFresh();
    assert.equal(pods.metrics.windowEvents, 5);
    const oldest = revs[6]!; // the last evicted change: watches may resume from it
    assert.equal(pods.metrics.windowStart, oldest);
    const tooOld = collect(pods.watch({ prefix: PODS, fromRevision: oldest - 1 }));
    await tooOld.ended;
    assert.equal(tooOld.events.length, 1);
    const ev = tooOld.events[0]!;
    assert.ok(ev.type === 'ERROR');
    assert.equal(ev.error.code, 'Expired');
    assert.equal(ev.error.message, `too old resource version: ${oldest - 1} (${oldest})`);
    assert.ok(listRev < oldest);
    const ok = collect(pods.watch({ prefix: PODS, fromRevision: oldest }));
    await waitFor(() => ok.events.length === 5, 'replay of the window');
    assert.deepEqual(
      objects(ok.events).map((e) => e.revision),
      revs.slice(7),
    );
  });

  it('drops window events by age, keeping minEvents', async () => {
    const { s, c, pods } = await setup({ sweepIntervalMs: 10 }, { window: { minAgeMs: 30, minEvents: 2 } });
    for (let i = 0; i < 6; i++) await s.create(`${PODS}ns/p${i}`, encode(obj(`p${i}`, 'ns')));
    await c.waitUntilFresh();
    await waitFor(() => pods.metrics.windowEvents === 2, 'aged events swept');
    assert.ok(pods.metrics.windowBytes > 0);
  });

  it('waits for a future revision, then starts or times out with TooLargeResourceVersion', async () => {
    const { s, c, pods } = await setup();
    const rev = c.revision;
    const soon = collect(pods.watch({ prefix: PODS, fromRevision: rev + 2, waitTimeoutMs: 10_000 }));
    const never = collect(pods.watch({ prefix: PODS, fromRevision: rev + 1000, waitTimeoutMs: 100 }));
    await s.create(`${PODS}ns/a`, encode(obj('a', 'ns')));
    const r2 = await s.create(`${PODS}ns/b`, encode(obj('b', 'ns')));
    const r3 = await s.create(`${PODS}ns/c`, encode(obj('c', 'ns')));
    await waitFor(() => soon.events.length === 1, 'events after the future revision');
    assert.equal(r2, rev + 2);
    assert.deepEqual(summary(soon.events), [`ADDED c@${r3}`]);
    await never.ended;
    assert.equal(never.events.length, 1);
    const ev = never.events[0]!;
    assert.ok(ev.type === 'ERROR' && ev.error.code === 'TooLargeResourceVersion');
    assert.equal(ev.error.message, `Too large resource version: ${rev + 1000}, current: ${r3}`);
    assert.equal(pods.metrics.watchers, 1);
  });

  it('cuts off a watcher that does not keep up, without disturbing the others', async () => {
    const { s, c, pods } = await setup({ maxQueueEvents: 10 });
    const slow = pods.watch({ prefix: PODS, fromRevision: 'now' });
    const byBytes = pods.watch({ prefix: PODS, fromRevision: 'now', maxQueueEvents: 1000, maxQueueBytes: 500 });
    // A reader is woken once the loop has run what is ready (a batch per turn), so the writes of
    // one turn queue up first: the fast watcher's limit is above the 20 they make.
    const fast = collect(pods.watch({ prefix: PODS, fromRevision: 'now', maxQueueEvents: 1000 }));
    for (let i = 0; i < 20; i++) await s.create(`${PODS}ns/p${i}`, encode(obj(`p${i}`, 'ns')));
    await c.waitUntilFresh();
    await waitFor(() => fast.events.length === 20, 'fast watcher got everything');
    assert.ok(slow.done && byBytes.done);
    const batch = await slow.nextBatch();
    assert.equal(batch.length, 1);
    const ev = batch[0]!;
    assert.ok(ev.type === 'ERROR' && ev.error.code === 'TooSlow');
    assert.deepEqual(await slow.nextBatch(), []);
    const b2 = await byBytes.nextBatch();
    assert.ok(b2[0]?.type === 'ERROR' && b2[0].error.code === 'TooSlow');
    assert.equal(pods.metrics.watchersTerminatedTooSlow, 2);
    assert.equal(pods.metrics.watchers, 1);
  });

  it('wakes a waiting reader once the turn of the loop is done: the writes of one turn arrive as one batch', async () => {
    const { s, c, pods } = await setup();
    const w = pods.watch({ prefix: PODS, fromRevision: 'now' });
    const next = w.nextBatch();
    await Promise.all(Array.from({ length: 5 }, (_, i) => s.create(`${PODS}ns/b${i}`, encode(obj(`b${i}`, 'ns')))));
    await c.waitUntilFresh();
    assert.deepEqual(
      (await next).map((ev) => (ev.type === 'ADDED' ? ev.object.key : ev.type)),
      Array.from({ length: 5 }, (_, i) => `${PODS}ns/b${i}`),
    );
    w.close();
  });

  it('shares each event and its payload across 1,000 watchers', async () => {
    const { s, c, pods } = await setup();
    const watchers = Array.from({ length: 1000 }, (_, i) =>
      collect(pods.watch({ prefix: i % 2 === 0 ? PODS : `${PODS}ns/`, fromRevision: 'now', filter: i % 3 === 0 ? () => true : undefined })),
    );
    assert.equal(pods.metrics.watchers, 1000);
    for (let i = 0; i < 10; i++) await s.create(`${PODS}ns/p${i}`, encode(obj(`p${i}`, 'ns')));
    await s.update(`${PODS}ns/p0`, encode(obj('p0', 'ns', { v: '2' })));
    await c.waitUntilFresh();
    await waitFor(() => watchers.every((w) => w.events.length === 11), 'every watcher got every event');
    const first = watchers[0]!.events;
    for (const w of watchers) {
      for (let i = 0; i < 11; i++) {
        assert.equal(w.events[i], first[i]); // the same event object...
        assert.equal((w.events[i] as ObjectEvent).object.json, (first[i] as ObjectEvent).object.json); // ...and bytes
      }
    }
    assert.equal(pods.metrics.eventsSent, 11_000);
    // Ending them releases them.
    await s.close();
    await Promise.all(watchers.map((w) => w.ended));
    assert.equal(pods.metrics.watchers, 0);
  });

  it('routes events by index value (spec.nodeName) including moves between values', async () => {
    const { s, c, pods } = await setup({}, { indexField: 'spec.nodeName' });
    const onNode = (node: string) => (o: CachedObject) => o.fields['spec.nodeName'] === node;
    const node1 = collect(pods.watch({ prefix: PODS, fromRevision: 'now', filter: onNode('node-1'), indexValue: 'node-1' }));
    const node2 = collect(pods.watch({ prefix: PODS, fromRevision: 'now', filter: onNode('node-2'), indexValue: 'node-2' }));
    const unscheduled = collect(pods.watch({ prefix: PODS, fromRevision: 'now', filter: onNode(''), indexValue: '' }));
    const key = `${PODS}ns/p`;
    const r1 = await s.create(key, encode(obj('p', 'ns')));
    const r2 = await s.update(key, encode(obj('p', 'ns', undefined, { nodeName: 'node-1' })));
    const r3 = await s.update(key, encode(obj('p', 'ns', { x: 'y' }, { nodeName: 'node-1' })));
    const { revision: r4 } = await s.delete(key);
    await s.create(`${PODS}ns/q`, encode(obj('q', 'ns', undefined, { nodeName: 'node-3' })));
    await c.waitUntilFresh();
    await waitFor(() => node1.events.length === 3 && unscheduled.events.length === 2, 'routed events');
    assert.deepEqual(summary(unscheduled.events), [`ADDED p@${r1}`, `DELETED p@${r2}`]);
    assert.deepEqual(summary(node1.events), [`ADDED p@${r2}`, `MODIFIED p@${r3}`, `DELETED p@${r4}`]);
    assert.equal(node2.events.length, 0);
  });

  it('ends iteration when the consumer breaks out, and close() releases everything', async () => {
    const { s, c, pods } = await setup();
    const w = pods.watch({ prefix: PODS, fromRevision: 'now', allowBookmarks: true });
    const pending = pods.watch({ prefix: PODS, fromRevision: c.revision + 100, waitTimeoutMs: 60_000 });
    assert.equal(pods.metrics.watchers, 2);
    await s.create(`${PODS}ns/a`, encode(obj('a', 'ns')));
    for await (const ev of w) {
      assert.equal(ev.type, 'ADDED');
      break;
    }
    assert.ok(w.done);
    pending.close();
    assert.deepEqual(await pending.nextBatch(), []);
    assert.equal(pods.metrics.watchers, 0);
    await s.create(`${PODS}ns/b`, encode(obj('b', 'ns')));
    await c.waitUntilFresh();
    assert.equal(w.queued, 0);
  });
});
