// The access reviews (authorization.k8s.io/v1) and SelfSubjectReview (authentication.k8s.io):
// virtual create-only resources. A POST is decoded, validated, answered with the object and its
// status filled in (201), and nothing is stored — as kube-apiserver's review REST handlers do.
//  - SubjectAccessReview: may user U (groups G) do X? (cluster-wide)
//  - LocalSubjectAccessReview: the same, restricted to the URL's namespace
//  - SelfSubjectAccessReview: may I do X? (`kubectl auth can-i`)
//  - SelfSubjectRulesReview: what may I do in namespace N? (`kubectl auth can-i --list`)
//  - SelfSubjectReview: who am I? (`kubectl auth whoami`)
import { apiVersionOf } from '../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { apiError } from '../../registry/errors.js';
import { timestamp } from '../../registry/meta.js';
import type { Authorization } from '../auth/authorization.js';
import type { Rule } from '../auth/rbac/rules.js';
import type { Attributes, UserInfo } from '../auth/types.js';
import { decodeBody } from '../decode.js';
import { encodeOther } from '../encode.js';
import { readBody } from '../http/body.js';
import { writeBytes } from '../http/respond.js';
import type { RequestContext } from '../request/context.js';
import { fieldValidationOf } from '../request/options.js';

type Obj = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const present = (v: unknown) => v !== undefined && v !== null;

function invalid(kv: KindVersion, errors: FieldError[]): never {
  throw apiError.invalid(kv.kind, kv.group, '', errors);
}

/** ValidateSubjectAccessReviewSpec / ValidateSelfSubjectAccessReviewSpec. */
function validateSpec(spec: Obj, self: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  if (present(ra) && present(nra)) errs.push(fieldError.invalidRaw('spec.nonResourceAttributes', goNonResource(nra), 'cannot be specified in combination with resourceAttributes'));
  // Go prints the nil pointer as "null".
  if (!present(ra) && !present(nra)) errs.push(fieldError.invalid('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (!self && str(spec.user) === '' && (!Array.isArray(spec.groups) || spec.groups.length === 0)) {
    errs.push(fieldError.invalid('spec.user', str(spec.user), 'at least one of user or group must be specified'));
  }
  return errs;
}

function goNonResource(v: unknown): string {
  const o = obj(v);
  return `authorization.NonResourceAttributes{Path:${JSON.stringify(str(o.path))}, Verb:${JSON.stringify(str(o.verb))}}`;
}

function attributesOf(user: UserInfo, spec: Obj): Attributes {
  if (present(spec.resourceAttributes)) {
    const ra = obj(spec.resourceAttributes);
    return {
      user,
      verb: str(ra.verb),
      resourceRequest: true,
      apiGroup: str(ra.group),
      apiVersion: str(ra.version),
      namespace: str(ra.namespace),
      resource: str(ra.resource),
      subresource: str(ra.subresource),
      name: str(ra.name),
      path: '',
    };
  }
  const nra = obj(spec.nonResourceAttributes);
  return { user, verb: str(nra.verb), resourceRequest: false, apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', path: str(nra.path) };
}

/** The user a SubjectAccessReview asks about. */
function subjectOf(spec: Obj): UserInfo {
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(obj(spec.extra))) if (Array.isArray(v)) extra[k] = v.map(String);
  const user: UserInfo = { name: str(spec.user), groups: Array.isArray(spec.groups) ? spec.groups.map(String) : [], extra };
  if (str(spec.uid) !== '') user.uid = str(spec.uid);
  return user;
}

async function decide(authz: Authorization, attrs: Attributes): Promise<Obj> {
  try {
    const r = await authz.authorizer.authorize(attrs);
    const status: Obj = { allowed: r.decision === 'allow' };
    if (r.decision === 'deny') status.denied = true;
    if (r.reason !== '') status.reason = r.reason;
    return status;
  } catch (err) {
    return { allowed: false, evaluationError: err instanceof Error ? err.message : String(err) };
  }
}

function resourceRule(r: Rule): Obj {
  const o: Obj = { verbs: [...r.verbs] };
  if (r.apiGroups.length > 0) o.apiGroups = [...r.apiGroups];
  if (r.resources.length > 0) o.resources = [...r.resources];
  if (r.resourceNames.length > 0) o.resourceNames = [...r.resourceNames];
  return o;
}

/** An authentication.k8s.io/v1 UserInfo (SelfSubjectReview, TokenReview). */
export function userInfoOf(user: UserInfo): Obj {
  const info: Obj = { username: user.name };
  if (user.uid) info.uid = user.uid;
  if (user.groups.length > 0) info.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) info.extra = user.extra;
  return info;
}

