// RBAC's rule semantics, exactly as Kubernetes' rbac/v1 helpers define them: whether one
// PolicyRule allows a request, and whether a set of rules covers another (the escalation check).
// Pure functions over plain rule objects.
import type { Attributes } from '../types.js';

/** A rbac/v1 PolicyRule with every list present (absent lists are empty). */
export interface Rule {
  verbs: readonly string[];
  apiGroups: readonly string[];
  resources: readonly string[];
  resourceNames: readonly string[];
  nonResourceURLs: readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

function strings(v: unknown): readonly string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : NONE;
}

/** A stored PolicyRule (JSON) as a Rule. */
export function ruleOf(raw: unknown): Rule {
  const r = (raw ?? {}) as Record<string, unknown>;
  return { verbs: strings(r.verbs), apiGroups: strings(r.apiGroups), resources: strings(r.resources), resourceNames: strings(r.resourceNames), nonResourceURLs: strings(r.nonResourceURLs) };
}

/** The rules of a stored Role or ClusterRole. */
export function rulesOf(role: Record<string, unknown>): Rule[] {
  return Array.isArray(role.rules) ? role.rules.map(ruleOf) : [];
}

export function verbMatches(rule: Rule, verb: string): boolean {
  for (const v of rule.verbs) if (v === '*' || v === verb) return true;
  return false;
}

export function apiGroupMatches(rule: Rule, group: string): boolean {
  for (const g of rule.apiGroups) if (g === '*' || g === group) return true;
  return false;
}

// `combined` is `resource` or `resource/subresource`. A rule resource matches when it is `*`, equal
// to the combined name, or `*/<subresource>` for a request of that subresource. (`pods/*` is not a
// wildcard: it matches only a subresource literally named `*`.)
export function resourceMatches(rule: Rule, combined: string, subresource: string): boolean {
  for (const r of rule.resources) {
    if (r === '*' || r === combined) return true;
    if (subresource === '') continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

/** Past this many resourceNames a rule's names are looked up in a Set (made once per rule). */
const NAME_SET_THRESHOLD = 16;
const nameSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/**
 * No resourceNames: every name. Otherwise the request must name one of them. A long list (a role
 * letting the nodes process impersonate each of 10,000 nodes) is a Set lookup, not a scan.
 */
export function resourceNameMatches(rule: Rule, name: string): boolean {
  const names = rule.resourceNames;
  if (names.length === 0) return true;
  if (names.length > NAME_SET_THRESHOLD) {
    let set = nameSets.get(names);
    if (set === undefined) nameSets.set(names, (set = new Set(names)));
    return set.has(name);
  }
  for (const n of names) if (n === name) return true;
  return false;
}

/** `*`, the exact path, or a prefix ending in `*`. */
export function nonResourceURLMatches(rule: Rule, path: string): boolean {
  for (const u of rule.nonResourceURLs) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.slice(0, -1))) return true;
  }
  return false;
}

/** Whether one rule allows a request (Kubernetes' RuleAllows). */
export function ruleAllows(attrs: Attributes, rule: Rule): boolean {
  if (attrs.resourceRequest) {
    const combined = attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
    return verbMatches(rule, attrs.verb) && apiGroupMatches(rule, attrs.apiGroup) && resourceMatches(rule, combined, attrs.subresource) && resourceNameMatches(rule, attrs.name);
  }
  return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path);
}

export function rulesAllow(attrs: Attributes, rules: readonly Rule[]): boolean {
  for (const rule of rules) if (ruleAllows(attrs, rule)) return true;
  return false;
}

// ------------------------------------------------------------------ covers (escalation check)

function hasAll(list: readonly string[], items: readonly string[]): boolean {
  return items.every((i) => list.includes(i));
}

