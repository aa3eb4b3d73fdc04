// Service account tokens as kube-apiserver authenticates them (its JWT token authenticator with
// the bound and legacy validators): a bearer JWT whose issuer is one of ours, signed by one of the
// --service-account-key-file keys, for one of the API audiences, not expired, naming a service
// account (and a pod, secret or node it is bound to) that still exists with the same uid. The user
// is system:serviceaccount:<ns>:<name> in system:serviceaccounts and system:serviceaccounts:<ns>.
// Any other bearer token is refused (401) unless another authenticator accepts it.
import type { IncomingMessage } from 'node:http';
import { annotationsOf, labelsOf, uidOf } from '../../api/meta/object.js';
import type { KubeObject } from '../../api/schema/kind.js';
import type { VerificationKey } from '../../machinery/jwt/keys.js';
import { LEGACY_ISSUER, peekClaims, serviceAccountUsername, verifySignature, type KubernetesClaim } from '../../machinery/jwt/tokens.js';
import { StatusError } from '../../machinery/status.js';
import { str } from '../../registry/meta.js';
import { bearerToken } from './chain.js';
import type { TokenObjectGetter, TokenObjectResource } from './serviceaccount-token-lookup.js';
import { dependencyKey, type TokenCache, type Validated } from './token-cache.js';
import type { Authenticator, UserInfo } from './types.js';

export const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
export const POD_NAME_KEY = 'authentication.kubernetes.io/pod-name';
export const POD_UID_KEY = 'authentication.kubernetes.io/pod-uid';
export const NODE_NAME_KEY = 'authentication.kubernetes.io/node-name';
export const NODE_UID_KEY = 'authentication.kubernetes.io/node-uid';
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';
export const LAST_USED_LABEL = 'kubernetes.io/legacy-token-last-used';
export const INVALID_SINCE_LABEL = 'kubernetes.io/legacy-token-invalid-since';
const UNEXPECTED_CLAIM = 'service account token claims could not be validated due to unexpected private claim';
/** How many verified tokens are remembered. */
const VERIFIED_CACHE_SIZE = 4096;
/** go-jose's leeway on exp, nbf and iat. */
const LEEWAY_SECONDS = 60;

/** A bearer token refused; `detail` is what Kubernetes reports (TokenReview status.error, logs). */
export class InvalidTokenError extends StatusError {
  constructor(readonly detail: string) {
    super(401, 'Unauthorized', 'Unauthorized');
  }
}

/** An authenticator of bare tokens (TokenReview asks these with the review's audiences). */
export interface TokenAuthenticator extends Authenticator {
  /** The user and the audiences the token was accepted for; undefined when the token is not of this kind; throws InvalidTokenError. */
  authenticateToken(token: string, audiences?: readonly string[]): Promise<{ user: UserInfo; audiences: string[] } | undefined>;
}

export function isTokenAuthenticator(a: Authenticator): a is TokenAuthenticator {
  return typeof (a as Partial<TokenAuthenticator>).authenticateToken === 'function';
}

export interface ServiceAccountTokenOptions {
  /** --service-account-issuer values: the first signs, all are accepted. */
  issuers: readonly string[];
  /** --service-account-key-file keys (and the signing key's public half). */
  keys: readonly VerificationKey[];
  /** --api-audiences (default: the issuers). */
  apiAudiences: readonly string[];
  getter: TokenObjectGetter;
  /** Sets kubernetes.io/legacy-token-last-used=<date> on a legacy token's Secret (absent: not tracked). */
  markLegacyTokenUsed?: (namespace: string, secret: string, date: string) => Promise<void>;
  /** Seconds since the epoch. */
  now?: () => number;
  /**
   * Remembers outcomes (kube-apiserver's cached token authenticator); whoever holds it drops an
   * entry when an object it depends on (dependencyKey(resource, namespace, name)) changes or goes.
   */
  cache?: TokenCache<TokenAuthentication | undefined>;
}

