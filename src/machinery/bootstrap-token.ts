// Bootstrap tokens (k8s.io/cluster-bootstrap): `<id>.<secret>` bearer tokens kept as Secrets
// `bootstrap-token-<id>` of type bootstrap.kubernetes.io/token in kube-system, read by the API
// server's authenticator, the bootstrap signer and the token cleaner alike.

export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAP_TOKEN_NAMESPACE = 'kube-system';
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';

const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** ParseToken: the id and secret of a well-formed token, or undefined. */
export function parseBootstrapToken(token: string): { id: string; secret: string } | undefined {
  const m = TOKEN.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : undefined;
}

/** The fields of a bootstrap token Secret that matter, as its `data` holds them (base64). */
export interface BootstrapSecret {
  type?: string | null;
  metadata?: { name?: string | null; deletionTimestamp?: string | null } | null;
  data?: Readonly<Record<string, string | null>> | null;
}

/** GetData: a data key decoded ('' when absent). */
export function secretData(secret: BootstrapSecret, key: string): string {
  const v = secret.data?.[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/** HasExpired: an `expiration` that does not parse counts as expired. */
export function bootstrapTokenExpired(secret: BootstrapSecret, now: number): boolean {
  const expiration = secretData(secret, 'expiration');
  if (expiration === '') return false;
  const at = Date.parse(expiration);
  return Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(expiration) || now > at;
}

/** When the token expires (ms), or undefined when it does not. */
export function bootstrapTokenExpiry(secret: BootstrapSecret): number | undefined {
  const expiration = secretData(secret, 'expiration');
  const at = Date.parse(expiration);
  return expiration === '' || Number.isNaN(at) ? undefined : at;
}

/** GetGroups: system:bootstrappers plus auth-extra-groups, sorted and deduplicated; throws for a bad group. */
export function bootstrapTokenGroups(secret: BootstrapSecret): string[] {
  const groups = new Set([BOOTSTRAP_DEFAULT_GROUP]);
  const extra = secretData(secret, 'auth-extra-groups');
  if (extra !== '') {
    for (const g of extra.split(',')) {
      if (!GROUP.test(g)) throw new Error(`bootstrap group ${JSON.stringify(g)} is invalid (must match ${GROUP.source.replace(/^\^/, '\\A').replace(/\$$/, '\\z')})`);
      groups.add(g);
    }
  }
  return [...groups].sort();
}

/**
 * The token a Secret holds when it is a usable bootstrap token for `usage`
 * (`usage-bootstrap-authentication` or `usage-bootstrap-signing`): right type and name, id and
 * secret well formed, not being deleted, not expired, the usage "true".
 */
export function usableBootstrapToken(secret: BootstrapSecret, usage: string, now: number): { id: string; secret: string } | undefined {
  if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || secret.metadata?.deletionTimestamp) return undefined;
  const id = secretData(secret, 'token-id');
  const tokenSecret = secretData(secret, 'token-secret');
  if (secret.metadata?.name !== BOOTSTRAP_TOKEN_SECRET_PREFIX + id) return undefined;
  if (!parseBootstrapToken(`${id}.${tokenSecret}`)) return undefined;
  if (bootstrapTokenExpired(secret, now)) return undefined;
  if (secretData(secret, usage) !== 'true') return undefined;
  return { id, secret: tokenSecret };
}
