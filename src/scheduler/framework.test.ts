import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Node, NodeSelectorRequirement, Pod, PodAffinityTerm, PodSpec, Taint } from '../api/types.js';
import { SchedulerCache } from './cache.js';
import { ERR_AFFINITY, ERR_ANTI_AFFINITY, ERR_EXISTING_ANTI_AFFINITY, ERR_NODE_AFFINITY, ERR_NOT_READY, ERR_PORTS, ERR_SPREAD, ERR_SPREAD_LABEL, ERR_UNSCHEDULABLE, filter, fitErrorMessage, numFeasibleNodesToFind, preFilter, schedulePod, score } from './framework.js';
import { newPodInfo, podRequests, systemDefaultSpread } from './model.js';

function node(name: string, o: { cpu?: string; memory?: string; pods?: string; labels?: Record<string, string>; taints?: Taint[]; unschedulable?: boolean; ready?: boolean; eph?: string } = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(o.labels ?? {}) } },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: {
      allocatable: { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: o.pods ?? '110', ...(o.eph ? { 'ephemeral-storage': o.eph } : {}) },
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  };
}

let seq = 0;
function pod(o: { name?: string; ns?: string; node?: string; cpu?: string; memory?: string; labels?: Record<string, string>; spec?: PodSpec; containers?: Container[]; phase?: string } = {}): Pod {
  const requests: Record<string, string> = {};
  if (o.cpu) requests.cpu = o.cpu;
  if (o.memory) requests.memory = o.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: o.name ?? `p${seq++}`, namespace: o.ns ?? 'default', labels: o.labels ?? {}, uid: `u${seq}` },
    spec: { containers: o.containers ?? [{ name: 'c', image: 'i', resources: { requests } }], ...(o.node ? { nodeName: o.node } : {}), ...(o.spec ?? {}) },
    status: o.phase ? { phase: o.phase } : {},
  };
}

function cacheOf(nodes: Node[], pods: Pod[] = []): SchedulerCache {
  const c = new SchedulerCache();
  for (const n of nodes) c.addOrUpdateNode(n);
  for (const p of pods) c.addOrUpdatePod(p);
  return c;
}

/** The reasons a pod gets on one node ([] when it fits). */
function reasons(c: SchedulerCache, p: Pod, nodeName: string): string[] {
  const st = filter(preFilter(c, newPodInfo(p)), c.nodeInfo(nodeName)!);
  return st ? st.reasons : [];
}

test('pod requests: containers, init containers, sidecars, overhead', () => {
  const cases: { name: string; spec: PodSpec; want: Record<string, number> }[] = [
    { name: 'sum of containers', spec: { containers: [{ resources: { requests: { cpu: '100m', memory: '1Mi' } } }, { resources: { requests: { cpu: '200m' } } }] }, want: { cpu: 300, memory: 1048576 } },
    { name: 'init bigger', spec: { containers: [{ resources: { requests: { cpu: '100m' } } }], initContainers: [{ resources: { requests: { cpu: '1' } } }] }, want: { cpu: 1000 } },
    { name: 'overhead added', spec: { containers: [{ resources: { requests: { cpu: '100m' } } }], overhead: { cpu: '50m' } }, want: { cpu: 150 } },
    {
      name: 'sidecar counted with containers and later inits',
      spec: {
        containers: [{ resources: { requests: { cpu: '100m' } } }],
        initContainers: [{ restartPolicy: 'Always', resources: { requests: { cpu: '200m' } } }, { resources: { requests: { cpu: '250m' } } }],
      },
      // containers 100 + sidecar 200 = 300; init 250 + sidecar 200 = 450
      want: { cpu: 450 },
    },
  ];
  for (const c of cases) assert.deepEqual(podRequests(c.spec), c.want, c.name);
  assert.deepEqual(podRequests({ containers: [{}] }, true), { cpu: 100, memory: 200 * 1024 * 1024 });
});

