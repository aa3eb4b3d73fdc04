// rbac.authorization.k8s.io RoleBinding: grants a Role's or ClusterRole's rules in one namespace.
import type { RoleBinding } from '../../../api/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import { RBAC_GROUP, rbacStrategyBase } from './group.js';
import { roleBindingPrinter, validateBinding, validateRoleRefUnchanged } from './bindings.js';

export const roleBindingStrategy: ResourceStrategy<RoleBinding> = {
  ...rbacStrategyBase,
  validate: (b) => validateBinding(b, true),
  validateUpdate: (b, old) => [...validateRoleRefUnchanged(b, old), ...validateBinding(b, true)],
};

export const roleBindingModule: KindModule = { group: RBAC_GROUP, kind: 'RoleBinding', strategy: roleBindingStrategy, printer: roleBindingPrinter, grantsPermissions: true };
