// Reviews a bearer token the way TokenReview asks: through the server's authenticators, for the
// requested audiences (default: the API audiences). The first authenticator that accepts wins, as
// kube-apiserver's union does.
import type { IncomingMessage } from 'node:http';
import { InvalidTokenError, isTokenAuthenticator } from './serviceaccount-token.js';
import { SYSTEM_AUTHENTICATED, type Authenticator, type UserInfo } from './types.js';

export interface TokenReviewResult {
  authenticated: boolean;
  user?: UserInfo;
  audiences?: string[];
  error?: string;
}

export type TokenReviewer = (token: string, audiences: readonly string[]) => Promise<TokenReviewResult>;

/** A reviewer over the server's authenticators (kube-apiserver's union: the first that accepts wins). */
export function tokenReviewer(authenticators: readonly Authenticator[], apiAudiences: readonly string[]): TokenReviewer {
  return async (token, requested) => {
    const audiences = requested.length > 0 ? requested : apiAudiences;
    const errors: string[] = [];
    const fakeRequest = { headers: { authorization: `Bearer ${token}` } } as unknown as IncomingMessage;
    for (const a of authenticators) {
      try {
        if (isTokenAuthenticator(a)) {
          const r = await a.authenticateToken(token, audiences);
          if (r) return { authenticated: true, user: withAuthenticated(r.user), audiences: r.audiences };
          continue;
        }
        // Authenticators that know nothing of audiences accept only for the API's own (WrapAudienceAgnosticToken).
        const accepted = audiences.filter((x) => apiAudiences.includes(x));
        if (apiAudiences.length > 0 && accepted.length === 0) continue;
        const user = await a.authenticate(fakeRequest);
        if (user) return { authenticated: true, user: withAuthenticated(user), audiences: accepted.length > 0 ? accepted : undefined };
      } catch (err) {
        if (err instanceof InvalidTokenError && err.detail !== 'invalid bearer token') errors.push(err.detail);
      }
    }
    return { authenticated: false, error: errors.length > 0 ? `[invalid bearer token, ${errors.join(', ')}]` : 'invalid bearer token' };
  };
}

function withAuthenticated(user: UserInfo): UserInfo {
  return user.groups.includes(SYSTEM_AUTHENTICATED) ? user : { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
}
