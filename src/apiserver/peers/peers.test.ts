// The identity Lease and the lease endpoint reconciler on one server's registry, with a clock the
// test moves: renewals, the collection of expired identity Leases, and the endpoints following
// the live master leases (another server's key written straight to storage, as it would).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../server.js';
import { IDENTITY_LABEL, IdentityLeaseController } from './identity-lease.js';
import { LeaseEndpointReconciler, MASTER_LEASES_PREFIX } from './endpoint-reconciler.js';
import { acceptLoopbackApiServers } from '../../registry/kinds/core/endpoints.js';

describe('API server peers', () => {
  let server: ApiServer;
  let now = Date.parse('2026-01-01T00:00:00Z');
  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {} });
  });
  after(() => server.close());
  const leases = () => server.registry.store('coordination.k8s.io', 'leases')!;

  it('keeps an identity Lease as kube-apiserver does, and collects those not renewed within their duration', async () => {
    const mine = new IdentityLeaseController(server.registry, { id: 'apiserver-mine', hostname: 'box', leaseDurationSeconds: 60, now: () => now });
    const gone = new IdentityLeaseController(server.registry, { id: 'apiserver-gone', hostname: 'box', leaseDurationSeconds: 60, now: () => now });
    await mine.renew();
    await gone.renew();
    const lease = await leases().get('kube-system', 'apiserver-mine');
    assert.deepEqual((lease.metadata as { labels: Record<string, string> }).labels, { [IDENTITY_LABEL]: 'kube-apiserver', 'kubernetes.io/hostname': 'box' });
    const spec = lease.spec as { holderIdentity: string; leaseDurationSeconds: number; renewTime: string };
    assert.match(spec.holderIdentity, /^apiserver-mine_[0-9a-f-]{36}$/);
    assert.equal(spec.leaseDurationSeconds, 60);
    assert.equal(spec.renewTime, '2026-01-01T00:00:00.000000Z');
    now += 30_000;
    await mine.renew();
    assert.deepEqual(await mine.collect(), []);
    now += 31_000; // `gone` last renewed 61 s ago, `mine` 31 s ago
    assert.deepEqual(await mine.collect(), ['apiserver-gone']);
    await assert.rejects(leases().get('kube-system', 'apiserver-gone'), { code: 404 });
    assert.equal(((await leases().get('kube-system', 'apiserver-mine')).spec as { renewTime: string }).renewTime, '2026-01-01T00:00:30.000000Z');
  });

  it('lists every live API server in the kubernetes endpoints, and drops one whose master lease expired or that stopped', async () => {
    acceptLoopbackApiServers(true);
    try {
      const a = new LeaseEndpointReconciler(server.registry, server.storage, { ip: '127.0.0.1', port: 6443, leaseTtlMs: 15_000, now: () => now });
      const b = new LeaseEndpointReconciler(server.registry, server.storage, { ip: '127.0.0.2', port: 6443, leaseTtlMs: 15_000, now: () => now });
      const c = new LeaseEndpointReconciler(server.registry, server.storage, { ip: '127.0.0.3', port: 6443, leaseTtlMs: 15_000, now: () => now });
      const endpoints = async () => {
        const ep = await server.registry.store('', 'endpoints')!.get('default', 'kubernetes');
        const slice = await server.registry.store('discovery.k8s.io', 'endpointslices')!.get('default', 'kubernetes');
        const ips = ((ep.subsets ?? []) as Array<{ addresses: Array<{ ip: string }> }>).flatMap((s) => s.addresses.map((x) => x.ip));
        assert.deepEqual((slice.endpoints as Array<{ addresses: string[] }>).map((e) => e.addresses[0]), ips);
        return ips;
      };
      await c.reconcile();
      await b.reconcile();
      await a.reconcile();
      assert.deepEqual(await endpoints(), ['127.0.0.1', '127.0.0.2', '127.0.0.3']);
      now += 10_000;
      await a.reconcile();
      await b.reconcile();
      now += 10_000; // c last renewed 20 s ago
      await a.reconcile();
      assert.deepEqual(await endpoints(), ['127.0.0.1', '127.0.0.2']);
      assert.deepEqual((await server.storage.list(MASTER_LEASES_PREFIX)).items.map((kv) => kv.key), [`${MASTER_LEASES_PREFIX}127.0.0.1`, `${MASTER_LEASES_PREFIX}127.0.0.2`]);
      await b.stop();
      assert.deepEqual(await endpoints(), ['127.0.0.1']);
    } finally {
      acceptLoopbackApiServers(false);
    }
  });
});
