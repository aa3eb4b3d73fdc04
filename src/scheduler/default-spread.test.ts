import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Store } from '../client/cache.js';
import type { Pod } from '../api/types.js';
import { DefaultSpreads } from './default-spread.js';
import { newPodInfo } from './model.js';

const pod = (name: string, labels: Record<string, string>, namespace = 'default'): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels }, spec: { containers: [{ name: 'c', image: 'x' }] } });

describe('DefaultSpreads: the system default constraints, once per label set', () => {
  it('pods nothing selects have none; a ReplicaSet selecting them brings hostname and zone constraints after forget()', () => {
    const services = new Store();
    const replicaSets = new Store();
    const spreads = new DefaultSpreads(services, [replicaSets, new Store()]);
    const a = newPodInfo(pod('a', { app: 'web' }));
    assert.equal(spreads.of(a), null);
    replicaSets.set({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } } } });
    assert.equal(spreads.of(a), null, 'remembered until told the workloads changed');
    spreads.forget();
    const made = spreads.of(a)!;
    assert.deepEqual(made.map((c) => [c.topologyKey, c.maxSkew, c.whenUnsatisfiable]), [['kubernetes.io/hostname', 3, 'ScheduleAnyway'], ['topology.kubernetes.io/zone', 5, 'ScheduleAnyway']]);
    assert.equal(made[0]!.matches({ app: 'web', 'pod-template-hash': 'h' }), true);
    assert.equal(made[0]!.matches({ app: 'db' }), false);
    assert.equal(spreads.of(newPodInfo(pod('b', { app: 'web' }))), made, 'a pod with the same labels shares them');
    assert.equal(spreads.of(newPodInfo(pod('c', { app: 'web' }, 'other'))), null, 'another namespace has its own');
  });

  it('a Service selecting the pod narrows the selection to the pods it also selects', () => {
    const services = new Store();
    services.set({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', namespace: 'default' }, spec: { selector: { app: 'web', tier: 'front' } } });
    const spreads = new DefaultSpreads(services, []);
    const [host] = spreads.of(newPodInfo(pod('a', { app: 'web', tier: 'front', x: '1' })))!;
    assert.equal(host!.matches({ app: 'web', tier: 'front' }), true);
    assert.equal(host!.matches({ app: 'web' }), false);
    assert.equal(spreads.of(newPodInfo(pod('b', { app: 'web' }))), null, 'the Service does not select it');
  });
});
