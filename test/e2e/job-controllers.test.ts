// The job, cronjob and ttl-after-finished controllers in a real `kubelite controller-manager`
// process against a real `kubelite apiserver`; the test plays the kubelet (it patches pods/status)
// and kubectl waits for the Job's conditions.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { KUBELITE_BIN, startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';
import { freePort } from '../support/ports.js';

let api: RunningApiserver;
let manager: ChildProcess | undefined;
let logs = '';

async function json(path: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${api.url}${path}`, { ...init, headers: { 'Content-Type': 'application/json', ...(init.headers ?? {}) } });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

async function podsOf(job: string): Promise<Record<string, unknown>[]> {
  const r = await json(`/api/v1/namespaces/default/pods?labelSelector=${encodeURIComponent(`batch.kubernetes.io/job-name=${job}`)}`);
  return (r.body.items ?? []) as Record<string, unknown>[];
}

/** The kubelet's part: a pod ran and ended in `phase`. */
async function finishPod(pod: Record<string, unknown>, phase: 'Succeeded' | 'Failed'): Promise<void> {
  const name = (pod.metadata as { name: string }).name;
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const status = {
    phase,
    startTime: now,
    containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: phase === 'Succeeded' ? 0 : 1, reason: phase === 'Succeeded' ? 'Completed' : 'Error', startedAt: now, finishedAt: now } } }],
  };
  const r = await json(`/api/v1/namespaces/default/pods/${name}/status`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ status }) });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

function jobYaml(name: string, spec: string): string {
  return `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
  namespace: default
spec:
${spec}
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: c
        image: busybox
`;
}

describe('job controllers in kubelite controller-manager', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
    for (const ns of ['default', 'kube-system']) {
      const r = await json('/api/v1/namespaces', { method: 'POST', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }) });
      assert.ok(r.status === 201 || r.status === 409, `create ${ns}: ${r.status}`);
    }
    const port = await freePort();
    manager = spawn(
      process.execPath,
      [KUBELITE_BIN, 'controller-manager', '--address=127.0.0.1', `--port=${port}`, '--kubeconfig', api.kubeconfig, '--leader-elect=false', '--controllers=job,cronjob,ttl-after-finished,garbagecollector'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    manager.stdout!.on('data', (d: Buffer) => (logs = (logs + d.toString()).slice(-100_000)));
    manager.stderr!.on('data', (d: Buffer) => (logs = (logs + d.toString()).slice(-100_000)));
  });
  after(async () => {
    if (manager && manager.exitCode === null && manager.signalCode === null) {
      const exited = new Promise((r) => manager!.once('exit', r));
      manager.kill('SIGTERM');
      const t = setTimeout(() => manager!.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    }
    await api?.stop();
  });

  it('a Job with completions 3 / parallelism 2 completes as its pods succeed; kubectl wait sees it', async () => {
    await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: jobYaml('pi', '  completions: 3\n  parallelism: 2\n  ttlSecondsAfterFinished: 2') });
    const done = new Set<string>();
    await waitFor(
      async () => {
        const pods = await podsOf('pi');
        const running = pods.filter((p) => !done.has((p.metadata as { name: string }).name) && (p.status as { phase?: string } | undefined)?.phase !== 'Succeeded');
        assert.ok(running.length <= 2, `at most parallelism pods run (${running.length}) ${logs}`);
        for (const p of running) {
          const m = p.metadata as { name: string; finalizers?: string[]; ownerReferences?: { kind: string }[] };
          assert.match(m.name, /^pi-[a-z0-9]{5}$/);
          assert.deepEqual(m.finalizers, ['batch.kubernetes.io/job-tracking']);
          assert.equal(m.ownerReferences?.[0]?.kind, 'Job');
          await finishPod(p, 'Succeeded');
          done.add(m.name);
        }
        return done.size >= 3;
      },
      'three pods run and succeed',
      30_000,
      100,
    );
    const r = await kubectl(api.kubeconfig, ['wait', '--for=condition=complete', 'job/pi', '--timeout=30s']);
    assert.equal(r.code, 0, r.stderr + logs);
    assert.match(r.stdout, /job.batch\/pi condition met/);
    const job = (await json('/apis/batch/v1/namespaces/default/jobs/pi')).body;
    const status = job.status as { succeeded?: number; active?: number; completionTime?: string; conditions?: { type: string }[] };
    assert.equal(status.succeeded, 3);
    assert.equal(status.active ?? 0, 0); // omitempty: 0 is not written
    assert.ok(status.completionTime);
    assert.deepEqual(status.conditions?.map((c) => c.type), ['SuccessCriteriaMet', 'Complete']);
    // ttlSecondsAfterFinished: 2 — the ttl-after-finished controller deletes it (Foreground: the
    // garbage collector deletes its pods first).
    await waitFor(async () => (await json('/apis/batch/v1/namespaces/default/jobs/pi')).status === 404, 'the finished job deleted by its TTL', 20_000, 200);
  });

  it('a Job whose pods fail past backoffLimit 0 fails with BackoffLimitExceeded', async () => {
    await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: jobYaml('boom', '  backoffLimit: 0') });
    const pod = await waitFor(async () => (await podsOf('boom'))[0], 'the pod of job boom', 20_000, 100);
    await finishPod(pod, 'Failed');
    const r = await kubectl(api.kubeconfig, ['wait', '--for=condition=failed', 'job/boom', '--timeout=30s']);
    assert.equal(r.code, 0, r.stderr + logs);
    const job = (await json('/apis/batch/v1/namespaces/default/jobs/boom')).body;
    const conds = ((job.status as { conditions?: { type: string; reason: string }[] }).conditions ?? []).map((c) => `${c.type}/${c.reason}`);
    assert.deepEqual(conds, ['FailureTarget/BackoffLimitExceeded', 'Failed/BackoffLimitExceeded']);
    assert.equal((job.status as { failed?: number }).failed, 1);
  });
});
