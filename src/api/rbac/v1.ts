// rbac.authorization.k8s.io/v1 (k8s.io/api/rbac/v1): Role, ClusterRole, RoleBinding,
// ClusterRoleBinding. Field numbers are those of rbac/v1 generated.proto. No server-side defaults.
import { LabelSelector, ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.rbac.v1.';

export const PolicyRule = struct(G + 'PolicyRule', {
  verbs: field(listOf(t.string), 1, { omitempty: false, required: true, listType: 'atomic' }),
  apiGroups: field(listOf(t.string), 2, { listType: 'atomic' }),
  resources: field(listOf(t.string), 3, { listType: 'atomic' }),
  resourceNames: field(listOf(t.string), 4, { listType: 'atomic' }),
  nonResourceURLs: field(listOf(t.string), 5, { listType: 'atomic' }),
});

export const AggregationRule = struct(G + 'AggregationRule', {
  clusterRoleSelectors: field(listOf(LabelSelector), 1, { listType: 'atomic' }),
});

export const Subject = struct(G + 'Subject', {
  kind: field(t.string, 1, { omitempty: false, required: true }),
  apiGroup: field(t.string, 2),
  name: field(t.string, 3, { omitempty: false, required: true }),
  namespace: field(t.string, 4),
}, { structType: 'atomic' });

export const RoleRef = struct(G + 'RoleRef', {
  apiGroup: field(t.string, 1, { omitempty: false }),
  kind: field(t.string, 2, { omitempty: false, required: true }),
  name: field(t.string, 3, { omitempty: false, required: true }),
}, { structType: 'atomic' });

export const Role = struct(G + 'Role', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  rules: field(listOf(PolicyRule), 2, { omitempty: false, listType: 'atomic' }),
});

export const RoleList = struct(G + 'RoleList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Role), 2, { omitempty: false, required: true }),
});

export const ClusterRole = struct(G + 'ClusterRole', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  rules: field(listOf(PolicyRule), 2, { omitempty: false, listType: 'atomic' }),
  aggregationRule: field(AggregationRule, 3, { pointer: true }),
});

export const ClusterRoleList = struct(G + 'ClusterRoleList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ClusterRole), 2, { omitempty: false, required: true }),
});

export const RoleBinding = struct(G + 'RoleBinding', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  subjects: field(listOf(Subject), 2, { listType: 'atomic' }),
  roleRef: field(RoleRef, 3, { omitempty: false, required: true }),
});

export const RoleBindingList = struct(G + 'RoleBindingList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(RoleBinding), 2, { omitempty: false, required: true }),
});

export const ClusterRoleBinding = struct(G + 'ClusterRoleBinding', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  subjects: field(listOf(Subject), 2, { listType: 'atomic' }),
  roleRef: field(RoleRef, 3, { omitempty: false, required: true }),
});

export const ClusterRoleBindingList = struct(G + 'ClusterRoleBindingList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ClusterRoleBinding), 2, { omitempty: false, required: true }),
});
