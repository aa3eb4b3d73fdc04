// rbac.authorization.k8s.io Role, ClusterRole, RoleBinding, ClusterRoleBinding: Kubernetes'
// validation (pkg/apis/rbac/validation). Names are path segments (ValidateRBACName); rules need
// verbs, and either API groups and resources or — in ClusterRoles only — non-resource URLs;
// subjects are User/Group (apiGroup rbac.authorization.k8s.io) or ServiceAccount (no apiGroup,
// a namespace in ClusterRoleBindings); roleRef is immutable.
import { validateLabelSelector } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isValidPathSegmentName, validateServiceAccountName, type NameValidator } from '../../../machinery/validation/names.js';
import type { ResourceStrategy } from '../../strategy.js';

type Obj = Record<string, unknown>;

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

const rbacName: NameValidator = (name) => isValidPathSegmentName(name);

/** ValidatePolicyRule. */
export function validatePolicyRule(rule: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (list(rule.verbs).length === 0) errs.push(fieldError.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = list(rule.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) errs.push(fieldError.invalid(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule.apiGroups).length > 0 || list(rule.resources).length > 0 || list(rule.resourceNames).length > 0) {
      errs.push(fieldError.invalid(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (list(rule.apiGroups).length === 0) errs.push(fieldError.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (list(rule.resources).length === 0) errs.push(fieldError.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

function validateRules(role: Obj, namespaced: boolean): FieldError[] {
  return list(role.rules).flatMap((r, i) => validatePolicyRule(obj(r), namespaced, `rules[${i}]`));
}

function validateAggregationRule(role: Obj): FieldError[] {
  if (role.aggregationRule === undefined || role.aggregationRule === null) return [];
  const selectors = list(obj(role.aggregationRule).clusterRoleSelectors);
  if (selectors.length === 0) return [fieldError.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil')];
  return selectors.flatMap((s, i) => validateLabelSelector(s, `aggregationRule.clusterRoleSelectors[${i}]`));
}

/** ValidateRoleBindingSubject. */
export function validateSubject(subject: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(subject.name);
  const apiGroup = str(subject.apiGroup);
  if (name === '') errs.push(fieldError.required(`${path}.name`));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name !== '') for (const msg of validateServiceAccountName(name, false)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
      if (apiGroup !== '') errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && str(subject.namespace) === '') errs.push(fieldError.required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(fieldError.notSupported(`${path}.kind`, str(subject.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(binding: Obj, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = obj(binding.roleRef);
  if (str(ref.apiGroup) !== RBAC_GROUP) errs.push(fieldError.notSupported('roleRef.apiGroup', str(ref.apiGroup), [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(str(ref.kind))) errs.push(fieldError.notSupported('roleRef.kind', str(ref.kind), kinds));
  const name = str(ref.name);
  if (name === '') errs.push(fieldError.required('roleRef.name'));
  else for (const msg of isValidPathSegmentName(name)) errs.push(fieldError.invalid('roleRef.name', name, msg));
  list(binding.subjects).forEach((s, i) => errs.push(...validateSubject(obj(s), namespaced, `subjects[${i}]`)));
  return errs;
}

/** Go's %#v of an rbac.RoleRef, as the "cannot change roleRef" error prints it. */
function goRoleRef(ref: Obj): string {
  return `rbac.RoleRef{APIGroup:${JSON.stringify(str(ref.apiGroup))}, Kind:${JSON.stringify(str(ref.kind))}, Name:${JSON.stringify(str(ref.name))}}`;
}

function validateRoleRefUnchanged(binding: Obj, old: Obj): FieldError[] {
  const a = obj(binding.roleRef);
  const b = obj(old.roleRef);
  if (str(a.apiGroup) === str(b.apiGroup) && str(a.kind) === str(b.kind) && str(a.name) === str(b.name)) return [];
  return [fieldError.invalidRaw('roleRef', goRoleRef(a), 'cannot change roleRef')];
}

const base = { hasStatus: false, tracksGeneration: false, nameValidator: rbacName } as const;

export const roleStrategy: ResourceStrategy = {
  ...base,
  validate: (role) => validateRules(role, true),
  validateUpdate: (role) => validateRules(role, true),
};

export const clusterRoleStrategy: ResourceStrategy = {
  ...base,
  validate: (role) => [...validateRules(role, false), ...validateAggregationRule(role)],
  validateUpdate: (role) => [...validateRules(role, false), ...validateAggregationRule(role)],
};

export const roleBindingStrategy: ResourceStrategy = {
  ...base,
  validate: (b) => validateBinding(b, true),
  validateUpdate: (b, old) => [...validateRoleRefUnchanged(b, old), ...validateBinding(b, true)],
};

export const clusterRoleBindingStrategy: ResourceStrategy = {
  ...base,
  validate: (b) => validateBinding(b, false),
  validateUpdate: (b, old) => [...validateRoleRefUnchanged(b, old), ...validateBinding(b, false)],
};
