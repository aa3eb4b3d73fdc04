// The simulated nodes against a real in-process API server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startApiServer, type ApiServer } from '../apiserver/server.js';
import { RestClientset } from '../client/rest.js';
import type { Event, Lease, Node, Pod, PodStatus } from '../api/types.js';
import { startNodes, type NodesHandle } from './index.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
const EVENTS = { group: '', version: 'v1', resource: 'events' };

let server: ApiServer;
let cs: RestClientset;
let nodes: NodesHandle;

before(async () => {
  server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, admissionPlugins: ['NamespaceLifecycle', 'NodeRestriction'] });
  cs = new RestClientset({ config: { server: server.url }, qps: 0, userAgent: 'kubelite-nodes-test/v1.33.0' });
  await cs.resource({ group: '', version: 'v1', resource: 'namespaces' }).create('', { metadata: { name: 'default' } }).catch(() => {});
  nodes = await startNodes({ clientset: cs, nodes: 3, zones: ['a', 'b', 'c'], leaseRenewIntervalMs: 300, statusUpdateFrequencyMs: 300, statusReportFrequencyMs: 1000, log: () => {} });
});

after(async () => {
  await nodes?.stop();
  cs?.close();
  await server?.close();
});

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const cond = (o: Pod | Node, type: string) => (o.status?.conditions ?? []).find((c) => c.type === type);
const getPod = (name: string): Promise<Pod> => cs.resource(PODS).get('default', name);
const getLease = (name: string): Promise<Lease> => cs.resource(LEASES).get('kube-node-lease', name);
const isHttp404 = (e: unknown): boolean => typeof e === 'object' && e !== null && 'code' in e && e.code === 404;

test('nodes register and are Ready, without the not-ready taint; leases renew', async () => {
  const nodeList: Node[] = (await cs.resource(NODES).list('')).items;
  assert.deepEqual(nodeList.map((n) => n.metadata!.name).sort(), ['kubelite-node-0', 'kubelite-node-1', 'kubelite-node-2']);
  for (const n of nodeList) {
    assert.equal(cond(n, 'Ready')?.status, 'True');
    assert.deepEqual(n.spec!.taints ?? [], []);
  }
  const zones = nodeList.map((n) => n.metadata!.labels!['topology.kubernetes.io/zone']).sort();
  assert.deepEqual(zones, ['a', 'b', 'c']);
  const l0 = await getLease('kubelite-node-0');
  const t0 = l0.spec!.renewTime;
  assert.ok(t0);
  await until('lease renewal', async () => ((await getLease('kubelite-node-0')).spec!.renewTime !== t0 ? true : undefined), 3000);
});

test('a pod bound to a simulated node goes Running and Ready; deleting it removes it', async () => {
  const pods = cs.resource(PODS);
  await pods.create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { nodeName: 'kubelite-node-1', containers: [{ name: 'nginx', image: 'nginx:1.25' }] } });
  const p = await until('web Ready', async () => {
    const p = await getPod('web');
    return cond(p, 'Ready')?.status === 'True' ? p : undefined;
  });
  const st = p.status!;
  assert.equal(st.phase, 'Running');
  assert.match(String(st.podIP), /^10\.64\.1\.\d+$/);
  assert.equal(st.hostIP, '10.0.0.3');
  const c = st.containerStatuses![0]!;
  assert.equal(c.image, 'docker.io/library/nginx:1.25');
  assert.equal(c.ready, true);
  const events = await until('Started event', async () => {
    const all: Event[] = (await cs.resource(EVENTS).list('default')).items;
    const evs = all.filter((e) => e.involvedObject!.name === 'web');
    return evs.some((e) => e.reason === 'Started') ? evs : undefined;
  });
  assert.ok(events.some((e) => e.reason === 'Pulled'));
  assert.deepEqual(events.find((e) => e.reason === 'Started')!.source, { component: 'kubelet', host: 'kubelite-node-1' });
  // graceful delete: nginx (not a shell form) exits on SIGTERM at once
  const still = await pods.delete('default', 'web', { gracePeriodSeconds: 30 });
  assert.ok(still, 'graceful: still there');
  await until('web deleted', async () => {
    try {
      await getPod('web');
      return undefined;
    } catch (e) {
      return isHttp404(e) ? true : undefined;
    }
  }, 5000);
  // a `sleep` ignores SIGTERM: it goes at the end of its grace period, killed (137)
  await pods.create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'sleeper' }, spec: { nodeName: 'kubelite-node-1', containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] } });
  await until('sleeper Running', async () => (await getPod('sleeper')).status!.phase === 'Running');
  const t0 = Date.now();
  await pods.delete('default', 'sleeper', { gracePeriodSeconds: 1 });
  const seen: (PodStatus | null | undefined)[] = [];
  await until('sleeper deleted', async () => {
    try {
      seen.push((await getPod('sleeper')).status);
      return undefined;
    } catch (e) {
      return isHttp404(e) ? true : undefined;
    }
  }, 5000);
  assert.ok(Date.now() - t0 >= 900, `deleted after ${Date.now() - t0} ms`);
  assert.ok(seen.length > 0);
});

test('a Job-style pod (restartPolicy Never, sh -c "exit 3") ends Failed with exit code 3', async () => {
  const pods = cs.resource(PODS);
  await pods.create('default', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'job' },
    spec: { nodeName: 'kubelite-node-2', restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'echo failing; exit 3'] }] },
  });
  const p = await until('job Failed', async () => {
    const p = await getPod('job');
    return p.status!.phase === 'Failed' ? p : undefined;
  });
  const term = p.status!.containerStatuses![0]!.state!.terminated!;
  assert.equal(term.exitCode, 3);
  assert.equal(term.reason, 'Error');
  assert.equal(cond(p, 'Ready')?.reason, 'PodCompleted');
});

test('a pod with init containers, then a crash-looping one, through the real API server', async () => {
  const pods = cs.resource(PODS);
  await pods.create('default', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'init', annotations: { 'kubelite.dev/init.run-seconds': '0.3' } },
    spec: { nodeName: 'kubelite-node-0', initContainers: [{ name: 'init', image: 'busybox' }], containers: [{ name: 'app', image: 'nginx' }] },
  });
  await until('init Ready', async () => cond(await getPod('init'), 'Ready')?.status === 'True');
  const p = await getPod('init');
  assert.equal(p.status!.initContainerStatuses![0]!.state!.terminated!.reason, 'Completed');
  await pods.create('default', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'crash', annotations: { 'kubelite.dev/crash-after-seconds': '0.2' } },
    spec: { nodeName: 'kubelite-node-0', containers: [{ name: 'app', image: 'nginx' }] },
  });
  await until('crash restarted', async () => {
    const st = (await getPod('crash')).status?.containerStatuses;
    return st && st[0]!.restartCount === 1 ? true : undefined;
  });
  await until('CrashLoopBackOff', async () => {
    const st = (await getPod('crash')).status?.containerStatuses;
    return st?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff' ? true : undefined;
  });
});
