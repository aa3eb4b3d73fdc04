// The etcd backend beyond the conformance suite: error mapping, watch resumption across lost
// connections, writes with an unknown outcome, and automatic compaction. Network faults are
// injected with a TCP proxy between the client and a single real etcd.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it, test } from 'node:test';
import { etcdSkipReason, startEtcd, type EtcdServer } from '../../test/support/etcd-server.js';
import { startTcpProxy, type TcpProxy } from '../../test/support/tcp-proxy.js';
import { waitFor } from '../../test/support/wait.js';
import { EtcdStorage, type EtcdStorageOptions } from './etcd/etcd-storage.js';
import { isStorageError, MAX_VALUE_BYTES, StorageError, type Storage, type Watch, type WatchEvent } from './types.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b));

async function rejectsWith(p: Promise<unknown>, code: StorageError['code'], message?: RegExp): Promise<StorageError> {
  try {
    await p;
  } catch (err) {
    assert.ok(isStorageError(err, code), `expected StorageError ${code}, got ${String(err)}`);
    if (message) assert.match(err.message, message);
    return err;
  }
  assert.fail(`expected StorageError ${code}, but it succeeded`);
}

/** Reads a watch in the background; `events` fills as they come, `ended` holds how it ended. */
function collect(w: Watch): { events: WatchEvent[]; ended: Promise<unknown> } {
  const events: WatchEvent[] = [];
  const ended = (async () => {
    for await (const ev of w) events.push(ev);
    return undefined;
  })().catch((err: unknown) => err);
  return { events, ended };
}

