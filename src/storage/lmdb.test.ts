import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { describeConformance } from './conformance.js';
import type { HistoryRetention } from './history-retention.js';
import { open } from 'lmdb';
import { LmdbStorage } from './lmdb/lmdb-storage.js';
import { unpackValue } from './lmdb/value-packing.js';
import { MemoryStorage } from './memory.js';
import { isStorageError, type KeyValue, type Storage, type StorageErrorCode, type Watch, type WatchEvent } from './types.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-lmdb-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b));

async function rejectsWith(p: Promise<unknown> | (() => unknown), code: StorageErrorCode, message?: RegExp): Promise<void> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    assert.ok(isStorageError(err, code), `expected StorageError ${code}, got ${String(err)}`);
    if (message) assert.match(err.message, message);
    return;
  }
  assert.fail(`expected StorageError ${code}, but it succeeded`);
}

async function take(watch: Watch, n: number): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  if (n === 0) return out;
  for await (const ev of watch) {
    out.push(ev);
    if (out.length === n) return out;
  }
  throw new Error(`watch ended after ${out.length} of ${n} events`);
}

describeConformance('lmdb', async (opts) => LmdbStorage.open({ dataDir: freshDir(), watchBuffer: opts.watchBuffer }));

describe('lmdb storage', () => {
  it('reads see only committed writes', async () => {
    const s = await LmdbStorage.open({ dataDir: freshDir() });
    try {
      const before = await s.currentRevision();
      const pending = s.create('/registry/x/a', bytes('1'));
      // The create has its revision but is not on disk yet: nothing of it is visible.
      assert.equal(await s.get('/registry/x/a'), undefined);
      assert.equal((await s.list('/registry/x/')).items.length, 0);
      assert.equal(await s.currentRevision(), before);
      // Conflict checks do see it, so a second create cannot slip in.
      await rejectsWith(s.create('/registry/x/a', bytes('2')), 'AlreadyExists');
      const rev = await pending;
      assert.equal(text((await s.get('/registry/x/a'))?.value), '1');
      assert.equal(await s.currentRevision(), rev);
    } finally {
      await s.close();
    }
  });

  it('a failed precondition is reported once the write that failed it is durable, so a re-read finds that write', async () => {
    const s = await LmdbStorage.open({ dataDir: freshDir() });
    try {
      const r1 = await s.create('/registry/x/a', bytes('1'));
      // A write not yet on disk...
      const pending = s.update('/registry/x/a', bytes('2'));
      assert.equal(text((await s.get('/registry/x/a'))?.value), '1');
      // ...fails an update conditional on the version every read still shows; when the conflict
      // arrives, reads show the write that caused it (a guaranteed-update loop can make progress).
      await rejectsWith(s.update('/registry/x/a', bytes('3'), { expectModRevision: r1 }), 'Conflict');
      const r2 = await pending;
      assert.equal((await s.get('/registry/x/a'))?.modRevision, r2);
      // The same for a delete not yet durable and an update of the key.
      const deleting = s.delete('/registry/x/a');
      await rejectsWith(s.update('/registry/x/a', bytes('4')), 'NotFound');
      assert.equal(await s.get('/registry/x/a'), undefined);
      await deleting;
      // And for a create not yet durable and a second create.
      const creating = s.create('/registry/x/b', bytes('b'));
      await rejectsWith(s.create('/registry/x/b', bytes('b2')), 'AlreadyExists');
      assert.equal(text((await s.get('/registry/x/b'))?.value), 'b');
      await creating;
    } finally {
      await s.close();
    }
  });

  it('survives close and reopen: data, revisions and watchable history', async () => {
    const dir = freshDir();
    const s1 = await LmdbStorage.open({ dataDir: dir });
    const start = await s1.currentRevision();
    const ra = await s1.create('/registry/r/a', bytes('a1'));
    const rb = await s1.create('/registry/r/b', bytes('b1'));
    const rc = await s1.create('/registry/r/c', bytes('c1'));
    const ra2 = await s1.update('/registry/r/a', bytes('a2'));
    const beforeDelete = await s1.currentRevision();
    const del = await s1.delete('/registry/r/b');
    await s1.close();

    const s2 = await LmdbStorage.open({ dataDir: dir });
    try {
      assert.equal(await s2.currentRevision(), del.revision);
      const a = await s2.get('/registry/r/a');
      assert.deepEqual([text(a?.value), a?.createRevision, a?.modRevision, a?.version], ['a2', ra, ra2, 2]);
      assert.equal(await s2.get('/registry/r/b'), undefined);
      assert.equal((await s2.get('/registry/r/c'))?.modRevision, rc);
      // Old snapshots survive the restart too, deleted keys included.
      const old = await s2.list('/registry/r/', { revision: beforeDelete });
      assert.deepEqual(old.items.map((kv) => `${kv.key}=${text(kv.value)}`), ['/registry/r/a=a2', '/registry/r/b=b1', '/registry/r/c=c1']);
      assert.equal(text((await s2.get('/registry/r/a', { revision: rb }))?.value), 'a1');
      // History from before the restart replays, then the watch goes live.
      const w = s2.watch('/registry/r/', { fromRevision: start });
      const rd = await s2.create('/registry/r/d', bytes('d1'));
      assert.ok(rd > del.revision, 'revisions keep increasing across restarts');
      const events = await take(w, 6);
      w.close();
      assert.deepEqual(
        events.map((e) => [e.type, e.key.slice('/registry/r/'.length), text(e.value), text(e.prevValue), e.modRevision]),
        [
          ['put', 'a', 'a1', undefined, ra],
          ['put', 'b', 'b1', undefined, rb],
          ['put', 'c', 'c1', undefined, rc],
          ['put', 'a', 'a2', 'a1', ra2],
          ['delete', 'b', '', 'b1', del.revision],
          ['put', 'd', 'd1', undefined, rd],
        ],
      );
    } finally {
      await s2.close();
    }
  });

  it('opens a format 1 store (values as lmdb-js compressed them) and keeps reading them after new, packed writes', async () => {
    const dir = freshDir();
    const big = (tag: string): Uint8Array => bytes(JSON.stringify({ tag, items: Array.from({ length: 100 }, (_, i) => ({ name: `item-${i}`, image: 'registry.k8s.io/pause:3.9' })) }));
    const s1 = await LmdbStorage.open({ dataDir: dir });
    const start = await s1.currentRevision();
    const ra = await s1.create('/registry/r/a', bytes('small'));
    const rb = await s1.create('/registry/r/b', big('b1'));
    await s1.close();
    // Turn it into what a format 1 build left: values untagged, large ones compressed by lmdb-js.
    const raw = open({ path: dir, pageSize: 8192, maxDbs: 8, cache: false });
    const packed = raw.openDB<Buffer, Buffer>({ name: 'values', encoding: 'binary', keyEncoding: 'binary', cache: false });
    const legacy = raw.openDB<Buffer, Buffer>({ name: 'values', encoding: 'binary', keyEncoding: 'binary', cache: false, compression: { threshold: 2048 } });
    const meta = raw.openDB<Buffer, Buffer>({ name: 'meta', encoding: 'binary', keyEncoding: 'binary', cache: false });
    const formatOne = Buffer.alloc(8);
    formatOne.writeUInt32BE(1, 4);
    raw.transactionSync(() => {
      for (const rev of [ra, rb]) {
        const key = Buffer.alloc(8);
        key.writeUInt32BE(rev, 4);
        const value = unpackValue(packed.getBinary(key)!, rev, 0);
        void legacy.put(key, Buffer.from(value));
      }
      void meta.put(Buffer.from('format'), formatOne);
      void meta.remove(Buffer.from('packed-from'));
    });
    const stored = packed.getBinary(Buffer.from([0, 0, 0, 0, 0, 0, 0, rb]))!;
    assert.ok(stored[0]! >= 250, 'lmdb-js compressed the large format 1 value');
    await raw.close();

    for (let round = 0; round < 2; round++) {
      const s = await LmdbStorage.open({ dataDir: dir });
      try {
        assert.equal(text((await s.get('/registry/r/a'))?.value), 'small');
        assert.equal(text((await s.get('/registry/r/b', { revision: rb }))?.value), text(big('b1')));
        if (round === 0) {
          await s.update('/registry/r/b', big('b2'));
          await s.create('/registry/r/c', bytes('c1'));
        }
        const now = await s.list('/registry/r/');
        assert.deepEqual(now.items.map((kv) => `${kv.key}=${text(kv.value)?.slice(0, 15)}`), ['/registry/r/a=small', '/registry/r/b={"tag":"b2","it', '/registry/r/c=c1']);
        const w = s.watch('/registry/r/', { fromRevision: start });
        const events = await take(w, 4);
        w.close();
        assert.deepEqual(
          events.map((e) => [e.key.slice('/registry/r/'.length), text(e.value)?.slice(0, 10), text(e.prevValue)?.slice(0, 10)]),
          [
            ['a', 'small', undefined],
            ['b', '{"tag":"b1', undefined],
            ['b', '{"tag":"b2', '{"tag":"b1'],
            ['c', 'c1', undefined],
          ],
        );
      } finally {
        await s.close();
      }
    }
  });

  it('every acknowledged write survives kill -9', async () => {
    const dir = freshDir();
    const fixture = fileURLToPath(new URL('./lmdb/crash-writer.fixture.js', import.meta.url));
    const child = spawn(process.execPath, [fixture, dir, '48'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const acked: string[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      let partial = '';
      child.stdout.on('data', (chunk: Buffer) => {
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop()!;
        for (const line of lines) acked.push(line);
        if (acked.length >= 2000) resolve();
      });
      void exited.then(() => reject(new Error(`writer exited after ${acked.length} acks: ${stderr}`)));
    });
    child.kill('SIGKILL');
    await exited;

    // The dead writer's lock is stale; the store opens and holds everything it acknowledged.
    const s = await LmdbStorage.open({ dataDir: dir });
    try {
      for (const key of acked) {
        const kv = await s.get(key);
        assert.ok(kv, `acknowledged key ${key} is missing after the crash`);
        assert.equal(text(kv.value), text(crashValue(key)));
      }
      const all = await s.list('/registry/crash/');
      assert.ok(all.items.length >= acked.length);
      assert.equal(all.revision, await s.currentRevision());
      assert.ok((await s.create('/registry/crash/after', bytes('x'))) > all.revision);
    } finally {
      await s.close();
    }
  });

  it('a data dir can be open only once', async () => {
    const dir = freshDir();
    const s = await LmdbStorage.open({ dataDir: dir });
    await rejectsWith(LmdbStorage.open({ dataDir: dir }), 'Unavailable', /already open/);
    // Another process is refused too, with a message that says why.
    const fixture = fileURLToPath(new URL('./lmdb/crash-writer.fixture.js', import.meta.url));
    const child = spawn(process.execPath, [fixture, dir, '1'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 3, stderr);
    assert.match(stderr, new RegExp(`locked by running process ${process.pid}`));
    await s.close();
    // Closing releases it.
    const again = await LmdbStorage.open({ dataDir: dir });
    await again.close();
  });

  it('100 leases renewed every 2 s for an hour keep the file small', async () => {
    const dir = freshDir();
    let now = Date.UTC(2024, 0, 1);
    const s = await LmdbStorage.open({ dataDir: dir, now: () => now });
    try {
      const keys = Array.from({ length: 100 }, (_, i) => `/registry/leases/kube-node-lease/node-${String(i).padStart(3, '0')}`);
      const lease = (name: string, round: number): Uint8Array => {
        const obj = {
          kind: 'Lease',
          apiVersion: 'coordination.k8s.io/v1',
          metadata: { name, namespace: 'kube-node-lease', uid: '6b9f3c2e-0d7a-4c1e-9a53-2f1d8e7b4c60', resourceVersion: String(round) },
          spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: new Date(now).toISOString() },
        };
        const json = JSON.stringify(obj);
        return bytes(json.padEnd(400, ' '));
      };
      await Promise.all(keys.map((k) => s.create(k, lease(k, 0))));
      const rounds = 1800; // one hour at one renewal per lease every 2 s
      for (let round = 1; round <= rounds; round++) {
        now += 2000;
        await Promise.all(keys.map((k) => s.update(k, lease(k, round))));
      }
      const compacted = await s.compactedRevision();
      const current = await s.currentRevision();
      // DEFAULT_RETENTION: at least 5 minutes (150 rounds of 100) and 1,000 revisions stay.
      assert.ok(compacted > 0, 'auto-compaction ran');
      assert.ok(current - compacted >= 150 * 100 - 100, `kept ${current - compacted} revisions`);
      const size = statSync(join(dir, 'data.mdb')).size;
      assert.ok(size < 50 * 1024 * 1024, `data file is ${(size / 2 ** 20).toFixed(1)} MiB`);
      const stats = s.stats();
      // Superseded versions go with compaction (a last chunk may still be pending).
      assert.ok(stats.history < 16_000, `history holds ${stats.history} versions`);
      const all = await s.list('/registry/leases/');
      assert.equal(all.items.length, 100);
      assert.ok(all.items.every((kv) => kv.version === rounds + 1));
    } finally {
      await s.close();
    }
  });

  it('compacts automatically by age and count, then deletes the history behind it', async () => {
    let now = Date.UTC(2024, 0, 1);
    const retention: HistoryRetention = { minAgeMs: 60_000, minRevisions: 10, checkIntervalMs: 5_000 };
    const s = await LmdbStorage.open({ dataDir: freshDir(), retention, now: () => now });
    try {
      const first = await s.create('/registry/c/a', bytes('v0'));
      for (let i = 1; i <= 30; i++) await s.update('/registry/c/a', bytes(`v${i}`));
      await s.create('/registry/c/gone', bytes('x'));
      const deleted = await s.delete('/registry/c/gone');
      for (let i = 31; i <= 50; i++) await s.update('/registry/c/a', bytes(`v${i}`));
      // Young history is kept however long it is.
      now += 30_000;
      await s.update('/registry/c/a', bytes('v51'));
      assert.equal(await s.compactedRevision(), 0);
      // Once old enough, everything but the newest `minRevisions` goes. (Revisions count as
      // committed at the first check that saw them, so age is measured from there.)
      now += 61_000;
      await s.update('/registry/c/a', bytes('v52'));
      now += 61_000;
      const last = await s.update('/registry/c/a', bytes('v53'));
      const compacted = await s.compactedRevision();
      assert.equal(compacted, last - retention.minRevisions);
      assert.ok(compacted > deleted.revision);
      await rejectsWith(s.get('/registry/c/a', { revision: first }), 'Compacted');
      await rejectsWith(
        (async () => {
          for await (const _ of s.watch('/registry/c/', { fromRevision: first })) break;
        })(),
        'Compacted',
      );
      const atCompacted = await s.get('/registry/c/a', { revision: compacted });
      assert.equal(atCompacted?.modRevision, compacted);
      // Physical deletion follows in bounded chunks; wait for it (no fixed sleep).
      for (let i = 0; i < 1000 && s.stats().events > last - compacted; i++) await new Promise((r) => setImmediate(r));
      const stats = s.stats();
      assert.equal(stats.events, last - compacted);
      assert.equal(stats.history, last - compacted);
      assert.equal(stats.tombstones, 0);
      assert.equal(stats.current, 1);
      // What is left still serves reads and watches from the compacted revision.
      const w = s.watch('/registry/c/', { fromRevision: compacted });
      const events = await take(w, last - compacted);
      w.close();
      assert.equal(text(events[0]!.prevValue), text(atCompacted?.value));
      assert.equal(text(events.at(-1)!.value), 'v53');
    } finally {
      await s.close();
    }
  });

  it('replays long histories in chunks while writes continue, missing and repeating nothing', async () => {
    const s = await LmdbStorage.open({ dataDir: freshDir() });
    try {
      const start = await s.currentRevision();
      const write = (from: number, count: number): Promise<unknown> =>
        Promise.all(
          Array.from({ length: 25 }, async (_, w) => {
            for (let i = from + w; i < from + count; i += 25) await s.create(`/registry/h/k${i}`, bytes(`v${i}`));
          }),
        );
      await write(0, 2500);
      const w = s.watch('/registry/h/', { fromRevision: start });
      const more = write(2500, 1000);
      const events = await take(w, 3500);
      await more;
      w.close();
      events.forEach((e, i) => assert.equal(e.modRevision, start + i + 1));
      assert.equal(new Set(events.map((e) => e.key)).size, 3500);
      for (const e of events) assert.equal(text(e.value), `v${e.key.slice('/registry/h/k'.length)}`);
    } finally {
      await s.close();
    }
  });

  it('stores any value bytes and refuses keys beyond its key size limit', async () => {
    const s = await LmdbStorage.open({ dataDir: freshDir() });
    try {
      const start = await s.currentRevision();
      // Values that look like lmdb-js compression markers, empty ones, and compressible big ones.
      const values = [
        new Uint8Array(0),
        Uint8Array.of(255),
        Uint8Array.of(250, 1, 2),
        Buffer.concat([Uint8Array.of(254), randomBytes(2000)]),
        Buffer.alloc(1_000_000, 'compressible '),
        randomBytes(1500),
      ];
      for (const [i, v] of values.entries()) await s.create(`/registry/v/${i}`, v);
      for (const [i, v] of values.entries()) assert.ok(Buffer.from((await s.get(`/registry/v/${i}`))!.value).equals(v), `value ${i}`);
      const listed = await s.list('/registry/v/');
      listed.items.forEach((kv, i) => assert.ok(Buffer.from(kv.value).equals(values[i]!), `listed value ${i}`));
      const w = s.watch('/registry/v/', { fromRevision: start });
      const events = await take(w, values.length);
      w.close();
      events.forEach((e, i) => assert.ok(Buffer.from(e.value).equals(values[i]!), `replayed value ${i}`));

      const long = `/registry/${'k'.repeat(4050)}`; // under validateKey's 4096, over LMDB's limit
      await rejectsWith(() => s.create(long, bytes('x')), 'InvalidKey', /lmdb/);
      await rejectsWith(() => s.get(long), 'InvalidKey');
      const longest = `/registry/${'k'.repeat(4017 - '/registry/'.length)}`;
      await s.create(longest, bytes('fits'));
      assert.equal(text((await s.get(longest))?.value), 'fits');
    } finally {
      await s.close();
    }
  });

  it('a failed commit is never acknowledged and stops the store', async () => {
    const dir = freshDir();
    const s = await LmdbStorage.open({ dataDir: dir });
    const r1 = await s.create('/registry/f/ok', bytes('1'));
    const w = s.watch('/registry/f/', { fromRevision: r1 });
    // Simulate the disk failing (ENOSPC, EIO) under the next transaction.
    const env = (s as unknown as { env: { root: { batch: () => Promise<boolean> } } }).env;
    env.root.batch = () => Promise.reject(new Error('ENOSPC: no space left on device'));
    const results = await Promise.allSettled([s.create('/registry/f/lost', bytes('2')), s.update('/registry/f/ok', bytes('3'))]);
    for (const r of results) assert.ok(r.status === 'rejected' && isStorageError(r.reason, 'Unavailable'), String(r));
    // Memory ran ahead of disk, so the store refuses everything rather than serve either.
    await rejectsWith(s.get('/registry/f/ok'), 'Unavailable', /ENOSPC/);
    await rejectsWith(s.create('/registry/f/next', bytes('4')), 'Unavailable');
    await rejectsWith(
      (async () => {
        for await (const _ of w) assert.fail('no event for a failed commit');
      })(),
      'Unavailable',
    );
    await s.close();
    const s2 = await LmdbStorage.open({ dataDir: dir });
    try {
      assert.equal(await s2.currentRevision(), r1);
      assert.equal(text((await s2.get('/registry/f/ok'))?.value), '1');
      assert.equal(await s2.get('/registry/f/lost'), undefined);
      assert.equal(await s2.create('/registry/f/next', bytes('4')), r1 + 1);
    } finally {
      await s2.close();
    }
  });
});

/** Holds back what lmdb-js's `batch` promises report until `release` (each batch's own outcome, or `fail`). */
function gateBatches(s: LmdbStorage): { calls: () => number; release: (fail?: (n: number) => Error | undefined) => void } {
  const root = (s as unknown as { env: { root: { batch: (fn: () => void) => Promise<boolean> } } }).env.root;
  const real = root.batch.bind(root);
  let calls = 0;
  let open: (fail?: (n: number) => Error | undefined) => void = () => undefined;
  const gate = new Promise<((n: number) => Error | undefined) | undefined>((resolve) => (open = resolve));
  root.batch = (fn) => {
    const n = calls++;
    const p = real(fn);
    return gate.then(async (fail) => {
      const v = await p;
      const err = fail?.(n);
      if (err) throw err;
      return v;
    });
  };
  return { calls: () => calls, release: (fail) => open(fail) };
}

describe('lmdb storage batches', () => {
  it('hands the next batch over while the previous one commits, and acknowledges in revision order', async () => {
    const s = await LmdbStorage.open({ dataDir: freshDir() });
    try {
      const r0 = await s.create('/registry/b/first', bytes('0'));
      const w = s.watch('/registry/b/', { fromRevision: r0 });
      const gate = gateBatches(s);
      const order: string[] = [];
      const a = s.create('/registry/b/a', bytes('a')).then((r) => (order.push('a'), r));
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      const b = s.create('/registry/b/b', bytes('b')).then((r) => (order.push('b'), r));
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      // Neither commit has been seen, yet both batches are with lmdb-js.
      assert.equal(gate.calls(), 2);
      assert.deepEqual(order, []);
      gate.release();
      assert.deepEqual(await Promise.all([a, b]), [r0 + 1, r0 + 2]);
      assert.deepEqual(order, ['a', 'b']);
      assert.deepEqual(
        (await take(w, 2)).map((e) => [e.key, e.modRevision]),
        [
          ['/registry/b/a', r0 + 1],
          ['/registry/b/b', r0 + 2],
        ],
      );
      w.close();
    } finally {
      await s.close();
    }
  });

  it('when a commit fails, the batches queued behind it are refused too, never left waiting', async () => {
    const s = await LmdbStorage.open({ dataDir: freshDir() });
    const gate = gateBatches(s);
    const a = s.create('/registry/b/a', bytes('a'));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const b = s.create('/registry/b/b', bytes('b'));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(gate.calls(), 2);
    gate.release((n) => (n === 0 ? new Error('EIO: i/o error') : undefined));
    for (const r of await Promise.allSettled([a, b])) assert.ok(r.status === 'rejected' && isStorageError(r.reason, 'Unavailable'), String(r));
    await rejectsWith(s.get('/registry/b/a'), 'Unavailable', /EIO/);
    await s.close();
  });
});

describe('lmdb storage against the memory backend', () => {
  it('agrees on random writes, reads at past revisions, pages and watches, across a restart and compaction', async () => {
    const dir = freshDir();
    const mem = new MemoryStorage();
    let lm = await LmdbStorage.open({ dataDir: dir });
    try {
      const random = mulberry32(20240601);
      const pick = (n: number): number => Math.floor(random() * n);
      const keys = Array.from({ length: 60 }, (_, i) => `/registry/d/${'abc'[i % 3]}/k${String(i).padStart(2, '0')}`);
      const outcome = async (s: Storage, op: (s: Storage) => Promise<unknown>): Promise<string> => {
        try {
          return JSON.stringify(plain(await op(s)));
        } catch (err) {
          return isStorageError(err) ? `error ${err.code}` : `unexpected ${String(err)}`;
        }
      };
      const compare = async (label: string, op: (s: Storage) => Promise<unknown>): Promise<void> => {
        assert.equal(await outcome(lm, op), await outcome(mem, op), label);
      };
      const writeRound = async (): Promise<void> => {
        // A few writes issued together, so the lmdb side commits them as one batch.
        const ops = Array.from({ length: 1 + pick(8) }, () => {
          const key = keys[pick(keys.length)]!;
          const value = bytes(`v${pick(1e6)}`);
          const expect = pick(4) === 0 ? pick(50) + 1 : undefined;
          switch (pick(4)) {
            case 0:
              return (s: Storage) => s.create(key, value);
            case 1:
            case 2:
              return (s: Storage) => s.update(key, value, { expectModRevision: expect });
            default:
              return (s: Storage) => s.delete(key, { expectModRevision: expect });
          }
        });
        const [a, b] = await Promise.all([Promise.all(ops.map((op) => outcome(lm, op))), Promise.all(ops.map((op) => outcome(mem, op)))]);
        assert.deepEqual(a, b);
      };
      const checkReads = async (): Promise<void> => {
        const current = await mem.currentRevision();
        assert.equal(await lm.currentRevision(), current);
        const compacted = await mem.compactedRevision();
        for (let i = 0; i < 20; i++) {
          const at = compacted + pick(current - compacted + 1);
          const prefix = pick(2) === 0 ? '/registry/d/' : `/registry/d/${'abc'[pick(3)]}/`;
          await compare(`list ${prefix} at ${at}`, (s) => s.list(prefix, { revision: at }));
          const key = keys[pick(keys.length)]!;
          await compare(`get ${key} at ${at}`, (s) => s.get(key, { revision: at }));
          // Pages of 7 at one revision.
          let startAfter: string | undefined;
          for (let page = 0; page < 10; page++) {
            const [a, b] = await Promise.all([lm.list(prefix, { revision: at, limit: 7, startAfter }), mem.list(prefix, { revision: at, limit: 7, startAfter })]);
            assert.deepEqual(kvs(a.items), kvs(b.items), `page ${page} of ${prefix} at ${at}`);
            assert.equal(a.more, b.more);
            if (!a.more) break;
            startAfter = a.items.at(-1)!.key;
          }
        }
        const from = compacted + pick(current - compacted + 1);
        const n = current - from;
        const watches = [lm, mem].map((s) => s.watch('/registry/d/', { fromRevision: from }));
        const [a, b] = await Promise.all(watches.map((w) => take(w, n).then(evs)));
        for (const w of watches) w.close();
        assert.deepEqual(a, b, `watch from ${from}`);
      };
      for (let round = 0; round < 300; round++) {
        await writeRound();
        if (round % 60 === 59) await checkReads();
        if (round === 150) {
          await lm.close();
          lm = await LmdbStorage.open({ dataDir: dir });
        }
        if (round === 200) {
          const at = (await mem.currentRevision()) - 40;
          await Promise.all([lm.compact(at), mem.compact(at)]);
        }
      }
      await checkReads();
    } finally {
      await lm.close();
      await mem.close();
    }
  });
});

/** Bytes as text (JSON.stringify would show a Buffer and a Uint8Array differently). */
function plain(v: unknown): unknown {
  if (v instanceof Uint8Array) return text(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

function kvs(items: KeyValue[]): unknown[] {
  return items.map((kv) => [kv.key, text(kv.value), kv.createRevision, kv.modRevision, kv.version]);
}

function evs(events: WatchEvent[]): unknown[] {
  return events.map((e) => [e.type, e.key, text(e.value), text(e.prevValue), e.modRevision, e.createRevision]);
}

/** A small seeded PRNG, so a failure replays the same way. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Same as in crash-writer.fixture.ts. */
function crashValue(key: string): Buffer {
  return Buffer.from(`value of ${key} `.repeat(8));
}
