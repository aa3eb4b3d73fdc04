// The simulated nodes of `up` are kubelets to the API server: each acts as `system:node:<name>`
// in `system:nodes` with a client certificate of its own (kept in <data-dir>/pki/nodes), the API
// server runs the Node authorizer and NodeRestriction on them, and the nodes process's own
// identity only has the node lifecycle controller's role — no binding gives anyone `system:node`.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubeconfigYaml } from '../../src/up/credentials.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

describe('per-node identities in `up`', () => {
  let cluster: Cluster;
  let ca = '';
  let node0 = '';

  before(async () => {
    cluster = await startCluster({ nodes: 2, storage: 'memory' });
    const doc = parse(readFileSync(cluster.kubeconfig, 'utf8')) as { clusters: Array<{ cluster: Record<string, string> }> };
    ca = Buffer.from(doc.clusters[0]!.cluster['certificate-authority-data']!, 'base64').toString();
    // A kubeconfig with node 0's certificate, as its kubelet would have.
    const dir = join(cluster.dataDir, 'pki', 'nodes');
    const certs = JSON.parse(readFileSync(join(dir, 'kubelet-client-certs.json'), 'utf8')) as { certs: Record<string, { cert: string }> };
    node0 = join(cluster.dataDir, 'node-0.kubeconfig');
    writeFileSync(node0, kubeconfigYaml(cluster.server, ca, { cert: certs.certs['kubelite-node-0']!.cert, key: readFileSync(join(dir, 'kubelet-client.key'), 'utf8') }), { mode: 0o600 });
  });
  after(() => cluster?.stop());

  it('keeps one certificate per node, signed by the cluster CA, in <data-dir>/pki/nodes', () => {
    const certs = JSON.parse(readFileSync(join(cluster.dataDir, 'pki', 'nodes', 'kubelet-client-certs.json'), 'utf8')) as { certs: Record<string, { cert: string }> };
    assert.deepEqual(Object.keys(certs.certs).sort(), ['kubelite-node-0', 'kubelite-node-1']);
    for (const [name, { cert }] of Object.entries(certs.certs)) {
      const x = new X509Certificate(cert);
      assert.equal(x.subject, `O=system:nodes\nCN=system:node:${name}`);
      assert.ok(x.verify(new X509Certificate(ca).publicKey));
    }
  });

  it('a node is system:node:<name> and may write only itself, its Lease and its pods', async () => {
    const who = await kubectlOk(node0, ['auth', 'whoami']);
    assert.match(who, /Username\s+system:node:kubelite-node-0/);
    assert.match(who, /Groups\s+\[system:nodes system:authenticated\]/);
    await kubectlOk(node0, ['annotate', 'node', 'kubelite-node-0', 'e2e=yes']);
    // A write without a read first (kubectl annotate and patch read the Node): NodeRestriction's refusal.
    const other = await kubectl(node0, ['replace', '--raw', '/api/v1/nodes/kubelite-node-1', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'kubelite-node-1' } }) });
    assert.match(other.stderr, /nodes "kubelite-node-1" is forbidden: node "kubelite-node-0" is not allowed to modify node "kubelite-node-1"/);
    const read = await kubectl(node0, ['get', 'node', 'kubelite-node-1']);
    assert.match(read.stderr, /nodes "kubelite-node-1" is forbidden: User "system:node:kubelite-node-0" cannot get resource "nodes" in API group "" at the cluster scope: node 'kubelite-node-0' cannot read 'kubelite-node-1', only its own Node object/);
    const lease = await kubectl(node0, ['annotate', 'lease', 'kubelite-node-1', '-n', 'kube-node-lease', 'e2e=yes']);
    assert.match(lease.stderr, /can only access node lease with the same name as the requesting node/);
    // NodeRestriction: not even its own taints.
    const taint = await kubectl(node0, ['taint', 'node', 'kubelite-node-0', 'e2e=yes:NoSchedule']);
    assert.match(taint.stderr, /node "kubelite-node-0" is not allowed to modify taints/);
  });

  it('the nodes report their pods and renew their Leases as themselves; nobody else holds the kubelet role', async () => {
    const admin = (args: string[]) => kubectlOk(cluster.kubeconfig, args);
    // The nodes process's own identity cannot write Leases or Node status: what the nodes do, they do as nodes.
    for (const [verb, resource, ns] of [['update', 'leases.coordination.k8s.io', 'kube-node-lease'], ['create', 'leases.coordination.k8s.io', 'kube-node-lease'], ['create', 'nodes', '']] as const) {
      const r = await kubectl(cluster.kubeconfig, ['auth', 'can-i', verb, resource, ...(ns ? ['-n', ns] : []), '--as', 'system:kubelite-node-lifecycle']);
      assert.equal(r.stdout.trim(), 'no', `${verb} ${resource}`);
    }
    assert.equal((await kubectl(cluster.kubeconfig, ['auth', 'can-i', 'patch', 'nodes', '--as', 'system:kubelite-node-lifecycle'])).stdout.trim(), 'yes');
    const bindings = await admin(['get', 'clusterrolebindings', '-o', 'jsonpath={range .items[?(@.roleRef.name=="system:node")]}{.metadata.name}={.subjects}{"\\n"}{end}']);
    assert.equal(bindings.trim(), 'system:node=', 'only the bootstrap binding, without subjects');
    await assert.rejects(admin(['get', 'clusterrolebinding', 'kubelite:nodes']));
    const renewTime = async () => (await admin(['get', 'lease', 'kubelite-node-1', '-n', 'kube-node-lease', '-o', 'jsonpath={.spec.renewTime}'])).trim();
    await admin(['run', 'on-1', '--image=nginx', '--overrides={"spec":{"nodeName":"kubelite-node-1"}}']);
    await waitFor(async () => (await admin(['get', 'pod', 'on-1', '-o', 'jsonpath={.status.phase}'])) === 'Running', 'pod on-1 Running');
    const before = await renewTime();
    assert.notEqual(before, '');
    await admin(['delete', 'pod', 'on-1', '--wait=true', '--timeout=60s']);
    assert.equal((await kubectl(cluster.kubeconfig, ['get', 'pod', 'on-1'])).code, 1, 'deleted by its node once stopped');
  });
});
