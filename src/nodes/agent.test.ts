import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClientset, FakeClock, FakeInformerFactory, FakeRecorder, flush } from '../client/fake/index.js';
import type { KubeObject } from '../client/types.js';
import { NodeAgent, type NodeAgentOptions } from './agent.js';

type Obj = Record<string, unknown>;
const PODS = { group: '', version: 'v1', resource: 'pods' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };

async function setup(opts: Partial<NodeAgentOptions> = {}) {
  const clientset = new FakeClientset();
  const informers = new FakeInformerFactory(clientset);
  const clock = new FakeClock();
  const recorder = new FakeRecorder('kubelet');
  const agent = new NodeAgent({
    clientset,
    informers,
    clock,
    recorder,
    nodes: 2,
    eventQps: 1000,
    leaseRenewIntervalMs: 1000,
    statusUpdateFrequencyMs: 1000,
    statusReportFrequencyMs: 5000,
    ...opts,
  });
  await agent.start();
  informers.start();
  await flush();
  const tick = async (ms: number) => {
    // in steps, so the work started by each timer runs before the next fires
    for (let left = ms; left > 0; left -= 100) {
      clock.advance(Math.min(100, left));
      await flush(20);
    }
  };
  const getPod = (name: string) => clientset.tracker.get(PODS, 'default', name);
  const createPod = async (name: string, spec: Obj, annotations: Record<string, string> = {}) => {
    await clientset.resource(PODS).create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', annotations }, spec: { nodeName: 'kubelite-node-0', containers: [{ name: 'c', image: 'nginx' }], ...spec } });
    await flush(20);
  };
  return { clientset, informers, clock, recorder, agent, tick, getPod, createPod };
}

const status = (p: KubeObject | undefined) => (p?.status ?? {}) as Obj;
const cond = (p: KubeObject | undefined, type: string) => ((status(p).conditions ?? []) as Obj[]).find((c) => c.type === type);
const cstate = (p: KubeObject | undefined, i = 0) => ((status(p).containerStatuses as Obj[])[i]!.state ?? {}) as Obj;

