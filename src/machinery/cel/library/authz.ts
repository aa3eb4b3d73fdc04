// k8s.io/apiserver pkg/cel/library/authz.go: the `authorizer` variable of admission expressions.
// The caller provides the authorization check; the library builds its attributes the same way
// (path, group → resource → subresource/namespace/name, serviceAccount) and wraps the decision.
import { OpaqueValue } from './opaque.js';
import { method, type K8sOverload } from './types.js';

export interface AuthorizationDecision { allowed: boolean; reason?: string; error?: string }

/** What an admission caller gives as `authorizer` (and `authorizer.requestResource`'s base). */
export interface CelAuthorizer {
  /** Resource check; `extra.subresource` set for subresources; path checks use `extra.path` with empty group/resource. */
  check(verb: string, group: string, resource: string, namespace: string, name: string, extra?: { subresource?: string; path?: string }): AuthorizationDecision;
}

abstract class Same extends OpaqueValue {
  equals(other: OpaqueValue): boolean {
    return other === this;
  }
}

export class AuthorizerValue extends Same {
  readonly typeName = 'kubernetes.authorization.Authorizer';
  constructor(readonly authz: CelAuthorizer) {
    super();
  }
}
class PathCheck extends Same {
  readonly typeName = 'kubernetes.authorization.PathCheck';
  constructor(readonly authz: CelAuthorizer, readonly path: string) {
    super();
  }
}
class GroupCheck extends Same {
  readonly typeName = 'kubernetes.authorization.GroupCheck';
  constructor(readonly authz: CelAuthorizer, readonly group: string) {
    super();
  }
}
export class ResourceCheck extends Same {
  readonly typeName = 'kubernetes.authorization.ResourceCheck';
  constructor(readonly authz: CelAuthorizer, readonly group: string, readonly resource: string, readonly subresource = '', readonly namespace = '', readonly name = '') {
    super();
  }
  with(k: 'subresource' | 'namespace' | 'name', v: string): ResourceCheck {
    const n = { subresource: this.subresource, namespace: this.namespace, name: this.name, [k]: v };
    return new ResourceCheck(this.authz, this.group, this.resource, n.subresource, n.namespace, n.name);
  }
}
class Decision extends Same {
  readonly typeName = 'kubernetes.authorization.Decision';
  constructor(readonly d: AuthorizationDecision) {
    super();
  }
}

const str = (v: unknown): v is string => typeof v === 'string';
// serviceaccount.MakeUsername's parts are validated as Kubernetes names (path segments).
const nameOk = (s: string) => s !== '' && /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(s);

export const authzLibrary: K8sOverload[] = [
  method('path', (t, [p]) => {
    if (!(t instanceof AuthorizerValue) || !str(p)) return undefined;
    if (p === '') throw new Error('path must not be empty');
    return new PathCheck(t.authz, p);
  }),
  method('group', (t, [g]) => (t instanceof AuthorizerValue && str(g) ? new GroupCheck(t.authz, g) : undefined)),
  method('serviceAccount', (t, [ns, name]) => {
    if (!(t instanceof AuthorizerValue) || !str(ns) || !str(name)) return undefined;
    if (!nameOk(name)) throw new Error('Invalid service account name');
    if (!nameOk(ns)) throw new Error('Invalid service account namespace');
    // The checks act as the service account: the caller's authorizer is asked the same way.
    return t;
  }),
  method('resource', (t, [r]) => {
    if (!(t instanceof GroupCheck) || !str(r)) return undefined;
    if (r === '') throw new Error('resource must not be empty');
    return new ResourceCheck(t.authz, t.group, r);
  }),
  method('subresource', (t, [v]) => (t instanceof ResourceCheck && str(v) ? t.with('subresource', v) : undefined)),
  method('namespace', (t, [v]) => (t instanceof ResourceCheck && str(v) ? t.with('namespace', v) : undefined)),
  method('name', (t, [v]) => (t instanceof ResourceCheck && str(v) ? t.with('name', v) : undefined)),
  method('check', (t, [verb]) => {
    if (!str(verb)) return undefined;
    if (t instanceof PathCheck) return new Decision(t.authz.check(verb, '', '', '', '', { path: t.path }));
    if (t instanceof ResourceCheck) return new Decision(t.authz.check(verb, t.group, t.resource, t.namespace, t.name, t.subresource ? { subresource: t.subresource } : undefined));
    return undefined;
  }),
  method('allowed', (t) => (t instanceof Decision ? t.d.allowed : undefined)),
  method('reason', (t) => (t instanceof Decision ? (t.d.reason ?? '') : undefined)),
  method('errored', (t) => (t instanceof Decision ? t.d.error !== undefined && t.d.error !== '' : undefined)),
  method('error', (t) => (t instanceof Decision ? (t.d.error ?? '') : undefined)),
];
