import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer } from '../apiserver/server.js';
import { RestClientset } from '../client/rest.js';
import { FakeClientset, FakeInformerFactory, FakeRecorder, flush } from '../client/fake/index.js';
import type { Binding, Event, Node, Pod, PodSpec, Taint } from '../api/types.js';
import { startScheduler } from './scheduler.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const EVENTS = { group: '', version: 'v1', resource: 'events' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };

async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function node(name: string, cpu = '2', taints?: Taint[]): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: taints ? { taints } : {},
    status: { allocatable: { cpu, memory: '4Gi', pods: '110' }, capacity: { cpu, memory: '4Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function pod(name: string, cpu: string, extra: PodSpec = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }], ...extra } };
}

/** Creates a Node, then sets its taints as the node lifecycle controller would (the API server adds not-ready:NoSchedule on create). */
async function createNode(cs: RestClientset, n: Node): Promise<void> {
  await cs.resource(NODES).create('', n);
  await cs.resource(NODES).patch('', String(n.metadata!.name), 'merge', { spec: { taints: n.spec!.taints ?? null } });
}

test('against the API server: binds, PodScheduled, events, unschedulable reason, retry when a node is added', async () => {
  const server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, admissionPlugins: ['NamespaceLifecycle', 'NodeRestriction'] });
  const cs = new RestClientset({ config: { server: server.url }, qps: 0 });
  const sched = startScheduler({ clientset: cs, initialBackoffMs: 50, maxBackoffMs: 200 });
  try {
    await cs.resource(NAMESPACES).create('', { metadata: { name: 'default' } }).catch(() => undefined);
    await createNode(cs, node('cp', '8', [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]));
    await createNode(cs, node('n1'));
    await createNode(cs, node('n2'));
    // pods/binding itself, as the scheduler will use it (a pod of no scheduler, no requests): a
    // rejected binding is a failure of what this test is about, not a reason to skip it.
    await cs.resource(PODS).create('default', pod('probe', '0', { schedulerName: 'nobody' }));
    await cs.resource(PODS).createSubresource('default', 'probe', 'binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'probe' }, target: { apiVersion: 'v1', kind: 'Node', name: 'n1' } });
    assert.equal(((await cs.resource(PODS).get('default', 'probe')) as Pod).spec!.nodeName, 'n1');
    await sched.ready;
    const pods = cs.resource(PODS);
    const getPod = (name: string): Promise<Pod> => pods.get('default', name);
    await pods.create('default', pod('small', '500m'));
    await until(async () => Boolean((await getPod('small')).spec!.nodeName), 'small bound');
    const small = await getPod('small');
    const nodeName = small.spec!.nodeName!;
    assert.ok(['n1', 'n2'].includes(nodeName));
    const cond = (small.status!.conditions ?? []).find((c) => c.type === 'PodScheduled');
    assert.equal(cond?.status, 'True');
    await until(async () => (await cs.resource(EVENTS).list('default')).items.some((e) => e.reason === 'Scheduled'), 'Scheduled event');
    const scheduled: Event = (await cs.resource(EVENTS).list('default')).items.find((e) => e.reason === 'Scheduled')!;
    assert.equal(scheduled.message, `Successfully assigned default/small to ${nodeName}`);
    assert.equal(scheduled.involvedObject!.name, 'small');

    // Too big for every node: PodScheduled=False Unschedulable with Kubernetes' message.
    await pods.create('default', pod('big', '4'));
    const want =
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.';
    await until(async () => {
      const p = await getPod('big');
      const c = (p.status!.conditions ?? []).find((x) => x.type === 'PodScheduled');
      return c?.reason === 'Unschedulable';
    }, 'big unschedulable');
    const big = await getPod('big');
    const bc = big.status!.conditions!.find((c) => c.type === 'PodScheduled')!;
    assert.equal(bc.status, 'False');
    assert.equal(bc.message, want);
    await until(async () => (await cs.resource(EVENTS).list('default')).items.some((e) => e.reason === 'FailedScheduling' && e.message === want && e.type === 'Warning'), 'FailedScheduling event');

    // A node that fits arrives: the pod is retried and bound there.
    await createNode(cs, node('n3', '8'));
    await until(async () => (await getPod('big')).spec!.nodeName === 'n3', 'big bound to n3', 15_000);
    const bound = await getPod('big');
    assert.equal(bound.status!.conditions!.find((c) => c.type === 'PodScheduled')!.status, 'True');

    // Another scheduler's pods are left alone.
    await pods.create('default', pod('other', '1m', { schedulerName: 'someone-else' }));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await getPod('other')).spec!.nodeName ?? '', '');

    // A burst never overcommits: 2 cpu nodes n1/n2 (0.5 used) + n3 (8, 4 used) = 7.5 cpu free; 20 pods of 500m → 15 fit.
    for (let i = 0; i < 20; i++) await pods.create('default', pod(`burst-${i}`, '500m'));
    await until(() => sched.stats.bound >= 17 && sched.queue.stats().active === 0, 'burst scheduled');
    await new Promise((r) => setTimeout(r, 300));
    const listed: Pod[] = (await pods.list('default')).items;
    const all = listed.filter((p) => String(p.metadata!.name).startsWith('burst-'));
    assert.equal(all.filter((p) => p.spec!.nodeName).length, 15);
    const perNode = new Map<string, number>();
    const relisted: Pod[] = (await pods.list('default')).items;
    for (const p of relisted) {
      const n = p.spec!.nodeName;
      if (!n) continue;
      const cpu = String(p.spec!.containers![0]!.resources!.requests!.cpu);
      perNode.set(n, (perNode.get(n) ?? 0) + (cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000));
    }
    assert.ok((perNode.get('n1') ?? 0) <= 2000 && (perNode.get('n2') ?? 0) <= 2000 && (perNode.get('n3') ?? 0) <= 8000, JSON.stringify([...perNode]));
  } finally {
    await sched.stop();
    cs.close();
    await server.close();
  }
});

