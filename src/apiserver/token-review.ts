// POST /apis/authentication.k8s.io/v1/tokenreviews (Kubernetes' registry/authentication/tokenreview):
// runs a token through the server's authenticators, for the review's audiences (default: the API
// audiences), and answers whether it authenticates, as whom, for which audiences, or why not.
// Nothing is stored.
import { TokenReview } from '../api/authentication/tokenrequest-tokenreview.js';
import type { KubeObject } from '../api/schema/kind.js';
import { apiError } from '../registry/errors.js';
import { metaOf } from '../registry/meta.js';
import { decodeBody } from './decode.js';
import { encodeOther } from './encode.js';
import { readBody } from './http/body.js';
import { writeBytes } from './http/respond.js';
import type { RequestContext } from './request/context.js';
import { fieldValidationOf } from './request/options.js';
import { userInfoOf } from './reviews/access-reviews.js';

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
