// rbac.authorization.k8s.io ClusterRoleBinding: grants a ClusterRole's rules everywhere.
import type { ClusterRoleBinding } from '../../../api/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import { RBAC_GROUP, rbacStrategyBase } from './group.js';
import { roleBindingPrinter, validateBinding, validateRoleRefUnchanged } from './bindings.js';

export const clusterRoleBindingStrategy: ResourceStrategy<ClusterRoleBinding> = {
  ...rbacStrategyBase,
  validate: (b) => validateBinding(b, false),
  validateUpdate: (b, old) => [...validateRoleRefUnchanged(b, old), ...validateBinding(b, false)],
};

export const clusterRoleBindingModule: KindModule = { group: RBAC_GROUP, kind: 'ClusterRoleBinding', strategy: clusterRoleBindingStrategy, printer: roleBindingPrinter, grantsPermissions: true };
