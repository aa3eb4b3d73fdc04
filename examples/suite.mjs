// The example suite, written once against the runner's own hooks (node:test, Vitest, Jest): one
// kubelite cluster for the file, reset to its first snapshot after each test.
import { execFileSync } from 'node:child_process';
import * as k8s from '@kubernetes/client-node';
import { startCluster } from 'kubelite';

export function clusterSuite({ describe, it, beforeAll, afterAll, afterEach, expectEqual }) {
  describe('a Kubernetes cluster from kubelite', () => {
    let cluster;
    let clean;
    let core;
    let apps;

    beforeAll(async () => {
      cluster = await startCluster({ nodes: 1 });
      const kc = await cluster.kubeConfig();
      core = kc.makeApiClient(k8s.CoreV1Api);
      apps = kc.makeApiClient(k8s.AppsV1Api);
      clean = await cluster.snapshot();
    });
    afterEach(async () => {
      await cluster.restore(clean);
    });
    afterAll(async () => {
      await cluster?.stop();
    });

    it('creates and reads a ConfigMap with client-node', async () => {
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'settings' }, data: { mode: 'test' } } });
      const cm = await core.readNamespacedConfigMap({ namespace: 'default', name: 'settings' });
      expectEqual(cm.data.mode, 'test');
    });

    it('starts each test from the snapshot: the ConfigMap of the test before is gone', async () => {
      const list = await core.listNamespacedConfigMap({ namespace: 'default' });
      expectEqual(list.items.some((c) => c.metadata.name === 'settings'), false);
    });

    it('runs a Deployment to Available', async () => {
      await apps.createNamespacedDeployment({
        namespace: 'default',
        body: { metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } },
      });
      for (let i = 0; ; i++) {
        const d = await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
        if (d.status?.availableReplicas === 2) break;
        if (i > 300) throw new Error(`web not available: ${JSON.stringify(d.status)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    });

    it('answers kubectl', () => {
      const out = execFileSync('kubectl', ['--kubeconfig', cluster.kubeconfig, 'get', 'nodes', '-o', 'name'], { encoding: 'utf8' });
      expectEqual(out, 'node/kubelite-node-0\n');
      // the Deployment of the test before is gone too
      expectEqual(execFileSync('kubectl', ['--kubeconfig', cluster.kubeconfig, 'get', 'deployments', '-o', 'name'], { encoding: 'utf8' }), '');
    });
  });
}
