// The contracts of the API server's security chain, as Kubernetes splits it: authentication turns a
// request into a user (or refuses it with 401), authorization decides on the request's attributes
// (403 when denied), admission sees the object before it is stored. Each mechanism (client
// certificates, tokens, RBAC, ...) is one implementation of these interfaces in its own file.
import type { IncomingMessage } from 'node:http';

/** Who is asking (Kubernetes' user.Info). */
export interface UserInfo {
  name: string;
  uid?: string;
  groups: readonly string[];
  extra?: Readonly<Record<string, readonly string[]>>;
}

/**
 * One way of authenticating. Returns the user when the request carries this kind of credential and
 * it is valid, `undefined` when the request carries none of this kind, and throws
 * `authError.unauthorized()` when it carries one that is invalid (bad token, expired, wrong audience):
 * Kubernetes then answers 401 without trying anonymous.
 */
export interface Authenticator {
  readonly name: string;
  authenticate(req: IncomingMessage): UserInfo | undefined | Promise<UserInfo | undefined>;
}

/** What a request wants to do (Kubernetes' authorizer.Attributes). */
export interface Attributes {
  user: UserInfo;
  /** get list watch create update patch delete deletecollection (resources); get post put ... (paths). */
  verb: string;
  resourceRequest: boolean;
  /** Resource requests. */
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Non-resource requests: the URL path. */
  path: string;
  /** Lists and watches: the request's field selector as sent (the Node authorizer reads it). */
  fieldSelector?: string;
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface Authorizer {
  authorize(attrs: Attributes): { decision: Decision; reason: string } | Promise<{ decision: Decision; reason: string }>;
}

export const SYSTEM_MASTERS = 'system:masters';
export const SYSTEM_AUTHENTICATED = 'system:authenticated';
export const SYSTEM_UNAUTHENTICATED = 'system:unauthenticated';
export const ANONYMOUS_USER: UserInfo = Object.freeze({ name: 'system:anonymous', groups: Object.freeze([SYSTEM_UNAUTHENTICATED]) });