test('nodes register with labels, capacity, addresses, nodeInfo and Ready; leases are renewed; the not-ready taint goes', async () => {
  const { clientset, agent, tick, clock } = await setup({ zones: ['a', 'b'], cpu: '8', memory: '16Gi', pods: 50 });
  const nodes = clientset.tracker.list(NODES);
  assert.deepEqual(nodes.map((n) => (n.metadata as Obj).name).sort(), ['kubelite-node-0', 'kubelite-node-1']);
  const n0 = clientset.tracker.get(NODES, '', 'kubelite-node-0')!;
  const labels = (n0.metadata as Obj).labels as Record<string, string>;
  assert.equal(labels['kubernetes.io/hostname'], 'kubelite-node-0');
  assert.equal(labels['kubernetes.io/os'], 'linux');
  assert.equal(labels['topology.kubernetes.io/zone'], 'a');
  assert.equal(((clientset.tracker.get(NODES, '', 'kubelite-node-1')!.metadata as Obj).labels as Record<string, string>)['topology.kubernetes.io/zone'], 'b');
  const st = n0.status as Obj;
  assert.deepEqual(st.capacity, { cpu: '8', memory: '16Gi', pods: '50', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0' });
  assert.equal((st.nodeInfo as Obj).kubeletVersion, 'v1.33.0-kubelite');
  assert.equal((st.nodeInfo as Obj).containerRuntimeVersion, 'kubelite://0.1');
  assert.deepEqual((st.addresses as Obj[]).map((a) => a.type), ['InternalIP', 'Hostname']);
  const ready = (st.conditions as Obj[]).find((c) => c.type === 'Ready')!;
  assert.equal(ready.status, 'True');
  assert.equal((n0.spec as Obj).podCIDR, '10.64.0.0/24');
  const lease = clientset.tracker.get(LEASES, 'kube-node-lease', 'kubelite-node-0')!;
  assert.equal((lease.spec as Obj).holderIdentity, 'kubelite-node-0');
  const renew0 = (lease.spec as Obj).renewTime;
  const writes0 = agent.stats.leaseWrites;
  await tick(3000);
  assert.ok(agent.stats.leaseWrites >= writes0 + 4, `${agent.stats.leaseWrites}`);
  assert.notEqual((clientset.tracker.get(LEASES, 'kube-node-lease', 'kubelite-node-0')!.spec as Obj).renewTime, renew0);
  // status is reported every statusReportFrequency when nothing changes
  const nodeWrites = agent.stats.nodeWrites;
  await tick(1000);
  assert.equal(agent.stats.nodeWrites, nodeWrites);
  await tick(5000);
  assert.ok(agent.stats.nodeWrites >= nodeWrites + 2);
  const hb = ((clientset.tracker.get(NODES, '', 'kubelite-node-0')!.status as Obj).conditions as Obj[]).find((c) => c.type === 'Ready')!;
  assert.equal(Date.parse(String(hb.lastHeartbeatTime)) > clock.now() - 7000, true);
  await agent.stop();
});

test('a restartPolicy Always pod goes Running and Ready, with podIP, containerID, imageID and the kubelet events', async () => {
  const { agent, createPod, getPod, recorder } = await setup();
  await createPod('web', {});
  const p = getPod('web');
  assert.equal(status(p).phase, 'Running');
  assert.equal(cond(p, 'Ready')?.status, 'True');
  assert.equal(cond(p, 'PodScheduled')?.status, 'True');
  assert.equal(cond(p, 'ContainersReady')?.status, 'True');
  assert.match(String(status(p).podIP), /^10\.64\.0\.\d+$/);
  assert.equal(status(p).hostIP, '10.0.0.2');
  const c = (status(p).containerStatuses as Obj[])[0]!;
  assert.match(String(c.containerID), /^kubelite:\/\//);
  assert.match(String(c.imageID), /^docker\.io\/library\/nginx@sha256:/);
  assert.ok(cstate(p).running);
  assert.deepEqual(recorder.events.map((e) => e.reason), ['Pulling', 'Pulled', 'Created', 'Started']);
  await createPod('web2', {});
  assert.notEqual(status(getPod('web2')).podIP, status(p).podIP);
  await agent.stop();
});

test('pods of other nodes are left alone', async () => {
  const { agent, createPod, getPod } = await setup();
  await createPod('elsewhere', { nodeName: 'other' });
  assert.equal(getPod('elsewhere')!.status, undefined);
  await agent.stop();
});

test('a Job-style pod (Never, sh -c "exit 3") ends Failed with exit code 3; a plain one Succeeded after 1 s', async () => {
  const { agent, createPod, getPod, tick } = await setup();
  await createPod('fail', { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'exit 3'] }] });
  await createPod('ok', { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] });
  assert.equal(status(getPod('fail')).phase, 'Failed');
  assert.equal((cstate(getPod('fail')).terminated as Obj).exitCode, 3);
  assert.equal(status(getPod('ok')).phase, 'Running');
  await tick(1000);
  assert.equal(status(getPod('ok')).phase, 'Succeeded');
  assert.equal((cstate(getPod('ok')).terminated as Obj).reason, 'Completed');
  await agent.stop();
});

test('crash loop: restarts with back-off, BackOff events, restartCount', async () => {
  const { agent, createPod, getPod, tick, recorder } = await setup();
  await createPod('crash', {}, { 'kubelite.dev/crash-after-seconds': '1' });
  await tick(1500);
  assert.equal((status(getPod('crash')).containerStatuses as Obj[])[0]!.restartCount, 1);
  await tick(1000);
  assert.equal(((cstate(getPod('crash')).waiting as Obj) ?? {}).reason, 'CrashLoopBackOff');
  assert.ok(recorder.events.some((e) => e.reason === 'BackOff' && e.type === 'Warning'));
  await tick(10_000);
  assert.equal((status(getPod('crash')).containerStatuses as Obj[])[0]!.restartCount, 2);
  await agent.stop();
});

