// RBAC kinds: Kubernetes' validation messages for rules, subjects, roleRef (immutable) and names,
// and the v1 defaults of subjects' and roleRef's apiGroup.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { create, lines, update } from '../kinds.testutil.js';

const G = 'rbac.authorization.k8s.io';
const role = (kind: 'Role' | 'ClusterRole', rules: unknown[], extra: object = {}) => ({ apiVersion: `${G}/v1`, kind, metadata: { name: 'r', ...(kind === 'Role' ? { namespace: 'vectors' } : {}) }, rules, ...extra });
const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', roleRef: object, subjects: unknown[]) => ({ apiVersion: `${G}/v1`, kind, metadata: { name: 'b', ...(kind === 'RoleBinding' ? { namespace: 'vectors' } : {}) }, roleRef, subjects });

test('rules: verbs required; groups and resources, or non-resource URLs only in ClusterRoles', () => {
  assert.deepEqual(lines(create(role('Role', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])).errors), []);
  assert.deepEqual(lines(create(role('Role', [{ apiGroups: [''] }])).errors), [
    'rules[0].verbs: Required value: verbs must contain at least one value',
    'rules[0].resources: Required value: resource rules must supply at least one resource',
  ]);
  assert.deepEqual(lines(create(role('Role', [{ verbs: ['get'], nonResourceURLs: ['/x'] }])).errors), ['rules[0].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs']);
  assert.deepEqual(lines(create(role('ClusterRole', [{ verbs: ['get'], nonResourceURLs: ['/x'] }])).errors), []);
  assert.deepEqual(lines(create(role('ClusterRole', [{ verbs: ['get'], nonResourceURLs: ['/x'], resources: ['pods'] }])).errors), ['rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs']);
  assert.deepEqual(lines(create(role('ClusterRole', [], { aggregationRule: { clusterRoleSelectors: [] } })).errors), ['aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil']);
  assert.deepEqual(lines(create({ ...role('ClusterRole', []), metadata: { name: 'a/b' } }).errors), ["metadata.name: Invalid value: \"a/b\": may not contain '/'"]);
  // Role names are path segments, not DNS names: `system:foo` is fine.
  assert.deepEqual(lines(create({ ...role('ClusterRole', []), metadata: { name: 'system:foo' } }).errors), []);
});

test('bindings: roleRef kinds, subjects and their apiGroup; defaults fill the RBAC group', () => {
  const ok = create(binding('RoleBinding', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'User', name: 'u' }, { kind: 'ServiceAccount', name: 'sa' }]));
  assert.deepEqual(lines(ok.errors), []);
  assert.deepEqual(ok.obj.roleRef, { kind: 'ClusterRole', name: 'view', apiGroup: G });
  assert.deepEqual(ok.obj.subjects, [{ kind: 'User', name: 'u', apiGroup: G }, { kind: 'ServiceAccount', name: 'sa' }]);
  assert.deepEqual(lines(create(binding('ClusterRoleBinding', { apiGroup: G, kind: 'Role', name: 'x' }, [{ kind: 'ServiceAccount', name: 'sa' }, { kind: 'Robot', name: 'r' }, { kind: 'ServiceAccount', apiGroup: G, name: 'Bad_Name', namespace: 'n' }, { kind: 'Group', apiGroup: 'x', name: '' }])).errors), [
    'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    'subjects[0].namespace: Required value',
    'subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    `subjects[2].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'subjects[2].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
    'subjects[3].name: Required value',
    'subjects[3].apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"',
  ]);
  assert.deepEqual(lines(create(binding('RoleBinding', { apiGroup: 'x', kind: 'Thing', name: '' }, [])).errors), [
    'roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"',
    'roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole"',
    'roleRef.name: Required value',
  ]);
});

test('roleRef cannot change', () => {
  const old = create(binding('RoleBinding', { kind: 'ClusterRole', name: 'view' }, [])).obj;
  (old.metadata as Record<string, unknown>).resourceVersion = '1';
  const changed = structuredClone(old);
  (changed.roleRef as Record<string, unknown>).name = 'edit';
  assert.deepEqual(lines(update(changed, old).errors), ['roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef']);
  const subjectsOnly = structuredClone(old);
  subjectsOnly.subjects = [{ kind: 'Group', apiGroup: G, name: 'g' }];
  assert.deepEqual(lines(update(subjectsOnly, old).errors), []);
});
