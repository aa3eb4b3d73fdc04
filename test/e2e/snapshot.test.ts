// Snapshots of a running cluster (startCluster's snapshot()/restore(), /kubelite/snapshots) and of
// a stopped data dir (`kubelite snapshot save|restore`, `up --from-snapshot`): a restore brings
// back exactly the objects listed at the snapshot — names, specs, labels — deleting what was made
// since, with newer resourceVersions, so a client-node informer started before it reconverges
// without a relist, and the controllers converge (a Deployment deleted after the snapshot is
// Available again).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { KUBELITE_BIN } from '../support/kubelite.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

const work = mkdtempSync(join(tmpdir(), 'kubelite-snapshot-'));
let cluster: Cluster;

/** Name, labels and data/spec of the listed kinds in namespace app: what a restore must bring back exactly. */
async function state(c: Cluster): Promise<string[]> {
  const out: string[] = [];
  for (const kind of ['configmaps', 'deployments', 'services', 'secrets']) {
    const list = JSON.parse(await kubectlOk(c.kubeconfig, ['get', kind, '-n', 'app', '-o', 'json'])) as { items: Array<{ metadata: { name: string; labels?: object }; spec?: unknown; data?: unknown }> };
    for (const i of list.items) out.push(`${kind}/${i.metadata.name} ${JSON.stringify(i.metadata.labels ?? {})} ${JSON.stringify(i.data ?? (i.spec as { template?: unknown; selector?: unknown; ports?: unknown }) ?? {})}`);
  }
  return out.sort();
}

const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'app', labels: { tier: 'front' } }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };

describe('snapshots', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 1, dataDir: join(work, 'data') });
    await kubectlOk(cluster.kubeconfig, ['create', 'namespace', 'app']);
    await kubectlOk(cluster.kubeconfig, ['apply', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [DEPLOYMENT, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'app', labels: { keep: 'yes' } }, data: { mode: 'original' } }] }),
    });
    await kubectlOk(cluster.kubeconfig, ['rollout', 'status', 'deployment/web', '-n', 'app', '--timeout=60s']);
  });
  after(async () => {
    await cluster?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('restore() brings back exactly the snapshot; an informer reconverges; the controllers converge', async () => {
    const before = await state(cluster);
    const handle = await cluster.snapshot();
    assert.ok(handle.keys > 50, `a whole cluster, not ${handle.keys} keys`);
    const kc = await cluster.kubeConfig();
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const informer = k8s.makeInformer(kc, '/api/v1/namespaces/app/configmaps', () => core.listNamespacedConfigMap({ namespace: 'app' }));
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      const rvBefore = Number((await core.readNamespacedConfigMap({ namespace: 'app', name: 'settings' })).metadata!.resourceVersion);
      // what a test does: create, change, label, delete
      await kubectlOk(cluster.kubeconfig, ['create', 'configmap', 'scratch', '-n', 'app', '--from-literal=x=y']);
      await kubectlOk(cluster.kubeconfig, ['create', 'secret', 'generic', 'token', '-n', 'app', '--from-literal=t=s']);
      await kubectlOk(cluster.kubeconfig, ['patch', 'configmap', 'settings', '-n', 'app', '-p', '{"data":{"mode":"changed"}}']);
      await kubectlOk(cluster.kubeconfig, ['label', 'configmap', 'settings', '-n', 'app', 'keep-']);
      await kubectlOk(cluster.kubeconfig, ['delete', 'deployment', 'web', '-n', 'app']);
      await waitFor(() => informer.list('app').some((c) => c.metadata?.name === 'scratch'), 'the informer to see the change');
      assert.notDeepEqual(await state(cluster), before);

      const result = await cluster.restore(handle);
      assert.ok(result.deleted >= 2 && result.updated >= 1 && result.created >= 1, JSON.stringify(result));
      assert.ok(result.revision > handle.revision);
      assert.deepEqual(await state(cluster), before);
      const settings = await core.readNamespacedConfigMap({ namespace: 'app', name: 'settings' });
      assert.deepEqual([settings.data, settings.metadata?.labels], [{ mode: 'original' }, { keep: 'yes' }]);
      assert.ok(Number(settings.metadata!.resourceVersion) > rvBefore, 'resourceVersions only grow');
      // the informer follows the restore as events, no relist needed
      await waitFor(() => {
        const cms = informer.list('app');
        const names = cms.map((c) => c.metadata!.name).sort();
        return JSON.stringify(names) === '["kube-root-ca.crt","settings"]' && cms.find((c) => c.metadata!.name === 'settings')?.data?.mode === 'original';
      }, 'the informer to reconverge', 20_000, 50);
      assert.deepEqual(errors, []);
      // the Deployment deleted after the snapshot is back, and its controllers bring it to Available
      await kubectlOk(cluster.kubeconfig, ['rollout', 'status', 'deployment/web', '-n', 'app', '--timeout=60s']);
    } finally {
      await informer.stop();
    }
  });

  it('kubelite snapshot save|restore work on a stopped data dir, refuse a running one, and up --from-snapshot starts from a file', async () => {
    const file = join(work, 'cluster.snap');
    const running = spawnSync(process.execPath, [KUBELITE_BIN, 'snapshot', 'save', file, '--data-dir', join(work, 'data')], { encoding: 'utf8' });
    assert.equal(running.status, 2);
    assert.match(running.stderr, /^kubelite snapshot save: data dir .* is locked by running process \d+ .*stop that process first\n$/);
    const before = await state(cluster);
    await cluster.stop();
    const saved = spawnSync(process.execPath, [KUBELITE_BIN, 'snapshot', 'save', file, '--data-dir', join(work, 'data')], { encoding: 'utf8' });
    assert.equal(saved.status, 0, saved.stderr);
    assert.match(saved.stdout, /^saved \d+ objects at revision \d+ to /);
    const bad = spawnSync(process.execPath, [KUBELITE_BIN, 'snapshot', 'restore', join(work, 'missing.snap'), '--data-dir', join(work, 'data')], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^kubelite snapshot restore: .*missing\.snap does not exist\n$/);
    cluster = await startCluster({ nodes: 1, dataDir: join(work, 'other'), fromSnapshot: file });
    assert.deepEqual(await state(cluster), before);
    const r = await kubectl(cluster.kubeconfig, ['get', 'configmap', 'settings', '-n', 'app', '-o', 'jsonpath={.data.mode}']);
    assert.equal(r.stdout, 'original');
  });
});