const skip = etcdSkipReason();
if (skip) {
  test('etcd storage faults', { skip }, () => undefined);
} else {
  describe('etcd storage: errors, faults, compaction', () => {
    let server: EtcdServer;
    const stores: Storage[] = [];
    const proxies: TcpProxy[] = [];
    before(async () => {
      server = await startEtcd({ fsync: false });
    });
    after(async () => {
      for (const s of stores) await s.close().catch(() => undefined);
      for (const p of proxies) await p.close();
      await server?.stop();
    });
    async function open(opts: Partial<EtcdStorageOptions> = {}): Promise<EtcdStorage> {
      const s = await EtcdStorage.open({ endpoints: server.endpoints, compactionIntervalMs: 0, ...opts });
      stores.push(s);
      return s;
    }
    /** A store whose connection to etcd goes through a proxy the test controls. */
    async function openProxied(opts: Partial<EtcdStorageOptions> = {}): Promise<{ s: EtcdStorage; proxy: TcpProxy }> {
      const proxy = await startTcpProxy(server.endpoints[0]!);
      proxies.push(proxy);
      return { s: await open({ endpoints: [proxy.url], ...opts }), proxy };
    }
    const prefix = (): string => `/registry/faults-${randomBytes(6).toString('hex')}/`;

    it('open fails with Unavailable when no etcd answers', async () => {
      const proxy = await startTcpProxy(server.endpoints[0]!);
      proxies.push(proxy);
      proxy.setMode('refuse');
      await rejectsWith(EtcdStorage.open({ endpoints: [proxy.url], dialTimeoutMs: 300 }), 'Unavailable', /cannot reach etcd/);
    });

    it('a value over etcd\'s own request limit is ValueTooLarge', async () => {
      // An etcd left at a smaller --max-request-bytes than kubelite needs (the last flag wins).
      const small = await startEtcd({ fsync: false, extraArgs: ['--max-request-bytes=1048576'] });
      const s = await EtcdStorage.open({ endpoints: small.endpoints, compactionIntervalMs: 0 });
      try {
        const p = prefix();
        // Refused by etcd ("request is too large") ...
        await rejectsWith(s.create(`${p}a`, new Uint8Array(1024 * 1024 + 1)), 'ValueTooLarge', /max-request-bytes/);
        // ... and, further above its limit, by its gRPC layer ("received message larger than max").
        await rejectsWith(s.create(`${p}b`, new Uint8Array(MAX_VALUE_BYTES)), 'ValueTooLarge');
        await s.create(`${p}c`, bytes('small'));
        assert.deepEqual((await s.list(p)).items.map((kv) => kv.key), [`${p}c`]);
      } finally {
        await s.close();
        await small.stop();
      }
    });

    it('list with startAfter outside the prefix, and reads at a revision, return the right range', async () => {
      const s = await open();
      const p = prefix();
      const r1 = await s.create(`${p}a`, bytes('1'));
      await s.create(`${p}b`, bytes('2'));
      assert.deepEqual((await s.list(p, { startAfter: '/registry/' })).items.map((kv) => text(kv.value)), ['1', '2']);
      assert.deepEqual((await s.list(p, { startAfter: `${p}zzz` })).items, []);
      assert.deepEqual((await s.list(p, { startAfter: '/registry/~' })).items, []);
      const old = await s.list(p, { revision: r1 });
      assert.deepEqual([old.revision, old.items.length], [r1, 1]);
    });

    it('compaction errors: future, already compacted, paginated list across a compaction', async () => {
      const s = await open();
      const p = prefix();
      for (let i = 0; i < 5; i++) await s.create(`${p}k${i}`, bytes(`v${i}`));
      const cur = await s.currentRevision();
      await rejectsWith(s.compact(cur + 1000), 'FutureRevision');
      const page1 = await s.list(p, { limit: 2 });
      await s.update(`${p}k0`, bytes('changed'));
      await s.compact(await s.currentRevision());
      await rejectsWith(s.compact(cur), 'Compacted');
      // The next page of a list taken before the compaction can no longer be served.
      await rejectsWith(s.list(p, { limit: 2, startAfter: page1.items[1]!.key, revision: page1.revision }), 'Compacted');
      await rejectsWith(s.get(`${p}k0`, { revision: page1.revision }), 'Compacted');
      assert.equal((await s.list(p)).items.length, 5);
    });

    it('compactedRevision finds a compaction made by another client', async () => {
      const a = await open();
      const b = await open();
      const p = prefix();
      await a.create(`${p}a`, bytes('1'));
      const target = await a.update(`${p}a`, bytes('2'));
      await a.update(`${p}a`, bytes('3'));
      await b.compact(target);
      assert.equal(await a.compactedRevision(), target);
      // Once known, a watch from before it fails at once.
      const { ended } = collect(a.watch(p, { fromRevision: target - 2 }));
      assert.ok(isStorageError(await ended, 'Compacted'));
    });

    it('a watch resumes after its connection is cut: nothing lost, nothing repeated', async () => {
      const { s: watcher, proxy } = await openProxied();
      const writer = await open();
      const p = prefix();
      const start = await writer.currentRevision();
      const { events, ended } = collect(watcher.watch(p, { fromRevision: start }));
      const revs: number[] = [];
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 50; i++) revs.push(await writer.create(`${p}r${round}-${i}`, bytes(`${round}-${i}`)));
        // Cut the stream mid-flow, write while it is down, then let it reconnect.
        await waitFor(() => events.length > revs.length - 50, 'some events of this round');
        proxy.setMode('refuse');
        for (let i = 0; i < 50; i++) revs.push(await writer.create(`${p}d${round}-${i}`, bytes(`down-${round}-${i}`)));
        proxy.setMode('pass');
      }
      await waitFor(() => events.length >= revs.length, `${revs.length} events (have ${events.length})`);
      assert.deepEqual(events.map((e) => e.modRevision), revs);
      assert.ok(watcher.watchStats()[0]!.reconnects >= 3, `reconnects: ${watcher.watchStats()[0]?.reconnects}`);
      // Updates and deletes after a reconnect still carry their previous values.
      proxy.setMode('refuse');
      await writer.update(`${p}r0-0`, bytes('updated'));
      await writer.delete(`${p}r0-1`);
      proxy.setMode('pass');
      await waitFor(() => events.length >= revs.length + 2, 'the update and delete events');
      assert.deepEqual(
        events.slice(-2).map((e) => [e.type, text(e.prevValue)]),
        [['put', '0-0'], ['delete', '0-1']],
      );
      assert.equal(events.length, revs.length + 2);
      await watcher.close();
      assert.ok(isStorageError(await ended, 'Closed'));
    });

    it('a watch cut during a catch-up of more than 1,000 revisions misses nothing', async () => {
      // etcd replays history in batches of 1,000 revisions, each stamped with its *current*
      // revision; a client resuming from that stamp (as etcd3's own Watcher does) loses the rest.
      const { s: watcher, proxy } = await openProxied();
      const writer = await open();
      const p = prefix();
      const start = await writer.currentRevision();
      const value = new Uint8Array(2000);
      await Promise.all(
        Array.from({ length: 10 }, async (_, wi) => {
          for (let i = 0; i < 300; i++) await writer.create(`${p}w${wi}-${i}`, value);
        }),
      );
      const head = await writer.currentRevision();
      const w = watcher.watch(p, { fromRevision: start });
      const revs: number[] = [];
      let deliveredAtCut = 0;
      let reconnects = 0;
      for await (const ev of w) {
        if (revs.length === 0) {
          // The first batch is in; the next ones are still on the wire.
          deliveredAtCut = watcher.watchStats()[0]!.deliveredRevision;
          proxy.setMode('refuse');
          setImmediate(() => proxy.setMode('pass'));
        }
        revs.push(ev.modRevision);
        if (ev.modRevision === head) {
          reconnects = watcher.watchStats()[0]!.reconnects;
          break;
        }
      }
      assert.ok(deliveredAtCut < head, 'the cut came after the whole catch-up');
      assert.ok(reconnects >= 1);
      assert.equal(revs.length, 3000);
      for (let i = 1; i < revs.length; i++) assert.ok(revs[i]! > revs[i - 1]!);
    });

    it('a watch that cannot resume because history was compacted meanwhile fails with Compacted', async () => {
      const { s: watcher, proxy } = await openProxied();
      const writer = await open();
      const p = prefix();
      const start = await writer.currentRevision();
      const { events, ended } = collect(watcher.watch(p, { fromRevision: start }));
      const r1 = await writer.create(`${p}a`, bytes('1'));
      await waitFor(() => events.length === 1, 'the first event');
      proxy.setMode('refuse');
      await writer.update(`${p}a`, bytes('2'));
      const r3 = await writer.update(`${p}a`, bytes('3'));
      await writer.compact(r3);
      proxy.setMode('pass');
      const err = await ended;
      assert.ok(isStorageError(err, 'Compacted'), String(err));
      assert.equal(err.revision, r3);
      // Never a silent gap: the only event delivered is the one from before the cut.
      assert.deepEqual(events.map((e) => e.modRevision), [r1]);
      assert.ok((await watcher.compactedRevision()) >= r3);
    });

    it('a create whose answer is lost is reported as an unknown outcome, never retried', async () => {
      const { s, proxy } = await openProxied({ requestTimeoutMs: 1500 });
      const reader = await open();
      const p = prefix();
      await s.create(`${p}warm`, bytes('connection up'));
      // The request reaches etcd and is applied; the answer never comes back.
      proxy.setMode('drop-responses');
      await rejectsWith(s.create(`${p}a`, bytes('1')), 'Unavailable', /may or may not have been applied/);
      proxy.setMode('refuse');
      proxy.setMode('pass');
      assert.equal(text((await reader.get(`${p}a`))?.value), '1');
      // The store recovers by itself once etcd is reachable again.
      await s.create(`${p}warm2`, bytes('connection up again'));
      // A create lost on an established connection before reaching etcd: unknown to the caller,
      // and indeed not applied.
      proxy.setMode('blackhole');
      const swallowed = proxy.swallowed;
      const pending = s.create(`${p}b`, bytes('1'));
      await waitFor(() => proxy.swallowed > swallowed, 'the create to be sent');
      proxy.setMode('refuse');
      await rejectsWith(pending, 'Unavailable', /may or may not have been applied/);
      proxy.setMode('pass');
      assert.equal(await reader.get(`${p}b`), undefined);
      await s.create(`${p}c`, bytes('ok'));
    });

    it('a guarded update whose first attempt was lost is retried safely', async () => {
      const { s, proxy } = await openProxied();
      const reader = await open();
      const p = prefix();
      const r1 = await s.create(`${p}a`, bytes('1'));
      // Lost on the way: not applied, but the client cannot know; the compare makes a retry safe.
      proxy.setMode('blackhole');
      const swallowed = proxy.swallowed;
      const pending = s.update(`${p}a`, bytes('2'), { expectModRevision: r1 });
      await waitFor(() => proxy.swallowed > swallowed, 'the update to be sent');
      proxy.setMode('refuse');
      const refused = proxy.connections;
      await waitFor(() => proxy.connections > refused, 'a reconnect attempt');
      proxy.setMode('pass');
      const r2 = await pending;
      const kv = await reader.get(`${p}a`);
      assert.deepEqual([text(kv?.value), kv?.modRevision, kv?.version], ['2', r2, 2]);
      // Applied but unanswered: the retry's compare fails, and the caller learns the outcome is unknown.
      proxy.setMode('drop-responses');
      const pending2 = s.update(`${p}a`, bytes('3'), { expectModRevision: r2 });
      await waitFor(async () => text((await reader.get(`${p}a`))?.value) === '3', 'the update to be applied');
      proxy.setMode('refuse');
      const refused2 = proxy.connections;
      await waitFor(() => proxy.connections > refused2, 'a reconnect attempt');
      proxy.setMode('pass');
      await rejectsWith(pending2, 'Unavailable', /may or may not have been applied/);
      assert.equal((await reader.get(`${p}a`))?.version, 3);
    });

    it('automatic compaction runs on its own, also with several stores sharing etcd', async () => {
      // Two API servers sharing etcd, each compacting on its own: conflicts are harmless.
      const a = await open({ compactionIntervalMs: 150 });
      const b = await open({ compactionIntervalMs: 200 });
      const p = prefix();
      const r1 = await a.create(`${p}a`, bytes('1'));
      const r2 = await b.update(`${p}a`, bytes('2'));
      const seen = await waitFor(async () => {
        const c = await a.compactedRevision();
        return c >= r2 ? c : 0;
      }, 'an automatic compaction past the writes');
      assert.ok(seen <= (await a.currentRevision()));
      await rejectsWith(a.get(`${p}a`, { revision: r1 }), 'Compacted');
      // Both stores keep working while they compact.
      const r3 = await b.update(`${p}a`, bytes('3'));
      assert.equal(text((await a.get(`${p}a`))?.value), '3');
      await waitFor(async () => (await b.compactedRevision()) >= r3, 'compaction to follow the new write');
    });
  });
}
