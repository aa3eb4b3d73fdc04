// Node registration and heartbeats, through the composed agent: Node objects, Lease renewals,
// status reports, the faults and registration's retries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClientset, FakeClock, FakeInformerFactory, FakeRecorder, flush } from '../client/fake/index.js';
import { NodeAgent } from './agent.js';
import type { Lease, Node } from '../api/types.js';
import { LEASES, NODES, setup } from './agent.testutil.js';

const getNode = (clientset: FakeClientset, name: string): Node | undefined => clientset.tracker.get(NODES, '', name);
const getLease = (clientset: FakeClientset, name: string): Lease | undefined => clientset.tracker.get(LEASES, 'kube-node-lease', name);

test('nodes register with labels, capacity, addresses, nodeInfo and Ready; leases are renewed; the not-ready taint goes', async () => {
  const { clientset, agent, tick, clock } = await setup({ zones: ['a', 'b'], cpu: '8', memory: '16Gi', pods: 50 });
  const nodes: Node[] = clientset.tracker.list(NODES);
  assert.deepEqual(nodes.map((n) => n.metadata!.name).sort(), ['kubelite-node-0', 'kubelite-node-1']);
  const n0 = getNode(clientset, 'kubelite-node-0')!;
  const labels = n0.metadata!.labels!;
  assert.equal(labels['kubernetes.io/hostname'], 'kubelite-node-0');
  assert.equal(labels['kubernetes.io/os'], 'linux');
  assert.equal(labels['topology.kubernetes.io/zone'], 'a');
  assert.equal(getNode(clientset, 'kubelite-node-1')!.metadata!.labels!['topology.kubernetes.io/zone'], 'b');
  const st = n0.status!;
  assert.deepEqual(st.capacity, { cpu: '8', memory: '16Gi', pods: '50', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0' });
  assert.equal(st.nodeInfo!.kubeletVersion, 'v1.33.0-kubelite');
  assert.equal(st.nodeInfo!.containerRuntimeVersion, 'kubelite://0.1');
  assert.deepEqual(st.addresses!.map((a) => a.type), ['InternalIP', 'Hostname']);
  const ready = st.conditions!.find((c) => c.type === 'Ready')!;
  assert.equal(ready.status, 'True');
  assert.equal(n0.spec!.podCIDR, '10.64.0.0/24');
  const lease = getLease(clientset, 'kubelite-node-0')!;
  assert.equal(lease.spec!.holderIdentity, 'kubelite-node-0');
  const renew0 = lease.spec!.renewTime;
  const writes0 = agent.stats.leaseWrites;
  await tick(3000);
  assert.ok(agent.stats.leaseWrites >= writes0 + 4, `${agent.stats.leaseWrites}`);
  assert.notEqual(getLease(clientset, 'kubelite-node-0')!.spec!.renewTime, renew0);
  // status is reported every statusReportFrequency when nothing changes
  const nodeWrites = agent.stats.nodeWrites;
  await tick(1000);
  assert.equal(agent.stats.nodeWrites, nodeWrites);
  await tick(5000);
  assert.ok(agent.stats.nodeWrites >= nodeWrites + 2);
  const hb = getNode(clientset, 'kubelite-node-0')!.status!.conditions!.find((c) => c.type === 'Ready')!;
  assert.equal(Date.parse(String(hb.lastHeartbeatTime)) > clock.now() - 7000, true);
  await agent.stop();
});

test('node faults: --unready-nodes, and the kubelite.dev/simulate annotation (NotReady, back, Gone)', async () => {
  const { agent, clientset, tick } = await setup({ unreadyNodes: 1 });
  const ready = (name: string) => getNode(clientset, name)?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  assert.equal(ready('kubelite-node-0'), 'True');
  assert.equal(ready('kubelite-node-1'), 'False');
  const leaseOf = (name: string) => getLease(clientset, name)?.spec?.renewTime;
  const l1 = leaseOf('kubelite-node-1');
  await tick(2000);
  assert.equal(leaseOf('kubelite-node-1'), l1);
  const taints = (name: string) => (getNode(clientset, name)?.spec?.taints ?? []).map((t) => `${String(t.key)}:${String(t.effect)}`);
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
  const uid1 = getNode(clientset, 'kubelite-node-1')!.metadata!.uid;
  await clientset.resource(NODES).delete('', 'kubelite-node-1');
  await flush(20);
  const again = getNode(clientset, 'kubelite-node-1')!;
  assert.notEqual(again.metadata!.uid, uid1);
  assert.equal(getLease(clientset, 'kubelite-node-1')!.metadata!.ownerReferences![0]!.uid, again.metadata!.uid);
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

test('leases renew at jittered points of the interval, not together, from each node\'s registration on', async () => {
  const { agent, clientset, tick } = await setup({ nodes: 20 });
  await tick(1500);
  const renewals = new Set(clientset.tracker.list(LEASES).map((l) => (l as Lease).spec!.renewTime));
  // 20 nodes registered at the same instant, the tick's steps 100 ms: spread over most of them
  assert.ok(renewals.size >= 5, `renewTimes ${[...renewals].join(', ')}`);
  await agent.stop();
});

test('a Ready turned Unknown by someone else (the node lifecycle controller) is reported again at the next status update', async () => {
  const { agent, clientset, tick } = await setup();
  const ready = () => getNode(clientset, 'kubelite-node-0')!.status!.conditions!.find((c) => c.type === 'Ready')!;
  const conditions = getNode(clientset, 'kubelite-node-0')!.status!.conditions!.map((c) => (c.type === 'Ready' ? { ...c, status: 'Unknown', reason: 'NodeStatusUnknown' } : c));
  await clientset.resource(NODES).patch('', 'kubelite-node-0', 'merge', { status: { conditions } }, { subresource: 'status' });
  // (no time passes here: the node's first status update comes at a random point of its first second)
  await flush(20);
  assert.equal(ready().status, 'Unknown');
  // the status update frequency is 1 s here, the report frequency 5 s
  await tick(1200);
  assert.equal(ready().status, 'True');
  await agent.stop();
});
