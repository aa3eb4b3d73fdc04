// ValidateResourceQuota / ValidateResourceQuotaUpdate / ValidateResourceQuotaStatusUpdate
// (pkg/apis/core/validation): quota resource names and values, scopes and the scope selector.
// Go walks maps in random order; keys are visited sorted so messages come in a stable order.
import type { ResourceQuota, ResourceQuotaSpec } from '../../../../api/types.js';
import { child, isObj, key, list, obj, sortedKeys, str } from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { goString, goStringSlice, goStruct } from '../../../../machinery/validation/go-syntax.js';
import { validateResourceQuantityValue } from '../../../podspec/resource-names.js';
import { isScopeValidForResource, isStandardQuotaResourceName, STANDARD_QUOTA_SCOPES, validateQuotaResourceName } from './resource-names.js';

function validateResourceList(list: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const o = obj(list);
  for (const k of sortedKeys(o)) {
    errs.push(...validateQuotaResourceName(k, key(path, k)), ...validateResourceQuantityValue(k, o[k], key(path, k)));
  }
  return errs;
}

/** %#v of []core.ResourceQuotaScope. */
function goScopes(scopes: unknown): string {
  if (!Array.isArray(scopes)) return '[]core.ResourceQuotaScope(nil)';
  return `[]core.ResourceQuotaScope{${scopes.map((s) => goString(s)).join(', ')}}`;
}

/** %#v of the dereferenced *core.ScopeSelector. */
function goScopeSelector(sel: unknown): string {
  const exprs = list(obj(sel).matchExpressions);
  const rendered = Array.isArray(obj(sel).matchExpressions)
    ? `[]core.ScopedResourceSelectorRequirement{${exprs
        .map((e) => goStruct('core.ScopedResourceSelectorRequirement', [['ScopeName', goString(obj(e).scopeName)], ['Operator', goString(obj(e).operator)], ['Values', goStringSlice(obj(e).values)]]))
        .join(', ')}}`
    : '[]core.ScopedResourceSelectorRequirement(nil)';
  return goStruct('core.ScopeSelector', [['MatchExpressions', rendered]]);
}

const CONFLICTING_SCOPES: readonly (readonly [string, string])[] = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

function validateScopes(spec: ResourceQuotaSpec, path: string): FieldError[] {
  const scopes = list(spec.scopes);
  if (scopes.length === 0) return [];
  const errs: FieldError[] = [];
  const hard = sortedKeys(obj(spec.hard));
  const p = child(path, 'scopes');
  const seen = new Set<string>();
  for (const scope of scopes.map(str)) {
    if (!STANDARD_QUOTA_SCOPES.has(scope)) errs.push(fieldError.invalidRaw(p, goScopes(spec.scopes), 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !isScopeValidForResource(scope, k)) errs.push(fieldError.invalidRaw(p, goScopes(spec.scopes), 'unsupported scope applied to resource'));
    }
    seen.add(scope);
  }
  for (const [a, b] of CONFLICTING_SCOPES) if (seen.has(a) && seen.has(b)) errs.push(fieldError.invalidRaw(p, goScopes(spec.scopes), 'conflicting scopes'));
  return errs;
}

const EXISTS_ONLY = new Set(['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity']);

function validateScopeSelector(spec: ResourceQuotaSpec, path: string): FieldError[] {
  if (!isObj(spec.scopeSelector)) return [];
  const errs: FieldError[] = [];
  const hard = sortedKeys(obj(spec.hard));
  const p = child(path, 'scopeSelector', 'matchExpressions');
  const seen = new Set<string>();
  for (const req of list(spec.scopeSelector.matchExpressions).map(obj)) {
    const scope = str(req.scopeName);
    const operator = str(req.operator);
    const values = list(req.values);
    if (!STANDARD_QUOTA_SCOPES.has(scope)) errs.push(fieldError.invalid(child(p, 'scopeName'), scope, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !isScopeValidForResource(scope, k)) errs.push(fieldError.invalidRaw(p, goScopeSelector(spec.scopeSelector), 'unsupported scope applied to resource'));
    }
    if (EXISTS_ONLY.has(scope) && operator !== 'Exists') {
      errs.push(
        fieldError.invalid(
          child(p, 'operator'),
          operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) errs.push(fieldError.required(child(p, 'values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length !== 0) errs.push(fieldError.invalidRaw(child(p, 'values'), goStringSlice(req.values), "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
    } else {
      errs.push(fieldError.invalid(child(p, 'operator'), operator, 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  // Kubernetes reports the conflict with the (unrelated) `scopes` list as the value.
  for (const [a, b] of CONFLICTING_SCOPES) if (seen.has(a) && seen.has(b)) errs.push(fieldError.invalidRaw(p, goScopes(spec.scopes), 'conflicting scopes'));
  return errs;
}

export function validateResourceQuotaSpec(spec: ResourceQuotaSpec | null | undefined, path = 'spec'): FieldError[] {
  const s = spec ?? {};
  return [...validateResourceList(s.hard, child(path, 'hard')), ...validateScopes(s, path), ...validateScopeSelector(s, path)];
}

function validateStatusLists(q: ResourceQuota): FieldError[] {
  const status = obj(q.status);
  return [...validateResourceList(status.hard, 'status.hard'), ...validateResourceList(status.used, 'status.used')];
}

export function validateResourceQuota(q: ResourceQuota): FieldError[] {
  return [...validateResourceQuotaSpec(q.spec), ...validateStatusLists(q)];
}

export function validateResourceQuotaUpdate(q: ResourceQuota, old: ResourceQuota): FieldError[] {
  const errs = validateResourceQuotaSpec(q.spec);
  const next = new Set(list(q.spec?.scopes).map(str));
  const prev = new Set(list(old.spec?.scopes).map(str));
  if (next.size !== prev.size || [...next].some((s) => !prev.has(s))) errs.push(fieldError.invalidRaw('spec.scopes', goScopes(q.spec?.scopes), 'field is immutable'));
  return errs;
}

export function validateResourceQuotaStatusUpdate(q: ResourceQuota): FieldError[] {
  const errs: FieldError[] = [];
  if (str(q.metadata?.resourceVersion) === '') errs.push(fieldError.required('resourceVersion', ''));
  errs.push(...validateStatusLists(q));
  return errs;
}