test('init containers, readiness delay and activeDeadlineSeconds through the agent', async () => {
  const { agent, createPod, getPod, tick, recorder } = await setup();
  await createPod('init', { initContainers: [{ name: 'i', image: 'busybox', command: ['sleep', '2'] }], containers: [{ name: 'c', image: 'nginx', readinessProbe: { initialDelaySeconds: 3 } }] });
  assert.equal(status(getPod('init')).phase, 'Pending');
  assert.equal(cond(getPod('init'), 'Initialized')?.status, 'False');
  await tick(2000);
  assert.equal(status(getPod('init')).phase, 'Running');
  assert.equal(cond(getPod('init'), 'Ready')?.status, 'False');
  await tick(3000);
  assert.equal(cond(getPod('init'), 'Ready')?.status, 'True');
  await createPod('deadline', { restartPolicy: 'Never', activeDeadlineSeconds: 2 }, { 'kubelite.dev/run-seconds': '100' });
  await tick(2000);
  assert.equal(status(getPod('deadline')).phase, 'Failed');
  assert.equal(status(getPod('deadline')).reason, 'DeadlineExceeded');
  assert.ok(recorder.events.some((e) => e.reason === 'DeadlineExceeded' && e.type === 'Warning'));
  await agent.stop();
});

test('graceful deletion: the pod stops after its grace period and is deleted with grace 0 and the uid precondition', async () => {
  const { agent, clientset, createPod, getPod, tick, recorder } = await setup();
  await createPod('web', { containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'sleep 3600'] }] });
  const p = getPod('web')!;
  const meta = p.metadata as Obj;
  // (the fake removes an object with a deletionTimestamp on its next write unless a finalizer holds it)
  clientset.tracker.add({ ...p, metadata: { ...meta, finalizers: ['test/hold'], deletionTimestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, 5)).toISOString(), deletionGracePeriodSeconds: 5 } });
  await flush(20);
  assert.ok(recorder.events.some((e) => e.reason === 'Killing'));
  const deletes = () => clientset.actions.filter((a) => a.verb === 'delete' && a.resource === 'pods');
  await tick(4900);
  assert.equal(deletes().length, 0);
  assert.ok(cstate(getPod('web')).running);
  await tick(100);
  assert.equal(deletes().length, 1);
  const term = cstate(getPod('web')).terminated as Obj;
  assert.deepEqual([term.exitCode, term.reason], [137, 'Error']);
  assert.equal(status(getPod('web')).phase, 'Failed');
  const del = deletes()[0]!;
  assert.deepEqual(del.options, { gracePeriodSeconds: 0, preconditions: { uid: meta.uid } });
  // a terminal pod is deleted at once
  await createPod('job', { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['true'] }] });
  assert.equal(status(getPod('job')).phase, 'Succeeded');
  const j = getPod('job')!;
  clientset.tracker.add({ ...j, metadata: { ...(j.metadata as Obj), deletionTimestamp: new Date().toISOString(), deletionGracePeriodSeconds: 30 } });
  await flush(20);
  assert.equal(getPod('job'), undefined);
  await agent.stop();
});

