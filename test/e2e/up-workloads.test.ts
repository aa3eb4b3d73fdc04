// The workloads a user runs on `kubelite up`, driven by real kubectl only, on one shared cluster
// from startCluster() (3 simulated nodes, lmdb): each test in its own namespace, so they run side
// by side. Deployments roll out, scale, change image and roll back with Kubernetes' revision
// annotations; Jobs complete (never more pods active than their parallelism) or fail with
// BackoffLimitExceeded; a CronJob starts Jobs; a DaemonSet puts one pod on each node; a pod no
// node fits says why in `kubectl describe`. Job pods run 0.2 s (the nodes' run-seconds annotation).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk, kubectlStream } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

interface Pod {
  metadata: { name: string; deletionTimestamp?: string; ownerReferences?: Array<{ kind: string; name: string }> };
  spec: { nodeName?: string; containers: Array<{ image: string }> };
  status: { phase: string; conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> };
}

let cluster: Cluster;

function k(args: string[], opts: { version?: string; input?: string } = {}): Promise<string> {
  return kubectlOk(cluster.kubeconfig, args, opts);
}

/** Creates the test's namespace and applies `manifest` in it. */
async function applyInNewNamespace(ns: string, manifest: string): Promise<void> {
  await k(['create', 'namespace', ns]);
  await k(['-n', ns, 'apply', '-f', '-'], { input: manifest });
}

async function getJson<T>(args: string[], version?: string): Promise<T> {
  return JSON.parse(await k(['get', ...args, '-o', 'json'], { version })) as T;
}

async function pods(ns: string, selector: string): Promise<Pod[]> {
  return (await getJson<{ items: Pod[] }>(['pods', '-n', ns, '-l', selector])).items;
}

/** A batch/v1 Job manifest whose pods run `runSeconds` and exit with `exitCode` (node annotations). */
function jobYaml(name: string, spec: { completions: number; parallelism: number; backoffLimit?: number; runSeconds: number; exitCode?: number }): string {
  return `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
spec:
  completions: ${spec.completions}
  parallelism: ${spec.parallelism}
  backoffLimit: ${spec.backoffLimit ?? 6}
  template:
    metadata:
      annotations:
        kubelite.dev/run-seconds: "${spec.runSeconds}"
        kubelite.dev/exit-code: "${spec.exitCode ?? 0}"
    spec:
      restartPolicy: Never
      containers:
      - name: work
        image: busybox
`;
}

