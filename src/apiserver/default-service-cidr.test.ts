// The default ServiceCIDR at start: created with the service range and made Ready; a second run
// changes nothing; a ServiceCIDR that does not match, or whose Ready condition another component
// set, is left as it is (kube-apiserver only reports those).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../api/schema/kind.js';
import { ensureDefaultServiceCIDR } from './default-service-cidr.js';
import { startApiServer, type ApiServer } from './server.js';

describe('the default ServiceCIDR', () => {
  let server: ApiServer;
  const store = () => server.registry.store('networking.k8s.io', 'servicecidrs')!;
  const get = async () => (await store().get('', 'kubernetes')) as any;
  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {} });
  });
  after(() => server.close());

  it('holds the service range and is Ready; ensuring it again writes nothing', async () => {
    const first = await get();
    assert.deepEqual(first.spec.cidrs, ['10.96.0.0/12']);
    assert.deepEqual(first.status.conditions.map((c: KubeObject) => [c.type, c.status, c.message]), [['Ready', 'True', 'Kubernetes default Service CIDR is ready']]);
    await ensureDefaultServiceCIDR(server.registry);
    assert.equal((await get()).metadata.resourceVersion, first.metadata.resourceVersion);
  });

  it('leaves a Ready=False condition, and a range that differs from the configured one', async () => {
    await store().guaranteedUpdate('', 'kubernetes', (cur) => ({ ...cur, status: { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Broken', message: 'no' }] } }), { subresource: 'status' });
    await ensureDefaultServiceCIDR(server.registry);
    assert.equal((await get()).status.conditions[0].status, 'False');
    await store().delete('', 'kubernetes');
    await ensureDefaultServiceCIDR(server.registry, ['10.200.0.0/16']);
    assert.deepEqual((await get()).spec.cidrs, ['10.200.0.0/16']);
    await store().guaranteedUpdate('', 'kubernetes', (cur) => ({ ...cur, status: {} }), { subresource: 'status' });
    await ensureDefaultServiceCIDR(server.registry);
    assert.deepEqual((await get()).spec.cidrs, ['10.200.0.0/16']);
    assert.deepEqual((await get()).status, {});
  });
});