test('filters: table', () => {
  const nodes = [
    node('ready'),
    node('notready', { ready: false }),
    node('cordoned', { unschedulable: true }),
    node('tainted', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }),
    node('prefer', { taints: [{ key: 'k', value: 'v', effect: 'PreferNoSchedule' }] }),
    node('small', { cpu: '500m', memory: '1Gi', pods: '2' }),
    node('zoned', { labels: { zone: 'a', size: '10' } }),
  ];
  const existing = [pod({ node: 'small', cpu: '400m' }), pod({ node: 'ready', containers: [{ ports: [{ containerPort: 80, hostPort: 8080 }] }] })];
  const c = cacheOf(nodes, existing);
  const cases: { name: string; pod: Pod; node: string; want: string[] }[] = [
    { name: 'fits', pod: pod({ cpu: '1' }), node: 'ready', want: [] },
    { name: 'not ready', pod: pod(), node: 'notready', want: [ERR_NOT_READY] },
    { name: 'unschedulable', pod: pod(), node: 'cordoned', want: [ERR_UNSCHEDULABLE] },
    { name: 'unschedulable tolerated', pod: pod({ spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] } }), node: 'cordoned', want: [] },
    { name: 'taint', pod: pod(), node: 'tainted', want: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'] },
    { name: 'taint tolerated by Exists', pod: pod({ spec: { tolerations: [{ operator: 'Exists' }] } }), node: 'tainted', want: [] },
    { name: 'taint tolerated by key', pod: pod({ spec: { tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] } }), node: 'tainted', want: [] },
    { name: 'PreferNoSchedule does not filter', pod: pod(), node: 'prefer', want: [] },
    { name: 'insufficient cpu', pod: pod({ cpu: '200m' }), node: 'small', want: ['Insufficient cpu'] },
    { name: 'insufficient cpu and memory', pod: pod({ cpu: '200m', memory: '2Gi' }), node: 'small', want: ['Insufficient cpu', 'Insufficient memory'] },
    { name: 'zero request fits', pod: pod(), node: 'small', want: [] },
    { name: 'nodeSelector', pod: pod({ spec: { nodeSelector: { zone: 'a' } } }), node: 'ready', want: [ERR_NODE_AFFINITY] },
    { name: 'nodeSelector match', pod: pod({ spec: { nodeSelector: { zone: 'a' } } }), node: 'zoned', want: [] },
    ...(
      [
        ['In', { key: 'zone', operator: 'In', values: ['a', 'b'] }, 'zoned', true],
        ['NotIn', { key: 'zone', operator: 'NotIn', values: ['a'] }, 'zoned', false],
        ['Exists', { key: 'zone', operator: 'Exists' }, 'ready', false],
        ['DoesNotExist', { key: 'zone', operator: 'DoesNotExist' }, 'ready', true],
        ['Gt', { key: 'size', operator: 'Gt', values: ['5'] }, 'zoned', true],
        ['Lt', { key: 'size', operator: 'Lt', values: ['5'] }, 'zoned', false],
      ] satisfies [string, NodeSelectorRequirement, string, boolean][]
    ).map(([op, expr, n, ok]) => ({
      name: `node affinity ${op}`,
      pod: pod({ spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr] }] } } } } }),
      node: n,
      want: ok ? [] : [ERR_NODE_AFFINITY],
    })),
    {
      name: 'node affinity matchFields',
      pod: pod({ spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['zoned'] }] }] } } } } }),
      node: 'ready',
      want: [ERR_NODE_AFFINITY],
    },
    { name: 'host port conflict', pod: pod({ containers: [{ ports: [{ containerPort: 1, hostPort: 8080 }] }] }), node: 'ready', want: [ERR_PORTS] },
    { name: 'host port other protocol', pod: pod({ containers: [{ ports: [{ containerPort: 1, hostPort: 8080, protocol: 'UDP' }] }] }), node: 'ready', want: [] },
  ];
  for (const tc of cases) assert.deepEqual(reasons(c, tc.pod, tc.node), tc.want, tc.name);
  // Too many pods
  const full = cacheOf([node('n', { pods: '1' })], [pod({ node: 'n' })]);
  assert.deepEqual(reasons(full, pod(), 'n'), ['Too many pods']);
});