/** An accepted token: its user and the audiences it was accepted for. */
export interface TokenAuthentication {
  user: UserInfo;
  audiences: string[];
}

/** The groups of a service account's user (Kubernetes' MakeGroupNames). */
export function serviceAccountGroups(namespace: string): string[] {
  return [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${namespace}`];
}

/** Go's %q of a string slice: ["a" "b"]. */
function quoteList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

function isRef(v: unknown): v is { name: string; uid: string } {
  return typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string' && typeof (v as { uid?: unknown }).uid === 'string';
}

export class ServiceAccountTokenAuthenticator implements TokenAuthenticator {
  readonly name = 'serviceaccount-token';
  private readonly now: () => number;
  /**
   * Tokens whose signature verified, with their claims (LRU): the signature check is the costly
   * part (~150 µs for ES256) and a client sends the same token on every request. Expiry, audiences
   * and the existence of what the token names are checked whenever the outcome is not in `cache`.
   */
  private readonly verified = new Map<string, Record<string, unknown>>();

  constructor(private readonly opts: ServiceAccountTokenOptions) {
    this.now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  }

  get apiAudiences(): readonly string[] {
    return this.opts.apiAudiences;
  }

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const token = bearerToken(req);
    if (token === undefined) return undefined;
    let result: Awaited<ReturnType<ServiceAccountTokenAuthenticator['authenticateToken']>>;
    try {
      result = await this.authenticateToken(token);
    } catch (err) {
      if (err instanceof StatusError) throw err;
      // A lookup failed (storage unavailable): refuse rather than guess.
      throw new InvalidTokenError(err instanceof Error ? err.message : String(err));
    }
    // Not a token of ours: refused unless another authenticator accepts it (kube-apiserver: "invalid bearer token").
    if (result === undefined) throw new InvalidTokenError('invalid bearer token');
    return result.user;
  }

  /** The claims of a token of ours whose signature verifies, or undefined when it is not ours; throws when the signature does not verify. */
  private async verifiedClaims(token: string): Promise<Record<string, unknown> | undefined> {
    const cached = this.verified.get(token);
    if (cached) {
      // Most recently used last: the oldest entry is the first one evicted.
      this.verified.delete(token);
      this.verified.set(token, cached);
      return cached;
    }
    const unverified = peekClaims(token);
    if (unverified === undefined) return undefined;
    const iss = unverified.iss;
    if (iss !== LEGACY_ISSUER && !(typeof iss === 'string' && this.opts.issuers.includes(iss))) return undefined;
    let claims: Record<string, unknown>;
    try {
      claims = await verifySignature(token, this.opts.keys);
    } catch (err) {
      throw new InvalidTokenError((err as Error).message);
    }
    this.verified.set(token, claims);
    if (this.verified.size > VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value as string);
    return claims;
  }

  authenticateToken(token: string, audiences: readonly string[] = this.opts.apiAudiences): Promise<TokenAuthentication | undefined> {
    const cache = this.opts.cache;
    return cache ? cache.authenticate(token, audiences, () => this.validate(token, audiences)) : this.validate(token, audiences).then((v) => v.value);
  }

  /** The whole check of a token, with the objects it read (a change to one of them invalidates the outcome). */
  private async validate(token: string, audiences: readonly string[]): Promise<Validated<TokenAuthentication | undefined>> {
    const claims = await this.verifiedClaims(token);
    // Not ours: a fact of the token alone.
    if (claims === undefined) return { value: undefined, dependsOn: [] };
    const legacy = claims.iss === LEGACY_ISSUER;
    // The audiences: the token's (legacy tokens have none: then the API audiences) met with those asked for.
    const tokenAudiences = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud.filter((a): a is string => typeof a === 'string') : [];
    const effective = tokenAudiences.length > 0 ? tokenAudiences : [...this.opts.apiAudiences];
    const accepted = audiences.length === 0 ? effective : effective.filter((a) => audiences.includes(a));
    if (audiences.length > 0 && accepted.length === 0) {
      throw new InvalidTokenError(`token audiences ${quoteList(effective)} is invalid for the target audiences ${quoteList(audiences)}`);
    }
    const dependsOn: string[] = [];
    const user = legacy ? await this.validateLegacy(token, claims, dependsOn) : await this.validateBound(claims, dependsOn);
    const exp = claims.exp;
    const validUntilMs = typeof exp === 'number' && Number.isFinite(exp) ? (exp + LEEWAY_SECONDS) * 1000 : undefined;
    return { value: { user, audiences: accepted }, dependsOn, validUntilMs };
  }

  /** Reads an object the token names, noting it among the outcome's dependencies. */
  private lookUp(dependsOn: string[], resource: TokenObjectResource, namespace: string, name: string, uid?: string): Promise<KubeObject | undefined> {
    dependsOn.push(dependencyKey(resource, namespace, name));
    return this.opts.getter.get(resource, namespace, name, uid);
  }

  /** Kubernetes' bound validator (claims.go). */
  private async validateBound(claims: Record<string, unknown>, dependsOn: string[]): Promise<UserInfo> {
    const now = this.now();
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    const exp = num(claims.exp);
    const nbf = num(claims.nbf);
    const iat = num(claims.iat);
    if (exp !== undefined && now > exp + LEEWAY_SECONDS) throw new InvalidTokenError('service account token has expired');
    if (nbf !== undefined && now + LEEWAY_SECONDS < nbf) throw new InvalidTokenError('service account token is not valid yet');
    if (iat !== undefined && now + LEEWAY_SECONDS < iat) throw new InvalidTokenError('service account token is issued in the future');
    const k8s = claims['kubernetes.io'] as Partial<KubernetesClaim> | undefined;
    if (typeof k8s !== 'object' || k8s === null) throw new InvalidTokenError(UNEXPECTED_CLAIM);
    const namespace = k8s.namespace;
    const sa = k8s.serviceaccount;
    if (typeof namespace !== 'string' || namespace === '') throw new InvalidTokenError(UNEXPECTED_CLAIM);
    if (!isRef(sa) || sa.name === '') throw new InvalidTokenError(UNEXPECTED_CLAIM);
    if (claims.sub !== serviceAccountUsername(namespace, sa.name)) throw new InvalidTokenError(UNEXPECTED_CLAIM);
    const account = await this.lookUp(dependsOn, 'serviceaccounts', namespace, sa.name, sa.uid);
    if (!account) throw new InvalidTokenError('service account token has been invalidated');
    const accountUid = uidOf(account);
    if (accountUid !== sa.uid) throw new InvalidTokenError(`service account UID (${accountUid}) does not match claim (${sa.uid})`);
    const extra: Record<string, string[]> = {};
    if (k8s.secret !== undefined) await this.checkBoundObject(dependsOn, 'secrets', 'secret', namespace, k8s.secret);
    if (k8s.pod !== undefined) {
      const pod = await this.checkBoundObject(dependsOn, 'pods', 'pod', namespace, k8s.pod);
      extra[POD_NAME_KEY] = [pod.name];
      extra[POD_UID_KEY] = [pod.uid];
    }
    if (k8s.node !== undefined) {
      if (!isRef(k8s.node)) throw new InvalidTokenError(UNEXPECTED_CLAIM);
      // A token bound to a node directly is invalid once the node is gone; one bound to a pod only names it.
      if (k8s.pod === undefined) await this.checkBoundObject(dependsOn, 'nodes', 'node', '', k8s.node);
      extra[NODE_NAME_KEY] = [k8s.node.name];
      if (k8s.node.uid !== '') extra[NODE_UID_KEY] = [k8s.node.uid];
    }
    if (typeof claims.jti === 'string' && claims.jti !== '') extra[CREDENTIAL_ID_KEY] = [`JTI=${claims.jti}`];
    const user: UserInfo = { name: serviceAccountUsername(namespace, sa.name), uid: sa.uid, groups: serviceAccountGroups(namespace) };
    return Object.keys(extra).length > 0 ? { ...user, extra } : user;
  }

  /** Kubernetes' legacy token tracking: the Secret's last-used label says today's date (UTC), written at most once a day, in the background. */
  private markUsed(namespace: string, name: string, labels: Record<string, unknown>): void {
    const today = new Date(this.now() * 1000).toISOString().slice(0, 10);
    if (!this.opts.markLegacyTokenUsed || labels[LAST_USED_LABEL] === today) return;
    this.opts.markLegacyTokenUsed(namespace, name, today).catch(() => {
      // Best effort, as Kubernetes: the next use tries again.
    });
  }

  /** The object a token is bound to exists with the uid of the claim. */
  private async checkBoundObject(dependsOn: string[], resource: 'secrets' | 'pods' | 'nodes', what: string, namespace: string, ref: unknown): Promise<{ name: string; uid: string }> {
    if (!isRef(ref)) throw new InvalidTokenError(UNEXPECTED_CLAIM);
    const obj = await this.lookUp(dependsOn, resource, namespace, ref.name, ref.uid);
    if (!obj) throw new InvalidTokenError('service account token has been invalidated');
    const uid = uidOf(obj);
    if (uid !== ref.uid) throw new InvalidTokenError(`${what} UID (${uid}) does not match service account ${what} ref claim (${ref.uid})`);
    return ref;
  }

  /** Kubernetes' legacy validator (legacy.go): the Secret still holds this very token for this service account. */
  private async validateLegacy(token: string, claims: Record<string, unknown>, dependsOn: string[]): Promise<UserInfo> {
    const namespace = claims['kubernetes.io/serviceaccount/namespace'];
    const secretName = claims['kubernetes.io/serviceaccount/secret.name'];
    const saName = claims['kubernetes.io/serviceaccount/service-account.name'];
    const saUid = claims['kubernetes.io/serviceaccount/service-account.uid'];
    for (const v of [namespace, secretName, saName, saUid]) {
      if (typeof v !== 'string' || v === '') throw new InvalidTokenError(UNEXPECTED_CLAIM);
    }
    const [ns, secretN, name, uid] = [namespace, secretName, saName, saUid] as string[];
    if (claims.sub !== serviceAccountUsername(ns!, name!)) throw new InvalidTokenError('sub claim does not match service account name');
    const secret: KubeObject | undefined = await this.lookUp(dependsOn, 'secrets', ns!, secretN!);
    if (!secret) throw new InvalidTokenError('service account token has been invalidated');
    const annotations = annotationsOf(secret);
    if (annotations['kubernetes.io/service-account.name'] !== name) throw new InvalidTokenError('service account token has been invalidated');
    const stored = ((secret.data ?? {}) as Record<string, unknown>).token;
    if (typeof stored !== 'string' || Buffer.from(stored, 'base64').toString('utf8') !== token) throw new InvalidTokenError("service account token does not match server's copy");
    const labels = labelsOf(secret);
    this.markUsed(ns!, secretN!, labels);
    if (str(labels[INVALID_SINCE_LABEL]) !== '') {
      throw new InvalidTokenError(`the token in secret ${ns!}/${secretN!} for service account ${ns!}/${name!} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${INVALID_SINCE_LABEL}' label from the secret to re-enable it`);
    }
    const account = await this.lookUp(dependsOn, 'serviceaccounts', ns!, name!, uid);
    if (!account) throw new InvalidTokenError('service account token has been invalidated');
    const accountUid = uidOf(account);
    if (accountUid !== uid) throw new InvalidTokenError(`service account UID (${accountUid}) does not match claim (${uid!})`);
    return { name: serviceAccountUsername(ns!, name!), uid, groups: serviceAccountGroups(ns!) };
  }
}
