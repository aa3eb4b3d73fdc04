// Whether one admission rule (operations, apiGroups, apiVersions, resources, scope) covers a
// request, as k8s.io/apiserver's webhook rules matcher decides it (policies reuse it): `*` matches
// any operation, group, version or resource; `pods/*` any subresource of pods, `*/status` the
// status of any resource; a rule without a subresource never matches a subresource request.
import type { Operation } from '../types.js';

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface NamedRuleWithOperations extends RuleWithOperations {
  resourceNames?: string[];
}

/** What a rule is matched against: the request's resource in one version. */
export interface RuleRequest {
  operation: Operation;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
}

const exactOrWildcard = (items: readonly string[] | undefined, requested: string) => (items ?? []).some((i) => i === '*' || i === requested);

const isNamespaceResource = (r: RuleRequest) => r.group === '' && r.version === 'v1' && r.resource === 'namespaces';

function scopeMatches(scope: string | undefined, r: RuleRequest): boolean {
  switch (scope ?? '*') {
    case '*':
      return true;
    // A Namespace is cluster-scoped although its requests name a namespace (itself).
    case 'Namespaced':
      return !isNamespaceResource(r) && r.namespace !== '';
    case 'Cluster':
      return isNamespaceResource(r) || r.namespace === '';
    default:
      return false;
  }
}

function resourceMatches(resources: readonly string[] | undefined, r: RuleRequest): boolean {
  return (resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const [res, sub] = slash < 0 ? [entry, ''] : [entry.slice(0, slash), entry.slice(slash + 1)];
    return (res === '*' || res === r.resource) && (sub === '*' || sub === r.subresource);
  });
}

export function ruleMatches(rule: RuleWithOperations, r: RuleRequest): boolean {
  return (
    scopeMatches(rule.scope, r) &&
    exactOrWildcard(rule.operations, r.operation) &&
    exactOrWildcard(rule.apiGroups, r.group) &&
    exactOrWildcard(rule.apiVersions, r.version) &&
    resourceMatches(rule.resources, r)
  );
}

/** A named rule: the rule, and the request's name among resourceNames when it lists any. */
export function namedRuleMatches(rule: NamedRuleWithOperations, r: RuleRequest, name: string): boolean {
  if (!ruleMatches(rule, r)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}