test('inter-pod affinity and anti-affinity (required)', () => {
  const nodes = [node('a1', { labels: { zone: 'a' } }), node('a2', { labels: { zone: 'a' } }), node('b1', { labels: { zone: 'b' } }), node('nolabel')];
  const db = pod({ node: 'a1', labels: { app: 'db' } });
  const c = cacheOf(nodes, [db]);
  const affinity = (kind: 'podAffinity' | 'podAntiAffinity', app: string, key = 'zone') => ({
    affinity: { [kind]: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app } }, topologyKey: key }] } },
  });
  const withDb = pod({ spec: affinity('podAffinity', 'db') });
  assert.deepEqual(reasons(c, withDb, 'a2'), []);
  assert.deepEqual(reasons(c, withDb, 'b1'), [ERR_AFFINITY]);
  assert.deepEqual(reasons(c, withDb, 'nolabel'), [ERR_AFFINITY]);
  const awayFromDb = pod({ spec: affinity('podAntiAffinity', 'db') });
  assert.deepEqual(reasons(c, awayFromDb, 'a2'), [ERR_ANTI_AFFINITY]);
  assert.deepEqual(reasons(c, awayFromDb, 'b1'), []);
  assert.deepEqual(reasons(c, awayFromDb, 'nolabel'), []);
  // The first pod of a group matching its own affinity goes anywhere.
  const self = pod({ labels: { app: 'web' }, spec: affinity('podAffinity', 'web') });
  assert.deepEqual(reasons(c, self, 'b1'), []);
  // An existing pod's anti-affinity keeps matching pods out of its zone.
  const lonely = pod({ node: 'b1', labels: { app: 'lonely' }, spec: affinity('podAntiAffinity', 'web') });
  const c2 = cacheOf(nodes, [lonely]);
  assert.deepEqual(reasons(c2, pod({ labels: { app: 'web' } }), 'b1'), [ERR_EXISTING_ANTI_AFFINITY]);
  assert.deepEqual(reasons(c2, pod({ labels: { app: 'web' } }), 'a1'), []);
  assert.deepEqual(reasons(c2, pod({ labels: { app: 'web' }, ns: 'other' }), 'b1'), []);
});

test('topology spread DoNotSchedule', () => {
  const nodes = [node('a1', { labels: { zone: 'a' } }), node('b1', { labels: { zone: 'b' } }), node('x')];
  const web = (n: string) => pod({ node: n, labels: { app: 'web' } });
  const c = cacheOf(nodes, [web('a1'), web('a1'), web('b1')]);
  const spread = (maxSkew: number, minDomains?: number) =>
    pod({ labels: { app: 'web' }, spec: { topologySpreadConstraints: [{ maxSkew, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } }, ...(minDomains ? { minDomains } : {}) }] } });
  assert.deepEqual(reasons(c, spread(1), 'a1'), [ERR_SPREAD]);
  assert.deepEqual(reasons(c, spread(1), 'b1'), []);
  assert.deepEqual(reasons(c, spread(2), 'a1'), []);
  assert.deepEqual(reasons(c, spread(1), 'x'), [ERR_SPREAD_LABEL]);
  // minDomains 3 with 2 domains: the global minimum counts as 0.
  assert.deepEqual(reasons(c, spread(2, 3), 'b1'), []);
  assert.deepEqual(reasons(c, spread(1, 3), 'b1'), [ERR_SPREAD]);
});

