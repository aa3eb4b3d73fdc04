// Service account JWTs as Kubernetes writes them (pkg/serviceaccount: claims.go, legacy.go, jwt.go):
// bound tokens (TokenRequest: iss, sub, aud, exp, iat, nbf, jti and the `kubernetes.io` claim naming
// the service account and what the token is bound to) and legacy secret tokens (issuer
// `kubernetes/serviceaccount`, no expiry, the `kubernetes.io/serviceaccount/*` claims). Signing
// and the signature check live here, below the API server and the controller manager, which both
// sign; what a valid signature means (the service account still exists, ...) is the API server's.
import { randomUUID } from 'node:crypto';
import { compactVerify, SignJWT } from 'jose';
import type { SigningKey, VerificationKey } from './keys.js';

export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
/** The expiry the ServiceAccount admission plugin asks for in projected volumes (1 h + 7 s). */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
/** How long such tokens are actually valid when the API server extends them (1 year). */
export const EXPIRATION_EXTENSION_SECONDS = 365 * 24 * 60 * 60;

export interface ObjectRef {
  name: string;
  uid: string;
}

/** The `kubernetes.io` private claim of bound tokens. */
export interface KubernetesClaim {
  namespace: string;
  serviceaccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  warnafter?: number;
}

export interface BoundClaims {
  iss: string;
  sub: string;
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  jti: string;
  'kubernetes.io': KubernetesClaim;
}

export interface LegacyClaims {
  iss: typeof LEGACY_ISSUER;
  sub: string;
  'kubernetes.io/serviceaccount/namespace': string;
  'kubernetes.io/serviceaccount/secret.name': string;
  'kubernetes.io/serviceaccount/service-account.name': string;
  'kubernetes.io/serviceaccount/service-account.uid': string;
}

/** `system:serviceaccount:<namespace>:<name>` (Kubernetes' MakeUsername). */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

export interface BoundTokenRequest {
  issuer: string;
  serviceAccount: { namespace: string; name: string; uid: string };
  audiences: readonly string[];
  /** Validity in seconds from `now`. */
  expirationSeconds: number;
  /** Seconds after `now` from which clients are warned (the extended 3607 s tokens), or 0. */
  warnAfterSeconds?: number;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  /** Seconds since the epoch; default: the current time. */
  now?: number;
}

/** The claims of a bound token, exactly the fields Kubernetes' token.Claims sets. */
export function boundClaims(req: BoundTokenRequest): BoundClaims {
  const now = req.now ?? Math.floor(Date.now() / 1000);
  const k8s: KubernetesClaim = {
    namespace: req.serviceAccount.namespace,
    serviceaccount: { name: req.serviceAccount.name, uid: req.serviceAccount.uid },
  };
  if (req.pod) {
    k8s.pod = { ...req.pod };
    if (req.node) k8s.node = { ...req.node };
  } else if (req.secret) {
    k8s.secret = { ...req.secret };
  } else if (req.node) {
    k8s.node = { ...req.node };
  }
  if (req.warnAfterSeconds) k8s.warnafter = now + req.warnAfterSeconds;
  return {
    aud: [...req.audiences],
    exp: now + req.expirationSeconds,
    iat: now,
    iss: req.issuer,
    jti: randomUUID(),
    'kubernetes.io': k8s,
    nbf: now,
    sub: serviceAccountUsername(req.serviceAccount.namespace, req.serviceAccount.name),
  };
}

/** The claims of a legacy token kept in a `kubernetes.io/service-account-token` Secret. */
export function legacyClaims(sa: { namespace: string; name: string; uid: string }, secretName: string): LegacyClaims {
  return {
    iss: LEGACY_ISSUER,
    'kubernetes.io/serviceaccount/namespace': sa.namespace,
    'kubernetes.io/serviceaccount/secret.name': secretName,
    'kubernetes.io/serviceaccount/service-account.name': sa.name,
    'kubernetes.io/serviceaccount/service-account.uid': sa.uid,
    sub: serviceAccountUsername(sa.namespace, sa.name),
  };
}

/** Signs claims as a compact JWS with the key's algorithm and kid. */
export function signToken(claims: BoundClaims | LegacyClaims | Record<string, unknown>, key: SigningKey): Promise<string> {
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: key.alg, kid: key.kid }).sign(key.privateKey);
}

/** A token's payload read without checking the signature, or undefined when it is not a JWT. */
export function peekClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)) || parts[1] === '') return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
    return payload as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** What go-jose answers when no key verifies the signature. */
export const SIGNATURE_INVALID = 'go-jose/go-jose: error in cryptographic primitive';

/**
 * Checks the signature against each key (those whose kid matches first, as any key may have
 * signed); resolves with the verified payload, or rejects with the reason no key verified it.
 */
export async function verifySignature(token: string, keys: readonly VerificationKey[]): Promise<Record<string, unknown>> {
  let header: { alg?: unknown; kid?: unknown };
  try {
    header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { alg?: unknown; kid?: unknown };
  } catch {
    throw new Error('go-jose/go-jose: compact JWS format must have three parts');
  }
  if (header === null || typeof header !== 'object') throw new Error('go-jose/go-jose: compact JWS format must have three parts');
  const ordered = [...keys].sort((a, b) => Number(b.kid === header.kid) - Number(a.kid === header.kid));
  for (const key of ordered) {
    if (header.alg !== key.alg) continue;
    try {
      const { payload } = await compactVerify(token, key.publicKey, { algorithms: [key.alg] });
      return JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    } catch {
      // another key may have signed it
    }
  }
  throw new Error(SIGNATURE_INVALID);
}
