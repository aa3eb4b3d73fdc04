// `kubelite nodes --impersonate-nodes` against an API server with the Node authorizer, RBAC and
// NodeRestriction: the agent authenticates with its own token and may impersonate only the nodes
// the role names; its nodes register, heartbeat and run pods as `system:node:<name>`, and a node
// still may not touch another node's objects.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startApiServer } from '../apiserver/server.js';
import { TokenFileAuthenticator } from '../apiserver/auth/token-file.js';
import type { Node, Pod } from '../api/types.js';
import { RestClientset } from '../client/rest.js';
import { nodeIdentity, nodeImpersonatorRole, NODE_IMPERSONATOR_ROLE } from './identity.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'cli', 'main.js');
const AGENT = 'system:kubelite:nodes';
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const PODS = { group: '', version: 'v1', resource: 'pods' };
const CLUSTER_ROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };
const CLUSTER_ROLE_BINDINGS = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings' };

const binding = (name: string, role: string) => ({ metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: AGENT }] });

async function until<T>(what: string, f: () => Promise<T | undefined>, stderr: () => string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('kubelite nodes --impersonate-nodes: the nodes act as themselves through the agent\'s one credential', async () => {
  const tokens = new Map([
    ['admin-token', { name: 'admin', uid: 'a', groups: ['system:masters'] }],
    ['agent-token', { name: AGENT, uid: 'n', groups: [] }],
  ]);
  const server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, authentication: { authenticators: [new TokenFileAuthenticator(tokens)], anonymous: false }, authorizationModes: ['Node', 'RBAC'], admissionPlugins: ['NamespaceLifecycle', 'NodeRestriction'] });
  const admin = new RestClientset({ config: { server: server.url, token: 'admin-token' }, qps: 0 });
  const agent = new RestClientset({ config: { server: server.url, token: 'agent-token' }, qps: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-imp-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, JSON.stringify({ apiVersion: 'v1', kind: 'Config', 'current-context': 'c', clusters: [{ name: 'c', cluster: { server: server.url } }], users: [{ name: 'u', user: { token: 'agent-token' } }], contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }] }));
  let stderr = '';
  let child: ReturnType<typeof spawn> | undefined;
  try {
    await admin.resource({ group: '', version: 'v1', resource: 'namespaces' }).create('', { metadata: { name: 'default' } }).catch(() => {});
    await admin.resource(CLUSTER_ROLES).create('', nodeImpersonatorRole(['imp-0', 'imp-1']));
    await admin.resource(CLUSTER_ROLE_BINDINGS).create('', binding(NODE_IMPERSONATOR_ROLE, NODE_IMPERSONATOR_ROLE));
    // the agent's own reads: its informers of pods and nodes
    await admin.resource(CLUSTER_ROLES).create('', { metadata: { name: 'reads' }, rules: [{ apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }] });
    await admin.resource(CLUSTER_ROLE_BINDINGS).create('', binding('reads', 'reads'));
    child = spawn(process.execPath, [BIN, 'nodes', '--kubeconfig', kubeconfig, '--impersonate-nodes', '--nodes', '2', '--node-name-prefix', 'imp-', '--csi-driver=false', '--lifecycle-taints=false', '--kubelet-port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    await until('nodes Ready', async () => {
      const nodes: Node[] = (await admin.resource(NODES).list('')).items;
      return nodes.filter((n) => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')).length === 2 ? true : undefined;
    }, () => stderr);
    await admin.resource(PODS).create('default', { metadata: { name: 'p' }, spec: { nodeName: 'imp-1', containers: [{ name: 'c', image: 'nginx' }] } });
    await until('pod Running', async () => ((await admin.resource(PODS).get('default', 'p')) as Pod).status?.phase === 'Running' || undefined, () => stderr);
    assert.match(stderr, /"identities":"system:node:<name> \(impersonated\)"/);

    // The agent acting as imp-0: its own Node, not imp-1's (NodeRestriction, then the Node authorizer).
    const imp0 = agent.impersonating(nodeIdentity('imp-0'));
    await imp0.resource(NODES).patch('', 'imp-0', 'merge', { metadata: { annotations: { own: 'yes' } } });
    await assert.rejects(imp0.resource(NODES).patch('', 'imp-1', 'merge', { metadata: { annotations: { other: 'yes' } } }), /node "imp-0" is not allowed to modify node "imp-1"/);
    await assert.rejects(imp0.resource(NODES).get('', 'imp-1'), /node 'imp-0' cannot read 'imp-1', only its own Node object/);
    await assert.rejects(imp0.resource(PODS).patch('default', 'p', 'merge', { status: { message: 'x' } }, { subresource: 'status' }), (e: Error) => /forbidden/i.test(e.message));
    // ... and no one it was not given.
    await assert.rejects(agent.impersonating(nodeIdentity('imp-2')).resource(NODES).get('', 'imp-1'), /users "system:node:imp-2" is forbidden: User "system:kubelite:nodes" cannot impersonate resource "users"/);
    await assert.rejects(agent.impersonating({ userName: 'admin' }).resource(NODES).list(''), /cannot impersonate resource "users"/);
    await assert.rejects(agent.impersonating({ userName: 'system:node:imp-0', groups: ['system:masters'] }).resource(NODES).list(''), /groups "system:masters" is forbidden/);
  } finally {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    admin.close();
    agent.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