test('scores: least allocated, preferred affinity, PreferNoSchedule, spread', () => {
  const c = cacheOf([node('busy'), node('idle')], [pod({ node: 'busy', cpu: '3', memory: '6Gi' })]);
  const pick = (p: Pod) => schedulePod(c, newPodInfo(p), 0, () => 0.99).node;
  assert.equal(pick(pod({ cpu: '100m' })), 'idle');
  const cz = cacheOf([node('a', { labels: { disk: 'ssd' } }), node('b')]);
  const pref = pod({ spec: { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } }] } } } });
  assert.equal(schedulePod(cz, newPodInfo(pref), 1).node, 'a');
  const ct = cacheOf([node('a', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] }), node('b')]);
  assert.equal(schedulePod(ct, newPodInfo(pod()), 0).node, 'b');
  const st = preFilter(ct, newPodInfo(pod()));
  const s = score(ct, st, [ct.nodeInfo('a')!, ct.nodeInfo('b')!]);
  assert.ok(s[1]! > s[0]!);
  // ScheduleAnyway spread prefers the emptier zone.
  const cs = cacheOf([node('a1', { labels: { zone: 'a' } }), node('b1', { labels: { zone: 'b' } })], [pod({ node: 'a1', labels: { app: 'w' } }), pod({ node: 'a1', labels: { app: 'w' } })]);
  const soft = pod({ labels: { app: 'w' }, spec: { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'w' } } }] } });
  assert.equal(schedulePod(cs, newPodInfo(soft), 0).node, 'b1');
  // Preferred pod affinity pulls towards the zone of the matching pods.
  const ca = cacheOf([node('a1', { labels: { zone: 'a' } }), node('b1', { labels: { zone: 'b' } })], [pod({ node: 'b1', labels: { app: 'db' } })]);
  const near = pod({ spec: { affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'zone' } }] } } } });
  assert.equal(schedulePod(ca, newPodInfo(near), 0).node, 'b1');
});

test('unschedulable message: reasons histogram sorted, preemption part', () => {
  const c = cacheOf(
    [node('cp', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }), node('w1', { cpu: '1' }), node('w2', { cpu: '1' })],
    [],
  );
  const r = schedulePod(c, newPodInfo(pod({ cpu: '2' })));
  assert.equal(r.node, undefined);
  assert.equal(
    r.message,
    '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
  );
  assert.equal(
    fitErrorMessage(3, [{ reasons: ['Insufficient cpu'], unresolvable: false }, { reasons: ['Insufficient cpu', 'Insufficient memory'], unresolvable: false }, { reasons: ['Too many pods'], unresolvable: false }]),
    '0/3 nodes are available: 1 Insufficient memory, 1 Too many pods, 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
  );
  assert.equal(
    fitErrorMessage(1, [{ reasons: ["node(s) didn't match Pod's node affinity/selector"], unresolvable: true }], newPodInfo(pod({ spec: { preemptionPolicy: 'Never' } }))),
    "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: not eligible due to preemptionPolicy=Never.",
  );
  assert.equal(schedulePod(new SchedulerCache(), newPodInfo(pod())).message, 'no nodes available to schedule pods');
});

test('cache: assumed pods count until seen, terminal pods do not count, numFeasibleNodesToFind', () => {
  const c = cacheOf([node('n', { cpu: '1' })]);
  const p = newPodInfo(pod({ name: 'a', cpu: '600m' }));
  c.assume(p, 'n');
  assert.equal(c.nodeInfo('n')!.requested.cpu, 600);
  assert.equal(schedulePod(c, newPodInfo(pod({ cpu: '600m' }))).node, undefined);
  c.forget(p.key);
  assert.equal(c.nodeInfo('n')!.requested.cpu, 0);
  c.assume(p, 'n');
  c.addOrUpdatePod(pod({ name: 'a', cpu: '600m', node: 'n' }));
  assert.equal(c.isAssumed(p.key), false);
  assert.equal(c.nodeInfo('n')!.requested.cpu, 600);
  c.addOrUpdatePod(pod({ name: 'a', cpu: '600m', node: 'n', phase: 'Succeeded' }));
  assert.equal(c.nodeInfo('n')!.requested.cpu, 0);
  assert.equal(numFeasibleNodesToFind(50), 50);
  assert.equal(numFeasibleNodesToFind(1000), 420);
  assert.equal(numFeasibleNodesToFind(5000), 500);
});

