import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import type { EndpointSubset, Endpoints } from '../../api/types.js';
import { rfc3339 } from '../common/time.js';
import { ENDPOINTS } from '../common/services.js';
import { EndpointsController } from './controller.js';
import { repackSubsets, truncateSubsets } from './subsets.js';

const T0 = Date.UTC(2026, 0, 1);

function service(name: string, o: { selector?: Record<string, string> | null; ports?: unknown[]; clusterIP?: string; publishNotReady?: boolean; labels?: Record<string, string> } = {}): KubeObject {
  const spec: Record<string, unknown> = {
    clusterIP: o.clusterIP ?? '10.96.0.10',
    ports: o.ports ?? [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }],
    ipFamilies: ['IPv4'],
    publishNotReadyAddresses: o.publishNotReady ?? false,
  };
  if (o.selector !== null) spec.selector = o.selector ?? { app: 'web' };
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: rfc3339(T0 - 3_600_000), labels: o.labels ?? { team: 'a' } }, spec };
}

function pod(name: string, ip: string, o: { ready?: boolean; deleting?: boolean; phase?: string; hostname?: string; subdomain?: string; ports?: unknown[]; labels?: Record<string, string> } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '1', labels: o.labels ?? { app: 'web' }, ...(o.deleting ? { deletionTimestamp: rfc3339(T0) } : {}) },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x', ports: o.ports ?? [] }], ...(o.hostname ? { hostname: o.hostname } : {}), ...(o.subdomain ? { subdomain: o.subdomain } : {}) },
    status: { phase: o.phase ?? 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: rfc3339(T0) }] },
  };
}

async function syncOnce(objects: KubeObject[], key = 'default/web', options: Record<string, unknown> = {}) {
  const ctx = fakeControllerContext({ objects, options });
  const c = new EndpointsController(ctx);
  await flush();
  await c.sync(key);
  await flush();
  const ep = ctx.clientset.tracker.get(ENDPOINTS, 'default', key.split('/')[1]!) as Endpoints | undefined;
  return { ctx, c, ep };
}

const addr = (ip: string, name: string, extra: Record<string, unknown> = {}) => ({ ip, nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'default', name, uid: `uid-${name}` }, ...extra });

test('endpoints: subsets from the selected pods, as the endpoints controller writes them', async () => {
  const cases: { name: string; objects: KubeObject[]; subsets: EndpointSubset[] | undefined; labels?: Record<string, string> }[] = [
    {
      name: 'ready and not-ready pods share a subset, ports resolved',
      objects: [service('web'), pod('a', '10.0.0.2'), pod('b', '10.0.0.1', { ready: false }), pod('other', '10.0.0.9', { labels: { app: 'db' } })],
      subsets: [{ addresses: [addr('10.0.0.2', 'a')], notReadyAddresses: [addr('10.0.0.1', 'b')], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }],
      labels: { team: 'a' },
    },
    {
      name: 'publishNotReadyAddresses: every pod ready, terminating ones too',
      objects: [service('web', { publishNotReady: true }), pod('a', '10.0.0.2', { ready: false }), pod('b', '10.0.0.1', { deleting: true })],
      subsets: [{ addresses: [addr('10.0.0.1', 'b'), addr('10.0.0.2', 'a')], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }],
    },
    {
      name: 'terminating and finished pods are left out',
      objects: [service('web'), pod('a', '10.0.0.2', { deleting: true }), pod('b', '10.0.0.3', { phase: 'Succeeded' }), pod('c', '10.0.0.4')],
      subsets: [{ addresses: [addr('10.0.0.4', 'c')], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }],
    },
    {
      name: 'named target port resolved per pod: pods with different numbers get different subsets, a pod without it none',
      objects: [
        service('web', { ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 'web' }] }),
        pod('a', '10.0.0.1', { ports: [{ name: 'web', containerPort: 8080, protocol: 'TCP' }] }),
        pod('b', '10.0.0.2', { ports: [{ name: 'web', containerPort: 9090, protocol: 'TCP' }] }),
        pod('c', '10.0.0.3'),
      ],
      subsets: [
        { addresses: [addr('10.0.0.1', 'a')], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] },
        { addresses: [addr('10.0.0.2', 'b')], ports: [{ name: 'http', port: 9090, protocol: 'TCP' }] },
      ],
    },
    {
      name: 'headless without ports: addresses with hostname (subdomain = service), the headless label',
      objects: [service('web', { clusterIP: 'None', ports: [] }), pod('a', '10.0.0.1', { hostname: 'a', subdomain: 'web' })],
      subsets: [{ addresses: [addr('10.0.0.1', 'a', { hostname: 'a' })] }],
      labels: { team: 'a', 'service.kubernetes.io/headless': '' },
    },
    { name: 'no pods: empty subsets', objects: [service('web')], subsets: [] },
  ];
  for (const c of cases) {
    const { ep } = await syncOnce(c.objects);
    assert.ok(ep, c.name);
    assert.deepEqual(ep.subsets ?? [], c.subsets, c.name);
    if (c.labels) assert.deepEqual(ep.metadata?.labels, c.labels, c.name);
    // The first sync's trigger: the earliest new time, the Service's creation.
    assert.equal(ep.metadata?.annotations?.['endpoints.kubernetes.io/last-change-trigger-time'], rfc3339(T0 - 3_600_000), c.name);
  }
});

