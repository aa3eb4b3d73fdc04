import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBootstrapPolicy } from './apiserver-bootstrap-policy.js';

const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' }, rules: [] };
const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' }, subjects: [] };

test('parseBootstrapPolicy: the ClusterRoles and ClusterRoleBindings of a List, in JSON or YAML', () => {
  assert.deepEqual(parseBootstrapPolicy(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [role, binding] }), 'f'), { clusterRoles: [role], clusterRoleBindings: [binding] });
  const yaml = 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: rbac.authorization.k8s.io/v1\n  kind: ClusterRole\n  metadata:\n    name: r\n  rules: []\n';
  assert.deepEqual(parseBootstrapPolicy(yaml, 'f'), { clusterRoles: [role], clusterRoleBindings: [] });
});

test('parseBootstrapPolicy: anything else is refused, naming the file', () => {
  assert.throws(() => parseBootstrapPolicy(JSON.stringify(role), 'policy.json'), /policy.json: want a List/);
  assert.throws(() => parseBootstrapPolicy(JSON.stringify({ kind: 'List', items: [{ ...role, kind: 'Role' }] }), 'f'), /Role r: only ClusterRoles and ClusterRoleBindings/);
  assert.throws(() => parseBootstrapPolicy(JSON.stringify({ kind: 'List', items: [{ ...role, apiVersion: 'v1' }] }), 'f'), /rbac.authorization.k8s.io\/v1 object with metadata.name/);
});
