// RBAC end to end: a real `kubelite apiserver` with static tokens and the default
// --authorization-mode (RBAC), the clusterrole-aggregation controller in a real controller manager
// (so view/edit/admin have their rules), and real kubectl 1.33 and 1.27 as a view-only user, an
// edit user in one namespace, a user without rights and anonymous: which verbs on which resources
// and subresources succeed is Kubernetes' answer for its default roles.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '../support/http.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { KUBELITE_BIN, startApiserver, writeKubeconfig, type RunningApiserver } from '../support/kubelite.js';
import { freePort } from '../support/ports.js';
import { waitFor } from '../support/wait.js';

const VERSIONS = ['1.33', '1.27'];
const USERS = {
  admin: 'admin-token,admin,100,system:masters',
  viewer: 'viewer-token,viewer,101,',
  editor: 'editor-token,editor,102,"dev,qa"',
  nobody: 'nobody-token,nobody,103,',
  node: 'node-token,system:node:n1,104,system:nodes',
  manager: 'manager-token,system:kube-controller-manager,105,',
};

let api: RunningApiserver;
let manager: ChildProcess | undefined;
const kc: Record<keyof typeof USERS, string> = { admin: '', viewer: '', editor: '', nobody: '', node: '', manager: '' };

const as = (user: keyof typeof USERS, args: string[], version?: string) => kubectl(kc[user], args, { version });

