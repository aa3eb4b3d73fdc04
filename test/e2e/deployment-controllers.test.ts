// The deployment, replicaset and replicationcontroller controllers in a real `kubelite controller-manager` process against
// a real `kubelite apiserver`; the test plays the kubelet (it marks pods Running and Ready through
// pods/status) and kubectl drives and watches the rollouts (rollout status, set image, undo, scale).
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
let kubeletTimer: NodeJS.Timeout | undefined;

type Obj = Record<string, any>;

async function json(path: string, init: RequestInit = {}): Promise<{ status: number; body: Obj }> {
  const r = await fetch(`${api.url}${path}`, { ...init, headers: { 'Content-Type': 'application/json', ...(init.headers ?? {}) } });
  return { status: r.status, body: (await r.json()) as Obj };
}

async function livePods(app: string): Promise<Obj[]> {
  const r = await json(`/api/v1/namespaces/default/pods?labelSelector=${encodeURIComponent(`app=${app}`)}`);
  return ((r.body.items ?? []) as Obj[]).filter((p) => !p.metadata.deletionTimestamp);
}

/** The kubelet's part: every pod not yet ready becomes Running and Ready. */
async function kubeletPass(): Promise<void> {
  const r = await json('/api/v1/namespaces/default/pods');
  for (const p of (r.body.items ?? []) as Obj[]) {
    if (p.metadata.deletionTimestamp) {
      // A terminating pod's containers stopped: the kubelet removes it.
      await fetch(`${api.url}/api/v1/namespaces/default/pods/${p.metadata.name}`, {
        method: 'DELETE',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 }),
      });
      continue;
    }
    if (p.status?.phase === 'Running' || p.metadata.labels?.stuck === 'true') continue;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const status = { phase: 'Running', startTime: now, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] };
    await json(`/api/v1/namespaces/default/pods/${p.metadata.name}/status`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ status }),
    });
  }
}

function deploymentYaml(image: string, replicas: number, name = 'web', extraSpec = '', extraLabels = ''): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
spec:
  replicas: ${replicas}
${extraSpec}  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
${extraLabels}    spec:
      containers:
      - name: c
        image: ${image}
