// rbac.authorization.k8s.io/v1: the four RBAC kinds (no defaults, no subresources).
import type { KindVersion, KubeObject } from '../schema/kind.js';
import * as v1 from './v1.js';

const G = 'rbac.authorization.k8s.io';

/** rbac/v1 SetDefaults_Subject: Users and Groups are in the RBAC API group (service accounts in none). */
function defaultSubjects(obj: KubeObject): void {
  if (!Array.isArray(obj.subjects)) return;
  for (const s of obj.subjects as KubeObject[]) {
    if (!s || typeof s !== 'object' || (typeof s.apiGroup === 'string' && s.apiGroup !== '')) continue;
    if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = G;
  }
}

/** rbac/v1 SetDefaults_(Cluster)RoleBinding: roleRef.apiGroup, then the subjects. */
function defaultBinding(obj: KubeObject): void {
  const ref = obj.roleRef as KubeObject | undefined;
  if (ref && typeof ref === 'object' && (ref.apiGroup === undefined || ref.apiGroup === '')) ref.apiGroup = G;
  defaultSubjects(obj);
}

export const rbacKinds: readonly KindVersion[] = [
  { group: G, version: 'v1', kind: 'ClusterRoleBinding', resource: 'clusterrolebindings', singular: 'clusterrolebinding', namespaced: false, type: v1.ClusterRoleBinding, list: v1.ClusterRoleBindingList, storage: true, defaults: defaultBinding },
  { group: G, version: 'v1', kind: 'ClusterRole', resource: 'clusterroles', singular: 'clusterrole', namespaced: false, type: v1.ClusterRole, list: v1.ClusterRoleList, storage: true },
  { group: G, version: 'v1', kind: 'RoleBinding', resource: 'rolebindings', singular: 'rolebinding', namespaced: true, type: v1.RoleBinding, list: v1.RoleBindingList, storage: true, defaults: defaultBinding },
  { group: G, version: 'v1', kind: 'Role', resource: 'roles', singular: 'role', namespaced: true, type: v1.Role, list: v1.RoleList, storage: true },
];
