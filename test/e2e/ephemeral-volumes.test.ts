// Generic ephemeral volumes on `kubelite up`, through kubectl: a pod's `ephemeral.volumeClaimTemplate`
// becomes a claim `<pod>-<volume>` owned by the pod, bound by the default StorageClass, and deleted
// with the pod by the garbage collector.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, args, { input });

describe('kubelite up: generic ephemeral volumes', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 1 });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('a pod gets its claim, bound, and loses it with the pod', async () => {
    await k(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'worker' },
      spec: {
        containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] }],
        volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } }],
      },
    }));
    await waitFor(async () => (await k(['get', 'pvc', 'worker-scratch', '-o', 'jsonpath={.status.phase}']).catch(() => '')).trim() === 'Bound', 'the claim bound', 30_000);
    assert.equal((await k(['get', 'pvc', 'worker-scratch', '-o', 'jsonpath={.metadata.ownerReferences[0].name}'])).trim(), 'worker');
    await k(['delete', 'pod', 'worker', '--wait=true']);
    await waitFor(async () => (await kubectl(cluster.kubeconfig, ['get', 'pvc', 'worker-scratch'])).code !== 0, 'the claim deleted with the pod', 60_000);
  });
});
