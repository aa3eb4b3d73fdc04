// What kube-apiserver creates for itself: the system PriorityClasses, and for a server with a
// routable address the `kubernetes` Endpoints and EndpointSlice (kept up to date across restarts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelsOf } from '../api/meta/object.js';
import { Registry } from '../registry/registry.js';
import { MemoryStorage } from '../storage/memory.js';
import { bootstrapSystemObjects, ensureLegacyTokenTracking, LEGACY_TOKEN_TRACKING_CONFIG_MAP } from './bootstrap.js';

describe('bootstrapSystemObjects', () => {
  it('creates the system PriorityClasses and the kubernetes EndpointSlice, and updates the address on restart', async () => {
    const registry = new Registry({ storage: new MemoryStorage() });
    await registry.start();
    try {
      await bootstrapSystemObjects(registry, { ip: '10.1.2.3', port: 6443 });
      const pcs = registry.store('scheduling.k8s.io', 'priorityclasses')!;
      const node = await pcs.get('', 'system-node-critical');
      assert.deepEqual([node.value, node.globalDefault, node.preemptionPolicy], [2000001000, undefined, 'PreemptLowerPriority']);
      assert.equal((await pcs.get('', 'system-cluster-critical')).value, 2000000000);
      const slices = registry.store('discovery.k8s.io', 'endpointslices')!;
      const slice = await slices.get('default', 'kubernetes');
      assert.deepEqual(labelsOf(slice), { 'kubernetes.io/service-name': 'kubernetes' });
      assert.equal(slice.addressType, 'IPv4');
      assert.deepEqual(slice.endpoints, [{ addresses: ['10.1.2.3'], conditions: { ready: true } }]);
      assert.deepEqual(slice.ports, [{ name: 'https', protocol: 'TCP', port: 6443 }]);

      await bootstrapSystemObjects(registry, { ip: '10.1.2.4', port: 6444 });
      const moved = await slices.get('default', 'kubernetes');
      assert.deepEqual(moved.endpoints, [{ addresses: ['10.1.2.4'], conditions: { ready: true } }]);
      assert.equal((moved.metadata as { generation?: number }).generation, 2);
      const endpoints = await registry.store('', 'endpoints')!.get('default', 'kubernetes');
      assert.deepEqual(endpoints.subsets, [{ addresses: [{ ip: '10.1.2.4' }], ports: [{ name: 'https', port: 6444, protocol: 'TCP' }] }]);
    } finally {
      await registry.stop();
    }
  });

  it('gives a loopback server no Endpoints and no EndpointSlice (validation forbids loopback addresses)', async () => {
    const registry = new Registry({ storage: new MemoryStorage() });
    await registry.start();
    try {
      await bootstrapSystemObjects(registry, { ip: '127.0.0.1', port: 6443 });
      await assert.rejects(registry.store('discovery.k8s.io', 'endpointslices')!.get('default', 'kubernetes'), /not found/);
      assert.equal((await registry.store('scheduling.k8s.io', 'priorityclasses')!.get('', 'system-node-critical')).value, 2000001000);
    } finally {
      await registry.stop();
    }
  });

  it('records since when legacy token use is tracked, keeps a valid date, and repairs one that is not', async () => {
    const registry = new Registry({ storage: new MemoryStorage() });
    await registry.start();
    try {
      const cms = registry.store('', 'configmaps')!;
      const since = async () => ((await cms.get('kube-system', LEGACY_TOKEN_TRACKING_CONFIG_MAP)).data as Record<string, string>).since;
      await ensureLegacyTokenTracking(registry, Date.parse('2026-03-04T05:06:07Z'));
      assert.equal(await since(), '2026-03-04');
      await ensureLegacyTokenTracking(registry, Date.parse('2026-05-01T00:00:00Z'));
      assert.equal(await since(), '2026-03-04', 'kept');
      await cms.guaranteedUpdate('kube-system', LEGACY_TOKEN_TRACKING_CONFIG_MAP, (cur) => ({ ...cur, data: { since: 'yesterday' } }));
      await ensureLegacyTokenTracking(registry, Date.parse('2026-05-01T00:00:00Z'));
      assert.equal(await since(), '2026-05-01', 'repaired');
    } finally {
      await registry.stop();
    }
  });
});
