// rbac.authorization.k8s.io ClusterRole: cluster-wide rules, and the aggregation of other roles'
// rules by label selectors.
import type { ClusterRole } from '../../../api/types.js';
import { list, obj, type Obj, validateLabelSelector } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import { RBAC_GROUP, rbacStrategyBase } from './group.js';
import { rolePrinter, validateRules } from './roles.js';

function validateAggregationRule(role: Obj): FieldError[] {
  if (role.aggregationRule === undefined || role.aggregationRule === null) return [];
  const selectors = list(obj(role.aggregationRule).clusterRoleSelectors);
  if (selectors.length === 0) return [fieldError.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil')];
  return selectors.flatMap((s, i) => validateLabelSelector(s, `aggregationRule.clusterRoleSelectors[${i}]`));
}

export const clusterRoleStrategy: ResourceStrategy<ClusterRole> = {
  ...rbacStrategyBase,
  validate: (role) => [...validateRules(role, false), ...validateAggregationRule(role)],
  validateUpdate: (role) => [...validateRules(role, false), ...validateAggregationRule(role)],
};

export const clusterRoleModule: KindModule = { group: RBAC_GROUP, kind: 'ClusterRole', strategy: clusterRoleStrategy, printer: rolePrinter, grantsPermissions: true };
