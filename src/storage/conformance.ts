// The one conformance suite every storage backend must pass unchanged. Each backend's test file
// calls `describeConformance` with a way to open a fresh store. Tests never assume revisions start
// at 0 or step by exactly 1 (a shared etcd has other writers); they check order and equality.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { isStorageError, MAX_VALUE_BYTES, type Storage, type StorageErrorCode, type WatchEvent } from './types.js';

export interface ConformanceOptions {
  /** Events a watch may buffer before cutting off its consumer (to test the cut-off quickly). */
  watchBuffer?: number;
}

export type OpenStorage = (opts: ConformanceOptions) => Promise<Storage>;

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytes = (s: string): Uint8Array => enc.encode(s);
const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : dec.decode(b));

async function rejectsWith(p: Promise<unknown> | (() => unknown), code: StorageErrorCode): Promise<void> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    assert.ok(isStorageError(err, code), `expected StorageError ${code}, got ${String(err)}`);
    return;
  }
  assert.fail(`expected StorageError ${code}, but it succeeded`);
}

/** Collects `n` events from a watch, failing if it ends or errors first. */
async function take(watch: AsyncIterable<WatchEvent>, n: number): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  if (n === 0) return out;
  for await (const ev of watch) {
    out.push(ev);
    if (out.length === n) return out;
  }
  throw new Error(`watch ended after ${out.length} of ${n} events`);
}

