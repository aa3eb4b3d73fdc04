// `kubelite up` / startCluster(): a whole cluster that kubectl uses as a real one.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { KUBELITE_BIN } from '../support/kubelite.js';

describe('startCluster: a working cluster for test suites', () => {
  let a: Cluster;
  let b: Cluster;
  before(async () => {
    // Two clusters at once in one process, each isolated on its own port and data directory.
    [a, b] = await Promise.all([startCluster({ nodes: 3, storage: 'memory' }), startCluster({ nodes: 1, storage: 'memory' })]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('is ready with its nodes, namespaces and default service account', async () => {
    assert.notEqual(a.server, b.server);
    const nodes = await kubectlOk(a.kubeconfig, ['get', 'nodes', '-o', 'name']);
    assert.equal(nodes.trim().split('\n').length, 3);
    assert.equal((await kubectlOk(b.kubeconfig, ['get', 'nodes', '-o', 'name'])).trim().split('\n').length, 1);
    await kubectlOk(a.kubeconfig, ['get', 'serviceaccount', 'default', '-n', 'default']);
    await kubectlOk(a.kubeconfig, ['create', 'namespace', 'only-in-a']);
    assert.match((await kubectlOk(b.kubeconfig, ['get', 'namespaces', '-o', 'name'])), /^(?![\s\S]*only-in-a)/);
  });

  it('kubectl get cs: the scheduler, the controller manager and the storage are healthy', async () => {
    const { waitFor } = await import('../support/wait.js');
    const { kubectl } = await import('../support/kubectl.js');
    const healthy = /^NAME\s+STATUS\s+MESSAGE\s+ERROR\nscheduler\s+Healthy\s+ok\s*\ncontroller-manager\s+Healthy\s+ok\s*\netcd-0\s+Healthy\s+ok\s*\n$/;
    const out = await waitFor(async () => {
      const r = await kubectl(a.kubeconfig, ['get', 'cs']);
      return healthy.test(r.stdout) ? r : undefined;
    }, 'healthy components');
    assert.match(out.stderr, /Warning: v1 ComponentStatus is deprecated in v1\.19\+/);
    const etcd = JSON.parse(await kubectlOk(a.kubeconfig, ['get', 'componentstatus', 'etcd-0', '-o', 'json']));
    assert.deepEqual(etcd.conditions, [{ type: 'Healthy', status: 'True', message: 'ok' }]);
  });

  it('rolls out a deployment, scales it and completes a job', async () => {
    const k = (args: string[]) => kubectlOk(a.kubeconfig, args);
    await k(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    await k(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const pods = JSON.parse(await k(['get', 'pods', '-l', 'app=web', '-o', 'json'])).items as Array<{ status: { phase: string }; spec: { nodeName: string } }>;
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.equal(p.status.phase, 'Running');
      assert.match(p.spec.nodeName, /^kubelite-node-\d$/);
    }
    await k(['scale', 'deployment', 'web', '--replicas=5']);
    await k(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    await k(['create', 'job', 'j', '--image=busybox', '--', 'sh', '-c', 'exit 0']);
    await k(['wait', '--for=condition=complete', 'job/j', '--timeout=60s']);
  });
});

describe('kubelite up (the command)', () => {
  it('prints its ready line, stops on SIGTERM, and keeps its objects across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kubelite-up-'));
    const up = () => {
      const child = spawn(process.execPath, [KUBELITE_BIN, 'up', '--data-dir', dataDir, '--port', '0', '--nodes', '1', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
      const ready = new Promise<{ kubeconfig: string; server: string }>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /ready: kubeconfig=(\S+) server=(\S+)/.exec(out);
          if (m) resolve({ kubeconfig: m[1]!, server: m[2]! });
        });
        child.once('exit', (code) => reject(new Error(`kubelite up exited ${code} before ready`)));
      });
      const stop = async () => {
        const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
        child.kill('SIGTERM');
        return exited;
      };
      return { ready, stop };
    };
    try {
      let run = up();
      let { kubeconfig } = await run.ready;
      await kubectlOk(kubeconfig, ['create', 'configmap', 'kept', '--from-literal=a=b']);
      assert.equal(await run.stop(), 0);
      run = up();
      ({ kubeconfig } = await run.ready);
      assert.match(await kubectlOk(kubeconfig, ['get', 'configmap', 'kept', '-o', 'jsonpath={.data.a}']), /^b$/);
      assert.equal(await run.stop(), 0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