describe('RBAC with kubectl', () => {
  before(async () => {
    const tokens = join(process.env.TMPDIR ?? '/tmp', `kubelite-rbac-tokens-${process.pid}.csv`);
    writeFileSync(tokens, `${Object.values(USERS).join('\n')}\n`);
    api = await startApiserver(['--storage', 'memory', '--token-auth-file', tokens, '--authorization-mode=Node,RBAC']);
    for (const user of Object.keys(USERS) as Array<keyof typeof USERS>) {
      kc[user] = join(api.dir, `${user}.kubeconfig`);
      writeKubeconfig(kc[user], api.url, { token: `${user}-token` });
    }
    const port = await freePort();
    manager = spawn(process.execPath, [KUBELITE_BIN, 'controller-manager', `--kubeconfig=${kc.admin}`, '--controllers=clusterrole-aggregation', '--address=127.0.0.1', `--port=${port}`], { stdio: 'ignore' });
    await kubectlOk(kc.admin, ['create', 'namespace', 'team']);
    await kubectlOk(kc.admin, ['create', 'clusterrolebinding', 'viewer-view', '--clusterrole=view', '--user=viewer']);
    await kubectlOk(kc.admin, ['create', 'rolebinding', 'editor-edit', '--clusterrole=edit', '--group=dev', '-n', 'team']);
    // The aggregation controller has filled view and edit, and the policy cache follows.
    await waitFor(async () => (await as('editor', ['auth', 'can-i', 'create', 'deployments.apps', '-n', 'team'])).stdout.trim() === 'yes', 'edit aggregated');
    await waitFor(async () => (await as('viewer', ['auth', 'can-i', 'list', 'pods', '-n', 'team'])).stdout.trim() === 'yes', 'view aggregated');
  });

  after(async () => {
    manager?.kill('SIGTERM');
    await api?.stop();
  });

  // [user, verb, resource, namespace, expected] — Kubernetes' answers for its default roles.
  const MATRIX: Array<[keyof typeof USERS, string, string, string, 'yes' | 'no']> = [
    ['viewer', 'get', 'pods', 'team', 'yes'],
    ['viewer', 'list', 'deployments.apps', 'default', 'yes'],
    ['viewer', 'watch', 'jobs.batch', 'team', 'yes'],
    ['viewer', 'get', 'pods/log', 'team', 'yes'],
    ['viewer', 'get', 'deployments.apps/scale', 'team', 'yes'],
    ['viewer', 'list', 'secrets', 'team', 'no'],
    ['viewer', 'create', 'pods', 'team', 'no'],
    ['viewer', 'create', 'pods/exec', 'team', 'no'],
    ['viewer', 'update', 'deployments.apps/scale', 'team', 'no'],
    ['viewer', 'list', 'roles.rbac.authorization.k8s.io', 'team', 'no'],
    ['viewer', 'list', 'nodes', '', 'no'],
    ['editor', 'create', 'deployments.apps', 'team', 'yes'],
    ['editor', 'delete', 'secrets', 'team', 'yes'],
    ['editor', 'create', 'pods/exec', 'team', 'yes'],
    ['editor', 'patch', 'deployments.apps/scale', 'team', 'yes'],
    ['editor', 'impersonate', 'serviceaccounts', 'team', 'yes'],
    ['editor', 'create', 'roles.rbac.authorization.k8s.io', 'team', 'no'],
    ['editor', 'create', 'rolebindings.rbac.authorization.k8s.io', 'team', 'no'],
    ['editor', 'create', 'localsubjectaccessreviews.authorization.k8s.io', 'team', 'no'],
    ['editor', 'update', 'pods/status', 'team', 'no'],
    ['editor', 'get', 'pods', 'default', 'no'],
    ['editor', 'create', 'namespaces', '', 'no'],
    ['nobody', 'get', 'pods', 'team', 'no'],
    ['nobody', 'create', 'pods/exec', 'team', 'no'],
    ['nobody', 'create', 'selfsubjectaccessreviews.authorization.k8s.io', '', 'yes'],
    // The controller manager's own identity (its controllers act as their service accounts).
    ['manager', 'list', 'pods', 'team', 'yes'],
    ['manager', 'watch', 'deployments.apps', 'team', 'yes'],
    ['manager', 'create', 'pods', 'team', 'no'],
    ['manager', 'delete', 'pods', 'team', 'no'],
    ['manager', 'create', 'serviceaccounts/token', 'kube-system', 'yes'],
    ['manager', 'create', 'serviceaccounts', 'kube-system', 'yes'],
    ['manager', 'delete', 'secrets', 'team', 'yes'],
    ['manager', 'create', 'leases.coordination.k8s.io', 'kube-system', 'yes'],
    ['manager', 'update', 'leases.coordination.k8s.io', 'team', 'no'],
    ['manager', 'update', 'deployments.apps/status', 'team', 'no'],
  ];

  for (const version of VERSIONS) {
    it(`kubectl ${version} auth can-i: the default roles' answers`, async () => {
      for (const [user, verb, resource, ns, want] of MATRIX) {
        // `pods/log` is resource and subresource here; kubectl itself reads `a/b` as kind/name.
        const [res, sub] = resource.split('/');
        const r = await as(user, ['auth', 'can-i', verb, res!, ...(sub ? [`--subresource=${sub}`] : []), ...(ns === '' ? [] : ['-n', ns])], version);
        assert.equal(r.stdout.trim(), want, `${user} ${verb} ${resource} -n ${ns}: ${r.stdout}${r.stderr}`);
        assert.equal(r.code, want === 'yes' ? 0 : 1);
      }
    });

    it(`kubectl ${version}: requests succeed or are forbidden with Kubernetes' message`, async () => {
      assert.match(await kubectlOk(kc.viewer, ['get', 'pods', '-n', 'team'], { version }), /^$|No resources/);
      const secrets = await as('viewer', ['get', 'secrets', '-n', 'team'], version);
      assert.notEqual(secrets.code, 0);
      assert.match(secrets.stderr, /Error from server \(Forbidden\): secrets is forbidden: User "viewer" cannot list resource "secrets" in API group "" in the namespace "team"/);
      const cm = `cm-${version.replace('.', '')}`;
      await kubectlOk(kc.editor, ['create', 'configmap', cm, '--from-literal=a=b', '-n', 'team'], { version });
      const role = await as('editor', ['create', 'role', `r-${cm}`, '--verb=get', '--resource=pods', '-n', 'team'], version);
      assert.match(role.stderr, /roles.rbac.authorization.k8s.io is forbidden: User "editor" cannot create resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "team"/);
      const nobody = await as('nobody', ['get', 'configmap', cm, '-n', 'team'], version);
      assert.match(nobody.stderr, new RegExp(`configmaps "${cm}" is forbidden: User "nobody" cannot get resource "configmaps" in API group "" in the namespace "team"`));
    });

    it(`kubectl ${version} auth whoami and can-i --list`, async () => {
      const who = await kubectlOk(kc.editor, ['auth', 'whoami'], { version });
      assert.match(who, /Username\s+editor/);
      assert.match(who, /UID\s+102/);
      assert.match(who, /Groups\s+\[dev qa system:authenticated\]/);
      const list = await kubectlOk(kc.editor, ['auth', 'can-i', '--list', '-n', 'team'], { version });
      assert.match(list, /^pods\s+\[\]\s+\[\]\s+\[create delete deletecollection patch update get list watch\]$/m);
      assert.match(list, /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
      assert.match(list, /^\s+\[\/version\]\s+\[\]\s+\[get\]$/m);
      assert.doesNotMatch(list, /^roles\.rbac/m);
      const elsewhere = await kubectlOk(kc.editor, ['auth', 'can-i', '--list', '-n', 'default'], { version });
      assert.doesNotMatch(elsewhere, /^pods\s/m);
    });
  }

  it('a token nobody issued is 401 for kubectl, not anonymous', async () => {
    const bad = join(api.dir, 'bad-token.kubeconfig');
    writeKubeconfig(bad, api.url, { token: 'no-such-token' });
    const r = await kubectl(bad, ['get', 'pods', '-n', 'team']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /error: You must be logged in to the server \(Unauthorized\)/);
  });

  it('anonymous: 403 on resources and discovery, 200 on /version /healthz /readyz /livez', async () => {
    const anon = new Client(api.url, { certless: true });
    const r = await anon.get('/api/v1/namespaces');
    assert.equal(r.status, 403);
    assert.deepEqual(r.json, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
      reason: 'Forbidden', details: { kind: 'namespaces' }, code: 403,
    });
    assert.equal((await anon.get('/apis')).status, 403);
    for (const path of ['/version', '/healthz', '/readyz', '/livez']) assert.equal((await anon.get(path)).status, 200, path);
    assert.equal((await anon.get('/metrics')).status, 403);
  });

  it('Node authorizer and NodeRestriction: a node reads and writes its own Node, Lease and the pods bound to it, nothing of others', async () => {
    const node = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
    await kubectlOk(kc.node, ['create', '-f', '-'], { input: node('n1') });
    await kubectlOk(kc.admin, ['create', '-f', '-'], { input: node('n2') });
    await kubectlOk(kc.node, ['label', 'node', 'n1', 'zone=a']);
    const other = await as('node', ['label', 'node', 'n2', 'zone=a']);
    assert.match(other.stderr, /nodes "n2" is forbidden: User "system:node:n1" cannot get resource "nodes" in API group "" at the cluster scope: node 'n1' cannot read 'n2', only its own Node object/);
    // A write without a read first (kubectl label and patch read the Node): NodeRestriction's refusal.
    const replaced = await kubectl(kc.node, ['replace', '--raw', '/api/v1/nodes/n2', '-f', '-'], { input: node('n2') });
    assert.match(replaced.stderr, /nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"/);
    assert.match(await kubectlOk(kc.node, ['get', 'node', 'n1', '-o', 'name']), /^node\/n1$/m);
    assert.match((await as('node', ['get', 'nodes'])).stderr, /nodes is forbidden: User "system:node:n1" cannot list resource "nodes" in API group "" at the cluster scope: node 'n1' cannot read all nodes, only its own Node object/);
    const lease = (name: string) => JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'kube-node-lease' }, spec: { holderIdentity: name } });
    await kubectlOk(kc.node, ['create', '-f', '-'], { input: lease('n1') });
    await kubectlOk(kc.node, ['annotate', 'lease', 'n1', '-n', 'kube-node-lease', 'x=y']);
    await kubectlOk(kc.admin, ['create', '-f', '-'], { input: lease('n2') });
    assert.match((await as('node', ['annotate', 'lease', 'n2', '-n', 'kube-node-lease', 'x=y'])).stderr, /can only access node lease with the same name as the requesting node/);
    const pod = (name: string, nodeName: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'team' }, spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }] } });
    await kubectlOk(kc.admin, ['create', '-f', '-'], { input: pod('on-n1', 'n1') });
    await kubectlOk(kc.admin, ['create', '-f', '-'], { input: pod('on-n2', 'n2') });
    // A status write as a kubelet sends it (kubectl patch would read pods/status first, which
    // nodes may not): the pod as stored with its status changed, PUT to pods/<name>/status.
    const withStatus = async (name: string) => {
      const stored = JSON.parse(await kubectlOk(kc.admin, ['get', 'pod', name, '-n', 'team', '-o', 'json'])) as { status: Record<string, unknown> };
      stored.status = { ...stored.status, phase: 'Running' };
      return JSON.stringify(stored);
    };
    await kubectlOk(kc.node, ['replace', '--raw', '/api/v1/namespaces/team/pods/on-n1/status', '-f', '-'], { input: await withStatus('on-n1') });
    const foreign = await kubectl(kc.node, ['replace', '--raw', '/api/v1/namespaces/team/pods/on-n2/status', '-f', '-'], { input: await withStatus('on-n2') });
    assert.match(foreign.stderr, /pods "on-n2" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself/);
    assert.match(await kubectlOk(kc.node, ['get', 'pods', '-A', '--field-selector', 'spec.nodeName=n1', '-o', 'name']), /^pod\/on-n1$/m);
    assert.match(await kubectlOk(kc.node, ['get', 'pod', 'on-n1', '-n', 'team', '-o', 'name']), /^pod\/on-n1$/m);
    assert.match((await as('node', ['get', 'pod', 'on-n2', '-n', 'team'])).stderr, /no relationship found between node 'n1' and this object/);
    assert.equal((await as('node', ['auth', 'can-i', 'list', 'pods', '-A'])).stdout.trim(), 'no - can only list/watch pods with spec.nodeName field selector');
    assert.equal((await as('node', ['auth', 'can-i', 'get', 'secrets', '-n', 'team'])).stdout.trim(), 'no - No Object name found');
  });

  it('Node authorizer graph: a node gets the secret its pod mounts, not another', async () => {
    await kubectlOk(kc.admin, ['create', 'secret', 'generic', 'mounted', '--from-literal=a=b', '-n', 'team']);
    await kubectlOk(kc.admin, ['create', 'secret', 'generic', 'not-mounted', '--from-literal=a=b', '-n', 'team']);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'mounts', namespace: 'team' }, spec: { nodeName: 'n1', volumes: [{ name: 's', secret: { secretName: 'mounted' } }], containers: [{ name: 'c', image: 'busybox' }] } };
    await kubectlOk(kc.admin, ['create', '-f', '-'], { input: JSON.stringify(pod) });
    await waitFor(async () => (await as('node', ['get', 'secret', 'mounted', '-n', 'team'])).code === 0, 'the graph has the pod');
    for (const version of VERSIONS) {
      assert.match(await kubectlOk(kc.node, ['get', 'secret', 'mounted', '-n', 'team', '-o', 'jsonpath={.data.a}'], { version }), /^Yg==$/);
      const other = await as('node', ['get', 'secret', 'not-mounted', '-n', 'team'], version);
      assert.notEqual(other.code, 0);
      assert.match(other.stderr, /Error from server \(Forbidden\): secrets "not-mounted" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "team": no relationship found between node 'n1' and this object/);
      assert.equal((await as('node', ['auth', 'can-i', 'get', 'secret/mounted', '-n', 'team'], version)).stdout.trim(), 'yes');
      // A list of the one secret by name (a kubelet's watch): authorized for that name.
      assert.match(await kubectlOk(kc.node, ['get', 'secrets', '--field-selector', 'metadata.name=mounted', '-n', 'team', '-o', 'name'], { version }), /^secret\/mounted$/m);
      const list = await as('node', ['get', 'secrets', '-n', 'team'], version);
      assert.match(list.stderr, /secrets is forbidden: User "system:node:n1" cannot list resource "secrets" in API group "" in the namespace "team": No Object name found/);
    }
    // Deleting the pod closes it again.
    await kubectlOk(kc.admin, ['delete', 'pod', 'mounts', '-n', 'team', '--grace-period=0', '--force']);
    await waitFor(async () => (await as('node', ['get', 'secret', 'mounted', '-n', 'team'])).code !== 0, 'the graph lost the pod');
    assert.equal((await as('node', ['auth', 'can-i', 'create', 'events', '-n', 'team'])).stdout.trim(), 'yes');
  });

  it('admin writes roles and bindings with kubectl create; describe shows the rules; escalation is refused', async () => {
    await kubectlOk(kc.admin, ['create', 'clusterrole', 'pod-reader', '--verb=get,list,watch', '--resource=pods,pods/log']);
    await kubectlOk(kc.admin, ['create', 'clusterrolebinding', 'qa-read', '--clusterrole=pod-reader', '--group=qa']);
    await kubectlOk(kc.admin, ['create', 'role', 'cm-editor', '--verb=*', '--resource=configmaps', '-n', 'team']);
    await kubectlOk(kc.admin, ['create', 'rolebinding', 'editor-cm', '--role=cm-editor', '--user=editor', '--serviceaccount=team:bot', '-n', 'team']);
    const wide = await kubectlOk(kc.admin, ['get', 'rolebinding', 'editor-cm', '-n', 'team', '-o', 'wide']);
    assert.match(wide, /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS$/m);
    assert.match(wide, /^editor-cm\s+Role\/cm-editor\s+\S+\s+editor\s+team\/bot$/m);
    assert.match(await kubectlOk(kc.admin, ['get', 'clusterrole', 'pod-reader']), /^NAME\s+CREATED AT\npod-reader\s+\d{4}-/m);
    const described = await kubectlOk(kc.admin, ['describe', 'clusterrole', 'pod-reader']);
    assert.match(described, /^\s+pods\/log\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    await waitFor(async () => (await as('editor', ['auth', 'can-i', 'get', 'pods', '--subresource=log', '-n', 'default'])).stdout.trim() === 'yes', 'qa group binding applies');
    // The admin role in team lets editor write roles and bindings there — but not grant more than it holds.
    await kubectlOk(kc.admin, ['create', 'rolebinding', 'editor-admin', '--clusterrole=admin', '--user=editor', '-n', 'team']);
    await waitFor(async () => (await as('editor', ['auth', 'can-i', 'create', 'roles', '-n', 'team'])).stdout.trim() === 'yes', 'admin binding applies');
    await kubectlOk(kc.editor, ['create', 'role', 'fine', '--verb=get', '--resource=pods', '-n', 'team']);
    const esc = await as('editor', ['create', 'role', 'too-much', '--verb=get', '--resource=nodes', '-n', 'team']);
    assert.match(esc.stderr, /roles.rbac.authorization.k8s.io "too-much" is forbidden: user "editor" \(groups=\["dev" "qa" "system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["nodes"\], Verbs:\["get"\]\}/);
    const bind = await as('editor', ['create', 'rolebinding', 'root', '--clusterrole=cluster-admin', '--user=editor', '-n', 'team']);
    assert.match(bind.stderr, /rolebindings.rbac.authorization.k8s.io "root" is forbidden: user "editor" .* is attempting to grant RBAC permissions not currently held/);
    // roleRef is immutable.
    const changed = await as('admin', ['patch', 'rolebinding', 'editor-cm', '-n', 'team', '--type=merge', '-p', '{"roleRef":{"kind":"ClusterRole","name":"view"}}']);
    assert.match(changed.stderr, /roleRef: Invalid value: .*cannot change roleRef/);
  });
});
