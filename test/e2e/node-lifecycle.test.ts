// Node failures on `kubelite up`, through real kubectl, with the grace period shortened by flags:
// a node annotated kubelite.dev/simulate=NotReady reports Ready=False and goes silent; the node
// lifecycle controller taints it not-ready (NoSchedule and NoExecute), then unreachable once the
// grace period passes with no Lease renewal (conditions Unknown); pods that tolerate the taint for
// a while are evicted after their tolerationSeconds and replaced elsewhere, pods that tolerate it
// for ever stay; when the node comes back the taints go. `kubectl drain` cordons: the unschedulable
// taint follows spec.unschedulable.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

interface Node {
  spec: { taints?: { key: string; effect: string }[]; unschedulable?: boolean };
  status: { conditions: { type: string; status: string; reason?: string; message?: string }[] };
}
interface Pod {
  metadata: { name: string; deletionTimestamp?: string };
  spec: { nodeName?: string };
}

let cluster: Cluster;
const NS = 'failures';
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, args, { input });
const nodeOf = async (name: string): Promise<Node> => JSON.parse(await k(['get', 'node', name, '-o', 'json'])) as Node;
const taints = async (name: string): Promise<string[]> => ((await nodeOf(name)).spec.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();
const podsOf = async (app: string): Promise<Pod[]> => ((JSON.parse(await k(['-n', NS, 'get', 'pods', '-l', `app=${app}`, '-o', 'json'])) as { items: Pod[] }).items).filter((p) => !p.metadata.deletionTimestamp);

/** A Deployment of one pod on `node`, tolerating the not-ready and unreachable taints for `seconds` (or for ever). */
const deployment = (name: string, node: string, seconds?: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 1
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      affinity:
        nodeAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            preference:
              matchFields:
              - key: metadata.name
                operator: In
                values: [${node}]
      tolerations:
      - key: node.kubernetes.io/not-ready
        operator: Exists
        effect: NoExecute${seconds === undefined ? '' : `\n        tolerationSeconds: ${seconds}`}
      - key: node.kubernetes.io/unreachable
        operator: Exists
        effect: NoExecute${seconds === undefined ? '' : `\n        tolerationSeconds: ${seconds}`}
      containers:
      - name: c
        image: nginx
`;

describe('kubelite up: node failures and taint-based eviction', () => {
  before(async () => {
    cluster = await startCluster({
      nodes: 3,
      args: { controllerManager: ['--node-monitor-period=1s', '--node-monitor-grace-period=4s'], nodes: ['--node-lease-renew-interval=500ms'] },
    });
    await k(['create', 'namespace', NS]);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('a NotReady node is tainted, goes Unknown, its pods are evicted after tolerationSeconds; it recovers', async () => {
    const node = 'kubelite-node-1';
    // the nodes are Ready: the not-ready taint the API server put on them at registration is gone
    await waitFor(async () => (await taints(node)).length === 0, 'no taint on a Ready node', 30_000);
    await k(['-n', NS, 'apply', '-f', '-'], deployment('brief', node, 2) + '---\n' + deployment('forever', node));
    await k(['-n', NS, 'rollout', 'status', 'deployment/brief', '--timeout=60s']);
    await k(['-n', NS, 'rollout', 'status', 'deployment/forever', '--timeout=60s']);
    assert.equal((await podsOf('brief'))[0]!.spec.nodeName, node);
    const foreverPod = (await podsOf('forever'))[0]!;
    assert.equal(foreverPod.spec.nodeName, node);

    await k(['annotate', 'node', node, 'kubelite.dev/simulate=NotReady']);
    await waitFor(async () => (await taints(node)).join() === 'node.kubernetes.io/not-ready:NoExecute,node.kubernetes.io/not-ready:NoSchedule', 'not-ready taints', 30_000);
    // silent past the grace period: Unknown, and the taints become unreachable
    await waitFor(async () => (await taints(node)).join() === 'node.kubernetes.io/unreachable:NoExecute,node.kubernetes.io/unreachable:NoSchedule', 'unreachable taints', 30_000);
    const ready = (await nodeOf(node)).status.conditions.find((c) => c.type === 'Ready')!;
    assert.deepEqual([ready.status, ready.reason, ready.message], ['Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.']);

    // the pod that tolerates the taints for 2 s is replaced on another node; the other one stays
    await waitFor(async () => {
      const pods = await podsOf('brief');
      return pods.length === 1 && pods[0]!.spec.nodeName !== undefined && pods[0]!.spec.nodeName !== node;
    }, 'the brief pod replaced elsewhere', 60_000);
    assert.match(await k(['-n', NS, 'get', 'events', '--field-selector', 'reason=TaintManagerEviction']), /Marking for deletion Pod failures\/brief-/);
    assert.deepEqual((await podsOf('forever')).map((p) => p.metadata.name), [foreverPod.metadata.name]);

    // back: Ready again, the taints go
    await k(['annotate', 'node', node, 'kubelite.dev/simulate-']);
    await waitFor(async () => (await taints(node)).length === 0, 'taints removed after recovery', 30_000);
    assert.equal((await nodeOf(node)).status.conditions.find((c) => c.type === 'Ready')!.status, 'True');
  });

  it('a cordoned node gets the unschedulable taint, and loses it when uncordoned', async () => {
    const node = 'kubelite-node-2';
    await k(['cordon', node]);
    await waitFor(async () => (await taints(node)).join() === 'node.kubernetes.io/unschedulable:NoSchedule', 'unschedulable taint', 30_000);
    await k(['uncordon', node]);
    await waitFor(async () => (await taints(node)).length === 0, 'unschedulable taint removed', 30_000);
  });
});