/** A rule cut into rules of one verb, one group, one resource and at most one name or URL (Kubernetes' BreakdownRule). */
export function breakdownRule(rule: Rule): Rule[] {
  const out: Rule[] = [];
  for (const group of rule.apiGroups) {
    for (const resource of rule.resources) {
      for (const verb of rule.verbs) {
        if (rule.resourceNames.length > 0) {
          for (const name of rule.resourceNames) out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name], nonResourceURLs: NONE });
        } else {
          out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: NONE, nonResourceURLs: NONE });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs) {
    for (const verb of rule.verbs) out.push({ verbs: [verb], apiGroups: NONE, resources: NONE, resourceNames: NONE, nonResourceURLs: [url] });
  }
  return out;
}

function resourceCoversAll(owner: readonly string[], requested: readonly string[]): boolean {
  if (owner.includes('*') || hasAll(owner, requested)) return true;
  for (const r of requested) {
    if (owner.includes(r)) continue;
    // A star-slash-status rule resource covers `pods/status`.
    const slash = r.indexOf('/');
    if (slash >= 0 && owner.includes(`*${r.slice(slash)}`)) continue;
    return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, requested: string): boolean {
  if (owner === requested) return true;
  return owner.endsWith('*') && requested.startsWith(owner.replace(/\*+$/, ''));
}

/** Whether `owner` grants everything `requested` does (Kubernetes' ruleCovers). */
export function ruleCovers(owner: Rule, requested: Rule): boolean {
  const verbs = owner.verbs.includes('*') || hasAll(owner.verbs, requested.verbs);
  const groups = owner.apiGroups.includes('*') || hasAll(owner.apiGroups, requested.apiGroups);
  const resources = resourceCoversAll(owner.resources, requested.resources);
  const urls = requested.nonResourceURLs.every((u) => owner.nonResourceURLs.some((o) => nonResourceURLCovers(o, u)));
  let names = owner.resourceNames.length === 0 || hasAll(owner.resourceNames, requested.resourceNames);
  // A rule limited to names never covers one for every name.
  if (owner.resourceNames.length > 0 && requested.resourceNames.length === 0) names = false;
  return verbs && groups && resources && names && urls;
}

/** Whether `owner` covers every rule of `requested`, and the pieces it does not cover (Kubernetes' Covers). */
export function covers(owner: readonly Rule[], requested: readonly Rule[]): { covered: boolean; missing: Rule[] } {
  const missing: Rule[] = [];
  for (const rule of requested) {
    for (const piece of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCovers(o, piece))) missing.push(piece);
    }
  }
  return { covered: missing.length === 0, missing };
}

/**
 * Merges simple rules that differ only in their verbs (Kubernetes' CompactRules), keeping the first
 * appearance order.
 */
export function compactRules(rules: readonly Rule[]): Rule[] {
  const out: Rule[] = [];
  const byKey = new Map<string, { verbs: string[]; rule: Rule }>();
  for (const r of rules) {
    const simple = r.apiGroups.length === 1 && r.resources.length === 1 && r.resourceNames.length <= 1 && r.nonResourceURLs.length === 0;
    if (!simple) {
      out.push(r);
      continue;
    }
    const key = `${r.apiGroups[0]}\0${r.resources[0]}\0${r.resourceNames.length}\0${r.resourceNames[0] ?? ''}`;
    const existing = byKey.get(key);
    if (existing) {
      for (const v of r.verbs) if (!existing.verbs.includes(v)) existing.verbs.push(v);
      continue;
    }
    const verbs = [...r.verbs];
    const merged: Rule = { ...r, verbs };
    byKey.set(key, { verbs, rule: merged });
    out.push(merged);
  }
  return out;
}

const quoted = (list: readonly string[]) => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

/** A rule as Kubernetes' CompactString prints it: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactString(rule: Rule): string {
  const parts: string[] = [];
  if (rule.apiGroups.length > 0) parts.push(`APIGroups:${quoted(rule.apiGroups)}`);
  if (rule.resources.length > 0) parts.push(`Resources:${quoted(rule.resources)}`);
  if (rule.nonResourceURLs.length > 0) parts.push(`NonResourceURLs:${quoted(rule.nonResourceURLs)}`);
  if (rule.resourceNames.length > 0) parts.push(`ResourceNames:${quoted(rule.resourceNames)}`);
  if (rule.verbs.length > 0) parts.push(`Verbs:${quoted(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}
