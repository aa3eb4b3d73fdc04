// Simulated nodes end to end: `kubelite apiserver`, `kubelite controller-manager` and `kubelite
// nodes` processes, driven by kubectl only. Pods are pinned to nodes with spec.nodeName (no
// scheduler in this test): a Deployment rolls out once its pods are Ready, a Job completes, a
// failing Job ends BackoffLimitExceeded, a crash-looping pod shows CrashLoopBackOff.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { KUBELITE_BIN, startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';
import { freePort } from '../support/ports.js';

let api: RunningApiserver;
const children: ChildProcess[] = [];
let logs = '';

function run(args: string[]): ChildProcess {
  const c = spawn(process.execPath, [KUBELITE_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  c.stdout!.on('data', (d: Buffer) => (logs = (logs + d.toString()).slice(-50_000)));
  c.stderr!.on('data', (d: Buffer) => (logs = (logs + d.toString()).slice(-50_000)));
  children.push(c);
  return c;
}

async function stop(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGTERM');
  const t = setTimeout(() => c.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(t);
}

describe('kubelite nodes with the controller manager, through kubectl', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
    await kubectl(api.kubeconfig, ['create', 'namespace', 'default']);
    await kubectl(api.kubeconfig, ['create', 'namespace', 'kube-system']);
    const port = await freePort();
    run(['controller-manager', '--address=127.0.0.1', `--port=${port}`, '--kubeconfig', api.kubeconfig, '--leader-elect=false', '--controllers=deployment,replicaset,job,garbagecollector']);
    run(['nodes', '--kubeconfig', api.kubeconfig, '--nodes', '3', '--zones', 'a,b,c']);
  });
  after(async () => {
    for (const c of children) await stop(c);
    await api?.stop();
  });

  it('three nodes register and are Ready, with their labels and versions', async () => {
    await waitFor(async () => {
      const r = await kubectl(api.kubeconfig, ['get', 'nodes', '--no-headers']);
      return r.code === 0 && r.stdout.trim().split('\n').filter((l) => /\sReady\s/.test(l)).length === 3;
    }, `3 Ready nodes ${logs}`);
    const out = await kubectlOk(api.kubeconfig, ['get', 'nodes', '-L', 'topology.kubernetes.io/zone', '-o', 'wide']);
    assert.match(out, /kubelite-node-0\s+Ready\s+<none>\s+\S+\s+v1\.33\.0-kubelite\s+10\.0\.0\.2/);
    assert.match(out, /kubelite:\/\/0\.1\s+c\s*$/m);
    const leases = await kubectlOk(api.kubeconfig, ['get', 'leases', '-n', 'kube-node-lease', '-o', 'name']);
    assert.equal(leases.trim().split('\n').length, 3);
  });

  it('a Deployment pinned to a node rolls out once its pods are Ready; scaling down removes pods', async () => {
    await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], {
      input: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeName: kubelite-node-1
      containers:
      - name: nginx
        image: nginx:1.27
        readinessProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: 1}
`,
    });
    const r = await kubectl(api.kubeconfig, ['rollout', 'status', 'deploy/web', '--timeout=30s'], { timeoutMs: 40_000 });
    assert.equal(r.code, 0, `${r.stdout}${r.stderr}${logs}`);
    assert.match(r.stdout, /successfully rolled out/);
    const pods = await kubectlOk(api.kubeconfig, ['get', 'pods', '-l', 'app=web', '--no-headers', '-o', 'wide']);
    assert.equal(pods.trim().split('\n').filter((l) => /1\/1\s+Running\s+0\s/.test(l) && /10\.64\.1\.\d+\s+kubelite-node-1/.test(l)).length, 3, pods);
    await kubectlOk(api.kubeconfig, ['scale', 'deploy/web', '--replicas=1']);
    await waitFor(async () => (await kubectlOk(api.kubeconfig, ['get', 'pods', '-l', 'app=web', '--no-headers'])).trim().split('\n').length === 1, `scaled down ${logs}`);
  });

  it('a Job completes; a failing Job (sh -c "exit 2") ends BackoffLimitExceeded', async () => {
    await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], {
      input: `apiVersion: batch/v1
kind: Job
metadata: {name: pi, namespace: default}
spec:
  completions: 3
  parallelism: 2
  template:
    spec:
      nodeName: kubelite-node-2
      restartPolicy: Never
      containers: [{name: pi, image: perl, command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: failing, namespace: default}
spec:
  backoffLimit: 0
  template:
    spec:
      nodeName: kubelite-node-0
      restartPolicy: Never
      containers: [{name: c, image: busybox, command: ["sh", "-c", "echo no; exit 2"]}]
`,
    });
    const done = await kubectl(api.kubeconfig, ['wait', '--for=condition=complete', 'job/pi', '--timeout=30s'], { timeoutMs: 40_000 });
    assert.equal(done.code, 0, `${done.stdout}${done.stderr}${logs}`);
    const failed = await kubectl(api.kubeconfig, ['wait', '--for=condition=failed', 'job/failing', '--timeout=30s'], { timeoutMs: 40_000 });
    assert.equal(failed.code, 0, `${failed.stdout}${failed.stderr}${logs}`);
    assert.equal(await kubectlOk(api.kubeconfig, ['get', 'job', 'failing', '-o', 'jsonpath={.status.conditions[?(@.type=="Failed")].reason}']), 'BackoffLimitExceeded');
    const code = await kubectlOk(api.kubeconfig, ['get', 'pods', '-l', 'job-name=failing', '-o', 'jsonpath={.items[0].status.containerStatuses[0].state.terminated.exitCode}']);
    assert.equal(code, '2');
  });

  it('a crash-looping pod shows CrashLoopBackOff and restarts; kubectl describe shows the kubelet events', async () => {
    await kubectlOk(api.kubeconfig, ['run', 'crash', '--image=busybox', '--annotations=kubelite.dev/crash-after-seconds=0.5', '--overrides={"spec":{"nodeName":"kubelite-node-0"}}']);
    await waitFor(async () => /CrashLoopBackOff/.test(await kubectlOk(api.kubeconfig, ['get', 'pod', 'crash', '--no-headers'])), `CrashLoopBackOff ${logs}`, 20_000, 200);
    // (events are written in the background)
    const d = await waitFor(async () => {
      const out = await kubectlOk(api.kubeconfig, ['describe', 'pod', 'crash']);
      return /BackOff/.test(out) && /Started/.test(out) ? out : undefined;
    }, `events ${logs}`, 20_000, 200);
    assert.match(d, /Restart Count:\s+[12]/);
    assert.match(d, /Started\s.*kubelet\s+Started container crash/);
    assert.match(d, /BackOff/);
  });
});