test('on the fakes: binding through pods/binding, Scheduled event, pod deletion frees room', async () => {
  const clientset = new FakeClientset({
    objects: [
      node('n1', '1'),
      // A workload and a service selecting pod a: its default spread constraints are built from them.
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'a' } }, template: {} } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', namespace: 'default' }, spec: { selector: { app: 'a' } } },
    ],
  });
  const informers = new FakeInformerFactory(clientset);
  const recorder = new FakeRecorder('default-scheduler');
  const sched = startScheduler({ clientset, informers, startInformers: true, recorder, initialBackoffMs: 10, maxBackoffMs: 20 });
  try {
    const a = pod('a', '800m');
    a.metadata!.labels = { app: 'a' };
    await clientset.resource(PODS).create('default', a);
    await until(() => sched.stats.bound === 1, 'a bound');
    const binding = clientset.actions.find((a) => a.subresource === 'binding')!;
    assert.deepEqual(binding.object?.target, { apiVersion: 'v1', kind: 'Node', name: 'n1' });
    const body: Binding | undefined = binding.object;
    assert.equal(body!.metadata!.name, 'a');
    assert.ok(recorder.strings().includes('Normal Scheduled Successfully assigned default/a to n1'));
    await clientset.resource(PODS).create('default', pod('b', '800m'));
    await until(() => recorder.strings().some((s) => s.startsWith('Warning FailedScheduling 0/1 nodes are available: 1 Insufficient cpu.')), 'b unschedulable');
    const statusPatch = clientset.actions.find((a) => a.verb === 'patch' && a.subresource === 'status' && a.name === 'b');
    assert.ok(statusPatch, 'status patched');
    await clientset.resource(PODS).delete('default', 'a');
    await until(() => sched.stats.bound === 2, 'b bound after a is deleted');
    await flush();
  } finally {
    await sched.stop();
  }
});

test('on the fakes: unschedulable condition and event, retry when a node is added, other schedulers, bursts never overcommit', async () => {
  const cp = node('cp', '8', [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
  const clientset = new FakeClientset({ objects: [cp, node('n1'), node('n2')] });
  const informers = new FakeInformerFactory(clientset);
  const recorder = new FakeRecorder('default-scheduler');
  const sched = startScheduler({ clientset, informers, startInformers: true, recorder, initialBackoffMs: 10, maxBackoffMs: 20 });
  const pods = clientset.resource(PODS);
  const fakePod = (name: string): Pod | undefined => clientset.tracker.get(PODS, 'default', name);
  try {
    await pods.create('default', pod('big', '4'));
    const want =
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.';
    await until(() => recorder.strings().includes(`Warning FailedScheduling ${want}`), 'FailedScheduling event');
    await until(() => {
      const p: Pod | undefined = clientset.tracker.get(PODS, 'default', 'big');
      const c = (p?.status?.conditions ?? []).find((x) => x.type === 'PodScheduled');
      return c?.status === 'False' && c.reason === 'Unschedulable' && c.message === want && typeof c.lastTransitionTime === 'string';
    }, 'PodScheduled=False');
    // Retried (back-off) without change: the status is not patched again with the same message.
    const patches = () => clientset.actions.filter((a) => a.verb === 'patch' && a.subresource === 'status' && a.name === 'big').length;
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(patches(), 1);
    // A node that fits: bound there.
    await clientset.resource(NODES).create('', node('n3', '8'));
    await until(() => fakePod('big')?.spec?.nodeName === 'n3', 'big bound to n3');
    // Another scheduler's pod stays pending; a pod being deleted is not scheduled.
    await pods.create('default', pod('other', '1m', { schedulerName: 'someone-else' }));
    // Burst: n1 and n2 have 2 cpu, n3 8 - 4 = 4 cpu: 8 cpu free, 20 pods of 500m → exactly 16 fit.
    for (let i = 0; i < 20; i++) await pods.create('default', pod(`burst-${i}`, '500m'));
    await until(() => sched.stats.bound === 17 && sched.stats.unschedulable >= 4, 'burst scheduled');
    await flush();
    const all: Pod[] = clientset.tracker.list(PODS);
    const used = new Map<string, number>();
    for (const p of all) {
      const n = p.spec!.nodeName;
      if (!n) continue;
      const cpu = String(p.spec!.containers![0]!.resources!.requests!.cpu);
      used.set(n, (used.get(n) ?? 0) + (cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000));
    }
    assert.deepEqual(Object.fromEntries([...used].sort()), { n1: 2000, n2: 2000, n3: 8000 });
    assert.equal(fakePod('other')!.spec!.nodeName, undefined);
    assert.equal(all.filter((p) => p.spec!.nodeName).length, 17);
  } finally {
    await sched.stop();
  }
});
