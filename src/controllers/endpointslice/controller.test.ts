import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import type { EndpointSlice } from '../../api/types.js';
import { rfc3339 } from '../common/time.js';
import { ENDPOINTSLICES } from '../common/services.js';
import { EndpointSliceController } from './controller.js';

const T0 = Date.UTC(2026, 0, 1);

function service(name: string, o: { ports?: unknown[]; clusterIP?: string; publishNotReady?: boolean; selector?: Record<string, string> | null } = {}): KubeObject {
  const spec: Record<string, unknown> = { clusterIP: o.clusterIP ?? '10.96.0.10', ipFamilies: ['IPv4'], ports: o.ports ?? [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }], publishNotReadyAddresses: o.publishNotReady ?? false };
  if (o.selector !== null) spec.selector = o.selector ?? { app: 'web' };
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: rfc3339(T0), labels: { team: 'a' } }, spec };
}

function pod(name: string, ip: string, o: { ready?: boolean; deleting?: boolean; node?: string; ports?: unknown[] } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '1', labels: { app: 'web' }, ...(o.deleting ? { deletionTimestamp: rfc3339(T0) } : {}) },
    spec: { nodeName: o.node ?? 'n1', containers: [{ name: 'c', image: 'x', ports: o.ports ?? [] }] },
    status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: rfc3339(T0) }] },
  };
}

const node = (name: string, zone?: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `uid-${name}`, labels: zone ? { 'topology.kubernetes.io/zone': zone } : {} } });
const pods = (n: number) => Array.from({ length: n }, (_, i) => pod(`p${i}`, `10.1.${Math.floor(i / 250)}.${i % 250}`));

async function setup(objects: KubeObject[], options: Record<string, unknown> = {}) {
  const ctx = fakeControllerContext({ objects: [node('n1', 'zone-a'), ...objects], options });
  const c = new EndpointSliceController(ctx);
  await flush();
  const slices = () => ctx.clientset.tracker.list(ENDPOINTSLICES, 'default') as EndpointSlice[];
  const sync = async () => {
    await c.sync('default/web');
    await flush();
  };
  return { ctx, c, slices, sync };
}

test('endpointslice: slices for the selected pods, packed by --max-endpoints-per-slice', async () => {
  const cases: { name: string; pods: number; max?: number; sizes: number[] }[] = [
    { name: 'no pods: one empty placeholder', pods: 0, sizes: [0] },
    { name: 'few pods: one slice', pods: 3, sizes: [3] },
    { name: '250 pods: 100 + 100 + 50', pods: 250, sizes: [50, 100, 100] },
    { name: '--max-endpoints-per-slice 10', pods: 25, max: 10, sizes: [5, 10, 10] },
  ];
  for (const t of cases) {
    const { slices, sync } = await setup([service('web'), ...pods(t.pods)], t.max ? { maxEndpointsPerSlice: t.max } : {});
    await sync();
    assert.deepEqual(slices().map((s) => (s.endpoints ?? []).length).sort((a, b) => a - b), t.sizes, t.name);
    for (const s of slices()) {
      assert.equal(s.metadata?.generateName, 'web-', t.name);
      assert.deepEqual(s.metadata?.labels, { team: 'a', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' }, t.name);
      assert.deepEqual(s.metadata?.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true }], t.name);
      assert.equal(s.addressType, 'IPv4');
      assert.deepEqual(s.ports, t.pods === 0 ? [] : [{ name: 'http', port: 8080, protocol: 'TCP' }], t.name);
    }
  }
});

test('endpointslice: conditions, zone, node and target of each endpoint', async () => {
  const cases: { name: string; pod: KubeObject; publishNotReady?: boolean; want: Record<string, unknown> | undefined }[] = [
    { name: 'ready', pod: pod('a', '10.0.0.1'), want: { ready: true, serving: true, terminating: false } },
    { name: 'not ready', pod: pod('a', '10.0.0.1', { ready: false }), want: { ready: false, serving: false, terminating: false } },
    { name: 'terminating but serving', pod: pod('a', '10.0.0.1', { deleting: true }), want: { ready: false, serving: true, terminating: true } },
    { name: 'publishNotReadyAddresses', pod: pod('a', '10.0.0.1', { ready: false }), publishNotReady: true, want: { ready: true, serving: false, terminating: false } },
    { name: 'pod on an unknown node is left out', pod: pod('a', '10.0.0.1', { node: 'gone' }), want: undefined },
  ];
  for (const t of cases) {
    const { slices, sync } = await setup([service('web', { publishNotReady: t.publishNotReady }), t.pod]);
    await sync().catch(() => undefined);
    const ep = slices()[0]?.endpoints?.[0];
    if (t.want === undefined) {
      assert.equal(ep, undefined, t.name);
      continue;
    }
    assert.deepEqual(ep, { addresses: ['10.0.0.1'], conditions: t.want, nodeName: 'n1', zone: 'zone-a', targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: 'uid-a' } }, t.name);
  }
});

test('endpointslice: pods whose named port resolves differently go to different slices', async () => {
  const svc = service('web', { ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 'web' }] });
  const { slices, sync } = await setup([svc, pod('a', '10.0.0.1', { ports: [{ name: 'web', containerPort: 8080, protocol: 'TCP' }] }), pod('b', '10.0.0.2', { ports: [{ name: 'web', containerPort: 9090, protocol: 'TCP' }] })]);
  await sync();
  assert.deepEqual(slices().map((s) => s.ports?.[0]?.port).sort(), [8080, 9090]);
});

test('endpointslice: a changed pod updates only its slice; nothing changed writes nothing', async () => {
  const { ctx, slices, sync } = await setup([service('web'), ...pods(250)]);
  await sync();
  const writes = () => ctx.clientset.actions.filter((a) => a.verb === 'create' || a.verb === 'update' || a.verb === 'delete').length;
  let before = writes();
  await sync();
  assert.equal(writes(), before, 'idle sync');
  await ctx.clientset.resource({ group: '', version: 'v1', resource: 'pods' }).delete('default', 'p7');
  await flush();
  before = writes();
  await sync();
  assert.equal(writes() - before, 1, 'one slice updated');
  assert.equal(slices().reduce((n, s) => n + (s.endpoints ?? []).length, 0), 249);
  assert.equal(slices().length, 3);
});

test('endpointslice: Services without selector get no slices from this controller', async () => {
  const { slices, sync } = await setup([service('web', { selector: null }), pod('a', '10.0.0.1')]);
  await sync();
  assert.equal(slices().length, 0);
});
