// What an aggregated ClusterRole holds: the union of the rules of the ClusterRoles its label
// selectors match (itself excluded), in the order of the matched roles' names, each rule once.
import { labelsOf, nameOf } from '../../api/meta/object.js';
import type { ClusterRole, LabelSelector, PolicyRule } from '../../api/types.js';
import { labelSelectorAsSelector, selectorMatches, semanticEqual } from '../../machinery/validation/common.js';

/** The label selectors of an aggregated ClusterRole, or undefined for a role without an aggregationRule. */
export function selectorsOf(role: ClusterRole): LabelSelector[] | undefined {
  const rule = role.aggregationRule;
  if (!rule || typeof rule !== 'object') return undefined;
  return Array.isArray(rule.clusterRoleSelectors) ? rule.clusterRoleSelectors : [];
}

/** The rules an aggregated ClusterRole should hold, given every ClusterRole. */
export function aggregatedRules(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  const name = nameOf(role);
  for (const raw of selectorsOf(role) ?? []) {
    const selector = labelSelectorAsSelector(raw);
    if (selector === undefined) continue;
    const matched = all.filter((r) => nameOf(r) !== name && selectorMatches(selector, labelsOf(r))).sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
    for (const r of matched) {
      for (const rule of Array.isArray(r.rules) ? r.rules : []) {
        if (!rules.some((have) => semanticEqual(have, rule))) rules.push(rule);
      }
    }
  }
  return rules;
}
