// Faults inside `kubelite up` under a steady load: a writer creating ConfigMaps (every
// acknowledged name recorded), a Deployment scaled up and down, Jobs created — while each
// component in turn is killed with SIGKILL. The supervisor restarts it; afterwards nothing
// acknowledged is missing, the Deployment reaches the replicas last asked for, and every Job
// completes (the controllers, the scheduler and the nodes converge from what is stored).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { childPids, isAlive } from '../support/procs.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;

/** The pid of the component running `subcommand` (a child of this process, as startCluster spawns them). */
function componentPid(subcommand: string): number | undefined {
  for (const pid of childPids(process.pid)) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const bin = argv.findIndex((a) => a.endsWith('kubelite.js'));
      if (bin >= 0 && argv[bin + 1] === subcommand && isAlive(pid)) return pid;
    } catch {
      /* gone */
    }
  }
  return undefined;
}

describe('kubelite up: each component killed under load', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 2 });
    await kubectlOk(cluster.kubeconfig, ['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('restarts it, loses no acknowledged write, and the workload converges', async () => {
    const acknowledged: string[] = [];
    let writing = true;
    let n = 0;
    // the writer: one ConfigMap after another; a refused or unanswered create is simply not acknowledged
    const writer = (async () => {
      while (writing) {
        const name = `cm-${n++}`;
        const r = await kubectl(cluster.kubeconfig, ['create', 'configmap', name, '--from-literal=n=' + n], { timeoutMs: 15_000 });
        if (r.code === 0) acknowledged.push(name);
      }
    })();
    let replicas = 2;
    let jobs = 0;
    try {
      for (const component of ['controller-manager', 'scheduler', 'nodes', 'apiserver']) {
        const pid = await waitFor(() => componentPid(component), `${component} to run`, 30_000, 50);
        process.kill(pid, 'SIGKILL');
        // load while it is down and coming back
        replicas = replicas === 2 ? 4 : 2;
        await waitFor(async () => (await kubectl(cluster.kubeconfig, ['scale', 'deployment', 'web', `--replicas=${replicas}`])).code === 0, 'the scale to be accepted', 60_000, 200);
        const job = `job-${jobs++}`;
        await waitFor(async () => (await kubectl(cluster.kubeconfig, ['create', 'job', job, '--image=busybox', '--', 'sh', '-c', 'sleep 1'])).code === 0, 'the job to be created', 60_000, 200);
        const restarted = await waitFor(() => {
          const p = componentPid(component);
          return p !== undefined && p !== pid ? p : undefined;
        }, `${component} to be restarted`, 60_000, 50);
        assert.notEqual(restarted, pid);
        // converged with the new process: the Deployment at its replicas, the Job complete
        await kubectlOk(cluster.kubeconfig, ['rollout', 'status', 'deployment/web', '--timeout=90s']);
        await kubectlOk(cluster.kubeconfig, ['wait', '--for=condition=Complete', `job/${job}`, '--timeout=90s']);
      }
    } finally {
      writing = false;
      await writer;
    }
    assert.ok(acknowledged.length > 10, `the writer got ${acknowledged.length} creates through`);
    const stored = new Set((await kubectlOk(cluster.kubeconfig, ['get', 'configmaps', '-o', 'jsonpath={.items[*].metadata.name}'])).split(' '));
    const lost = acknowledged.filter((name) => !stored.has(name));
    assert.deepEqual(lost, [], 'acknowledged ConfigMaps missing after the faults');
    const web = JSON.parse(await kubectlOk(cluster.kubeconfig, ['get', 'deployment', 'web', '-o', 'json'])) as { status: { availableReplicas?: number } };
    assert.equal(web.status.availableReplicas, replicas);
  });
});
