// Runs the configured authenticators on a request, as kube-apiserver's union authenticator does:
// the first user any of them returns wins; if none does and one of them refused a credential it
// understood (an unknown bearer token, an expired JWT), the request is 401; a request with no
// credential at all is the anonymous user when anonymous auth is on, else 401. Authenticated
// users are always in system:authenticated.
import type { IncomingMessage } from 'node:http';
import { authError } from './errors.js';
import { ANONYMOUS_USER, SYSTEM_AUTHENTICATED, type Authenticator, type UserInfo } from './types.js';

export interface AuthenticationOptions {
  authenticators: readonly Authenticator[];
  /** Requests without credentials become system:anonymous (kube-apiserver's --anonymous-auth, default true). */
  anonymous: boolean;
}

export class AuthenticationChain {
  constructor(private readonly opts: AuthenticationOptions) {}

  async authenticate(req: IncomingMessage): Promise<UserInfo> {
    let refused: unknown;
    for (const authenticator of this.opts.authenticators) {
      let user: UserInfo | undefined;
      try {
        user = await authenticator.authenticate(req);
      } catch (err) {
        refused ??= err;
        continue;
      }
      if (user !== undefined) return withAuthenticatedGroup(user);
    }
    if (refused !== undefined || !this.opts.anonymous) throw authError.unauthorized();
    return ANONYMOUS_USER;
  }
}

function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(SYSTEM_AUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : undefined;
}
