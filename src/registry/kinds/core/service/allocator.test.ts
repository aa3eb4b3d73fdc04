import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { KubeObject } from '../../../../api/schema/kind.js';
import { StatusError } from '../../../../machinery/status.js';
import { MemoryStorage } from '../../../../storage/memory.js';
import { Registry } from '../../../registry.js';

const registries: Registry[] = [];
after(async () => {
  for (const r of registries) await r.stop();
});

async function services() {
  const registry = new Registry({
    storage: new MemoryStorage(),
  });
  registries.push(registry);
  await registry.start();
  await registry.store('', 'namespaces')!.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  return registry.store('', 'services')!;
}

const svc = (name: string, spec: KubeObject): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { type: 'ClusterIP', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], sessionAffinity: 'None', ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'], internalTrafficPolicy: 'Cluster', ...spec },
});

test('services get distinct cluster IPs, node ports and health-check ports; taken addresses are refused', async () => {
  const store = await services();
  const ips = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const s = await store.create('ns', svc(`s${i}`, { type: 'ClusterIP' }));
    const spec = s.spec as KubeObject;
    assert.match(String(spec.clusterIP), /^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    assert.deepEqual(spec.clusterIPs, [spec.clusterIP]);
    assert.notEqual(spec.clusterIP, '10.96.0.1', 'reserved for the kubernetes service');
    ips.add(String(spec.clusterIP));
  }
  assert.equal(ips.size, 20);
  const lb = await store.create('ns', svc('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', allocateLoadBalancerNodePorts: true }));
  const lbSpec = lb.spec as { ports: Array<{ nodePort: number }>; healthCheckNodePort: number };
  assert.ok(lbSpec.ports[0]!.nodePort >= 30000 && lbSpec.ports[0]!.nodePort <= 32767);
  assert.ok(lbSpec.healthCheckNodePort >= 30000 && lbSpec.healthCheckNodePort !== lbSpec.ports[0]!.nodePort);
  const headless = await store.create('ns', svc('headless', { clusterIP: 'None' }));
  assert.equal((headless.spec as KubeObject).clusterIP, 'None');
  const taken = [...ips][0]!;
  await assert.rejects(store.create('ns', svc('dup', { clusterIP: taken })), (err: unknown) => {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 422);
    assert.match(err.message, /provided IP is already allocated/);
    return true;
  });
  await assert.rejects(store.create('ns', svc('far', { clusterIP: '192.168.0.10' })), /not in the valid range/);
  await assert.rejects(store.create('ns', svc('np', { type: 'NodePort', externalTrafficPolicy: 'Cluster', ports: [{ port: 81, protocol: 'TCP', targetPort: 81, nodePort: lbSpec.ports[0]!.nodePort }] })), /provided port is already allocated/);
  // Updating a service keeps its addresses.
  const updated = await store.update('ns', 'lb', { ...lb, metadata: { ...(lb.metadata as KubeObject), labels: { a: 'b' } } });
  assert.deepEqual((updated.object.spec as KubeObject).ports, lbSpec.ports);
});
