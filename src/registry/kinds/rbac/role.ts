// rbac.authorization.k8s.io Role: the rules of one namespace (no non-resource URLs).
import type { Role } from '../../../api/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import { RBAC_GROUP, rbacStrategyBase } from './group.js';
import { rolePrinter, validateRules } from './roles.js';

export const roleStrategy: ResourceStrategy<Role> = {
  ...rbacStrategyBase,
  validate: (role) => validateRules(role, true),
  validateUpdate: (role) => validateRules(role, true),
};

export const roleModule: KindModule = { group: RBAC_GROUP, kind: 'Role', strategy: roleStrategy, printer: rolePrinter, grantsPermissions: true };