export async function handleReview(ctx: RequestContext, kv: KindVersion, authz: Authorization): Promise<void> {
  if (ctx.info.verb !== 'create' || ctx.info.name !== '' || ctx.info.subresource !== '') throw apiError.methodNotAllowed();
  if (kv.namespaced && ctx.info.namespace === '') throw apiError.methodNotAllowed();
  const bytes = await readBody(ctx.req);
  const decoded = decodeBody(bytes, ctx.req.headers['content-type'], kv.type, {
    fieldValidation: fieldValidationOf(ctx.query, 'create'),
    defaultGVK: { group: kv.group, version: kv.version, kind: kv.kind },
  });
  ctx.warnings.push(...decoded.warnings);
  const review = decoded.object;
  const apiVersion = str(review.apiVersion);
  const kind = str(review.kind);
  if ((apiVersion !== '' && apiVersion !== apiVersionOf(kv)) || (kind !== '' && kind !== kv.kind)) {
    throw apiError.badRequest(`${kind || kv.kind} in version ${JSON.stringify(apiVersion || apiVersionOf(kv))} cannot be handled as a ${kv.kind}`);
  }
  review.apiVersion = apiVersionOf(kv);
  review.kind = kv.kind;
  const meta = obj(review.metadata);
  review.metadata = meta;
  const spec = obj(review.spec);
  switch (kv.kind) {
    case 'SelfSubjectReview':
      meta.creationTimestamp = timestamp(ctx.now);
      review.status = { userInfo: userInfoOf(ctx.user) };
      break;
    case 'SelfSubjectAccessReview': {
      const errs = validateSpec(spec, true);
      if (errs.length > 0) invalid(kv, errs);
      review.status = await decide(authz, attributesOf(ctx.user, spec));
      break;
    }
    case 'SubjectAccessReview': {
      const errs = validateSpec(spec, false);
      if (errs.length > 0) invalid(kv, errs);
      review.status = await decide(authz, attributesOf(subjectOf(spec), spec));
      break;
    }
    case 'LocalSubjectAccessReview': {
      const namespace = ctx.info.namespace;
      if (str(meta.namespace) === '') meta.namespace = namespace;
      if (meta.namespace !== namespace) throw apiError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      const errs = validateSpec(spec, false);
      if (present(spec.resourceAttributes) && str(obj(spec.resourceAttributes).namespace) !== namespace) {
        errs.push(fieldError.invalid('spec.resourceAttributes.namespace', str(obj(spec.resourceAttributes).namespace), 'must match metadata.namespace'));
      }
      if (present(spec.nonResourceAttributes)) errs.push(fieldError.invalidRaw('spec.nonResourceAttributes', goNonResource(spec.nonResourceAttributes), 'disallowed on this kind of request'));
      if (errs.length > 0) invalid(kv, errs);
      review.status = await decide(authz, attributesOf(subjectOf(spec), spec));
      break;
    }
    case 'SelfSubjectRulesReview': {
      const { rules, incomplete, evaluationError } = authz.rulesFor(ctx.user, str(spec.namespace));
      const status: Obj = {
        resourceRules: rules.filter((r) => r.resources.length > 0).map(resourceRule),
        nonResourceRules: rules.filter((r) => r.nonResourceURLs.length > 0).map((r) => ({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] })),
        incomplete,
      };
      if (evaluationError !== '') status.evaluationError = evaluationError;
      review.status = status;
      break;
    }
    default:
      throw apiError.methodNotAllowed();
  }
  // In Kubernetes' field order, whatever order the request had.
  const answer: KubeObject = { kind: review.kind, apiVersion: review.apiVersion, metadata: review.metadata };
  if (review.spec !== undefined) answer.spec = review.spec;
  answer.status = review.status;
  const body = encodeOther(answer, kv.type, ctx.format);
  writeBytes(ctx.res, 201, body.contentType, body.body, { warnings: ctx.warnings });
}
