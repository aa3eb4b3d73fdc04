// A Service's endpoints on `kubelite up` (2 simulated nodes), seen through real kubectl: the
// EndpointSlice and the Endpoints follow the selected pods as they become ready, stay not ready,
// terminate and go; `kubectl describe service` lists them; a user-managed Endpoints object (a Service
// without selector) is mirrored into a slice; the API server's `kubernetes` Service is left alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

interface Slice {
  metadata: { name: string; labels: Record<string, string>; ownerReferences?: Array<{ kind: string; name: string }> };
  addressType: string;
  ports: Array<{ name: string; port: number; protocol: string }> | null;
  endpoints: Array<{ addresses: string[]; conditions: { ready: boolean; serving?: boolean; terminating?: boolean }; targetRef?: { name: string }; nodeName?: string }> | null;
}
interface Endpoints {
  metadata: { annotations?: Record<string, string> };
  subsets?: Array<{ addresses?: Array<{ ip: string; targetRef?: { name: string } }>; notReadyAddresses?: Array<{ ip: string; targetRef?: { name: string } }>; ports?: Array<{ port: number }> }>;
}

let cluster: Cluster;
const NS = 'endpoints-e2e';
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, args, { input });
const slicesOf = async (svc: string, ns = NS) => (JSON.parse(await k(['-n', ns, 'get', 'endpointslices', '-l', `kubernetes.io/service-name=${svc}`, '-o', 'json'])) as { items: Slice[] }).items;
const endpointsOf = async (svc: string) => JSON.parse(await k(['-n', NS, 'get', 'endpoints', svc, '-o', 'json'])) as Endpoints;
const byPod = (slices: Slice[]) => new Map(slices.flatMap((s) => s.endpoints ?? []).map((e) => [e.targetRef?.name ?? '', e]));

const manifest = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: http}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
      annotations:
        kubelite.dev/stop-seconds: "4"
    spec:
      containers:
      - name: web
        image: nginx
        ports:
        - {name: http, containerPort: 8080}
---
apiVersion: v1
kind: Pod
metadata:
  name: lame
  labels: {app: web}
  annotations:
    kubelite.dev/never-ready: "true"
spec:
  containers:
  - name: web
    image: nginx
    ports:
    - {name: http, containerPort: 8080}
`;

describe('kubelite up: Service endpoints through kubectl', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 2 });
    await k(['create', 'namespace', NS]);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('the EndpointSlice and Endpoints follow pods becoming ready and terminating; describe shows them', async () => {
    await k(['-n', NS, 'apply', '-f', '-'], manifest);
    const ready = await waitFor(async () => {
      const eps = byPod(await slicesOf('web'));
      const readyPods = [...eps.entries()].filter(([, e]) => e.conditions.ready);
      return readyPods.length === 2 && eps.get('lame') ? eps : undefined;
    }, 'two ready endpoints and a not-ready one');
    assert.deepEqual(ready.get('lame')!.conditions, { ready: false, serving: false, terminating: false });
    const slices = await slicesOf('web');
    assert.equal(slices.length, 1);
    assert.equal(slices[0]!.metadata.labels['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
    assert.deepEqual(slices[0]!.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
    assert.equal(slices[0]!.metadata.ownerReferences?.[0]?.kind, 'Service');

    const ep = await waitFor(async () => {
      const e = await endpointsOf('web');
      const s = e.subsets?.[0];
      return s?.addresses?.length === 2 && s.notReadyAddresses?.length === 1 ? e : undefined;
    }, 'Endpoints with 2 ready and 1 not-ready address');
    assert.deepEqual(ep.subsets![0]!.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
    assert.equal(ep.subsets![0]!.notReadyAddresses![0]!.targetRef?.name, 'lame');
    // Present only when the last sync saw a newer Ready transition (cleared otherwise, as Kubernetes
    // does; the unit tests pin its value): when there, an RFC 3339 time.
    const trigger = ep.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time'];
    if (trigger !== undefined) assert.match(trigger, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

    const ips = ep.subsets![0]!.addresses!.map((a) => a.ip);
    const describe = await k(['-n', NS, 'describe', 'service', 'web']);
    for (const ip of ips) assert.match(describe, new RegExp(`Endpoints:.*${ip.replace(/\./g, '\\.')}:8080`), describe);

    // A terminating pod stays in the slice as terminating (serving while ready) and leaves the Endpoints.
    const victim = [...ready.entries()].find(([name, e]) => name !== 'lame' && e.conditions.ready)![0];
    await k(['-n', NS, 'delete', 'pod', victim, '--wait=false']);
    const terminating = await waitFor(async () => {
      const e = byPod(await slicesOf('web')).get(victim);
      return e?.conditions.terminating ? e : undefined;
    }, 'the deleted pod as a terminating endpoint');
    assert.equal(terminating.conditions.ready, false);
    await waitFor(async () => !(await endpointsOf('web')).subsets?.some((s) => [...(s.addresses ?? []), ...(s.notReadyAddresses ?? [])].some((a) => a.targetRef?.name === victim)), 'the terminating pod out of the Endpoints');
    await waitFor(async () => !byPod(await slicesOf('web')).has(victim), 'the deleted pod gone from the slice');
    // Its replacement becomes ready in its place.
    await waitFor(async () => [...byPod(await slicesOf('web')).values()].filter((e) => e.conditions.ready).length === 2, 'the replacement ready');
  });

  it('a user-managed Endpoints object is mirrored; the kubernetes Service is left to the API server', async () => {
    await k(['-n', NS, 'apply', '-f', '-'], `apiVersion: v1
kind: Service
metadata:
  name: ext
spec:
  ports:
  - {name: db, port: 5432}
---
apiVersion: v1
kind: Endpoints
metadata:
  name: ext
subsets:
- addresses: [{ip: 192.0.2.10}]
  notReadyAddresses: [{ip: 192.0.2.11}]
  ports: [{name: db, port: 5432}]
`);
    const [slice] = await waitFor(async () => {
      const s = await slicesOf('ext');
      return s.length === 1 ? s : undefined;
    }, 'the mirrored slice');
    assert.equal(slice!.metadata.labels['endpointslice.kubernetes.io/managed-by'], 'endpointslicemirroring-controller.k8s.io');
    assert.deepEqual(slice!.endpoints?.map((e) => [e.addresses[0], e.conditions.ready]), [['192.0.2.10', true], ['192.0.2.11', false]]);
    assert.deepEqual(slice!.ports, [{ name: 'db', port: 5432, protocol: 'TCP' }]);
    // The user's Endpoints stay as written (no selector: the endpoints controller keeps out).
    const ep = await endpointsOf('ext');
    assert.deepEqual(ep.subsets?.[0]?.addresses?.map((a) => a.ip), ['192.0.2.10']);

    const managed = await slicesOf('kubernetes', 'default');
    assert.ok(managed.every((s) => !s.metadata.labels['endpointslice.kubernetes.io/managed-by']), JSON.stringify(managed));
  });
});
