import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import type { EndpointSlice } from '../../api/types.js';
import { ENDPOINTSLICES } from '../common/services.js';
import { EndpointSliceMirroringController } from './controller.js';

const service = (selector?: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext', namespace: 'default', uid: 'uid-svc' }, spec: { clusterIP: '10.96.0.20', ports: [{ port: 80 }], ...(selector ? { selector } : {}) } });
const endpoints = (o: { labels?: Record<string, string>; annotations?: Record<string, string>; ready?: string[]; notReady?: string[] } = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { name: 'ext', namespace: 'default', uid: 'uid-ep', labels: o.labels ?? { team: 'a' }, annotations: o.annotations ?? {} },
  subsets: [{ addresses: (o.ready ?? ['192.0.2.1']).map((ip) => ({ ip })), notReadyAddresses: (o.notReady ?? []).map((ip) => ({ ip })), ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }],
});

async function mirror(objects: KubeObject[], options: Record<string, unknown> = {}) {
  const ctx = fakeControllerContext({ objects, options });
  const c = new EndpointSliceMirroringController(ctx);
  await flush();
  await c.sync('default/ext');
  await flush();
  return { ctx, c, slices: ctx.clientset.tracker.list(ENDPOINTSLICES, 'default') as EndpointSlice[] };
}

test('mirroring: which Endpoints are mirrored', async () => {
  const cases: { name: string; objects: KubeObject[]; slices: number }[] = [
    { name: 'Service without selector', objects: [service(), endpoints()], slices: 1 },
    { name: 'Service with selector', objects: [service({ app: 'x' }), endpoints()], slices: 0 },
    { name: 'no Service', objects: [endpoints()], slices: 0 },
    { name: 'skip-mirror label', objects: [service(), endpoints({ labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } })], slices: 0 },
    { name: 'leader-election lock', objects: [service(), endpoints({ annotations: { 'control-plane.alpha.kubernetes.io/leader': '{}' } })], slices: 0 },
  ];
  for (const t of cases) assert.equal((await mirror(t.objects)).slices.length, t.slices, t.name);
});

test('mirroring: the slice mirrors addresses, ports, labels and annotations', async () => {
  const { slices } = await mirror([service(), endpoints({ ready: ['192.0.2.1'], notReady: ['192.0.2.2', '2001:db8::1'], annotations: { note: 'x', 'endpoints.kubernetes.io/last-change-trigger-time': 't' } })]);
  const v4 = slices.find((s) => s.addressType === 'IPv4')!;
  assert.equal(slices.length, 2);
  assert.deepEqual(v4.endpoints, [{ addresses: ['192.0.2.1'], conditions: { ready: true } }, { addresses: ['192.0.2.2'], conditions: { ready: false } }]);
  assert.deepEqual(v4.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  assert.deepEqual(v4.metadata?.labels, { team: 'a', 'kubernetes.io/service-name': 'ext', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io' });
  assert.deepEqual(v4.metadata?.annotations, { note: 'x' });
  assert.deepEqual(v4.metadata?.ownerReferences, [{ apiVersion: 'v1', kind: 'Endpoints', name: 'ext', uid: 'uid-ep', controller: true, blockOwnerDeletion: true }]);
});

test('mirroring: at most --mirroring-max-endpoints-per-subset addresses, with a warning', async () => {
  const { slices, ctx } = await mirror([service(), endpoints({ ready: ['192.0.2.1', '192.0.2.2', '192.0.2.3'] })], { mirroringMaxEndpointsPerSubset: 2 });
  assert.equal(slices[0]!.endpoints!.length, 2);
  assert.ok(ctx.events.some((e) => e.reason === 'TooManyAddressesToMirror'));
});

test('mirroring: slices go when the Service gains a selector; an unchanged sync writes nothing', async () => {
  const { ctx, c } = await mirror([service(), endpoints()]);
  const writes = () => ctx.clientset.actions.filter((a) => a.verb === 'create' || a.verb === 'update' || a.verb === 'delete').length;
  const before = writes();
  await c.sync('default/ext');
  assert.equal(writes(), before);
  await ctx.clientset.resource({ group: '', version: 'v1', resource: 'services' }).update('default', service({ app: 'x' }));
  await flush();
  await c.sync('default/ext');
  assert.equal(ctx.clientset.tracker.list(ENDPOINTSLICES, 'default').length, 0);
});
