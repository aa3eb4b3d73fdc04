// Stopping `kubelite up` and starting it again on the same data directory (lmdb): every object is
// still there — the Deployment, its ReplicaSet and Running pods, finished and running Jobs — and
// the restarted controllers, scheduler and nodes take them over rather than starting again: the
// pods keep their names, nodes and start times, and a scale after the restart rolls out.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

interface Pod {
  metadata: { name: string; uid: string };
  spec: { nodeName: string };
  status: { phase: string; startTime: string; containerStatuses: Array<{ restartCount: number; containerID: string }> };
}

const dataDir = mkdtempSync(join(tmpdir(), 'kubelite-restart-'));
let cluster: Cluster | undefined;

async function getJson<T>(args: string[]): Promise<T> {
  return JSON.parse(await kubectlOk(cluster!.kubeconfig, ['get', ...args, '-o', 'json'])) as T;
}

const summary = (ps: Pod[]) => ps.map((p) => [p.metadata.name, p.metadata.uid, p.spec.nodeName, p.status.phase, p.status.startTime, p.status.containerStatuses[0]!.containerID, p.status.containerStatuses[0]!.restartCount].join(' ')).sort();

describe('kubelite up restarted on the same data directory', () => {
  after(async () => {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps deployments, pods and jobs, and its controllers converge from them', async () => {
    cluster = await startCluster({ dataDir, nodes: 3, storage: 'lmdb' });
    let k = (args: string[], input?: string) => kubectlOk(cluster!.kubeconfig, args, { input });
    await k(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    await k(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const job = (name: string, runSeconds: string) => `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
spec:
  completions: 2
  template:
    metadata:
      annotations:
        kubelite.dev/run-seconds: "${runSeconds}"
    spec:
      restartPolicy: Never
      containers:
      - name: work
        image: busybox
`;
    await k(['apply', '-f', '-'], job('done', '0.1'));
    await k(['wait', '--for=condition=complete', 'job/done', '--timeout=60s']);
    await k(['apply', '-f', '-'], job('long', 'infinity'));
    await waitFor(async () => (await getJson<{ items: Pod[] }>(['pods', '-l', 'batch.kubernetes.io/job-name=long'])).items.some((p) => p.status.phase === 'Running'), "the long job's pod Running", 30_000);
    const webBefore = summary((await getJson<{ items: Pod[] }>(['pods', '-l', 'app=web'])).items);
    const longBefore = summary((await getJson<{ items: Pod[] }>(['pods', '-l', 'batch.kubernetes.io/job-name=long'])).items);
    const doneBefore = summary((await getJson<{ items: Pod[] }>(['pods', '-l', 'batch.kubernetes.io/job-name=done'])).items);
    const deploymentUid = (await getJson<{ metadata: { uid: string } }>(['deployment/web'])).metadata.uid;
    assert.equal(webBefore.length, 3);
    assert.equal(doneBefore.length, 2);
    // What an earlier version left: the nodes' shared identity bound to the kubelet role.
    await k(['create', 'clusterrolebinding', 'kubelite:nodes', '--clusterrole=system:node', '--user=system:kubelite-nodes']);
    // ... and a client certificate per node, which nothing uses since the nodes impersonate.
    mkdirSync(join(dataDir, 'pki', 'nodes'), { recursive: true });
    writeFileSync(join(dataDir, 'pki', 'nodes', 'kubelet-client-certs.json'), '{}');

    await cluster.stop();
    const restartedAt = Math.floor(Date.now() / 1000) * 1000;
    cluster = await startCluster({ dataDir, nodes: 3, storage: 'lmdb' });
    k = (args: string[], input?: string) => kubectlOk(cluster!.kubeconfig, args, { input });
    // Ready means the restarted nodes report again, not the Ready condition stored by the last run.
    const nodes = (await getJson<{ items: Array<{ status: { conditions: Array<{ type: string; status: string; lastHeartbeatTime: string }> } }> }>(['nodes'])).items;
    for (const n of nodes) {
      const ready = n.status.conditions.find((c) => c.type === 'Ready')!;
      assert.equal(ready.status, 'True');
      assert.ok(Date.parse(ready.lastHeartbeatTime) >= restartedAt, `heartbeat ${ready.lastHeartbeatTime} from this run`);
    }

    assert.equal((await getJson<{ metadata: { uid: string } }>(['deployment/web'])).metadata.uid, deploymentUid);
    assert.equal(nodes.length, 3);
    // The restart removed the obsolete binding and the obsolete node certificates.
    assert.match((await kubectl(cluster.kubeconfig, ['get', 'clusterrolebinding', 'kubelite:nodes'])).stderr, /NotFound/);
    assert.equal(existsSync(join(dataDir, 'pki', 'nodes')), false);
    // The restarted nodes carry on with the pods they were running: same pods, no restarts.
    assert.deepEqual(summary((await getJson<{ items: Pod[] }>(['pods', '-l', 'app=web'])).items), webBefore);
    assert.deepEqual(summary((await getJson<{ items: Pod[] }>(['pods', '-l', 'batch.kubernetes.io/job-name=long'])).items), longBefore);
    assert.deepEqual(summary((await getJson<{ items: Pod[] }>(['pods', '-l', 'batch.kubernetes.io/job-name=done'])).items), doneBefore);
    const done = await getJson<{ status: { succeeded: number; conditions: Array<{ type: string; status: string }> } }>(['job/done']);
    assert.equal(done.status.succeeded, 2);
    assert.ok(done.status.conditions.some((c) => c.type === 'Complete' && c.status === 'True'));
    const long = await getJson<{ status: { active: number } }>(['job/long']);
    assert.equal(long.status.active, 1);

    // The controllers converge from what they list: a scale rolls out and keeps the old pods.
    await k(['scale', 'deployment/web', '--replicas=5']);
    await k(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const web = (await getJson<{ items: Pod[] }>(['pods', '-l', 'app=web'])).items;
    assert.equal(web.filter((p) => p.status.phase === 'Running').length, 5);
    for (const line of webBefore) assert.ok(summary(web).includes(line), `${line} kept`);
    await k(['apply', '-f', '-'], job('after', '0.1'));
    await k(['wait', '--for=condition=complete', 'job/after', '--timeout=60s']);
    assert.equal((await getJson<{ items: Pod[] }>(['pods', '-l', 'batch.kubernetes.io/job-name=long'])).items.length, 1, 'no second pod for the running job');
  });
});
