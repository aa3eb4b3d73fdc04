// The simulated nodes of `up` are kubelets to the API server: the nodes process authenticates once,
// as itself, and sends each node's requests as `system:node:<name>` in `system:nodes` by
// impersonation; the API server runs the Node authorizer and NodeRestriction on them as on a
// kubelet's own requests. The nodes process's identity may impersonate exactly its nodes (and
// their group), has the node lifecycle controller's role, and holds no key of the CA.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

const AGENT = 'system:kubelite-node-lifecycle';

describe('node identities in `up`', () => {
  let cluster: Cluster;
  let agent = '';
  /** kubectl as the nodes process acting as node 0, as its requests for that node go. */
  const asNode0 = (args: string[]) => kubectl(agent, [...args, '--as', 'system:node:kubelite-node-0', '--as-group', 'system:nodes']);

  before(async () => {
    cluster = await startCluster({ nodes: 2, storage: 'memory' });
    agent = join(cluster.dataDir, 'nodes.kubeconfig');
  });
  after(() => cluster?.stop());

  it('a node is system:node:<name> and may write only itself, its Lease and its pods', async () => {
    const who = await asNode0(['auth', 'whoami']);
    assert.match(who.stdout, /Username\s+system:node:kubelite-node-0/);
    assert.match(who.stdout, /Groups\s+\[system:nodes system:authenticated\]/);
    assert.equal((await asNode0(['annotate', 'node', 'kubelite-node-0', 'e2e=yes'])).code, 0);
    // A write without a read first (kubectl annotate and patch read the Node): NodeRestriction's refusal.
    const other = await kubectl(agent, ['replace', '--raw', '/api/v1/nodes/kubelite-node-1', '-f', '-', '--as', 'system:node:kubelite-node-0', '--as-group', 'system:nodes'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'kubelite-node-1' } }) });
    assert.match(other.stderr, /nodes "kubelite-node-1" is forbidden: node "kubelite-node-0" is not allowed to modify node "kubelite-node-1"/);
    const read = await asNode0(['get', 'node', 'kubelite-node-1']);
    assert.match(read.stderr, /nodes "kubelite-node-1" is forbidden: User "system:node:kubelite-node-0" cannot get resource "nodes" in API group "" at the cluster scope: node 'kubelite-node-0' cannot read 'kubelite-node-1', only its own Node object/);
    const lease = await asNode0(['annotate', 'lease', 'kubelite-node-1', '-n', 'kube-node-lease', 'e2e=yes']);
    assert.match(lease.stderr, /can only access node lease with the same name as the requesting node/);
    // NodeRestriction: not even its own taints.
    const taint = await asNode0(['taint', 'node', 'kubelite-node-0', 'e2e=yes:NoSchedule']);
    assert.match(taint.stderr, /node "kubelite-node-0" is not allowed to modify taints/);
  });

  it('the nodes process may impersonate only its own nodes, in their group', async () => {
    const refused = async (args: string[], what: RegExp) => {
      const r = await kubectl(agent, ['get', 'namespaces', ...args]);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.match(r.stderr, what);
    };
    await refused(['--as', 'kubernetes-admin'], new RegExp(`users "kubernetes-admin" is forbidden: User "${AGENT}" cannot impersonate resource "users"`));
    await refused(['--as', 'system:node:kubelite-node-2', '--as-group', 'system:nodes'], /users "system:node:kubelite-node-2" is forbidden: .* cannot impersonate resource "users"/);
    await refused(['--as', 'system:node:kubelite-node-1', '--as-group', 'system:masters'], /groups "system:masters" is forbidden: .* cannot impersonate resource "groups"/);
    const role = JSON.parse(await kubectlOk(cluster.kubeconfig, ['get', 'clusterrole', 'kubelite:node-impersonator', '-o', 'json'])) as { rules: Array<{ resources: string[]; resourceNames: string[] }> };
    assert.deepEqual(role.rules.map((r) => [r.resources, r.resourceNames]), [[['users'], ['system:node:kubelite-node-0', 'system:node:kubelite-node-1']], [['groups'], ['system:nodes']]]);
    assert.equal(existsSync(join(cluster.dataDir, 'pki', 'nodes')), false, 'no per-node certificates');
  });

  it('the nodes report their pods and renew their Leases as themselves; nobody else holds the kubelet role', async () => {
    const admin = (args: string[]) => kubectlOk(cluster.kubeconfig, args);
    // The nodes process's own identity cannot write Leases or Node status: what the nodes do, they do as nodes.
    for (const [verb, resource, ns] of [['update', 'leases.coordination.k8s.io', 'kube-node-lease'], ['create', 'leases.coordination.k8s.io', 'kube-node-lease'], ['create', 'nodes', '']] as const) {
      const r = await kubectl(cluster.kubeconfig, ['auth', 'can-i', verb, resource, ...(ns ? ['-n', ns] : []), '--as', AGENT]);
      assert.equal(r.stdout.trim(), 'no', `${verb} ${resource}`);
    }
    assert.equal((await kubectl(cluster.kubeconfig, ['auth', 'can-i', 'patch', 'nodes', '--as', AGENT])).stdout.trim(), 'yes');
    const bindings = await admin(['get', 'clusterrolebindings', '-o', 'jsonpath={range .items[?(@.roleRef.name=="system:node")]}{.metadata.name}={.subjects}{"\\n"}{end}']);
    assert.equal(bindings.trim(), 'system:node=', 'only the bootstrap binding, without subjects');
    await assert.rejects(admin(['get', 'clusterrolebinding', 'kubelite:nodes']));
    const renewTime = await admin(['get', 'lease', 'kubelite-node-1', '-n', 'kube-node-lease', '-o', 'jsonpath={.spec.renewTime}']);
    assert.notEqual(renewTime.trim(), '');
    await admin(['run', 'on-1', '--image=nginx', '--overrides={"spec":{"nodeName":"kubelite-node-1"}}']);
    await waitFor(async () => (await admin(['get', 'pod', 'on-1', '-o', 'jsonpath={.status.phase}'])) === 'Running', 'pod on-1 Running');
    await admin(['delete', 'pod', 'on-1', '--wait=true', '--timeout=60s']);
    assert.equal((await kubectl(cluster.kubeconfig, ['get', 'pod', 'on-1'])).code, 1, 'deleted by its node once stopped');
  });
});
