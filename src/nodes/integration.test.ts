// The simulated nodes against a real in-process API server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startApiServer, type ApiServer } from '../apiserver/server.js';
import { RestClientset } from '../client/rest.js';
import type { KubeObject } from '../client/types.js';
import { startNodes, type NodesHandle } from './index.js';

type Obj = Record<string, unknown>;
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

const cond = (o: KubeObject, type: string) => (((o.status as Obj | undefined)?.conditions ?? []) as Obj[]).find((c) => c.type === type);

test('nodes register and are Ready, without the not-ready taint; leases renew', async () => {
  const list = await cs.resource(NODES).list('');
  assert.deepEqual(list.items.map((n) => (n.metadata as Obj).name).sort(), ['kubelite-node-0', 'kubelite-node-1', 'kubelite-node-2']);
  for (const n of list.items) {
    assert.equal(cond(n, 'Ready')?.status, 'True');
    assert.deepEqual(((n.spec as Obj).taints ?? []) as Obj[], []);
  }
  const zones = list.items.map((n) => ((n.metadata as Obj).labels as Record<string, string>)['topology.kubernetes.io/zone']).sort();
  assert.deepEqual(zones, ['a', 'b', 'c']);
  const l0 = await cs.resource(LEASES).get('kube-node-lease', 'kubelite-node-0');
  const t0 = (l0.spec as Obj).renewTime;
  assert.ok(t0);
  await until('lease renewal', async () => (((await cs.resource(LEASES).get('kube-node-lease', 'kubelite-node-0')).spec as Obj).renewTime !== t0 ? true : undefined), 3000);
});

test('a pod bound to a simulated node goes Running and Ready; deleting it removes it', async () => {
  const pods = cs.resource(PODS);
  await pods.create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { nodeName: 'kubelite-node-1', containers: [{ name: 'nginx', image: 'nginx:1.25' }] } });
  const p = await until('web Ready', async () => {
    const p = await pods.get('default', 'web');
    return cond(p, 'Ready')?.status === 'True' ? p : undefined;
  });
  const st = p.status as Obj;
  assert.equal(st.phase, 'Running');
  assert.match(String(st.podIP), /^10\.64\.1\.\d+$/);
  assert.equal(st.hostIP, '10.0.0.3');
  const c = (st.containerStatuses as Obj[])[0]!;
  assert.equal(c.image, 'docker.io/library/nginx:1.25');
  assert.equal(c.ready, true);
  const events = await until('Started event', async () => {
    const evs = (await cs.resource(EVENTS).list('default')).items.filter((e) => (e.involvedObject as Obj).name === 'web');
    return evs.some((e) => e.reason === 'Started') ? evs : undefined;
  });
  assert.ok(events.some((e) => e.reason === 'Pulled'));
  assert.deepEqual(events.find((e) => e.reason === 'Started')!.source, { component: 'kubelet', host: 'kubelite-node-1' });
  // graceful delete: nginx (not a shell form) exits on SIGTERM at once
  const still = await pods.delete('default', 'web', { gracePeriodSeconds: 30 });
  assert.ok(still, 'graceful: still there');
  await until('web deleted', async () => {
    try {
      await pods.get('default', 'web');
      return undefined;
    } catch (e) {
      return (e as { code?: number }).code === 404 ? true : undefined;
    }
  }, 5000);
  // a `sleep` ignores SIGTERM: it goes at the end of its grace period, killed (137)
  await pods.create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'sleeper' }, spec: { nodeName: 'kubelite-node-1', containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] } });
  await until('sleeper Running', async () => ((await pods.get('default', 'sleeper')).status as Obj).phase === 'Running');
  const t0 = Date.now();
  await pods.delete('default', 'sleeper', { gracePeriodSeconds: 1 });
  const seen: Obj[] = [];
  await until('sleeper deleted', async () => {
    try {
      seen.push((await pods.get('default', 'sleeper')).status as Obj);
      return undefined;
    } catch (e) {
      return (e as { code?: number }).code === 404 ? true : undefined;
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
    const p = await pods.get('default', 'job');
    return (p.status as Obj).phase === 'Failed' ? p : undefined;
  });
  const term = (((p.status as Obj).containerStatuses as Obj[])[0]!.state as Obj).terminated as Obj;
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
  await until('init Ready', async () => cond(await pods.get('default', 'init'), 'Ready')?.status === 'True');
  const p = await pods.get('default', 'init');
  assert.equal(((((p.status as Obj).initContainerStatuses as Obj[])[0]!.state as Obj).terminated as Obj).reason, 'Completed');
  await pods.create('default', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'crash', annotations: { 'kubelite.dev/crash-after-seconds': '0.2' } },
    spec: { nodeName: 'kubelite-node-0', containers: [{ name: 'app', image: 'nginx' }] },
  });
  await until('crash restarted', async () => {
    const st = ((await pods.get('default', 'crash')).status as Obj | undefined)?.containerStatuses as Obj[] | undefined;
    return st && st[0]!.restartCount === 1 ? true : undefined;
  });
  await until('CrashLoopBackOff', async () => {
    const st = ((await pods.get('default', 'crash')).status as Obj | undefined)?.containerStatuses as Obj[] | undefined;
    return ((st?.[0]?.state as Obj | undefined)?.waiting as Obj | undefined)?.reason === 'CrashLoopBackOff' ? true : undefined;
  });
});
