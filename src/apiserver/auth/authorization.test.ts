// The RBAC and Node authorizers over a real registry: bindings by user, group and service account,
// ClusterRoleBindings everywhere and RoleBindings in their namespace, the reason texts, the policy
// cache following changes, the default policy reconciled (idempotently, autoupdate=false kept),
// and the escalation check.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { StatusError } from '../../machinery/status.js';
import { startApiServer, type ApiServer } from '../server.js';
import { buildAuthorization, type Authorization } from './authorization.js';
import { reconcileBootstrapPolicy } from './rbac/reconcile.js';
import type { Attributes, UserInfo } from './types.js';

let server: ApiServer;
let authz: Authorization;
const RBAC = 'rbac.authorization.k8s.io';

before(async () => {
  server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, authorizationModes: ['Node', 'RBAC'] });
  authz = buildAuthorization(server.registry, ['Node', 'RBAC']);
  await authz.start();
});

after(async () => {
  authz.stop();
  await server.close();
});

const store = (resource: string) => server.registry.store(RBAC, resource)!;
const u = (name: string, ...groups: string[]): UserInfo => ({ name, groups: [...groups, 'system:authenticated'] });

function can(user: UserInfo, verb: string, resource: string, namespace = '', opts: { group?: string; subresource?: string; name?: string } = {}) {
  const attrs: Attributes = { user, verb, resourceRequest: true, apiGroup: opts.group ?? '', apiVersion: 'v1', namespace, resource, subresource: opts.subresource ?? '', name: opts.name ?? '', path: '' };
  return authz.authorizer.authorize(attrs) as { decision: string; reason: string };
}

