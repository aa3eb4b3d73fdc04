// Bootstrap token authentication (kube-apiserver's --enable-bootstrap-token-auth): a bearer token
// `<id>.<secret>` is the user system:bootstrap:<id> in system:bootstrappers (and the token's
// auth-extra-groups) when kube-system's Secret bootstrap-token-<id> holds that secret, is not
// expired nor being deleted, and allows authentication. A token of that form that does not check
// out is refused (401); any other token is left to the other authenticators.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  BOOTSTRAP_TOKEN_NAMESPACE,
  BOOTSTRAP_TOKEN_SECRET_PREFIX,
  BOOTSTRAP_TOKEN_SECRET_TYPE,
  BOOTSTRAP_USER_PREFIX,
  bootstrapTokenExpired,
  bootstrapTokenGroups,
  parseBootstrapToken,
  secretData,
  type BootstrapSecret,
} from '../../machinery/bootstrap-token.js';
import { bearerToken } from './chain.js';
import { authError } from './errors.js';
import type { TokenObjectGetter } from './serviceaccount-token-lookup.js';
import type { Authenticator, UserInfo } from './types.js';

const sameSecret = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export class BootstrapTokenAuthenticator implements Authenticator {
  readonly name = 'bootstrap-token';

  constructor(
    private readonly getter: TokenObjectGetter,
    private readonly now: () => number = Date.now,
  ) {}

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const token = bearerToken(req);
    return token === undefined ? undefined : this.authenticateToken(token);
  }

  async authenticateToken(token: string): Promise<UserInfo | undefined> {
    const parsed = parseBootstrapToken(token);
    if (!parsed) return undefined;
    const secret = (await this.getter.get('secrets', BOOTSTRAP_TOKEN_NAMESPACE, BOOTSTRAP_TOKEN_SECRET_PREFIX + parsed.id)) as BootstrapSecret | undefined;
    if (
      !secret ||
      secret.metadata?.deletionTimestamp ||
      secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE ||
      !sameSecret(secretData(secret, 'token-secret'), parsed.secret) ||
      secretData(secret, 'token-id') !== parsed.id ||
      bootstrapTokenExpired(secret, this.now()) ||
      secretData(secret, 'usage-bootstrap-authentication') !== 'true'
    ) {
      throw authError.unauthorized();
    }
    let groups: string[];
    try {
      groups = bootstrapTokenGroups(secret);
    } catch {
      throw authError.unauthorized();
    }
    return { name: BOOTSTRAP_USER_PREFIX + parsed.id, groups };
  }
}
