// Lifecycle details people test against, on `kubelite up` through real kubectl: a liveness probe
// that fails restarts the container (RESTARTS, the kubelet's events), a preStop hook runs within the
// grace period before the container stops, `kubectl patch --subresource resize` resizes in place,
// a Job whose pod has a sidecar completes, and a dual-stack node gives pods an IP of each family.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
const NS = 'details';
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, args, { input });
const json = async <T>(args: string[]): Promise<T> => JSON.parse(await k([...args, '-o', 'json'])) as T;

interface PodJson {
  metadata: { name: string };
  status: {
    phase?: string;
    podIP?: string;
    podIPs?: { ip: string }[];
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    containerStatuses?: { restartCount: number; resources?: { requests?: Record<string, string> }; state?: { terminated?: { exitCode: number; finishedAt: string } } }[];
  };
}

describe('kubelite up: probes, preStop and grace periods, in-place resize, sidecars, dual-stack pod IPs', () => {
  before(async () => {
    cluster = await startCluster({
      nodes: 1,
      args: {
        controllerManager: ['--allocate-node-cidrs', '--cluster-cidr=10.244.0.0/16,fd00:10:244::/56'],
        nodes: ['--register-pod-cidr=false', '--node-cpu=4'],
      },
    });
    await k(['create', 'namespace', NS]);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('a failing liveness probe: Unhealthy, Killing "failed liveness probe, will be restarted", RESTARTS in kubectl get pod', async () => {
    await k(['-n', NS, 'apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata:
  name: sick
  annotations: {kubelite.dev/liveness-fail-after-seconds: "1"}
spec:
  containers:
  - name: app
    image: nginx:1.27
    livenessProbe:
      httpGet: {path: /healthz, port: 80}
      periodSeconds: 1
      failureThreshold: 2
`);
    const listed = await waitFor(async () => {
      const out = await k(['-n', NS, 'get', 'pod', 'sick']);
      return /\bsick\s+\d\/1\s+\S+\s+[1-9]\d*\b/.test(out) ? out : undefined;
    }, 'RESTARTS ≥ 1 in kubectl get pod', 30_000);
    assert.match(listed, /^NAME\s+READY\s+STATUS\s+RESTARTS/);
    const described = await waitFor(async () => {
      const d = await k(['-n', NS, 'describe', 'pod', 'sick']);
      return /Killing\s+.*Container app failed liveness probe, will be restarted/.test(d) ? d : undefined;
    }, 'the Killing event', 20_000);
    assert.match(described, /Warning\s+Unhealthy\s+.*Liveness probe failed: HTTP probe failed with statuscode: 500/);
    assert.match(described, /Liveness:\s+http-get http:\/\/:80\/healthz delay=0s timeout=1s period=1s #success=1 #failure=2/);
    // the kubelet's order: the probe's failures, then the kill
    const events = described.slice(described.indexOf('Events:'));
    assert.ok(events.indexOf('Unhealthy') < events.indexOf('failed liveness probe'), events);
  });

  it('on delete, a preStop sleep runs before SIGTERM; --grace-period is honoured, then the kubelet deletes the pod', async () => {
    // a finalizer keeps the pod readable once the kubelet has deleted it
    await k(['-n', NS, 'apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata:
  name: hook
  finalizers: [kubelite.dev/test-hold]
spec:
  containers:
  - name: app
    image: busybox
    command: [sleep, infinity]
    lifecycle:
      preStop:
        sleep: {seconds: 2}
`);
    await waitFor(async () => (await json<PodJson>(['-n', NS, 'get', 'pod', 'hook'])).status.phase === 'Running', 'hook Running');
    await k(['-n', NS, 'delete', 'pod', 'hook', '--grace-period=4', '--wait=false']);
    const stopped = await waitFor(async () => {
      const p = await json<PodJson>(['-n', NS, 'get', 'pod', 'hook']);
      return p.status.containerStatuses?.[0]?.state?.terminated ? p : undefined;
    }, 'the container stopped', 30_000);
    const terminated = stopped.status.containerStatuses![0]!.state!.terminated!;
    // `sleep` ignores SIGTERM: after the 2 s hook, killed at the end of the 4 s grace period
    assert.equal(terminated.exitCode, 137);
    // from the kubelet's Killing (when it saw the deletion) to the container's end: the hook, then the rest of the grace period
    const killing = await json<{ items: { firstTimestamp?: string; eventTime?: string }[] }>(['-n', NS, 'get', 'events', '--field-selector', 'involvedObject.name=hook,reason=Killing']);
    const killedAt = Date.parse(killing.items[0]!.firstTimestamp ?? killing.items[0]!.eventTime!);
    const waited = (Date.parse(terminated.finishedAt) - killedAt) / 1000;
    assert.ok(waited >= 3, `stopped ${waited}s after the deletion`);
    const described = await k(['-n', NS, 'describe', 'pod', 'hook']);
    assert.match(described, /Normal\s+Killing\s+.*Stopping container app/);
    await k(['-n', NS, 'patch', 'pod', 'hook', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
    await waitFor(async () => (await kubectl(cluster.kubeconfig, ['-n', NS, 'get', 'pod', 'hook'])).code !== 0, 'hook gone');
  });

  it('kubectl patch --subresource resize: resized in place when it fits, PodResizePending Infeasible when it cannot', async () => {
    await k(['-n', NS, 'apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata:
  name: grow
spec:
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests: {cpu: 500m, memory: 64Mi}
      limits: {cpu: 500m, memory: 64Mi}
`);
    await waitFor(async () => (await json<PodJson>(['-n', NS, 'get', 'pod', 'grow'])).status.phase === 'Running', 'grow Running');
    await k(['-n', NS, 'patch', 'pod', 'grow', '--subresource', 'resize', '-p', '{"spec":{"containers":[{"name":"app","resources":{"requests":{"cpu":"1"},"limits":{"cpu":"1"}}}]}}']);
    await waitFor(async () => (await json<PodJson>(['-n', NS, 'get', 'pod', 'grow'])).status.containerStatuses?.[0]?.resources?.requests?.cpu === '1', 'resources.requests.cpu 1');
    await k(['-n', NS, 'patch', 'pod', 'grow', '--subresource', 'resize', '-p', '{"spec":{"containers":[{"name":"app","resources":{"requests":{"cpu":"40"},"limits":{"cpu":"40"}}}]}}']);
    const pending = await waitFor(async () => (await json<PodJson>(['-n', NS, 'get', 'pod', 'grow'])).status.conditions?.find((c) => c.type === 'PodResizePending'), 'PodResizePending');
    assert.deepEqual([pending.status, pending.reason, pending.message], ['True', 'Infeasible', "Node didn't have enough capacity: cpu, requested: 40000, capacity: 4000"]);
    const after = await json<PodJson>(['-n', NS, 'get', 'pod', 'grow']);
    assert.equal(after.status.containerStatuses![0]!.resources!.requests!.cpu, '1', 'the allocated resources stay');
    assert.equal(after.status.containerStatuses![0]!.restartCount, 0);
    // back to a size that fits: the condition goes
    await k(['-n', NS, 'patch', 'pod', 'grow', '--subresource', 'resize', '-p', '{"spec":{"containers":[{"name":"app","resources":{"requests":{"cpu":"2"},"limits":{"cpu":"2"}}}]}}']);
    await waitFor(async () => {
      const p = await json<PodJson>(['-n', NS, 'get', 'pod', 'grow']);
      return p.status.containerStatuses?.[0]?.resources?.requests?.cpu === '2' && !p.status.conditions?.some((c) => c.type === 'PodResizePending');
    }, 'resized to 2 cpu, PodResizePending gone');
  });

  it('a Job whose pod has a sidecar completes; the sidecar is stopped after the main container', async () => {
    await k(['-n', NS, 'apply', '-f', '-'], `apiVersion: batch/v1
kind: Job
metadata:
  name: with-sidecar
spec:
  template:
    spec:
      restartPolicy: Never
      initContainers:
      - name: proxy
        image: envoyproxy/envoy:v1.33.0
        restartPolicy: Always
      containers:
      - name: work
        image: busybox
        command: [sh, -c, "sleep 1"]
`);
    await k(['-n', NS, 'wait', '--for=condition=Complete', 'job/with-sidecar', '--timeout=60s']);
    const pods = await json<{ items: (PodJson & { status: { initContainerStatuses?: { name: string; state?: { terminated?: { exitCode: number } } }[] } })[] }>(['-n', NS, 'get', 'pods', '-l', 'job-name=with-sidecar']);
    const pod = pods.items[0]!;
    assert.equal(pod.status.phase, 'Succeeded');
    assert.equal(pod.status.initContainerStatuses![0]!.state!.terminated!.exitCode, 0);
  });

  it('a dual-stack node (nodeipam gave it both CIDRs) gives each pod an IPv4 and an IPv6 address', async () => {
    const node = await json<{ spec: { podCIDRs?: string[] } }>(['get', 'node', 'kubelite-node-0']);
    assert.equal(node.spec.podCIDRs?.length, 2);
    const pod = await json<PodJson>(['-n', NS, 'get', 'pod', 'grow']);
    assert.equal(pod.status.podIPs?.length, 2);
    assert.equal(pod.status.podIPs![0]!.ip, pod.status.podIP);
    assert.match(pod.status.podIP!, /^10\.244\./);
    assert.match(pod.status.podIPs![1]!.ip, /^fd00:10:244:/);
    const wide = await k(['-n', NS, 'get', 'pod', 'grow', '-o', 'wide']);
    assert.match(wide, /\b10\.244\.\d+\.\d+\b/);
  });
});