test('endpoints: a Service without selector keeps its user-managed Endpoints; a deleted Service loses them', async () => {
  const userEp = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'ext', namespace: 'default', resourceVersion: '5' }, subsets: [{ addresses: [{ ip: '192.0.2.1' }] }] };
  const { ctx, c } = await syncOnce([service('ext', { selector: null }), userEp], 'default/ext');
  assert.deepEqual((ctx.clientset.tracker.get(ENDPOINTS, 'default', 'ext') as Endpoints).subsets, userEp.subsets);
  assert.equal(ctx.clientset.actions.filter((a) => a.verb !== 'list' && a.verb !== 'watch').length, 0);
  await ctx.clientset.resource({ group: '', version: 'v1', resource: 'services' }).delete('default', 'ext');
  await flush();
  await c.sync('default/ext');
  assert.equal(ctx.clientset.tracker.get(ENDPOINTS, 'default', 'ext'), undefined);
});

test('endpoints: a second sync with nothing changed writes nothing', async () => {
  const { ctx, c } = await syncOnce([service('web'), pod('a', '10.0.0.1')]);
  const writes = () => ctx.clientset.actions.filter((a) => a.verb === 'create' || a.verb === 'update').length;
  const before = writes();
  await c.sync('default/web');
  assert.equal(writes(), before);
});

test('endpoints: over 1,000 addresses are truncated and annotated', async () => {
  const pods = Array.from({ length: 1005 }, (_, i) => pod(`p${i}`, `10.1.${Math.floor(i / 250)}.${i % 250}`, { ready: i % 2 === 0 }));
  const { ep } = await syncOnce([service('web'), ...pods]);
  const subsets = ep!.subsets ?? [];
  const ready = subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0);
  const notReady = subsets.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0);
  assert.equal(ready, 503);
  assert.equal(ready + notReady, 1000);
  assert.equal(ep!.metadata?.annotations?.['endpoints.kubernetes.io/over-capacity'], 'truncated');
});

test('repackSubsets: addresses grouped by port sets, ready wins over not ready', () => {
  const a = { ip: '10.0.0.1' };
  const b = { ip: '10.0.0.2' };
  const p80 = { name: 'a', port: 80, protocol: 'TCP' };
  const p90 = { name: 'b', port: 90, protocol: 'TCP' };
  assert.deepEqual(
    repackSubsets([
      { addresses: [a], ports: [p80] },
      { notReadyAddresses: [a], ports: [p80] },
      { addresses: [a], ports: [p90] },
      { notReadyAddresses: [b], ports: [p90] },
    ]),
    [
      { addresses: [a], notReadyAddresses: [b], ports: [p90] },
      { addresses: [a], ports: [p80] },
    ],
  );
});

test('truncateSubsets: ready addresses first, not-ready ones share what is left proportionally', () => {
  const ips = (n: number, base: string) => Array.from({ length: n }, (_, i) => ({ ip: `${base}.${i}` }));
  const subsets: EndpointSubset[] = [
    { addresses: ips(600, '10.0.0'), notReadyAddresses: ips(300, '10.0.1') },
    { addresses: ips(200, '10.0.2'), notReadyAddresses: ips(100, '10.0.3') },
  ];
  assert.equal(truncateSubsets(subsets), true);
  assert.deepEqual(subsets.map((s) => [s.addresses!.length, s.notReadyAddresses!.length]), [[600, 150], [200, 50]]);
  assert.equal(truncateSubsets([{ addresses: ips(10, '10.0.0') }]), false);
});
