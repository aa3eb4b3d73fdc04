// The conformance suite against one real etcd (tmpfs, fsync free) started for this file; every
// test uses its own key prefix, so they share the member.
import { after, before, describe, test } from 'node:test';
import { etcdSkipReason, startEtcd, type EtcdServer } from '../../test/support/etcd-server.js';
import { describeConformance } from './conformance.js';
import { EtcdStorage } from './etcd/etcd-storage.js';

const skip = etcdSkipReason();
if (skip) {
  test('etcd storage conformance', { skip }, () => undefined);
} else {
  describe('etcd', () => {
    let server: EtcdServer;
    before(async () => {
      server = await startEtcd({ fsync: false });
    });
    after(async () => {
      await server?.stop();
    });
    describeConformance('etcd', async (opts) =>
      EtcdStorage.open({ endpoints: server.endpoints, watchBuffer: opts.watchBuffer, compactionIntervalMs: 0 }),
    );
  });
}