`;
}

describe('deployment, replicaset and replicationcontroller controllers in kubelite controller-manager', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
    for (const ns of ['default', 'kube-system']) {
      const r = await json('/api/v1/namespaces', { method: 'POST', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }) });
      assert.ok(r.status === 201 || r.status === 409, `create ${ns}: ${r.status}`);
    }
    const port = await freePort();
    manager = spawn(
      process.execPath,
      [KUBELITE_BIN, 'controller-manager', '--address=127.0.0.1', `--port=${port}`, '--kubeconfig', api.kubeconfig, '--leader-elect=false', '--controllers=deployment,replicaset,replicationcontroller'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    manager.stdout!.on('data', (d: Buffer) => (logs = (logs + d.toString()).slice(-100_000)));
    manager.stderr!.on('data', (d: Buffer) => (logs = (logs + d.toString()).slice(-100_000)));
    let busy = false;
    kubeletTimer = setInterval(() => {
      if (busy) return;
      busy = true;
      kubeletPass()
        .catch(() => undefined)
        .finally(() => (busy = false));
    }, 200);
  });
  after(async () => {
    clearInterval(kubeletTimer);
    if (manager && manager.exitCode === null && manager.signalCode === null) {
      const exited = new Promise((r) => manager!.once('exit', r));
      manager.kill('SIGTERM');
      const t = setTimeout(() => manager!.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    }
    await api?.stop();
  });

  it('a deployment rolls out; kubectl rollout status succeeds; set image, undo and scale roll through', async () => {
    await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: deploymentYaml('nginx:1', 3) });
    let r = await kubectl(api.kubeconfig, ['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 70_000 });
    assert.equal(r.code, 0, r.stderr + logs);
    assert.match(r.stdout, /successfully rolled out/);
    const pods = await livePods('web');
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.match(p.metadata.name, /^web-[a-z0-9]+-[a-z0-9]{5}$/);
      assert.equal(p.metadata.ownerReferences?.[0]?.kind, 'ReplicaSet');
      assert.ok(p.metadata.labels['pod-template-hash']);
    }
    let d = (await json('/apis/apps/v1/namespaces/default/deployments/web')).body;
    assert.equal(d.metadata.annotations['deployment.kubernetes.io/revision'], '1');
    assert.equal(d.status.availableReplicas, 3);
    assert.deepEqual(
      d.status.conditions.map((c: Obj) => `${c.type}/${c.reason}`).sort(),
      ['Available/MinimumReplicasAvailable', 'Progressing/NewReplicaSetAvailable'],
    );

    await kubectlOk(api.kubeconfig, ['set', 'image', 'deployment/web', 'c=nginx:2']);
    r = await kubectl(api.kubeconfig, ['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 70_000 });
    assert.equal(r.code, 0, r.stderr + logs);
    await waitFor(async () => {
      const ps = await livePods('web');
      return ps.length === 3 && ps.every((p) => p.spec.containers[0].image === 'nginx:2');
    }, 'three nginx:2 pods', 30_000, 200);
    const rss = (await json('/apis/apps/v1/namespaces/default/replicasets')).body.items as Obj[];
    assert.equal(rss.length, 2);
    assert.deepEqual(rss.map((rs) => rs.metadata.annotations['deployment.kubernetes.io/revision']).sort(), ['1', '2']);
    const history = await kubectlOk(api.kubeconfig, ['rollout', 'history', 'deployment/web']);
    assert.match(history, /1\s/);
    assert.match(history, /2\s/);

    await kubectlOk(api.kubeconfig, ['rollout', 'undo', 'deployment/web']);
    r = await kubectl(api.kubeconfig, ['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 70_000 });
    assert.equal(r.code, 0, r.stderr + logs);
    await waitFor(async () => {
      const ps = await livePods('web');
      return ps.length === 3 && ps.every((p) => p.spec.containers[0].image === 'nginx:1');
    }, 'back to three nginx:1 pods', 30_000, 200);
    d = (await json('/apis/apps/v1/namespaces/default/deployments/web')).body;
    assert.equal(d.metadata.annotations['deployment.kubernetes.io/revision'], '3');

    await kubectlOk(api.kubeconfig, ['scale', 'deployment/web', '--replicas=1']);
    await waitFor(async () => (await livePods('web')).length === 1, 'scaled to one pod', 30_000, 200);
    r = await kubectl(api.kubeconfig, ['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 70_000 });
    assert.equal(r.code, 0, r.stderr + logs);
  });

  it('the beta spec.rollbackTo (apps/v1beta1) rolls back to a revision and is cleared', async () => {
    // After the first test: revision 2 is nginx:2, revision 3 (current) nginx:1.
    const p = await json('/apis/apps/v1beta1/namespaces/default/deployments/web', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ spec: { rollbackTo: { revision: 2 } } }),
    });
    assert.equal(p.status, 200, JSON.stringify(p.body));
    await waitFor(async () => {
      const d = (await json('/apis/apps/v1beta1/namespaces/default/deployments/web')).body;
      return d.spec.template.spec.containers[0].image === 'nginx:2' && d.spec.rollbackTo === undefined;
    }, 'the template rolled back to revision 2 and rollbackTo cleared', 30_000, 200);
    const r = await kubectl(api.kubeconfig, ['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 70_000 });
    assert.equal(r.code, 0, r.stderr + logs);
    const d = (await json('/apis/apps/v1/namespaces/default/deployments/web')).body;
    assert.equal(d.metadata.annotations['deployment.kubernetes.io/revision'], '4');
    assert.equal(d.metadata.annotations['deprecated.deployment.rollback.to'], undefined);
    const ev = (await json('/api/v1/namespaces/default/events')).body.items as Obj[];
    assert.ok(ev.some((e) => e.reason === 'DeploymentRollback'), 'a DeploymentRollback event');
    assert.ok(ev.some((e) => e.reason === 'ScalingReplicaSet'), 'ScalingReplicaSet events');
  });

  it('Recreate: old pods go before new ones come; pause and resume hold a template change', async () => {
    await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: deploymentYaml('nginx:1', 2, 'rec', '  strategy:\n    type: Recreate\n') });
    let r = await kubectl(api.kubeconfig, ['rollout', 'status', 'deployment/rec', '--timeout=60s'], { timeoutMs: 70_000 });
    assert.equal(r.code, 0, r.stderr + logs);
    await kubectlOk(api.kubeconfig, ['rollout', 'pause', 'deployment/rec']);
    await kubectlOk(api.kubeconfig, ['set', 'image', 'deployment/rec', 'c=nginx:2']);
    await waitFor(async () => {
      const d = (await json('/apis/apps/v1/namespaces/default/deployments/rec')).body;
      return d.status?.conditions?.some((c: Obj) => c.type === 'Progressing' && c.reason === 'DeploymentPaused');
    }, 'Progressing Unknown/DeploymentPaused', 20_000, 200);
    assert.equal(((await json('/apis/apps/v1/namespaces/default/replicasets?labelSelector=app%3Drec')).body.items as Obj[]).length, 1, 'no new replica set while paused');
    await kubectlOk(api.kubeconfig, ['rollout', 'resume', 'deployment/rec']);
    // Never old and new pods at once.
    let mixed = false;
    const watcher = setInterval(() => {
      livePods('rec')
        .then((ps) => {
          const imgs = new Set(ps.filter((p) => p.status?.phase === 'Running').map((p) => p.spec.containers[0].image));
          if (imgs.size > 1) mixed = true;
        })
        .catch(() => undefined);
    }, 50);
    r = await kubectl(api.kubeconfig, ['rollout', 'status', 'deployment/rec', '--timeout=60s'], { timeoutMs: 70_000 });
    clearInterval(watcher);
    assert.equal(r.code, 0, r.stderr + logs);
    assert.equal(mixed, false, 'Recreate never runs both templates');
    await waitFor(async () => {
      const ps = await livePods('rec');
      return ps.length === 2 && ps.every((p) => p.spec.containers[0].image === 'nginx:2');
    }, 'two nginx:2 pods', 30_000, 200);
  });

  it('a rollout whose pods never become ready exceeds its progress deadline', async () => {
    await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: deploymentYaml('nginx:1', 1, 'stuck', '  progressDeadlineSeconds: 2\n', '        stuck: "true"\n') });
    await waitFor(async () => {
      const d = (await json('/apis/apps/v1/namespaces/default/deployments/stuck')).body;
      return d.status?.conditions?.some((c: Obj) => c.type === 'Progressing' && c.status === 'False' && c.reason === 'ProgressDeadlineExceeded');
    }, 'Progressing False/ProgressDeadlineExceeded', 30_000, 200);
    const r = await kubectl(api.kubeconfig, ['rollout', 'status', 'deployment/stuck', '--timeout=20s'], { timeoutMs: 30_000 });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /exceeded its progress deadline/);
  });
  it('a replication controller (core/v1, rc): defaulted selector, pods kept, kubectl get -o wide, scale and its scale subresource', async () => {
    // No selector: it defaults from the template labels, as do the controller's own labels.
    const rcYaml = `apiVersion: v1
