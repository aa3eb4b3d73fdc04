import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { KubeObject } from '../../../../api/schema/kind.js';
import { StatusError } from '../../../../machinery/status.js';
import { MemoryStorage } from '../../../../storage/memory.js';
import { Registry } from '../../../registry.js';
import type { Store } from '../../../store.js';

const registries: Registry[] = [];
after(async () => {
  for (const r of registries) await r.stop();
});

/** The services of an API server on `storage` (a new one: a server of its own), with namespace `ns`. */
async function services(storage = new MemoryStorage(), createNamespace = true) {
  const registry = new Registry({ storage });
  registries.push(registry);
  await registry.start();
  if (createNamespace) await registry.store('', 'namespaces')!.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
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

/** Math.random answering `value` for its next `calls` calls (the allocator probes at random). */
async function withRandom<T>(value: number, calls: number, run: () => Promise<T>): Promise<T> {
  const random = Math.random;
  let left = calls;
  Math.random = () => (left-- > 0 ? value : random());
  try {
    return await run();
  } finally {
    Math.random = random;
  }
}

/** Waits until the store's watch cache holds what `ok` wants of service `name` (undefined: absent). */
async function cacheSees(store: Store, name: string, ok: (o: KubeObject | undefined) => boolean): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    let o: KubeObject | undefined;
    try {
      o = JSON.parse(new TextDecoder().decode(store.getCached('ns', name).json)) as KubeObject;
    } catch {
      o = undefined;
    }
    if (ok(o)) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`the cache never showed the change of ${name}`);
}

const nodePortOf = (s: KubeObject) => (s.spec as { ports: Array<{ nodePort: number }> }).ports[0]!.nodePort;
const nodePortService = (name: string, nodePort?: number) =>
  svc(name, { type: 'NodePort', externalTrafficPolicy: 'Cluster', ports: [{ port: 80, protocol: 'TCP', targetPort: 80, ...(nodePort === undefined ? {} : { nodePort }) }] });

test('two API servers on one storage never hand out the same address, even when both pick it at once', async () => {
  const storage = new MemoryStorage();
  const a = await services(storage);
  const b = await services(storage, false);
  // Both probe the same cluster IP and node port first; neither's cache has seen the other's write.
  const [x, y] = await withRandom(0.5, 4, () => Promise.all([a.create('ns', nodePortService('x')), b.create('ns', nodePortService('y'))]));
  assert.notEqual((x.spec as KubeObject).clusterIP, (y.spec as KubeObject).clusterIP);
  assert.notEqual(nodePortOf(x), nodePortOf(y));
  // Asked for by name on the other server at once, the port is refused there as taken.
  await assert.rejects(b.create('ns', nodePortService('z', nodePortOf(x))), /provided port is already allocated/);
});

test('a deleted service\'s node port can be asked for again at once, on any API server', async () => {
  const storage = new MemoryStorage();
  const a = await services(storage);
  const b = await services(storage, false);
  const x = await a.create('ns', nodePortService('x'));
  const port = nodePortOf(x);
  await a.delete('ns', 'x');
  // (each server's own check, against its cache, passes once that cache has seen the change)
  await cacheSees(b, 'x', (o) => o === undefined);
  const again = await b.create('ns', nodePortService('again', port));
  assert.equal(nodePortOf(again), port);
  // A port dropped by an update is free again too.
  const moved = await b.update('ns', 'again', { ...again, spec: { ...(again.spec as KubeObject), type: 'ClusterIP', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] } });
  assert.equal((moved.object.spec as { ports: Array<{ nodePort?: number }> }).ports[0]!.nodePort, undefined);
  await cacheSees(a, 'again', (o) => (o?.spec as KubeObject | undefined)?.type === 'ClusterIP');
  const third = await a.create('ns', nodePortService('third', port));
  assert.equal(nodePortOf(third), port);
});