export function describeConformance(name: string, open: OpenStorage): void {
  describe(`storage conformance: ${name}`, () => {
    const stores: Storage[] = [];
    after(async () => {
      for (const s of stores) await s.close().catch(() => undefined);
    });
    /** A fresh store and a key prefix no other test uses. */
    async function fresh(opts: ConformanceOptions = {}): Promise<{ s: Storage; p: string }> {
      const s = await open(opts);
      stores.push(s);
      return { s, p: `/registry/conformance-${randomBytes(6).toString('hex')}/` };
    }

    it('create then get returns the value with revisions and version 1', async () => {
      const { s, p } = await fresh();
      const before = await s.currentRevision();
      const rev = await s.create(`${p}a`, bytes('one'));
      assert.ok(rev > before);
      assert.equal(await s.currentRevision(), rev);
      const kv = await s.get(`${p}a`);
      assert.ok(kv);
      assert.equal(kv.key, `${p}a`);
      assert.equal(text(kv.value), 'one');
      assert.equal(kv.createRevision, rev);
      assert.equal(kv.modRevision, rev);
      assert.equal(kv.version, 1);
      assert.equal(await s.get(`${p}missing`), undefined);
    });

    it('create of an existing key is AlreadyExists and writes nothing', async () => {
      const { s, p } = await fresh();
      await s.create(`${p}a`, bytes('one'));
      const rev = await s.currentRevision();
      await rejectsWith(s.create(`${p}a`, bytes('two')), 'AlreadyExists');
      assert.equal(await s.currentRevision(), rev);
      assert.equal(text((await s.get(`${p}a`))?.value), 'one');
    });

    it('update bumps modRevision and version, keeps createRevision; checks expectModRevision', async () => {
      const { s, p } = await fresh();
      const r1 = await s.create(`${p}a`, bytes('one'));
      const r2 = await s.update(`${p}a`, bytes('two'), { expectModRevision: r1 });
      assert.ok(r2 > r1);
      const kv = await s.get(`${p}a`);
      assert.deepEqual([text(kv?.value), kv?.createRevision, kv?.modRevision, kv?.version], ['two', r1, r2, 2]);
      await rejectsWith(s.update(`${p}a`, bytes('three'), { expectModRevision: r1 }), 'Conflict');
      const r3 = await s.update(`${p}a`, bytes('three'));
      assert.ok(r3 > r2);
      assert.equal((await s.get(`${p}a`))?.version, 3);
      await rejectsWith(s.update(`${p}missing`, bytes('x')), 'NotFound');
      await rejectsWith(s.update(`${p}missing`, bytes('x'), { expectModRevision: 1 }), 'NotFound');
      assert.equal(await s.currentRevision(), r3);
    });

    it('delete returns the previous value; NotFound and Conflict are checked', async () => {
      const { s, p } = await fresh();
      const r1 = await s.create(`${p}a`, bytes('one'));
      await rejectsWith(s.delete(`${p}a`, { expectModRevision: r1 + 1000 }), 'Conflict');
      const del = await s.delete(`${p}a`, { expectModRevision: r1 });
      assert.ok(del.revision > r1);
      assert.equal(text(del.prev.value), 'one');
      assert.equal(del.prev.modRevision, r1);
      assert.equal(await s.get(`${p}a`), undefined);
      await rejectsWith(s.delete(`${p}a`), 'NotFound');
      // A re-created key starts again at version 1 with a new createRevision.
      const r3 = await s.create(`${p}a`, bytes('again'));
      const kv = await s.get(`${p}a`);
      assert.deepEqual([kv?.createRevision, kv?.version], [r3, 1]);
    });

    it('list returns keys under the prefix in key order, with limit, more and startAfter', async () => {
      const { s, p } = await fresh();
      const names = ['b', 'a', 'c/x', 'c', 'd', 'e'];
      for (const n of names) await s.create(`${p}${n}`, bytes(n));
      // Keys that share the prefix as a string but not as a path segment stay out.
      await s.create(`${p.slice(0, -1)}x/z`, bytes('outside'));
      const all = await s.list(p);
      assert.deepEqual(all.items.map((kv) => kv.key.slice(p.length)), ['a', 'b', 'c', 'c/x', 'd', 'e']);
      assert.equal(all.more, false);
      assert.equal(all.revision, await s.currentRevision());
      const page1 = await s.list(p, { limit: 2 });
      assert.deepEqual(page1.items.map((kv) => text(kv.value)), ['a', 'b']);
      assert.equal(page1.more, true);
      const page2 = await s.list(p, { limit: 2, startAfter: page1.items[1]!.key, revision: page1.revision });
      assert.deepEqual(page2.items.map((kv) => text(kv.value)), ['c', 'c/x']);
      assert.equal(page2.more, true);
      const page3 = await s.list(p, { limit: 2, startAfter: page2.items[1]!.key, revision: page1.revision });
      assert.deepEqual(page3.items.map((kv) => text(kv.value)), ['d', 'e']);
      assert.equal(page3.more, false);
      const exact = await s.list(p, { limit: 6 });
      assert.equal(exact.items.length, 6);
      assert.equal(exact.more, false);
      assert.deepEqual((await s.list(`${p}zzz/`)).items, []);
      await rejectsWith(() => s.list(p, { limit: 0 }), 'InvalidKey');
      await rejectsWith(() => s.list(p, { limit: -1 }), 'InvalidKey');
    });

    it('paginated reads at a fixed revision do not see later writes', async () => {
      const { s, p } = await fresh();
      for (let i = 0; i < 10; i++) await s.create(`${p}k${i}`, bytes(`v${i}`));
      const page1 = await s.list(p, { limit: 4 });
      assert.deepEqual(page1.items.map((kv) => text(kv.value)), ['v0', 'v1', 'v2', 'v3']);
      // Change the rest of the range after the snapshot: update, delete, insert in the gap.
      await s.update(`${p}k5`, bytes('changed'));
      await s.delete(`${p}k6`);
      await s.create(`${p}k4a`, bytes('new'));
      await s.delete(`${p}k9`);
      await s.create(`${p}k9`, bytes('recreated'));
      const rest = await s.list(p, { startAfter: page1.items[3]!.key, revision: page1.revision });
      assert.equal(rest.revision, page1.revision);
      assert.deepEqual(rest.items.map((kv) => text(kv.value)), ['v4', 'v5', 'v6', 'v7', 'v8', 'v9']);
      const k5 = rest.items.find((kv) => kv.key === `${p}k5`);
      assert.equal(k5?.version, 1);
      // Gets at the old revision agree; the current state has the writes.
      assert.equal(text((await s.get(`${p}k6`, { revision: page1.revision }))?.value), 'v6');
      assert.equal(await s.get(`${p}k4a`, { revision: page1.revision }), undefined);
      assert.equal(text((await s.get(`${p}k9`, { revision: page1.revision }))?.value), 'v9');
      const now = await s.list(p);
      assert.deepEqual(now.items.map((kv) => text(kv.value)), ['v0', 'v1', 'v2', 'v3', 'v4', 'new', 'changed', 'v7', 'v8', 'recreated']);
    });

    it('reads at a future revision are refused', async () => {
      const { s, p } = await fresh();
      await s.create(`${p}a`, bytes('one'));
      const future = (await s.currentRevision()) + 1000;
      await rejectsWith(s.get(`${p}a`, { revision: future }), 'FutureRevision');
      await rejectsWith(s.list(p, { revision: future }), 'FutureRevision');
    });

    it('concurrent conflicting updates: exactly one wins', async () => {
      const { s, p } = await fresh();
      const r1 = await s.create(`${p}a`, bytes('0'));
      const results = await Promise.allSettled(
        Array.from({ length: 16 }, (_, i) => s.update(`${p}a`, bytes(`w${i}`), { expectModRevision: r1 })),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      assert.equal(won.length, 1);
      for (const r of results) if (r.status === 'rejected') assert.ok(isStorageError(r.reason, 'Conflict'), String(r.reason));
      const kv = await s.get(`${p}a`);
      assert.equal(kv?.version, 2);
      assert.equal(kv?.modRevision, (won[0] as PromiseFulfilledResult<number>).value);
      // The same for concurrent creates of one key.
      const creates = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => s.create(`${p}b`, bytes(`c${i}`))));
      assert.equal(creates.filter((r) => r.status === 'fulfilled').length, 1);
    });

    it('bad input is refused with a clear error and writes nothing', async () => {
      const { s, p } = await fresh();
      const rev = await s.currentRevision();
      await rejectsWith(() => s.create('', bytes('x')), 'InvalidKey');
      await rejectsWith(() => s.create('/other/a', bytes('x')), 'InvalidKey');
      await rejectsWith(() => s.create('/registry/', bytes('x')), 'InvalidKey');
      await rejectsWith(() => s.create('pods/a', bytes('x')), 'InvalidKey');
      await rejectsWith(() => s.update('', bytes('x')), 'InvalidKey');
      await rejectsWith(() => s.delete('/etc/passwd'), 'InvalidKey');
      await rejectsWith(() => s.get(''), 'InvalidKey');
      await rejectsWith(() => s.list('/nope/'), 'InvalidKey');
      await rejectsWith(() => s.create(`${p}big`, new Uint8Array(MAX_VALUE_BYTES + 1)), 'ValueTooLarge');
      await rejectsWith(() => s.create(`${p}huge`, new Uint8Array(3 * 1024 * 1024 + 1)), 'ValueTooLarge');
      assert.equal(await s.currentRevision(), rev);
      assert.equal(await s.get(`${p}big`), undefined);
      // A value right at the limit is accepted and comes back intact.
      const atLimit = randomBytes(MAX_VALUE_BYTES);
      await s.create(`${p}limit`, atLimit);
      assert.ok(Buffer.from((await s.get(`${p}limit`))!.value).equals(atLimit));
      // The store kept its own copy: mutating the caller's buffer changes nothing stored.
      atLimit[0] = atLimit[0]! ^ 0xff;
      assert.ok(!Buffer.from((await s.get(`${p}limit`))!.value).equals(atLimit));
    });

    it('watch delivers puts and deletes with previous values, filtered by prefix', async () => {
      const { s, p } = await fresh();
      const start = await s.currentRevision();
      const w = s.watch(`${p}in/`, { fromRevision: start });
      const r1 = await s.create(`${p}in/a`, bytes('1'));
      await s.create(`${p}out/a`, bytes('not watched'));
      const r2 = await s.update(`${p}in/a`, bytes('2'));
      const d = await s.delete(`${p}in/a`);
      const events = await take(w, 3);
      w.close();
      assert.deepEqual(
        events.map((e) => [e.type, e.key, text(e.value), text(e.prevValue), e.modRevision]),
        [
          ['put', `${p}in/a`, '1', undefined, r1],
          ['put', `${p}in/a`, '2', '1', r2],
          ['delete', `${p}in/a`, '', '2', d.revision],
        ],
      );
      assert.equal(events[0]!.createRevision, r1);
      assert.equal(events[1]!.createRevision, r1);
    });

    it('a watch without prevValues carries none, live or replayed, while another watch gets them', async () => {
      const { s, p } = await fresh();
      const start = await s.currentRevision();
      const bare = s.watch(p, { fromRevision: start, prevValues: false });
      const full = s.watch(p, { fromRevision: start });
      const r1 = await s.create(`${p}a`, bytes('1'));
      const r2 = await s.update(`${p}a`, bytes('2'));
      const d = await s.delete(`${p}a`);
      const replayed = s.watch(p, { fromRevision: start, prevValues: false });
      const [bareEvents, fullEvents, replayedEvents] = [await take(bare, 3), await take(full, 3), await take(replayed, 3)];
      for (const w of [bare, full, replayed]) w.close();
      const shape = (e: WatchEvent) => [e.type, e.key, text(e.value), e.modRevision];
      const expected = [
        ['put', `${p}a`, '1', r1],
        ['put', `${p}a`, '2', r2],
        ['delete', `${p}a`, '', d.revision],
      ];
      assert.deepEqual(fullEvents.map(shape), expected);
      assert.deepEqual(fullEvents.map((e) => text(e.prevValue)), [undefined, '1', '2']);
      for (const events of [bareEvents, replayedEvents]) {
        assert.deepEqual(events.map(shape), expected);
        assert.deepEqual(events.map((e) => e.prevValue), [undefined, undefined, undefined]);
        assert.deepEqual([events[0]!.createRevision, events[1]!.createRevision], [r1, r1]);
        // A delete's create revision comes with the previous value from etcd; others know it.
        assert.ok([0, r1].includes(events[2]!.createRevision));
      }
    });

    it('watch from an old revision replays history, then continues live', async () => {
      const { s, p } = await fresh();
      const start = await s.currentRevision();
      for (let i = 0; i < 5; i++) await s.create(`${p}k${i}`, bytes(`v${i}`));
      const mid = await s.currentRevision();
      await s.update(`${p}k0`, bytes('v0b'));
      await s.delete(`${p}k1`);
      const fromStart = s.watch(p, { fromRevision: start });
      const fromMid = s.watch(p, { fromRevision: mid });
      await s.create(`${p}live`, bytes('live'));
      const all = await take(fromStart, 8);
      const later = await take(fromMid, 3);
      fromStart.close();
      fromMid.close();
      assert.deepEqual(all.map((e) => `${e.type}:${e.key.slice(p.length)}`), [
        'put:k0', 'put:k1', 'put:k2', 'put:k3', 'put:k4', 'put:k0', 'delete:k1', 'put:live',
      ]);
      assert.deepEqual(later.map((e) => `${e.type}:${e.key.slice(p.length)}`), ['put:k0', 'delete:k1', 'put:live']);
      for (let i = 1; i < all.length; i++) assert.ok(all[i]!.modRevision > all[i - 1]!.modRevision);
      assert.ok(later[0]!.modRevision > mid);
    });

    it('no event lost, duplicated or reordered: 10,000 writes from 16 writers', async () => {
      const { s, p } = await fresh();
      const start = await s.currentRevision();
      const w = s.watch(p, { fromRevision: start });
      const writers = 16;
      const perWriter = 625;
      const received = take(w, writers * perWriter);
      const acknowledged = new Map<number, string>();
      await Promise.all(
        Array.from({ length: writers }, async (_, wi) => {
          // Each writer cycles its own 25 keys through create, update, delete rounds, so every
          // kind of event flows.
          for (let i = 0; i < perWriter; i++) {
            const key = `${p}w${wi}/k${i % 25}`;
            const value = `w${wi}-${i}`;
            const round = Math.floor(i / 25) % 3;
            let rev: number;
            if (round === 0) rev = await s.create(key, bytes(value));
            else if (round === 1) rev = await s.update(key, bytes(value));
            else rev = (await s.delete(key)).revision;
            acknowledged.set(rev, value);
          }
        }),
      );
      const events = await received;
      w.close();
      assert.equal(events.length, writers * perWriter);
      let last = start;
      for (const e of events) {
        assert.ok(e.modRevision > last, `event at ${e.modRevision} after ${last}`);
        last = e.modRevision;
        assert.ok(acknowledged.has(e.modRevision), `event ${e.modRevision} was never acknowledged`);
        if (e.type === 'put') assert.equal(text(e.value), acknowledged.get(e.modRevision));
      }
      assert.equal(new Set(events.map((e) => e.modRevision)).size, acknowledged.size);
    });

    it('a watcher that does not read is cut off with WatchOverflow; writers are not blocked', async () => {
      const { s, p } = await fresh({ watchBuffer: 100 });
      const start = await s.currentRevision();
      const w = s.watch(p, { fromRevision: start });
      for (let i = 0; i < 300; i++) await s.create(`${p}k${i}`, bytes('x'));
      let seen = 0;
      await assert.rejects(
        (async () => {
          for await (const _ of w) seen++;
        })(),
        (err: unknown) => isStorageError(err, 'WatchOverflow'),
      );
      assert.ok(seen <= 100, `saw ${seen} events before the cut-off`);
      // The store is unaffected.
      assert.equal((await s.list(p)).items.length, 300);
    });

    it('compaction: older reads and watches are Compacted, newer ones work', async () => {
      const { s, p } = await fresh();
      const r1 = await s.create(`${p}a`, bytes('1'));
      const r2 = await s.update(`${p}a`, bytes('2'));
      const r3 = await s.update(`${p}a`, bytes('3'));
      await s.compact(r2);
      assert.ok((await s.compactedRevision()) >= r2);
      await rejectsWith(s.get(`${p}a`, { revision: r1 }), 'Compacted');
      await rejectsWith(s.list(p, { revision: r1 }), 'Compacted');
      await rejectsWith(
        (async () => {
          for await (const _ of s.watch(p, { fromRevision: r1 - 1 })) break;
        })(),
        'Compacted',
      );
      // The current state and reads at or after the compacted revision are intact.
      assert.equal(text((await s.get(`${p}a`))?.value), '3');
      assert.equal(text((await s.get(`${p}a`, { revision: r3 }))?.value), '3');
      assert.equal(text((await s.get(`${p}a`, { revision: r2 }))?.value), '2');
      const w = s.watch(p, { fromRevision: r2 });
      const [ev] = await take(w, 1);
      w.close();
      assert.equal(ev?.modRevision, r3);
      await rejectsWith(s.compact(r1), 'Compacted');
    });

    it('a closed watch ends iteration; a closed store refuses calls', async () => {
      const { s, p } = await fresh();
      const w = s.watch(p, { fromRevision: await s.currentRevision() });
      const iterating = (async () => {
        let n = 0;
        for await (const _ of w) n++;
        return n;
      })();
      await s.create(`${p}a`, bytes('1'));
      w.close();
      assert.ok((await iterating) <= 1);
      await s.close();
      await rejectsWith(s.get(`${p}a`), 'Closed');
    });
  });
}
