// metrics.k8s.io end to end: `kubelite apiserver` and `kubelite nodes` processes; pods pinned to
// nodes with spec.nodeName (no scheduler needed) become Running, and `kubectl top` reads their
// simulated usage (half of their requests, or their kubelite.dev/usage annotations) and the nodes'
// (their Running pods plus 100m / 256Mi of their own).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { KUBELITE_BIN, startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let api: RunningApiserver;
let nodes: ChildProcess | undefined;
let logs = '';

const PODS = `
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  nodeName: kubelite-node-0
  containers:
  - {name: nginx, image: nginx, resources: {requests: {cpu: 200m, memory: 128Mi}}}
  - {name: sidecar, image: busybox, command: [sleep, infinity], resources: {requests: {cpu: 100m, memory: 64Mi}}}
---
apiVersion: v1
kind: Pod
metadata:
  name: busy
  namespace: kube-system
  labels: {app: busy}
  annotations: {kubelite.dev/usage: "cpu=750m,memory=1Gi", kubelite.dev/worker.usage: "cpu=5m"}
spec:
  nodeName: kubelite-node-1
  containers:
  - {name: main, image: busybox, command: [sleep, infinity]}
  - {name: worker, image: busybox, command: [sleep, infinity]}
---
apiVersion: v1
kind: Pod
metadata: {name: bad-usage, namespace: default, labels: {app: bad}, annotations: {kubelite.dev/usage: "cpu=lots"}}
spec:
  nodeName: kubelite-node-1
  containers:
  - {name: main, image: busybox, command: [sleep, infinity], resources: {requests: {cpu: 40m, memory: 32Mi}}}
`;

describe('kubectl top against simulated nodes', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
    nodes = spawn(process.execPath, [KUBELITE_BIN, 'nodes', '--kubeconfig', api.kubeconfig, '--nodes', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    nodes.stdout!.on('data', (d: Buffer) => (logs = (logs + d.toString()).slice(-20_000)));
    nodes.stderr!.on('data', (d: Buffer) => (logs = (logs + d.toString()).slice(-20_000)));
    await waitFor(async () => {
      const r = await kubectl(api.kubeconfig, ['get', 'nodes', '--no-headers']);
      return r.code === 0 && r.stdout.trim().split('\n').filter((l) => /\sReady\s/.test(l)).length === 2;
    }, `2 Ready nodes ${logs}`);
    await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: PODS });
    await waitFor(async () => {
      const r = await kubectl(api.kubeconfig, ['get', 'pods', '-A', '--no-headers']);
      return r.code === 0 && r.stdout.trim().split('\n').filter((l) => /\sRunning\s/.test(l)).length === 3;
    }, `3 Running pods ${logs}`);
  });
  after(async () => {
    if (nodes && nodes.exitCode === null) {
      const exited = new Promise((r) => nodes!.once('exit', r));
      nodes.kill('SIGTERM');
      await exited;
    }
    await api?.stop();
  });

  it('discovery lists metrics.k8s.io/v1beta1 nodes and pods with get and list', async () => {
    const list = JSON.parse(await kubectlOk(api.kubeconfig, ['get', '--raw', '/apis/metrics.k8s.io/v1beta1'])) as { resources: Array<{ name: string; kind: string; namespaced: boolean; verbs: string[] }> };
    assert.deepEqual(
      list.resources.map((r) => [r.name, r.kind, r.namespaced, r.verbs]),
      [['nodes', 'NodeMetrics', false, ['get', 'list']], ['pods', 'PodMetrics', true, ['get', 'list']]],
    );
  });

  it('kubectl top nodes: each node its pods plus the system overhead', async () => {
    const out = await kubectlOk(api.kubeconfig, ['top', 'nodes', '--no-headers']);
    const rows = Object.fromEntries(out.trim().split('\n').map((l) => { const [name, ...rest] = l.trim().split(/\s+/); return [name!, rest]; }));
    // node-0: nginx 100m/64Mi + sidecar 50m/32Mi + 100m/256Mi.
    assert.equal(rows['kubelite-node-0']![0], '250m');
    assert.equal(rows['kubelite-node-0']![2], '352Mi');
    // node-1: busy 750m+5m / 1Gi+1Gi, bad-usage (default: half of 40m/32Mi) 20m/16Mi, + 100m/256Mi.
    assert.equal(rows['kubelite-node-1']![0], '875m');
    assert.equal(rows['kubelite-node-1']![2], '2320Mi');
  });

  it('kubectl top pods: per namespace, -A, --containers and label selectors', async () => {
    const def = await kubectlOk(api.kubeconfig, ['top', 'pods', '--no-headers']);
    assert.match(def, /^web\s+150m\s+96Mi\s*$/m);
    assert.match(def, /^bad-usage\s+20m\s+16Mi\s*$/m);
    assert.doesNotMatch(def, /busy/);
    const all = await kubectlOk(api.kubeconfig, ['top', 'pods', '-A', '--no-headers']);
    assert.match(all, /^kube-system\s+busy\s+755m\s+2048Mi\s*$/m);
    const containers = await kubectlOk(api.kubeconfig, ['top', 'pods', '-n', 'kube-system', '--containers', '--no-headers']);
    assert.match(containers, /^busy\s+main\s+750m\s+1024Mi\s*$/m);
    assert.match(containers, /^busy\s+worker\s+5m\s+1024Mi\s*$/m);
    const selected = await kubectlOk(api.kubeconfig, ['top', 'pods', '-l', 'app=web', '--no-headers']);
    assert.equal(selected.trim().split('\n').length, 1);
    assert.match(selected, /^web\s/);
  });

  it('a bad usage annotation is named in a warning; the pod reports its default usage', async () => {
    const r = await kubectl(api.kubeconfig, ['get', '--raw', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/bad-usage']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /pod default\/bad-usage: annotation kubelite\.dev\/usage cpu: "lots" is not a quantity/);
    const pm = JSON.parse(r.stdout) as { kind: string; window: string; containers: Array<{ name: string; usage: Record<string, string> }> };
    assert.equal(pm.kind, 'PodMetrics');
    assert.equal(pm.window, '10s');
    assert.deepEqual(pm.containers, [{ name: 'main', usage: { cpu: '20m', memory: '16Mi' } }]);
  });

  it('get of an unknown pod is 404 as metrics-server words it; writes are not allowed', async () => {
    const r = await kubectl(api.kubeconfig, ['get', '--raw', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/nope']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /podmetrics\.metrics\.k8s\.io "default\/nope" not found/);
    const w = await kubectl(api.kubeconfig, ['create', '--raw', '/apis/metrics.k8s.io/v1beta1/nodes', '-f', '-'], { input: '{"apiVersion":"metrics.k8s.io/v1beta1","kind":"NodeMetrics","metadata":{"name":"x"}}' });
    assert.notEqual(w.code, 0);
    assert.match(w.stderr, /MethodNotAllowed|not allowed/i);
    const t = await kubectlOk(api.kubeconfig, ['get', 'nodes.metrics.k8s.io']);
    assert.match(t, /^NAME\s+CPU\s+MEMORY\s+WINDOW/);
    assert.match(t, /^kubelite-node-0\s+250m\s+352Mi\s+10s/m);
  });
});
