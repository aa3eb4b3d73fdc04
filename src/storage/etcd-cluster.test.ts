// A three-member etcd cluster losing members (SIGKILL) under a stream of writes and a watch:
// every acknowledged write stays readable and is seen by the watch exactly once, in order.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it, test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { etcdSkipReason, startEtcd, type EtcdMember, type EtcdServer } from '../../test/support/etcd-server.js';
import { waitFor } from '../../test/support/wait.js';
import { EtcdStorage } from './etcd/etcd-storage.js';
import { isStorageError, type WatchEvent } from './types.js';

/** etcd's member id and current leader, as seen by one member. */
async function memberStatus(m: EtcdMember): Promise<{ id: string; leader: string }> {
  const c = new Etcd3({ hosts: m.clientUrl });
  try {
    const s = await c.maintenance.status({ deadline: new Date(Date.now() + 5000) });
    return { id: s.header.member_id, leader: s.leader };
  } finally {
    c.close();
  }
}

const skip = etcdSkipReason();
if (skip) {
  test('etcd cluster failover', { skip }, () => undefined);
} else {
  describe('etcd storage on a 3-member cluster', () => {
    let cluster: EtcdServer;
    let storage: EtcdStorage | undefined;
    before(async () => {
      cluster = await startEtcd({ members: 3, fsync: false });
    });
    after(async () => {
      await storage?.close();
      await cluster?.stop();
    });

    it('writes and a watch survive killing a follower, then the member the watch is on', async (t) => {
      const s = (storage = await EtcdStorage.open({ endpoints: cluster.endpoints, compactionIntervalMs: 0, requestTimeoutMs: 20_000 }));
      const ids = new Map<string, EtcdMember>();
      for (const m of cluster.members) ids.set((await memberStatus(m)).id, m);
      const live = (): EtcdMember[] => cluster.members.filter((m) => m.process.exitCode === null && m.process.signalCode === null);
      const leaderOf = async (): Promise<EtcdMember> => ids.get((await memberStatus(live()[0]!)).leader)!;

      const p = `/registry/cluster-${randomBytes(6).toString('hex')}/`;
      const start = await s.currentRevision();
      const watch = s.watch(p, { fromRevision: start });
      const events: WatchEvent[] = [];
      const watching = (async () => {
        for await (const ev of watch) events.push(ev);
      })();
      /** The member serving the watch, once the watch has caught up with the writes (so it is live). */
      const watchMember = async (): Promise<EtcdMember> => {
        const newest = Math.max(start, ...acked.values());
        await waitFor(() => (s.watchStats()[0]?.deliveredRevision ?? 0) >= newest, 'the watch to catch up', 30_000);
        return ids.get(s.watchStats()[0]!.memberId!)!;
      };

      // Writers create distinct keys; a write that fails may or may not have been applied.
      const acked = new Map<string, number>();
      const failed = new Map<string, string>();
      let stop = false;
      const writers = Array.from({ length: 4 }, async (_, wi) => {
        for (let i = 0; !stop; i++) {
          const key = `${p}w${wi}-${String(i).padStart(6, '0')}`;
          try {
            acked.set(key, await s.create(key, new TextEncoder().encode(key)));
          } catch (err) {
            assert.ok(isStorageError(err, 'Unavailable'), `write failed with ${String(err)}`);
            failed.set(key, err.message);
          }
        }
      });
      const moreWrites = async (n: number, what: string): Promise<void> => {
        const target = acked.size + n;
        await waitFor(() => acked.size >= target, `${n} more acknowledged writes ${what}`, 30_000);
      };

      try {
        await moreWrites(200, 'before any failure');
        // 1. A follower dies; prefer the one the watch is on, so the watch must move.
        const leader = await leaderOf();
        const onWatch = await watchMember();
        const follower = onWatch !== leader ? onWatch : cluster.members.find((m) => m !== leader)!;
        t.diagnostic(`killing follower ${follower.name} (watch on ${onWatch.name}, leader ${leader.name})`);
        follower.kill();
        await follower.exited();
        await moreWrites(200, 'after killing a follower');

        // 2. Bring it back, then kill whichever member the watch is on now (possibly the leader).
        await follower.restart();
        await moreWrites(100, 'after the follower came back');
        const victim = await watchMember();
        const reconnects = s.watchStats()[0]!.reconnects;
        t.diagnostic(`killing ${victim.name}, the watch's member (leader ${(await leaderOf()).name})`);
        victim.kill();
        await victim.exited();
        await moreWrites(200, `after killing the watch's member ${victim.name}`);
        await waitFor(() => s.watchStats()[0]!.reconnects > reconnects, 'the watch to reconnect');
      } finally {
        stop = true;
        await Promise.all(writers);
      }

      // Everything written before this marker has reached the watch once the marker has.
      const marker = await s.create(`${p}~end`, new Uint8Array(0));
      await waitFor(() => events.at(-1)?.modRevision === marker, 'the marker event', 30_000);
      const totalReconnects = s.watchStats()[0]!.reconnects;
      watch.close();
      await watching;

      for (let i = 1; i < events.length; i++) {
        assert.ok(events[i]!.modRevision > events[i - 1]!.modRevision, `event ${events[i]!.modRevision} after ${events[i - 1]!.modRevision}`);
      }
      const seen = new Map(events.map((e) => [e.key, e]));
      assert.equal(seen.size, events.length, 'a key was seen twice');
      for (const [key, rev] of acked) {
        assert.equal(seen.get(key)?.modRevision, rev, `acknowledged write ${key}@${rev} not seen by the watch`);
      }
      for (const e of events) {
        assert.equal(e.type, 'put');
        assert.ok(acked.has(e.key) || failed.has(e.key) || e.key === `${p}~end`, `event for ${e.key} that was never written`);
      }
      const listed = await s.list(p);
      assert.deepEqual(
        listed.items.map((kv) => kv.key),
        events.map((e) => e.key).sort(),
        'the store and the watch disagree',
      );
      t.diagnostic(`${acked.size} writes acknowledged, ${failed.size} failed (${[...new Set([...failed.values()].map((m) => m.replace(/create of \S+/, 'create of …')))].join('; ')}), watch reconnects ${totalReconnects}`);
      // Failed writes are allowed, but only as Unavailable and only a handful around each kill.
      assert.ok(failed.size < acked.size / 10, `${failed.size} failed writes vs ${acked.size} acknowledged`);
    });
  });
}
