// A ResourceQuota's view of objects (quota.Matches, CalculateUsage): whether an object counts
// against a quota, and a quota's usage from the objects of its namespace.
import type { ResourceQuota } from '../../api/types.js';
import type { Evaluator } from './evaluators.js';
import type { ScopeRequirement } from './pods.js';
import { add, mask, resourceList, zero, type ResourceList } from './resources.js';

/** The scope requirements of a quota: `scopes` (operator Exists) and the scope selector. */
export function scopeRequirements(q: ResourceQuota): ScopeRequirement[] {
  const out: ScopeRequirement[] = (q.spec?.scopes ?? []).map((s) => ({ scopeName: s, operator: 'Exists', values: [] }));
  for (const r of q.spec?.scopeSelector?.matchExpressions ?? []) out.push({ scopeName: r.scopeName ?? '', operator: r.operator ?? '', values: r.values ?? [] });
  return out;
}

/** quota.Matches: the quota limits one of the evaluator's resources and the object is in all its scopes. */
export function quotaMatches(hard: readonly string[], q: ResourceQuota, evaluator: Evaluator, obj: Record<string, unknown>): boolean {
  if (evaluator.matchingResources(hard).length === 0) return false;
  return scopeRequirements(q).every((req) => evaluator.matchesScope(req, obj));
}

/**
 * CalculateUsage of one evaluator for a quota: the sum of what the matching objects use, for each
 * limited resource the evaluator accounts for (zero when no object uses it).
 */
export function usageOf(q: ResourceQuota, hard: readonly string[], evaluator: Evaluator, objects: Iterable<Record<string, unknown>>, now: number): ResourceList {
  const names = evaluator.matchingResources(hard);
  if (names.length === 0) return new Map();
  let sum: ResourceList = new Map(names.map((n) => [n, zero()]));
  for (const obj of objects) {
    if (!quotaMatches(hard, q, evaluator, obj)) continue;
    sum = add(sum, mask(evaluator.usage(obj, now), names));
  }
  return sum;
}

export const hardOf = (q: ResourceQuota): ResourceList => resourceList(q.spec?.hard);
export const statusHardOf = (q: ResourceQuota): ResourceList => resourceList(q.status?.hard);
export const usedOf = (q: ResourceQuota): ResourceList => resourceList(q.status?.used);