function canPath(user: UserInfo, verb: string, path: string) {
  return (authz.authorizer.authorize({ user, verb, resourceRequest: false, apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', path }) as { decision: string }).decision;
}

/** Waits until the policy cache reflects a write (it follows the watch cache asynchronously). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), 'policy cache did not follow');
}

function binding(kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, roleKind: string, role: string, subjects: object[], namespace?: string) {
  return { apiVersion: `${RBAC}/v1`, kind, metadata: { name, namespace }, roleRef: { apiGroup: RBAC, kind: roleKind, name: role }, subjects };
}

test('default policy: discovery and health for everybody, basic-user reviews, nothing else', () => {
  const anon: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  assert.equal(canPath(anon, 'get', '/version'), 'allow');
  assert.equal(canPath(anon, 'get', '/healthz'), 'allow');
  assert.equal(canPath(anon, 'get', '/api'), 'no-opinion');
  assert.equal(canPath(u('alice'), 'get', '/apis/apps/v1'), 'allow');
  assert.equal(canPath(u('alice'), 'get', '/metrics'), 'no-opinion');
  assert.deepEqual(can(u('alice'), 'create', 'selfsubjectaccessreviews', '', { group: 'authorization.k8s.io' }).decision, 'allow');
  assert.deepEqual(can(u('alice'), 'list', 'pods', 'default'), { decision: 'no-opinion', reason: '' });
  assert.equal(can({ name: 'root', groups: ['system:masters'] }, 'delete', 'nodes').decision, 'allow');
  // The kube-system leader-locking Role: any lease there, none elsewhere.
  const kcm = u('system:kube-controller-manager');
  assert.equal(can(kcm, 'update', 'leases', 'kube-system', { group: 'coordination.k8s.io', name: 'other' }).decision, 'allow');
  assert.equal(can(kcm, 'update', 'leases', 'default', { group: 'coordination.k8s.io', name: 'other' }).decision, 'no-opinion');
  assert.equal(can(kcm, 'update', 'leases', 'default', { group: 'coordination.k8s.io', name: 'kube-controller-manager' }).decision, 'allow');
});

test('RoleBindings apply in their namespace, ClusterRoleBindings everywhere; users, groups and service accounts', async () => {
  await store('roles').create('team', { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'pod-reader', namespace: 'team' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] }).catch(async (err) => {
    // The namespace must exist first.
    if (!(err instanceof StatusError)) throw err;
    await server.registry.store('', 'namespaces')!.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    await store('roles').create('team', { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'pod-reader', namespace: 'team' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] });
  });
  await store('rolebindings').create('team', binding('RoleBinding', 'readers', 'Role', 'pod-reader', [
    { kind: 'User', apiGroup: RBAC, name: 'bob' },
    { kind: 'Group', apiGroup: RBAC, name: 'devs' },
    { kind: 'ServiceAccount', name: 'builder' },
  ], 'team'));
  await until(() => can(u('bob'), 'list', 'pods', 'team').decision === 'allow');
  assert.equal(can(u('bob'), 'list', 'pods', 'team').reason, 'RBAC: allowed by RoleBinding "readers/team" of Role "pod-reader" to User "bob"');
  assert.equal(can(u('bob'), 'list', 'pods', 'other').decision, 'no-opinion');
  assert.equal(can(u('bob'), 'delete', 'pods', 'team').decision, 'no-opinion');
  assert.equal(can(u('carol', 'devs'), 'get', 'pods', 'team', { name: 'p' }).decision, 'allow');
  // A ServiceAccount subject without namespace is in the binding's namespace.
  const sa = u('system:serviceaccount:team:builder', 'system:serviceaccounts', 'system:serviceaccounts:team');
  assert.equal(can(sa, 'get', 'pods', 'team').decision, 'allow');
  assert.equal(can(u('system:serviceaccount:other:builder'), 'get', 'pods', 'team').decision, 'no-opinion');

  await store('clusterrolebindings').create('', binding('ClusterRoleBinding', 'all-sa-view', 'ClusterRole', 'system:node-proxier', [{ kind: 'Group', apiGroup: RBAC, name: 'system:serviceaccounts:team' }]));
  await until(() => can(sa, 'list', 'endpoints', 'anywhere').decision === 'allow');
  assert.equal(can(sa, 'list', 'nodes').decision, 'allow');
});

test('a binding to a missing role: no opinion, and the reason names it', async () => {
  await store('clusterrolebindings').create('', binding('ClusterRoleBinding', 'dangling', 'ClusterRole', 'does-not-exist', [{ kind: 'User', apiGroup: RBAC, name: 'dave' }]));
  await until(() => can(u('dave'), 'get', 'pods', 'x').reason !== '');
  assert.deepEqual(can(u('dave'), 'get', 'pods', 'x'), { decision: 'no-opinion', reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "does-not-exist" not found' });
});

test('rulesFor lists the rules of every binding that applies', () => {
  const { rules, incomplete } = authz.rulesFor(u('bob'), 'team');
  assert.equal(incomplete, false);
  assert.ok(rules.some((r) => r.resources.includes('pods') && r.verbs.includes('list')));
  assert.ok(rules.some((r) => r.nonResourceURLs.includes('/version')));
  assert.ok(!authz.rulesFor(u('bob'), 'other').rules.some((r) => r.resources.includes('pods')));
});

test('Node authorizer: its own Node and Lease, the pods bound to it, the system:node rules (AuthorizeNodeWithSelectors)', async () => {
  const node = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
  const decide = (verb: string, resource: string, namespace = '', opts: { group?: string; subresource?: string; name?: string; fieldSelector?: string } = {}) => {
    const attrs: Attributes = { user: node, verb, resourceRequest: true, apiGroup: opts.group ?? '', apiVersion: 'v1', namespace, resource, subresource: opts.subresource ?? '', name: opts.name ?? '', path: '', ...(opts.fieldSelector ? { fieldSelector: opts.fieldSelector } : {}) };
    return authz.authorizer.authorize(attrs) as { decision: string; reason: string };
  };
  // Nodes: reads of its own only; writes are NodeRestriction's to limit.
  assert.equal(decide('get', 'nodes', '', { name: 'n1' }).decision, 'allow');
  assert.equal(decide('watch', 'nodes', '', { name: 'n1' }).decision, 'allow');
  assert.deepEqual(decide('list', 'nodes'), { decision: 'no-opinion', reason: "node 'n1' cannot read all nodes, only its own Node object" });
  assert.deepEqual(decide('get', 'nodes', '', { name: 'n2' }), { decision: 'no-opinion', reason: "node 'n1' cannot read 'n2', only its own Node object" });
  assert.equal(decide('patch', 'nodes', '', { name: 'n2' }).decision, 'allow');
  assert.equal(decide('patch', 'nodes', '', { name: 'n2', subresource: 'status' }).decision, 'allow');
  assert.equal(decide('delete', 'nodes', '', { name: 'n1' }).decision, 'no-opinion');
  // Leases, events and the rest of the system:node rules.
  assert.equal(decide('update', 'leases', 'kube-node-lease', { group: 'coordination.k8s.io', name: 'n1' }).decision, 'allow');
  assert.equal(decide('update', 'leases', 'kube-node-lease', { group: 'coordination.k8s.io', name: 'n2' }).decision, 'no-opinion');
  assert.equal(decide('get', 'leases', 'default', { group: 'coordination.k8s.io', name: 'n1' }).decision, 'no-opinion');
  assert.equal(decide('create', 'events', 'default').decision, 'allow');
  assert.equal(decide('get', 'secrets', 'default', { name: 's' }).decision, 'no-opinion');
  // Pods: those bound to it, listed with the spec.nodeName selector or read by name.
  assert.equal(decide('watch', 'pods', '', { fieldSelector: 'spec.nodeName=n1' }).decision, 'allow');
  assert.equal(decide('list', 'pods', '', { fieldSelector: 'status.phase!=Failed,spec.nodeName==n1' }).decision, 'allow');
  assert.deepEqual(decide('watch', 'pods'), { decision: 'no-opinion', reason: 'can only list/watch pods with spec.nodeName field selector' });
  assert.equal(decide('list', 'pods', '', { fieldSelector: 'spec.nodeName=n2' }).decision, 'no-opinion');
  assert.equal(decide('list', 'pods', '', { fieldSelector: 'spec.nodeName!=n1' }).decision, 'no-opinion');
  const pods = server.registry.store('', 'pods')!;
  await pods.create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1', namespace: 'default' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i', imagePullPolicy: 'Always', terminationMessagePolicy: 'File', terminationMessagePath: '/dev/termination-log' }], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler', securityContext: {} } });
  await server.registry.cacher.waitUntilFresh();
  assert.equal(decide('get', 'pods', 'default', { name: 'p1' }).decision, 'allow');
  assert.equal(decide('watch', 'pods', 'default', { name: 'p1' }).decision, 'allow');
  assert.equal(can({ ...node, name: 'system:node:n2' }, 'get', 'pods', 'default', { name: 'p1' }).decision, 'no-opinion');
  assert.equal(decide('patch', 'pods', 'default', { name: 'p1', subresource: 'status' }).decision, 'allow');
  assert.equal(decide('create', 'pods', 'default', { name: 'p1', subresource: 'eviction' }).decision, 'allow');
  assert.equal(decide('delete', 'pods', 'default', { name: 'p1' }).decision, 'allow');
  assert.equal(decide('get', 'pods', 'default', { name: 'p1', subresource: 'log' }).decision, 'no-opinion');
  // Not a node without the group.
  assert.equal(can({ name: 'system:node:n1', groups: [] }, 'get', 'nodes', '', { name: 'n1' }).decision, 'no-opinion');
});

test('Node authorizer graph: a node reads the secrets, config maps and claims of its pods and requests their service account tokens, nothing else', async () => {
  const n1 = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
  const n2 = { ...n1, name: 'system:node:n2' };
  const pods = server.registry.store('', 'pods')!;
  const container = { name: 'c', image: 'i', imagePullPolicy: 'Always', terminationMessagePolicy: 'File', terminationMessagePath: '/dev/termination-log' };
  const spec = (nodeName: string) => ({
    ...(nodeName ? { nodeName } : {}),
    serviceAccountName: 'runner',
    imagePullSecrets: [{ name: 'pull' }],
    volumes: [{ name: 'v', secret: { secretName: 'mounted' } }, { name: 'cm', configMap: { name: 'conf' } }, { name: 'data', persistentVolumeClaim: { claimName: 'claim' } }],
    containers: [{ ...container, env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } }], envFrom: [{ configMapRef: { name: 'env-conf' } }] }],
    restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler', securityContext: {},
  });
  await pods.create('team', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'graph-pod', namespace: 'team' }, spec: spec('n1') });
  await pods.create('team', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'unbound', namespace: 'team' }, spec: { ...spec(''), volumes: [{ name: 'v', secret: { secretName: 'unbound-secret' } }] } });
  const get = (user: UserInfo, resource: string, name: string, opts: { verb?: string; subresource?: string; namespace?: string } = {}) => can(user, opts.verb ?? 'get', resource, opts.namespace ?? 'team', { name, ...(opts.subresource ? { subresource: opts.subresource } : {}) });
  await until(() => get(n1, 'secrets', 'mounted').decision === 'allow');
  for (const [resource, name] of [['secrets', 'pull'], ['secrets', 'env-secret'], ['configmaps', 'conf'], ['configmaps', 'env-conf'], ['persistentvolumeclaims', 'claim']]) {
    assert.equal(get(n1, resource!, name!).decision, 'allow', `${resource}/${name}`);
    assert.deepEqual(get(n2, resource!, name!), { decision: 'no-opinion', reason: "no relationship found between node 'n2' and this object" }, `${resource}/${name} from n2`);
  }
  assert.equal(get(n1, 'secrets', 'mounted', { verb: 'watch' }).decision, 'allow');
  assert.deepEqual(get(n1, 'secrets', 'other'), { decision: 'no-opinion', reason: "no relationship found between node 'n1' and this object" });
  assert.deepEqual(get(n1, 'secrets', 'mounted', { namespace: 'default' }).decision, 'no-opinion');
  assert.deepEqual(get(n1, 'secrets', 'unbound-secret').decision, 'no-opinion', 'only pods bound to the node count');
  assert.deepEqual(get(n1, 'secrets', '', { verb: 'list' }), { decision: 'no-opinion', reason: 'No Object name found' });
  assert.deepEqual(get(n1, 'secrets', 'mounted', { verb: 'update' }), { decision: 'no-opinion', reason: 'can only read resources of this type' });
  assert.deepEqual(get(n1, 'persistentvolumeclaims', 'claim', { verb: 'list' }), { decision: 'no-opinion', reason: 'can only get individual resources of this type' });
  assert.equal(get(n1, 'persistentvolumeclaims', 'claim', { verb: 'patch', subresource: 'status' }).decision, 'allow');
  assert.deepEqual(get(n1, 'persistentvolumes', 'pv'), { decision: 'no-opinion', reason: "no relationship found between node 'n1' and this object" });
  assert.equal(get(n1, 'serviceaccounts', 'runner', { verb: 'create', subresource: 'token' }).decision, 'allow');
  assert.equal(get(n2, 'serviceaccounts', 'runner', { verb: 'create', subresource: 'token' }).decision, 'no-opinion');
  assert.deepEqual(get(n1, 'serviceaccounts', 'runner'), { decision: 'no-opinion', reason: 'can only create tokens for individual service accounts' });
  assert.deepEqual(get(n1, 'serviceaccounts', 'runner', { verb: 'create' }), { decision: 'no-opinion', reason: 'can only create token subresource of serviceaccount' });
  // Deleting the pod takes its edges away.
  await pods.delete('team', 'graph-pod', { gracePeriodSeconds: 0 });
  await until(() => get(n1, 'secrets', 'mounted').decision === 'no-opinion');
  assert.equal(get(n1, 'configmaps', 'conf').decision, 'no-opinion');
});

test('bootstrap reconcile: idempotent, restores missing rules and subjects, respects autoupdate=false', async () => {
  const again = await reconcileBootstrapPolicy(server.registry);
  assert.deepEqual(again, { created: [], updated: [], recreated: [], protected: [] });
  const roles = store('clusterroles');
  // A default role that lost a rule gets it back; one its owner froze keeps its edits.
  await roles.guaranteedUpdate('', 'system:basic-user', (cur) => ({ ...cur, rules: [] }));
  await roles.guaranteedUpdate('', 'system:discovery', (cur) => ({ ...cur, metadata: { ...(cur.metadata as object), annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [{ verbs: ['get'], nonResourceURLs: ['/version'] }] }));
  const bindings = store('clusterrolebindings');
  await bindings.guaranteedUpdate('', 'system:public-info-viewer', (cur) => ({ ...cur, subjects: [] }));
  await bindings.delete('', 'system:monitoring');
  const report = await reconcileBootstrapPolicy(server.registry);
  assert.deepEqual(report.updated.sort(), ['system:basic-user', 'system:public-info-viewer']);
  assert.deepEqual(report.created, ['system:monitoring']);
  assert.deepEqual(report.protected, ['system:discovery']);
  assert.equal(((await roles.get('', 'system:basic-user')).rules as unknown[]).length, 3);
  assert.deepEqual((await roles.get('', 'system:discovery')).rules, [{ verbs: ['get'], nonResourceURLs: ['/version'] }]);
  assert.equal(((await bindings.get('', 'system:public-info-viewer')).subjects as unknown[]).length, 2);
});

test('a deployment policy is kept as given: created, its rules and subjects written back, a removed grant removed, autoupdate=false respected', async () => {
  const role = (rules: object[], annotations: Record<string, string> = {}) => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'deploy:role', labels: { 'app.kubernetes.io/managed-by': 'test' }, annotations }, rules });
  const bind = (subjects: object[], roleName = 'deploy:role') => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'deploy:binding' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects });
  const ann = { kind: 'User', apiGroup: RBAC, name: 'ann' };
  const bob = { kind: 'User', apiGroup: RBAC, name: 'bob' };
  const wide = [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'], resourceNames: ['n1', 'n2'] }];
  const narrow = [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'], resourceNames: ['n1'] }];
  const first = await reconcileBootstrapPolicy(server.registry, [], { clusterRoles: [role(wide)], clusterRoleBindings: [bind([ann, bob])] });
  assert.deepEqual(first.created.sort(), ['deploy:binding', 'deploy:role']);
  // Fewer grants the next time: the stored objects lose the rest (the default policy's reconcile would keep them).
  const second = await reconcileBootstrapPolicy(server.registry, [], { clusterRoles: [role(narrow)], clusterRoleBindings: [bind([ann])] });
  assert.deepEqual(second.updated.sort(), ['deploy:binding', 'deploy:role']);
  assert.deepEqual((await store('clusterroles').get('', 'deploy:role')).rules, narrow);
  assert.deepEqual((await store('clusterrolebindings').get('', 'deploy:binding')).subjects, [ann]);
  const unchanged = await reconcileBootstrapPolicy(server.registry, [], { clusterRoles: [role(narrow)], clusterRoleBindings: [bind([ann])] });
  assert.deepEqual([unchanged.created, unchanged.updated, unchanged.recreated], [[], [], []]);
  // Another role: the binding is made again; a role its owner froze keeps its rules.
  const third = await reconcileBootstrapPolicy(server.registry, [], { clusterRoles: [], clusterRoleBindings: [bind([ann], 'system:basic-user')] });
  assert.deepEqual(third.recreated, ['deploy:binding']);
  await store('clusterroles').guaranteedUpdate('', 'deploy:role', (cur) => ({ ...cur, metadata: { ...(cur.metadata as object), annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } } }));
  const fourth = await reconcileBootstrapPolicy(server.registry, [], { clusterRoles: [role(wide)], clusterRoleBindings: [] });
  assert.ok(fourth.protected.includes('deploy:role'));
  assert.deepEqual((await store('clusterroles').get('', 'deploy:role')).rules, narrow);
});

test('escalation: roles and bindings only grant what the writer holds, unless escalate/bind', async () => {
  const eve = u('eve');
  await store('rolebindings').create('team', binding('RoleBinding', 'eve-admin', 'ClusterRole', 'system:aggregate-to-admin', [{ kind: 'User', apiGroup: RBAC, name: 'eve' }], 'team'));
  await until(() => can(eve, 'create', 'roles', 'team', { group: RBAC }).decision === 'allow');
  const role = (rules: object[]) => ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'r', namespace: 'team' }, rules });
  // eve holds rolebindings/roles rights: a role with those is fine, one with secrets is not.
  await authz.checkWrite(eve, RBAC, 'roles', 'team', role([{ verbs: ['get'], apiGroups: [RBAC], resources: ['roles'] }]));
  await assert.rejects(authz.checkWrite(eve, RBAC, 'roles', 'team', role([{ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'] }])), (err: StatusError) => {
    assert.equal(err.code, 403);
    assert.equal(err.message, 'roles.rbac.authorization.k8s.io "r" is forbidden: user "eve" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}');
    return true;
  });
  const bind = (role: string) => binding('RoleBinding', 'b', 'ClusterRole', role, [{ kind: 'User', apiGroup: RBAC, name: 'x' }], 'team');
  await authz.checkWrite(eve, RBAC, 'rolebindings', 'team', bind('system:aggregate-to-admin'));
  await assert.rejects(authz.checkWrite(eve, RBAC, 'rolebindings', 'team', bind('cluster-admin')), /is attempting to grant RBAC permissions not currently held/);
  await assert.rejects(authz.checkWrite(eve, RBAC, 'rolebindings', 'team', bind('nope')), /rolebindings.rbac.authorization.k8s.io "b" is forbidden: clusterrole.rbac.authorization.k8s.io "nope" not found/);
  // `bind` on the role, or `escalate`, lifts the check; system:masters is never checked.
  await store('clusterroles').create('', { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'binder' }, rules: [{ verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['cluster-admin'] }, { verbs: ['escalate'], apiGroups: [RBAC], resources: ['roles'] }] });
  await store('rolebindings').create('team', binding('RoleBinding', 'eve-binder', 'ClusterRole', 'binder', [{ kind: 'User', apiGroup: RBAC, name: 'eve' }], 'team'));
  await until(() => can(eve, 'bind', 'clusterroles', 'team', { group: RBAC, name: 'cluster-admin' }).decision === 'allow');
  await authz.checkWrite(eve, RBAC, 'rolebindings', 'team', bind('cluster-admin'));
  await authz.checkWrite(eve, RBAC, 'roles', 'team', role([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]));
  await authz.checkWrite({ name: 'root', groups: ['system:masters'] }, RBAC, 'clusterrolebindings', '', binding('ClusterRoleBinding', 'c', 'ClusterRole', 'cluster-admin', []));
});

test('escalation: updates of only ownerReferences and finalizers (the garbage collector) are not checked', async () => {
  const gc = u('system:serviceaccount:kube-system:generic-garbage-collector', 'system:serviceaccounts');
  await server.registry.cacher.waitUntilFresh();
  const current = await store('clusterrolebindings').get('', 'cluster-admin');
  const withOwner = structuredClone(current);
  (withOwner.metadata as Record<string, unknown>).finalizers = ['example.com/x'];
  await authz.checkWrite(gc, RBAC, 'clusterrolebindings', '', withOwner);
  const withSubject = structuredClone(withOwner);
  withSubject.subjects = [{ kind: 'User', apiGroup: RBAC, name: 'gc-friend' }];
  await assert.rejects(authz.checkWrite(gc, RBAC, 'clusterrolebindings', '', withSubject), /is attempting to grant RBAC permissions not currently held/);
});
