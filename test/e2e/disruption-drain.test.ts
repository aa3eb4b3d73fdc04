// PodDisruptionBudgets on `kubelite up`, through real kubectl: the disruption controller keeps a
// budget's status (`kubectl get pdb` shows ALLOWED DISRUPTIONS), the eviction subresource refuses
// with 429 while the budget allows nothing, and `kubectl drain` waits and retries until a
// replacement pod is Ready elsewhere, then finishes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk, kubectlStream } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

interface Budget {
  metadata: { generation: number };
  status?: { observedGeneration?: number; disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number; expectedPods?: number; conditions?: { type: string; status: string; reason: string }[] };
}
interface PodList {
  items: { metadata: { name: string; deletionTimestamp?: string }; spec: { nodeName?: string }; status: { conditions?: { type: string; status: string }[] } }[];
}

let cluster: Cluster;
const NS = 'drain';
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, args, { input });
const budget = async (): Promise<Budget> => JSON.parse(await k(['-n', NS, 'get', 'pdb', 'web', '-o', 'json'])) as Budget;
const webPods = async (): Promise<PodList['items']> => (JSON.parse(await k(['-n', NS, 'get', 'pods', '-l', 'app=web', '-o', 'json'])) as PodList).items;
const ready = (p: PodList['items'][number]) => !p.metadata.deletionTimestamp && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Waits until the controller has observed the budget's generation and computed `allowed`. */
const allowedBecomes = async (allowed: number): Promise<Budget> => {
  let last: Budget | undefined;
  await waitFor(async () => {
    last = await budget();
    return last.status?.observedGeneration === last.metadata.generation && last.status.disruptionsAllowed === allowed;
  }, `disruptionsAllowed ${allowed}`, 60_000);
  return last!;
};

describe('kubelite up: PodDisruptionBudgets and kubectl drain', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 3 });
    await k(['create', 'namespace', NS]);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('a budget counts healthy pods of a Deployment; drain waits on it and finishes once a replacement is Ready', async () => {
    await k(['-n', NS, 'create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    await k(['-n', NS, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
    await k(['-n', NS, 'create', 'poddisruptionbudget', 'web', '--selector=app=web', '--min-available=3']);
    const b = await allowedBecomes(0);
    assert.deepEqual([b.status?.currentHealthy, b.status?.desiredHealthy, b.status?.expectedPods], [3, 3, 3]);
    assert.deepEqual(b.status?.conditions?.map((c) => [c.type, c.status, c.reason]), [['DisruptionAllowed', 'False', 'InsufficientPods']]);
    assert.match(await k(['-n', NS, 'get', 'pdb', 'web']), /^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\nweb\s+3\s+N\/A\s+0\s+/);

    // maxUnavailable 34% of the Deployment's 3 replicas (rounded up: 2) allows two disruptions
    await k(['-n', NS, 'patch', 'pdb', 'web', '--type=merge', '-p', '{"spec":{"minAvailable":null,"maxUnavailable":"34%"}}']);
    await allowedBecomes(2);
    assert.match(await k(['-n', NS, 'get', 'pdb', 'web']), /\nweb\s+N\/A\s+34%\s+2\s+/);

    // back to none: drain of a node running a web pod is refused and retried
    await k(['-n', NS, 'patch', 'pdb', 'web', '--type=merge', '-p', '{"spec":{"maxUnavailable":null,"minAvailable":3}}']);
    await allowedBecomes(0);
    const node = (await webPods()).find((p) => p.spec.nodeName)!.spec.nodeName!;
    const drain = kubectlStream(cluster.kubeconfig, ['drain', node, '--ignore-daemonsets', '--timeout=120s']);
    try {
      await drain.waitFor(/Cannot evict pod as it would violate the pod's disruption budget\./, 60_000);
      assert.equal((await webPods()).filter(ready).length, 3, 'no pod was evicted while the budget allowed nothing');
      // one more replica is scheduled elsewhere (the drained node is cordoned); once it is Ready the
      // budget allows one disruption, drain's retry evicts, and the evicted pod's replacement comes up too
      await k(['-n', NS, 'scale', 'deployment/web', '--replicas=4']);
      const code = await new Promise<number | null>((resolve) => drain.child.on('exit', resolve));
      assert.equal(code, 0, drain.output());
      assert.match(drain.output(), new RegExp(`node/${node} drained`));
    } finally {
      drain.child.kill();
    }
    await waitFor(async () => {
      const pods = (await webPods()).filter(ready);
      return pods.length === 4 && pods.every((p) => p.spec.nodeName !== node);
    }, '4 ready web pods, none on the drained node', 60_000);
    const after = await allowedBecomes(1);
    assert.deepEqual([after.status?.currentHealthy, after.status?.desiredHealthy, after.status?.expectedPods], [4, 3, 4]);
  });
});
