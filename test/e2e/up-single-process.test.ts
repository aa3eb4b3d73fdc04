// `kubelite up --single-process` / startCluster({ singleProcess: true }): every component in the
// one process's event loop (src/up/in-loop.ts; worker threads are tested in
// src/up/component-runner.test.ts), the cluster the same to kubectl as one of five processes — a
// Deployment to Available, logs and exec of its pod, `kubelite status` and `down`, a snapshot file
// brought back with --from-snapshot, snapshot()/restore(), and each component's own flags.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { KUBELITE_BIN } from '../support/kubelite.js';
import { childPids, isAlive } from '../support/procs.js';
import { waitFor } from '../support/wait.js';

const work = mkdtempSync(join(tmpdir(), 'kubelite-single-'));
/** `kubelite <args>` to its exit; not spawnSync, which would stop this process reading the output of the `up` it runs. */
function kubelite(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [KUBELITE_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

describe('kubelite up --single-process', () => {
  let cluster: Cluster | undefined;
  after(async () => {
    await cluster?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('is one process that kubectl uses as a cluster, stopped by kubelite down', async () => {
    const dataDir = join(work, 'up');
    const up = spawn(process.execPath, [KUBELITE_BIN, 'up', '--single-process', '--data-dir', dataDir, '--port', '0', '--nodes', '2', '--verbose'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    up.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => up.once('exit', (code) => resolve(code)));
    try {
      const kubeconfig = await new Promise<string>((resolve, reject) => {
        let out = '';
        up.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /ready: kubeconfig=(\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        void exited.then((code) => reject(new Error(`kubelite up exited ${code} before ready: ${stderr}`)));
      });
      // No component processes: the only children would be the pods' (none on simulated nodes).
      assert.deepEqual(childPids(up.pid!), []);
      // the components' lines, prefixed with their names as from processes of their own
      for (const name of ['apiserver', 'controller-manager', 'scheduler', 'nodes']) assert.match(stderr, new RegExp(`^\\[${name}\\] `, 'm'));
      assert.match((await kubelite(['status', '--data-dir', dataDir])).stdout, /^running: .* 2\/2 nodes Ready/);

      const k = (args: string[]) => kubectlOk(kubeconfig, args);
      await k(['create', 'deployment', 'web', '--image=busybox', '--replicas=2', '--', 'sh', '-c', 'echo hello from web; sleep 3600']);
      await k(['wait', '--for=condition=Available', 'deployment/web', '--timeout=60s']);
      const pod = (await k(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}'])).trim();
      await waitFor(async () => (await kubectl(kubeconfig, ['logs', pod])).stdout.includes('hello from web'), 'the pod\'s log line');
      assert.equal(await k(['exec', pod, '--', 'sh', '-c', 'echo exec in $(hostname)']), `exec in ${pod}\n`);

      const down = await kubelite(['down', '--data-dir', dataDir]);
      assert.equal(down.status, 0, down.stderr);
      assert.equal(await exited, 0);
      assert.equal(isAlive(up.pid!), false);
    } finally {
      up.kill('SIGKILL');
    }
  });

  it('startCluster({ singleProcess: true }): --from-snapshot, snapshot()/restore(), and every component\'s flags reach it', async () => {
    const file = join(work, 'up.snap');
    const saved = await kubelite(['snapshot', 'save', file, '--data-dir', join(work, 'up')]);
    assert.equal(saved.status, 0, saved.stderr);
    const tokens = join(work, 'tokens.csv');
    writeFileSync(tokens, 'flag-token,flag-user,flag-uid,"flag-group"\n');
    const lines: string[] = [];
    cluster = await startCluster({
      singleProcess: true,
      nodes: 1,
      fromSnapshot: file,
      controllers: '*,-cronjob',
      nodeCPU: '7',
      zones: ['zone-x'],
      args: { apiserver: ['--token-auth-file', tokens], scheduler: ['--scheduler-name', 'single-scheduler'] },
      log: (line) => lines.push(line),
    });
    const k = (args: string[]) => kubectlOk(cluster!.kubeconfig, args);
    // the Deployment of the first cluster, from the snapshot file
    assert.equal((await k(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'])), '2');

    // nodes: --node-cpu, --zones
    const node = JSON.parse(await k(['get', 'node', 'kubelite-node-0', '-o', 'json']));
    assert.equal(node.status.capacity.cpu, '7');
    assert.equal(node.metadata.labels['topology.kubernetes.io/zone'], 'zone-x');
    // apiserver: --token-auth-file
    const ca = /certificate-authority-data: (\S+)/.exec(cluster.kubeconfigYaml)![1]!;
    const tokenConfig = join(work, 'token.kubeconfig');
    writeFileSync(tokenConfig, `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${cluster.server}\n    certificate-authority-data: ${ca}\nusers:\n- name: u\n  user:\n    token: flag-token\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\n`);
    assert.match(await kubectlOk(tokenConfig, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']), /^flag-user$/);
    // scheduler: --scheduler-name (a pod for it is bound; the default scheduler's name is not its)
    await k(['run', 'mine', '--image=busybox', '--overrides={"spec":{"schedulerName":"single-scheduler"}}', '--', 'sleep', '3600']);
    await k(['wait', '--for=jsonpath={.spec.nodeName}=kubelite-node-0', 'pod/mine', '--timeout=30s']);
    // controller manager: --controllers without cronjob
    const informers = lines.find((l) => l.startsWith('[controller-manager] ') && l.includes('"started informers"'));
    assert.ok(informers, 'the controller manager said which controllers it started');
    assert.ok(informers.includes('"deployment"') && !informers.includes('"cronjob"'), informers);

    const handle = await cluster.snapshot();
    await k(['create', 'configmap', 'later', '--from-literal=a=b']);
    await k(['delete', 'deployment', 'web']);
    const summary = await cluster.restore(handle);
    assert.ok(summary.deleted >= 1 && summary.created >= 1, JSON.stringify(summary));
    assert.equal((await kubectl(cluster.kubeconfig, ['get', 'configmap', 'later'])).code, 1);
    await k(['get', 'deployment', 'web']);
    await cluster.stop();
    cluster = undefined;
  });

  it("singleProcess: 'worker-threads' still runs every component, each on a thread of its own", async () => {
    const lines: string[] = [];
    cluster = await startCluster({ singleProcess: 'worker-threads', nodes: 1, storage: 'memory', log: (line) => lines.push(line) });
    assert.deepEqual(cluster.processes(), []);
    await kubectlOk(cluster.kubeconfig, ['run', 'p', '--image=busybox', '--restart=Never', '--', 'sleep', '3600']);
    await kubectlOk(cluster.kubeconfig, ['wait', '--for=condition=Ready', 'pod/p', '--timeout=60s']);
    for (const name of ['apiserver', 'controller-manager', 'scheduler', 'nodes']) assert.ok(lines.some((l) => l.startsWith(`[${name}] `)), name);
    await cluster.stop();
    cluster = undefined;
  });
});
