// What a policy's `authorizer` asks (k8s.io/apiserver pkg/cel/library authz.go): the API
// server's authorizer, for the request's user or a service account, on a resource in any version
// (`apiVersion: '*'`) or on a path; `authorizer.requestResource` is the request's own resource.
// Answers are cached per request (Kubernetes' CachingAuthorizer). CEL evaluates synchronously, so
// an authorizer that answers asynchronously is awaited between evaluations: the check reports
// `pending`, the dispatcher settles the answers and evaluates again with them in the cache.
import type { Authorizer, Decision, UserInfo } from '../../auth/types.js';
import type { AdmissionAttributes } from '../types.js';
import { requestName } from './request.js';

export interface AuthorizationCheck {
  verb: string;
  /** Resource checks: group, resource, subresource, namespace, name. Path checks: path. */
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  path?: string;
}

export interface AuthorizationDecision {
  decision: Decision;
  reason: string;
  /** The authorizer's error (`errored()` / `error()`), or `pending` while an asynchronous answer is awaited. */
  error?: string;
}

export const PENDING = 'authorization pending';

interface Shared {
  readonly authorizer: Authorizer;
  readonly answers: Map<string, AuthorizationDecision>;
  readonly pending: Map<string, Promise<void>>;
}

/** serviceaccount.ServiceAccountInfo's user. */
const serviceAccountUser = (namespace: string, name: string): UserInfo => ({ name: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] });

export class PolicyAuthorizer {
  private constructor(
    private readonly shared: Shared,
    readonly user: UserInfo,
    /** The request's resource, for `authorizer.requestResource` (absent for service accounts' authorizers). */
    readonly requestResource?: Readonly<Required<Omit<AuthorizationCheck, 'verb' | 'path'>>>,
  ) {}

  /** The authorizer of one request's user, with the request's resource. */
  static forRequest(authorizer: Authorizer, a: AdmissionAttributes): PolicyAuthorizer {
    const requestResource = { group: a.group, resource: a.resource, subresource: a.subresource, namespace: a.namespace, name: requestName(a) };
    return new PolicyAuthorizer({ authorizer, answers: new Map(), pending: new Map() }, a.user, requestResource);
  }

  /** `authorizer.serviceAccount(namespace, name)`: the same authorizer asked for that service account. */
  serviceAccount(namespace: string, name: string): PolicyAuthorizer {
    return new PolicyAuthorizer(this.shared, serviceAccountUser(namespace, name));
  }

  check(c: AuthorizationCheck): AuthorizationDecision {
    const resourceRequest = c.path === undefined;
    const attrs = {
      user: this.user,
      verb: c.verb,
      resourceRequest,
      apiGroup: c.group ?? '',
      apiVersion: resourceRequest ? '*' : '',
      resource: c.resource ?? '',
      subresource: c.subresource ?? '',
      namespace: c.namespace ?? '',
      name: c.name ?? '',
      path: c.path ?? '',
    };
    const key = JSON.stringify([this.user.name, this.user.groups, attrs.verb, resourceRequest, attrs.apiGroup, attrs.resource, attrs.subresource, attrs.namespace, attrs.name, attrs.path]);
    const known = this.shared.answers.get(key);
    if (known) return known;
    if (this.shared.pending.has(key)) return { decision: 'no-opinion', reason: '', error: PENDING };
    const remember = (r: AuthorizationDecision) => {
      this.shared.answers.set(key, r);
      return r;
    };
    try {
      const r = this.shared.authorizer.authorize(attrs);
      if (!(r instanceof Promise)) return remember({ decision: r.decision, reason: r.reason });
      this.shared.pending.set(
        key,
        r.then(
          (d) => void remember({ decision: d.decision, reason: d.reason }),
          (err: unknown) => void remember({ decision: 'no-opinion', reason: '', error: err instanceof Error ? err.message : String(err) }),
        ),
      );
      return { decision: 'no-opinion', reason: '', error: PENDING };
    } catch (err) {
      return remember({ decision: 'no-opinion', reason: '', error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** True while some answer is awaited: evaluations that read it must run again after settle(). */
  get pending(): boolean {
    return this.shared.pending.size > 0;
  }

  async settle(): Promise<void> {
    const waiting = [...this.shared.pending.values()];
    this.shared.pending.clear();
    await Promise.all(waiting);
  }
}
