// The access reviews over HTTP against a server with RBAC: answers for other users
// (SubjectAccessReview), the namespace rules of LocalSubjectAccessReview, validation, rules of a
// user (SelfSubjectRulesReview) and who am I (SelfSubjectReview), in Kubernetes' shape.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startApiServer, type ApiServer } from '../server.js';

let server: ApiServer;
before(async () => {
  server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, authorizationModes: ['RBAC'] });
});
after(() => server.close());

async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

const AZ = '/apis/authorization.k8s.io/v1';

test('SubjectAccessReview answers for the user it names', async () => {
  const sar = (user: string, groups: string[], attrs: object) => post(`${AZ}/subjectaccessreviews`, { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user, groups, ...attrs } });
  const denied = await sar('alice', ['system:authenticated'], { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } });
  assert.equal(denied.status, 201);
  assert.deepEqual(denied.body.status, { allowed: false });
  const discovery = await sar('alice', ['system:authenticated'], { nonResourceAttributes: { verb: 'get', path: '/apis' } });
  assert.deepEqual(discovery.body.status, { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' });
  const invalid = await sar('', [], { resourceAttributes: { verb: 'get', resource: 'pods' }, nonResourceAttributes: { verb: 'get', path: '/x' } });
  assert.equal(invalid.status, 422);
  assert.equal(invalid.body.message, 'SubjectAccessReview.authorization.k8s.io "" is invalid: [spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes, spec.user: Invalid value: "": at least one of user or group must be specified]');
});

test('LocalSubjectAccessReview: the namespace must be the URL one', async () => {
  const ok = await post(`${AZ}/namespaces/default/localsubjectaccessreviews`, { spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } });
  assert.equal(ok.status, 201);
  assert.equal(ok.body.metadata.namespace, 'default');
  assert.equal(ok.body.status.allowed, false);
  const other = await post(`${AZ}/namespaces/default/localsubjectaccessreviews`, { spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'kube-system' } } });
  assert.equal(other.status, 422);
  assert.match(other.body.message, /spec.resourceAttributes.namespace: Invalid value: "kube-system": must match metadata.namespace/);
  const body = await post(`${AZ}/namespaces/default/localsubjectaccessreviews`, { metadata: { namespace: 'x' }, spec: { user: 'bob' } });
  assert.equal(body.status, 400);
  // Only POST exists.
  assert.equal((await fetch(`${server.url}${AZ}/namespaces/default/localsubjectaccessreviews`)).status, 405);
});

test('SelfSubjectRulesReview and SelfSubjectReview for the requesting user (here the unsecured system:masters user)', async () => {
  const rules = await post(`${AZ}/selfsubjectrulesreviews`, { spec: { namespace: 'default' } });
  assert.equal(rules.status, 201);
  assert.deepEqual(rules.body.status, { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false });
  const who = await post('/apis/authentication.k8s.io/v1beta1/selfsubjectreviews', {});
  assert.equal(who.status, 201);
  assert.deepEqual(Object.keys(who.body), ['kind', 'apiVersion', 'metadata', 'status']);
  assert.equal(who.body.apiVersion, 'authentication.k8s.io/v1beta1');
  assert.deepEqual(who.body.status.userInfo, { username: 'system:unsecured', groups: ['system:masters', 'system:authenticated'] });
});