kind: ReplicationController
metadata:
  name: legacy
  namespace: default
spec:
  replicas: 2
  template:
    metadata:
      labels:
        app: legacy
    spec:
      containers:
      - name: c
        image: nginx:1
`;
    await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: rcYaml });
    const rcPath = '/api/v1/namespaces/default/replicationcontrollers/legacy';
    await waitFor(async () => {
      const rc = (await json(rcPath)).body;
      return rc.status?.readyReplicas === 2 && rc.status.availableReplicas === 2 && rc.status.observedGeneration === 1;
    }, 'two ready replicas observed', 30_000, 200);
    let rc = (await json(rcPath)).body;
    assert.deepEqual(rc.spec.selector, { app: 'legacy' });
    assert.deepEqual(rc.metadata.labels, { app: 'legacy' });
    assert.equal(rc.metadata.generation, 1);
    const pods = await livePods('legacy');
    assert.equal(pods.length, 2);
    for (const p of pods) {
      assert.match(p.metadata.name, /^legacy-[a-z0-9]{5}$/);
      assert.deepEqual(
        [p.metadata.ownerReferences?.[0]?.apiVersion, p.metadata.ownerReferences?.[0]?.kind, p.metadata.ownerReferences?.[0]?.name, p.metadata.ownerReferences?.[0]?.controller],
        ['v1', 'ReplicationController', 'legacy', true],
      );
    }
    const wide = await kubectlOk(api.kubeconfig, ['get', 'rc', 'legacy', '-o', 'wide']);
    assert.match(wide, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\n/);
    assert.match(wide, /\nlegacy\s+2\s+2\s+2\s+\S+\s+c\s+nginx:1\s+app=legacy\n/);
    assert.match(await kubectlOk(api.kubeconfig, ['get', 'all']), /replicationcontroller\/legacy/);

    await kubectlOk(api.kubeconfig, ['scale', 'rc/legacy', '--replicas=3']);
    await waitFor(async () => (await livePods('legacy')).length === 3, 'scaled to three pods', 30_000, 200);
    const scale = (await json(`${rcPath}/scale`)).body;
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.spec.replicas, 3);
    assert.equal(scale.status.selector, 'app=legacy');
    rc = (await json(rcPath)).body;
    assert.equal(rc.metadata.generation, 2);

    // A deleted pod is replaced; scaling to 0 removes them all.
    await fetch(`${api.url}/api/v1/namespaces/default/pods/${pods[0]!.metadata.name}`, { method: 'DELETE' });
    await waitFor(async () => {
      const ps = await livePods('legacy');
      return ps.length === 3 && !ps.some((p) => p.metadata.name === pods[0]!.metadata.name);
    }, 'the deleted pod replaced', 30_000, 200);
    await kubectlOk(api.kubeconfig, ['scale', 'rc/legacy', '--replicas=0']);
    await waitFor(async () => (await livePods('legacy')).length === 0, 'scaled to zero', 30_000, 200);
    await waitFor(async () => (await json(rcPath)).body.status?.replicas === 0, 'status.replicas 0', 30_000, 200);
  });
});
