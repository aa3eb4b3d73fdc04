// What goes wrong on real nodes, simulated on `kubelite up` and seen through real kubectl: an
// image that cannot be pulled (ErrImagePull, ImagePullBackOff, the rollout's progress deadline),
// a container over its memory limit (OOMKilled, restarted), and a node short of memory (the
// MemoryPressure condition, the controller manager's taint, the BestEffort pod evicted first).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
const NS = 'faults';
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, args, { input });
const json = async <T>(args: string[]): Promise<T> => JSON.parse(await k([...args, '-o', 'json'])) as T;

interface PodJson {
  metadata: { name: string };
  status: { phase?: string; reason?: string; message?: string; containerStatuses?: { restartCount: number; lastState?: { terminated?: { reason: string; exitCode: number } } }[] };
}

describe('kubelite up: image pulls, OOM kills, memory pressure', () => {
  before(async () => {
    cluster = await startCluster({
      nodes: 3,
      args: { nodes: ['--node-memory=1Gi', '--image-pull-time=100ms', '--image-pull-backoff=60s', '--eviction-monitoring-interval=500ms', '--node-status-update-frequency=500ms'] },
    });
    await k(['create', 'namespace', NS]);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('a Deployment with an image under registry.invalid/ shows ImagePullBackOff and ends ProgressDeadlineExceeded', async () => {
    await k(['-n', NS, 'apply', '-f', '-'], `apiVersion: apps/v1
kind: Deployment
metadata:
  name: typo
spec:
  replicas: 1
  progressDeadlineSeconds: 3
  selector:
    matchLabels: {app: typo}
  template:
    metadata:
      labels: {app: typo}
    spec:
      nodeSelector: {kubernetes.io/hostname: kubelite-node-0}
      containers:
      - name: app
        image: registry.invalid/team/app:1.0
`);
    const listed = await waitFor(async () => {
      const out = await k(['-n', NS, 'get', 'pods', '-l', 'app=typo']);
      return /\b0\/1\s+ImagePullBackOff\b/.test(out) ? out : undefined;
    }, 'ImagePullBackOff in kubectl get pods', 30_000);
    assert.match(listed, /^NAME\s+READY\s+STATUS/);
    await waitFor(async () => {
      const d = await json<{ status: { conditions?: { type: string; status: string; reason: string }[] } }>(['-n', NS, 'get', 'deployment', 'typo']);
      return d.status.conditions?.some((c) => c.type === 'Progressing' && c.status === 'False' && c.reason === 'ProgressDeadlineExceeded');
    }, 'ProgressDeadlineExceeded', 30_000);
    const pod = (await json<{ items: PodJson[] }>(['-n', NS, 'get', 'pods', '-l', 'app=typo'])).items[0]!;
    const described = await k(['-n', NS, 'describe', 'pod', pod.metadata.name]);
    assert.match(described, /State:\s+Waiting\n\s+Reason:\s+(ErrImagePull|ImagePullBackOff)/);
    // the kubelet's events, in the order it records them (the next pull is a minute away: none aggregated yet)
    const events = described.slice(described.indexOf('Events:')).split('\n').map((l) => /^\s+(Normal|Warning)\s+(\S+)\s+\S+\s+\S+\s+(.*)$/.exec(l)).filter((m) => m !== null).map((m) => `${m[2]} ${m[3]}`);
    const first = events.slice(0, 6).map((e) => e.replace(/^(\S+) .*?(Pulling image|Failed to pull image|Error: \w+|Back-off pulling image|Successfully assigned).*$/, '$1 $2'));
    assert.deepEqual(first, ['Scheduled Successfully assigned', 'Pulling Pulling image', 'Failed Failed to pull image', 'Failed Error: ErrImagePull', 'BackOff Back-off pulling image', 'Failed Error: ImagePullBackOff']);
    assert.match(described, /Failed to pull image "registry.invalid\/team\/app:1.0": failed to pull and unpack image "registry.invalid\/team\/app:1.0": .*lookup registry.invalid: no such host/);
  });

  it('a container over its memory limit is OOMKilled (137) and restarted', async () => {
    await k(['-n', NS, 'apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata:
  name: hog
  annotations: {kubelite.dev/usage: memory=256Mi}
spec:
  nodeSelector: {kubernetes.io/hostname: kubelite-node-1}
  containers:
  - name: app
    image: nginx:1.27
    resources:
      limits: {memory: 128Mi}
`);
    const pod = await waitFor(async () => {
      const p = await json<PodJson>(['-n', NS, 'get', 'pod', 'hog']);
      const c = p.status.containerStatuses?.[0];
      return c && c.restartCount >= 1 && c.lastState?.terminated?.reason === 'OOMKilled' ? p : undefined;
    }, 'OOMKilled and restarted', 30_000);
    assert.equal(pod.status.containerStatuses![0]!.lastState!.terminated!.exitCode, 137);
    assert.match(await k(['-n', NS, 'describe', 'pod', 'hog']), /Last State:\s+Terminated\n\s+Reason:\s+OOMKilled\n\s+Exit Code:\s+137/);
  });

  it('a node short of memory reports MemoryPressure, is tainted, and evicts its BestEffort pod first', async () => {
    const node = 'kubelite-node-2';
    await k(['-n', NS, 'apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata:
  name: guaranteed
  annotations: {kubelite.dev/usage: memory=500Mi}
spec:
  nodeSelector: {kubernetes.io/hostname: ${node}}
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests: {memory: 600Mi, cpu: 100m}
      limits: {memory: 600Mi, cpu: 100m}
`);
    await k(['-n', NS, 'wait', '--for=condition=Ready', 'pod/guaranteed', '--timeout=30s']);
    // 1Gi - 256Mi for the system - 500Mi - 200Mi leaves 68Mi, under the kubelet's memory.available<100Mi
    await k(['-n', NS, 'apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata:
  name: best-effort
  annotations: {kubelite.dev/usage: memory=200Mi}
spec:
  nodeSelector: {kubernetes.io/hostname: ${node}}
  containers:
  - name: app
    image: nginx:1.27
`);
    const evicted = await waitFor(async () => {
      const p = await json<PodJson>(['-n', NS, 'get', 'pod', 'best-effort']);
      return p.status.reason === 'Evicted' ? p : undefined;
    }, 'the BestEffort pod evicted', 30_000);
    assert.equal(evicted.status.phase, 'Failed');
    assert.match(evicted.status.message!, /^The node was low on resource: memory\. Threshold quantity: 100Mi, available: \d+\w+\. Container app was using 200Mi, request is 0, has larger consumption of memory\. $/);
    interface NodeJson { spec: { taints?: { key: string; effect: string }[] }; status: { conditions: { type: string; status: string; reason: string }[] } }
    const n = await waitFor(async () => {
      const o = await json<NodeJson>(['get', 'node', node]);
      return o.spec.taints?.some((t) => t.key === 'node.kubernetes.io/memory-pressure' && t.effect === 'NoSchedule') ? o : undefined;
    }, 'the memory-pressure taint', 30_000);
    const pressure = n.status.conditions.find((c) => c.type === 'MemoryPressure')!;
    assert.deepEqual([pressure.status, pressure.reason], ['True', 'KubeletHasInsufficientMemory']);
    assert.equal((await json<PodJson>(['-n', NS, 'get', 'pod', 'guaranteed'])).status.phase, 'Running');
    const described = await k(['-n', NS, 'describe', 'pod', 'best-effort']);
    assert.match(described, /Status:\s+Failed\nReason:\s+Evicted/);
    assert.match(described, /Warning\s+Evicted\s+.*The node was low on resource: memory\./);
  });
});
