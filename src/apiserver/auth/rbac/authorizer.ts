// --authorization-mode=RBAC: a request is allowed when a rule of a role bound to its user, one of
// its groups or its service account allows it — through a ClusterRoleBinding (any namespace) or a
// RoleBinding of the request's namespace. RBAC never denies: it allows or has no opinion, and its
// reason is empty unless a binding refers to a role that does not exist (Kubernetes' words).
// Decisions are cached per user, groups and attributes until the policy changes.
import type { Attributes, Authorizer, Decision, UserInfo } from '../types.js';
import type { AppliedBinding, PolicyIndex, Subject } from './policy.js';
import { ruleAllows, type Rule } from './rules.js';

export interface RulesResult {
  rules: Rule[];
  /** Resolution errors (a binding to a missing role), Kubernetes' wording. */
  errors: string[];
}

type Result = { decision: Decision; reason: string };

/** Cached decisions at most; past it the cache starts over (a burst of distinct requests cannot grow memory). */
const MAX_CACHED = 20_000;

function describeSubject(s: Subject, namespace: string): string {
  if (s.kind === 'ServiceAccount') return `ServiceAccount "${s.name}/${s.namespace !== '' ? s.namespace : namespace}"`;
  return `${s.kind} "${s.name}"`;
}

function describe({ binding: b, subject }: AppliedBinding): string {
  const name = b.kind === 'RoleBinding' ? `${b.name}/${b.namespace}` : b.name;
  return `${b.kind} "${name}" of ${b.roleKind} "${b.roleName}" to ${describeSubject(subject, b.namespace)}`;
}

/** Go's utilerrors.NewAggregate(...).Error(). */
function aggregate(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`;
}

export class RbacAuthorizer implements Authorizer {
  private cache = new Map<string, Result>();
  private cachedGeneration = -1;

  constructor(readonly policy: PolicyIndex) {}

  authorize(attrs: Attributes): Result {
    if (this.cachedGeneration !== this.policy.generation) {
      this.cache.clear();
      this.cachedGeneration = this.policy.generation;
    }
    const u = attrs.user;
    const key = attrs.resourceRequest
      ? `${u.name}\0${u.groups.join('\x01')}\0${attrs.verb}\0${attrs.apiGroup}\0${attrs.resource}\0${attrs.subresource}\0${attrs.namespace}\0${attrs.name}`
      : `${u.name}\0${u.groups.join('\x01')}\0${attrs.verb}\0\0${attrs.path}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const result = this.evaluate(attrs);
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(key, result);
    return result;
  }

  private evaluate(attrs: Attributes): Result {
    const errors: string[] = [];
    let allowedBy: AppliedBinding | undefined;
    this.policy.visitBindings(attrs.user.name, attrs.user.groups, attrs.namespace, (applied) => {
      const rules = this.policy.roleRules(applied.binding);
      if (typeof rules === 'string') {
        errors.push(rules);
        return true;
      }
      for (const rule of rules) {
        if (ruleAllows(attrs, rule)) {
          allowedBy = applied;
          return false;
        }
      }
      return true;
    });
    if (allowedBy !== undefined) return { decision: 'allow', reason: `RBAC: allowed by ${describe(allowedBy)}` };
    return { decision: 'no-opinion', reason: errors.length > 0 ? `RBAC: ${aggregate(errors)}` : '' };
  }

  /** Every rule that applies to a user in a namespace ('' = cluster-wide only), Kubernetes' RulesFor. */
  rulesFor(user: UserInfo, namespace: string): RulesResult {
    const rules: Rule[] = [];
    const errors: string[] = [];
    const seen = new Set<object>();
    this.policy.visitBindings(user.name, user.groups, namespace, (applied) => {
      if (seen.has(applied.binding)) return true;
      seen.add(applied.binding);
      const r = this.policy.roleRules(applied.binding);
      if (typeof r === 'string') errors.push(r);
      else rules.push(...r);
      return true;
    });
    return { rules, errors };
  }
}