test('pod affinity namespaceSelector and namespaces', () => {
  const nodes = [node('a1', { labels: { zone: 'a' } }), node('b1', { labels: { zone: 'b' } })];
  const c = cacheOf(nodes, [pod({ node: 'a1', ns: 'team-x', labels: { app: 'db' } })]);
  c.setNamespace('team-x', { team: 'x' });
  c.setNamespace('default', {});
  const term = (extra: PodAffinityTerm) =>
    pod({ spec: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'zone', ...extra }] } } } });
  // Own namespace only: the db in team-x does not count.
  assert.deepEqual(reasons(c, term({}), 'a1'), [ERR_AFFINITY]);
  assert.deepEqual(reasons(c, term({ namespaces: ['team-x'] }), 'a1'), []);
  assert.deepEqual(reasons(c, term({ namespaceSelector: { matchLabels: { team: 'x' } } }), 'a1'), []);
  assert.deepEqual(reasons(c, term({ namespaceSelector: { matchLabels: { team: 'x' } } }), 'b1'), [ERR_AFFINITY]);
  assert.deepEqual(reasons(c, term({ namespaceSelector: { matchLabels: { team: 'y' } } }), 'a1'), [ERR_AFFINITY]);
  assert.deepEqual(reasons(c, term({ namespaceSelector: {} }), 'a1'), []);
});

test('system default spread (ScheduleAnyway, hostname and zone) scores nodes missing the zone label', () => {
  const web = (n: string) => pod({ node: n, labels: { app: 'web' } });
  const c = cacheOf([node('n1'), node('n2')], [web('n1'), web('n1'), web('n1')]);
  const p = newPodInfo(pod({ labels: { app: 'web' } }));
  p.spread = systemDefaultSpread((l) => l.app === 'web');
  p.spreadSystemDefaulted = true;
  const nodes = [c.nodeInfo('n1')!, c.nodeInfo('n2')!];
  const withDefaults = score(c, preFilter(c, p), nodes);
  const plain = score(c, preFilter(c, newPodInfo(pod({ labels: { app: 'web' } }))), nodes);
  // The spread part (weight 2) favours the node without matching pods.
  assert.ok(withDefaults[1]! - withDefaults[0]! > plain[1]! - plain[0]!, `${withDefaults} vs ${plain}`);
});

test('spread counts: pods per node by label set, without pods being deleted, other namespaces or ended pods; the selector runs once per label set', () => {
  const web = { app: 'web' };
  const deleting = pod({ node: 'a', labels: web });
  deleting.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
  const c = cacheOf(
    [node('a'), node('b')],
    [pod({ node: 'a', labels: web }), pod({ node: 'a', labels: web }), pod({ node: 'b', labels: web }), pod({ node: 'b', labels: { app: 'db' } }), pod({ node: 'b', labels: web, ns: 'other' }), deleting],
  );
  const ended = pod({ node: 'b', labels: web });
  c.addOrUpdatePod(ended);
  c.addOrUpdatePod({ ...ended, status: { phase: 'Succeeded' } });
  let calls = 0;
  const counts = c.matchingPodCounts('default', (l) => (calls++, l.app === 'web'));
  assert.deepEqual([...counts].map(([ni, n]) => [ni.name, n]).sort(), [['a', 2], ['b', 1]]);
  assert.equal(calls, 2, 'once per distinct label set of the namespace');
  const p = newPodInfo(pod({ labels: web }));
  c.assume(p, 'b');
  assert.equal(c.matchingPodCounts('default', (l) => l.app === 'web').get(c.nodeInfo('b')!), 2, 'an assumed pod counts');
  c.forget(p.key);
  assert.equal(c.matchingPodCounts('default', (l) => l.app === 'web').get(c.nodeInfo('b')!), 1);
});
