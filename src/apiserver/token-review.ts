// POST /apis/authentication.k8s.io/v1/tokenreviews (Kubernetes' registry/authentication/tokenreview):
// runs a token through the server's authenticators, for the review's audiences (default: the API
// audiences), and answers whether it authenticates, as whom, for which audiences, or why not.
// Nothing is stored.
import { TokenReview } from '../api/authentication/tokenrequest-tokenreview.js';
import type { KubeObject } from '../api/schema/kind.js';
import { apiError } from '../registry/errors.js';
import { metaOf } from '../registry/meta.js';
import { InvalidTokenError, isTokenAuthenticator } from './auth/serviceaccount-token.js';
import { SYSTEM_AUTHENTICATED, type Authenticator, type UserInfo } from './auth/types.js';
import { decodeBody } from './decode.js';
import { encodeOther } from './encode.js';
import { readBody } from './http/body.js';
import { writeBytes } from './http/respond.js';
import { fieldValidationOf, type RequestContext } from './resources.js';
import { userInfoOf } from './reviews/access-reviews.js';
import type { IncomingMessage } from 'node:http';

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

export async function handleTokenReview(ctx: RequestContext): Promise<void> {
  if (ctx.info.verb !== 'create' || ctx.info.name !== '') throw apiError.methodNotAllowed();
  // Cluster-scoped: no route under /namespaces/<ns>/.
  if (ctx.info.namespace !== '') throw apiError.unknownResource();
  const decoded = decodeBody(await readBody(ctx.req), ctx.req.headers['content-type'], TokenReview, {
    fieldValidation: fieldValidationOf(ctx.query, 'create'),
    defaultGVK: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenReview' },
  });
  ctx.warnings.push(...decoded.warnings);
  const review = decoded.object;
  const spec = (review.spec ?? {}) as KubeObject;
  const token = typeof spec.token === 'string' ? spec.token : '';
  if (token === '') throw apiError.badRequest('token is required for TokenReview in authentication');
  review.apiVersion = 'authentication.k8s.io/v1';
  review.kind = 'TokenReview';
  const m = metaOf(review);
  m.creationTimestamp = null;
  const status: KubeObject = { user: {} };
  if (ctx.reviewToken) {
    const audiences = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === 'string') : [];
    const r = await ctx.reviewToken(token, audiences);
    if (r.authenticated) status.authenticated = true;
    if (r.user) status.user = userInfoOf(r.user);
    if (r.audiences && r.audiences.length > 0) status.audiences = r.audiences;
    if (r.error) status.error = r.error;
  }
  review.status = status;
  const body = encodeOther(review, TokenReview, ctx.format);
  writeBytes(ctx.res, 201, body.contentType, body.body, { warnings: ctx.warnings });
}