test('node faults: --unready-nodes, and the kubelite.dev/simulate annotation (NotReady, back, Gone)', async () => {
  const { agent, clientset, tick } = await setup({ unreadyNodes: 1 });
  const ready = (name: string) => ((clientset.tracker.get(NODES, '', name)?.status as Obj | undefined)?.conditions as Obj[] | undefined)?.find((c) => c.type === 'Ready')?.status;
  assert.equal(ready('kubelite-node-0'), 'True');
  assert.equal(ready('kubelite-node-1'), 'False');
  const leaseOf = (name: string) => (clientset.tracker.get(LEASES, 'kube-node-lease', name)?.spec as Obj | undefined)?.renewTime;
  const l1 = leaseOf('kubelite-node-1');
  await tick(2000);
  assert.equal(leaseOf('kubelite-node-1'), l1);
  const taints = (name: string) => (((clientset.tracker.get(NODES, '', name)?.spec as Obj | undefined)?.taints ?? []) as Obj[]).map((t) => `${String(t.key)}:${String(t.effect)}`);
  assert.deepEqual(taints('kubelite-node-0'), []);
  await clientset.resource(NODES).patch('', 'kubelite-node-0', 'merge', { metadata: { annotations: { 'kubelite.dev/simulate': 'NotReady' } } });
  await flush(20);
  assert.equal(ready('kubelite-node-0'), 'False');
  assert.deepEqual(taints('kubelite-node-0'), ['node.kubernetes.io/not-ready:NoSchedule']);
  await clientset.resource(NODES).patch('', 'kubelite-node-0', 'merge', { metadata: { annotations: { 'kubelite.dev/simulate': null } } });
  await flush(20);
  assert.equal(ready('kubelite-node-0'), 'True');
  assert.deepEqual(taints('kubelite-node-0'), []);
  await clientset.resource(NODES).patch('', 'kubelite-node-0', 'merge', { metadata: { annotations: { 'kubelite.dev/simulate': 'Gone' } } });
  await flush(20);
  assert.equal(clientset.tracker.get(NODES, '', 'kubelite-node-0'), undefined);
  assert.equal(clientset.tracker.get(LEASES, 'kube-node-lease', 'kubelite-node-0'), undefined);
  await tick(3000);
  assert.equal(clientset.tracker.get(NODES, '', 'kubelite-node-0'), undefined);
  // a node deleted by someone else comes back
  const uid1 = (clientset.tracker.get(NODES, '', 'kubelite-node-1')!.metadata as Obj).uid;
  await clientset.resource(NODES).delete('', 'kubelite-node-1');
  await flush(20);
  const again = clientset.tracker.get(NODES, '', 'kubelite-node-1')!;
  assert.notEqual((again.metadata as Obj).uid, uid1);
  assert.equal(((clientset.tracker.get(LEASES, 'kube-node-lease', 'kubelite-node-1')!.metadata as Obj).ownerReferences as Obj[])[0]!.uid, (again.metadata as Obj).uid);
  await agent.stop();
});

test('a restarted agent adopts the pods of its nodes: IPs kept, not reused, statuses unchanged', async () => {
  const first = await setup();
  await first.createPod('a', {});
  await first.createPod('b', {});
  const ipA = status(first.getPod('a')).podIP;
  const ipB = status(first.getPod('b')).podIP;
  await first.agent.stop();
  const clock = new FakeClock();
  const informers = new FakeInformerFactory(first.clientset);
  const agent = new NodeAgent({ clientset: first.clientset, informers, clock, nodes: 2, leaseRenewIntervalMs: 1000, statusUpdateFrequencyMs: 1000 });
  await agent.start();
  informers.start();
  await flush(20);
  assert.equal(status(first.getPod('a')).podIP, ipA);
  assert.equal(status(first.getPod('a')).phase, 'Running');
  await first.clientset.resource(PODS).create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'c', namespace: 'default' }, spec: { nodeName: 'kubelite-node-0', containers: [{ name: 'c', image: 'nginx' }] } });
  await flush(20);
  const ipC = status(first.getPod('c')).podIP;
  assert.equal(status(first.getPod('c')).phase, 'Running');
  assert.ok(ipC !== ipA && ipC !== ipB, `${String(ipC)} vs ${String(ipA)}, ${String(ipB)}`);
  await agent.stop();
});

test('registration retries as the kubelet does: 100 ms doubling (so a node started with its API server registers at once)', async () => {
  const clientset = new FakeClientset();
  const clock = new FakeClock();
  let down = true;
  clientset.prependReactor('create', 'nodes', () => (down ? { handled: true, error: new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }) } : undefined));
  const logs: Record<string, unknown>[] = [];
  const agent = new NodeAgent({ clientset, informers: new FakeInformerFactory(clientset), clock, recorder: new FakeRecorder('kubelet'), nodes: 1, log: (f) => logs.push(f) });
  void agent.start();
  for (let i = 0; i < 4; i++) {
    await flush(20);
    clock.advance(Math.min(100 * 2 ** i, 7000));
  }
  await flush(20);
  assert.deepEqual(logs.filter((l) => l.msg === 'node registration failed').map((l) => l.retryInMs).slice(0, 4), [100, 200, 400, 800]);
  down = false;
  clock.advance(1600);
  await flush(20);
  assert.ok(clientset.tracker.get(NODES, '', 'kubelite-node-0'), 'registered once the API server answers');
  await agent.stop();
});