describe('kubelite up: workloads through kubectl', { concurrency: true }, () => {
  before(async () => {
    cluster = await startCluster({ nodes: 3 });
  });
  after(async () => {
    await cluster?.stop();
  });

  for (const version of ['1.33', '1.27']) {
    it(`kubectl ${version}: a deployment rolls out, scales to 10, changes image and rolls back with Kubernetes' revisions`, async () => {
      const ns = `deploy-${version.replace('.', '-')}`;
      const kv = (args: string[]) => k(['-n', ns, ...args], { version });
      await k(['create', 'namespace', ns], { version });
      await kv(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
      await kv(['rollout', 'status', 'deployment/web', '--timeout=60s']);
      let running = (await pods(ns, 'app=web')).filter((p) => p.status.phase === 'Running');
      assert.equal(running.length, 3);

      await kv(['scale', 'deployment/web', '--replicas=10']);
      await kv(['rollout', 'status', 'deployment/web', '--timeout=60s']);
      running = (await pods(ns, 'app=web')).filter((p) => p.status.phase === 'Running');
      assert.equal(running.length, 10);
      assert.equal(new Set(running.map((p) => p.spec.nodeName)).size, 3, 'spread over the 3 nodes');
      const [firstRs] = (await getJson<{ items: Array<{ metadata: { name: string } }> }>(['-n', ns, 'replicasets', '-l', 'app=web'])).items;

      await kv(['set', 'image', 'deployment/web', 'nginx=nginx:1.25']);
      await kv(['rollout', 'status', 'deployment/web', '--timeout=60s']);
      const replicaSets = async () =>
        (await getJson<{ items: Array<{ metadata: { name: string; annotations: Record<string, string> }; spec: { replicas: number; template: { spec: { containers: Array<{ image: string }> } } } }> }>(['-n', ns, 'replicasets', '-l', 'app=web'])).items;
      let rss = await replicaSets();
      assert.equal(rss.length, 2, 'a new ReplicaSet for the new template');
      const newRs = rss.find((r) => r.metadata.name !== firstRs!.metadata.name)!;
      assert.equal(newRs.spec.template.spec.containers[0]!.image, 'nginx:1.25');
      assert.equal(newRs.spec.replicas, 10);
      assert.equal(rss.find((r) => r.metadata.name === firstRs!.metadata.name)!.spec.replicas, 0);
      // The old pods go once their graceful deletion ends (nginx stops at once on SIGTERM).
      await waitFor(async () => {
        const ps = await pods(ns, 'app=web');
        return ps.length === 10 && ps.every((p) => p.spec.containers[0]!.image === 'nginx:1.25' && p.status.phase === 'Running');
      }, '10 Running pods of the new image', 30_000);

      await kv(['rollout', 'undo', 'deployment/web']);
      await kv(['rollout', 'status', 'deployment/web', '--timeout=60s']);
      rss = await replicaSets();
      const back = rss.find((r) => r.metadata.name === firstRs!.metadata.name)!;
      assert.equal(back.spec.replicas, 10);
      // As Kubernetes: the rolled-back-to ReplicaSet takes the next revision and remembers its old one.
      assert.equal(back.metadata.annotations['deployment.kubernetes.io/revision'], '3');
      assert.equal(back.metadata.annotations['deployment.kubernetes.io/revision-history'], '1');
      assert.equal(rss.find((r) => r.metadata.name === newRs.metadata.name)!.metadata.annotations['deployment.kubernetes.io/revision'], '2');
      const deployment = await getJson<{ metadata: { annotations: Record<string, string> }; spec: { template: { spec: { containers: Array<{ image: string }> } } } }>(['-n', ns, 'deployment/web'], version);
      assert.equal(deployment.metadata.annotations['deployment.kubernetes.io/revision'], '3');
      assert.equal(deployment.spec.template.spec.containers[0]!.image, 'nginx');
      assert.match(await kv(['rollout', 'history', 'deployment/web']), /REVISION\s+CHANGE-CAUSE\s*\n2\s+<none>\s*\n3\s+<none>/);
      await waitFor(async () => {
        const ps = await pods(ns, 'app=web');
        return ps.length === 10 && ps.every((p) => p.spec.containers[0]!.image === 'nginx' && p.status.phase === 'Running');
      }, '10 Running pods of the old image again', 30_000);
    });
  }

  it('a Job with completions 5 and parallelism 2 completes, never more than 2 pods active at once', async () => {
    const ns = 'job-parallel';
    await k(['create', 'namespace', ns]);
    // Every change of the Job's pods, in the API server's order, from before the first one exists:
    // the watch shows a marker pod first (its initial list), so it is running before the Job is made.
    await k(['-n', ns, 'run', 'marker', '--image=nginx', '--labels=batch.kubernetes.io/job-name=marker']);
    const watch = kubectlStream(cluster.kubeconfig, ['-n', ns, 'get', 'pods', '-l', 'batch.kubernetes.io/job-name in (five, marker)', '--watch', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name,PHASE:.status.phase']);
    try {
      await watch.waitFor(/^marker\s/m);
      await k(['-n', ns, 'apply', '-f', '-'], { input: jobYaml('five', { completions: 5, parallelism: 2, runSeconds: 0.2 }) });
      await k(['-n', ns, 'wait', '--for=condition=complete', 'job/five', '--timeout=60s']);
      /** Replays the watch: each pod's last phase, and the most pods active (not ended) at once. */
      const replay = () => {
        const phase = new Map<string, string>();
        let maxActive = 0;
        for (const line of watch.output().split('\n')) {
          const [name, p] = line.trim().split(/\s+/);
          if (!name || !p || !name.startsWith('five-')) continue;
          phase.set(name, p);
          maxActive = Math.max(maxActive, [...phase.values()].filter((v) => v !== 'Succeeded' && v !== 'Failed').length);
        }
        return { succeeded: [...phase.values()].filter((v) => v === 'Succeeded').length, maxActive };
      };
      const { maxActive } = await waitFor(() => (replay().succeeded === 5 ? replay() : undefined), `5 Succeeded pods in the watch:\n${watch.output()}`, 30_000);
      assert.ok(maxActive >= 1 && maxActive <= 2, `${maxActive} pods active at once:\n${watch.output()}`);
    } finally {
      watch.child.kill();
    }
    const job = await getJson<{ status: { succeeded: number; active?: number } }>(['-n', ns, 'job/five']);
    assert.equal(job.status.succeeded, 5);
    assert.equal(job.status.active ?? 0, 0);
  });

  it('a Job whose pods exit non-zero fails with BackoffLimitExceeded', async () => {
    const ns = 'job-failing';
    await applyInNewNamespace(ns, jobYaml('fails', { completions: 1, parallelism: 1, backoffLimit: 0, runSeconds: 0.2, exitCode: 3 }));
    await k(['-n', ns, 'wait', '--for=condition=failed', 'job/fails', '--timeout=60s']);
    const job = await getJson<{ status: { failed: number; conditions: Array<{ type: string; status: string; reason: string }> } }>(['-n', ns, 'job/fails']);
    const failed = job.status.conditions.find((c) => c.type === 'Failed');
    assert.equal(failed?.status, 'True');
    assert.equal(failed?.reason, 'BackoffLimitExceeded');
    assert.equal(job.status.failed, 1);
    const [pod] = await pods(ns, 'batch.kubernetes.io/job-name=fails');
    assert.equal(pod?.status.phase, 'Failed');
    // The event is recorded asynchronously, after the status write kubectl wait saw.
    await waitFor(async () => /Warning\s+BackoffLimitExceeded\s+.*Job has reached the specified backoff limit/.test(await k(['-n', ns, 'describe', 'job/fails'])), 'the BackoffLimitExceeded event', 30_000);
  });

  it('a CronJob starts Jobs that complete', async () => {
    const ns = 'cron';
    // `@every 1s` (robfig's ConstantDelaySchedule, which Kubernetes accepts) fires a second after
    // creation, so the test need not wait for a minute boundary.
    await applyInNewNamespace(
      ns,
      `apiVersion: batch/v1
kind: CronJob
metadata:
  name: tick
spec:
  schedule: "@every 1s"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        metadata:
          annotations:
            kubelite.dev/run-seconds: "0.2"
        spec:
          restartPolicy: Never
          containers:
          - name: tick
            image: busybox
`,
    );
    const job = await waitFor(async () => (await getJson<{ items: Array<{ metadata: { name: string; ownerReferences?: Array<{ kind: string; name: string; controller?: boolean }> } }> }>(['-n', ns, 'jobs'])).items[0], 'a Job of the CronJob', 30_000);
    assert.match(job.metadata.name, /^tick-\d+$/);
    assert.deepEqual(job.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.controller]), [['CronJob', 'tick', true]]);
    await k(['-n', ns, 'wait', '--for=condition=complete', `job/${job.metadata.name}`, '--timeout=60s']);
    const cj = await waitFor(async () => {
      const c = await getJson<{ status: { lastScheduleTime?: string; lastSuccessfulTime?: string } }>(['-n', ns, 'cronjob/tick']);
      return c.status.lastSuccessfulTime ? c : undefined;
    }, 'the CronJob to see its Job succeed', 30_000);
    assert.ok(cj.status.lastScheduleTime);
    assert.match(await k(['-n', ns, 'get', 'cronjob/tick']), /tick\s+@every 1s\s+.*False\s+\d+\s+\d+s/);
    await k(['-n', ns, 'delete', 'cronjob/tick']);
  });

  it('a DaemonSet runs exactly one pod on each of the 3 nodes', async () => {
    const ns = 'daemons';
    await applyInNewNamespace(
      ns,
      `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: agent
        image: fluent/fluent-bit
`,
    );
    await k(['-n', ns, 'rollout', 'status', 'daemonset/agent', '--timeout=60s']);
    const ps = await pods(ns, 'app=agent');
    assert.deepEqual(ps.map((p) => p.spec.nodeName).sort(), ['kubelite-node-0', 'kubelite-node-1', 'kubelite-node-2']);
    assert.ok(ps.every((p) => p.status.phase === 'Running'));
    const ds = await getJson<{ status: { desiredNumberScheduled: number; numberReady: number; numberAvailable: number } }>(['-n', ns, 'daemonset/agent']);
    assert.deepEqual([ds.status.desiredNumberScheduled, ds.status.numberReady, ds.status.numberAvailable], [3, 3, 3]);
  });

  it('a pod that fits no node stays Pending and says why in kubectl describe', async () => {
    const ns = 'unschedulable';
    await applyInNewNamespace(
      ns,
      `apiVersion: v1
kind: Pod
metadata:
  name: picky
spec:
  nodeSelector:
    disktype: nvme
  containers:
  - name: c
    image: nginx
---
apiVersion: v1
kind: Pod
metadata:
  name: greedy
spec:
  containers:
  - name: c
    image: nginx
    resources:
      requests:
        cpu: "64"
`,
    );
    const picky = "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
    const greedy = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
    for (const [name, message] of [['picky', picky], ['greedy', greedy]] as const) {
      const cond = await waitFor(async () => (await getJson<Pod>(['-n', ns, `pod/${name}`])).status.conditions?.find((c) => c.type === 'PodScheduled'), `${name}'s PodScheduled condition`, 30_000);
      assert.deepEqual([cond.status, cond.reason, cond.message], ['False', 'Unschedulable', message]);
      const described = await waitFor(async () => {
        const d = await k(['-n', ns, 'describe', `pod/${name}`]);
        return /FailedScheduling/.test(d) ? d : undefined;
      }, `${name}'s FailedScheduling event`, 30_000);
      assert.match(described, /Status:\s+Pending/);
      assert.match(described, /PodScheduled\s+False/);
      assert.ok(described.includes(`Warning  FailedScheduling  `) && described.includes(`default-scheduler  ${message}`), described);
    }
  });
});
