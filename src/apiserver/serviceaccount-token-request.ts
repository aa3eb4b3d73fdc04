// POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token: an authentication.k8s.io/v1
// TokenRequest answered with a signed, bound service account token (Kubernetes'
// registry/core/serviceaccount/storage/token.go): audiences default to the API audiences,
// expirationSeconds to 3600 (at least 600), optionally bound to a Pod (and so its Node), a Secret
// or a Node of the namespace, whose uid must match when given.
import { setDefaultsTokenRequest, TokenRequest } from '../api/authentication/tokenrequest-tokenreview.js';
import { nameOf, namespaceOf, uidOf } from '../api/meta/object.js';
import type { KubeObject } from '../api/schema/kind.js';
import { EXPIRATION_EXTENSION_SECONDS, WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS, boundClaims, signToken, type ObjectRef } from '../machinery/jwt/tokens.js';
import { fieldError, type FieldError } from '../machinery/validation/field-errors.js';
import { apiError } from '../registry/errors.js';
import { str, timestamp } from '../registry/meta.js';
import { registryObjectGetter } from './auth/serviceaccount-token-lookup.js';
import { decodeBody } from './decode.js';
import { encodeOther } from './encode.js';
import { readBody } from './http/body.js';
import { writeBytes } from './http/respond.js';
import { resolve, type RequestContext } from './request/context.js';
import { dryRunOf, fieldValidationOf } from './request/options.js';

const GROUP = 'authentication.k8s.io';
const MIN_EXPIRATION_SECONDS = 10 * 60;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

/** Kubernetes' ValidateTokenRequest. */
export function validateTokenRequest(tr: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const exp = ((tr.spec ?? {}) as KubeObject).expirationSeconds;
  if (typeof exp !== 'number' || exp < MIN_EXPIRATION_SECONDS) {
    errors.push(fieldError.invalid('spec.expirationSeconds', exp, 'may not specify a duration less than 10 minutes'));
  } else if (exp > MAX_EXPIRATION_SECONDS) {
    errors.push(fieldError.invalid('spec.expirationSeconds', exp, 'may not specify a duration larger than 2^32 seconds'));
  }
  return errors;
}

/** Go's schema.GroupVersionKind String(): `/v1, Kind=Pod`, `apps/v1, Kind=Deployment`. */
function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return `${group}/${version}, Kind=${kind}`;
}

export async function handleTokenRequest(ctx: RequestContext): Promise<void> {
  if (ctx.info.verb !== 'create') throw apiError.methodNotAllowed();
  const issuer = ctx.serviceAccountTokens;
  if (!issuer) throw apiError.unknownResource();
  const { store } = resolve(ctx);
  const namespace = ctx.info.namespace;
  const name = ctx.info.name;
  const dryRun = dryRunOf(ctx.query, 'create');
  const decoded = decodeBody(await readBody(ctx.req), ctx.req.headers['content-type'], TokenRequest, {
    fieldValidation: fieldValidationOf(ctx.query, 'create'),
    defaultGVK: { group: GROUP, version: 'v1', kind: 'TokenRequest' },
  });
  ctx.warnings.push(...decoded.warnings);
  const req = decoded.object;
  setDefaultsTokenRequest(req);
  const requestedName = nameOf(req);
  if (requestedName !== '' && requestedName !== name) {
    throw apiError.invalid('TokenRequest', GROUP, name, [fieldError.invalid('metadata.name', requestedName, 'must match the service account name if specified')]);
  }
  const requestedNamespace = namespaceOf(req);
  if (requestedNamespace !== '' && requestedNamespace !== namespace) {
    throw apiError.invalid('TokenRequest', GROUP, name, [fieldError.invalid('metadata.namespace', requestedNamespace, 'must match the service account namespace if specified')]);
  }
  // Admission sees the request as a create of serviceaccounts/token (mutating before the service
  // account is read, validating once the request is complete), as the handler and TokenREST order it.
  const admission = {
    operation: 'CREATE' as const, kind: store.kind, group: '', resource: 'serviceaccounts', subresource: 'token',
    namespace, name, object: req, user: ctx.user, dryRun,
  };
  await ctx.admission?.admit(admission);
  const sa = await store.get(namespace, name);
  const spec = req.spec as KubeObject;
  if (!Array.isArray(spec.audiences) || spec.audiences.length === 0) spec.audiences = [...issuer.apiAudiences];
  const now = Date.now();
  req.apiVersion = `${GROUP}/v1`;
  req.kind = 'TokenRequest';
  req.metadata = { name: nameOf(sa), namespace: namespaceOf(sa), creationTimestamp: timestamp(now) };
  delete req.status;
  const errors = validateTokenRequest(req);
  if (errors.length > 0) throw apiError.invalid('TokenRequest', GROUP, name, errors);
  await ctx.admission?.validate(admission);

  const objects = registryObjectGetter(ctx.registry);
  let pod: ObjectRef | undefined;
  let secret: ObjectRef | undefined;
  let node: ObjectRef | undefined;
  const ref = spec.boundObjectRef as KubeObject | undefined;
  if (ref) {
    const apiVersion = str(ref.apiVersion);
    const kind = str(ref.kind);
    const refName = str(ref.name);
    const core = apiVersion === 'v1' || apiVersion === '';
    const lookup = async (resource: 'pods' | 'secrets' | 'nodes') => {
      const found = await objects.get(resource, resource === 'nodes' ? '' : namespace, refName);
      if (!found) throw apiError.notFound({ group: '', resource }, refName);
      return found;
    };
    let uid: string;
    if (core && kind === 'Pod') {
      const p = await lookup('pods');
      const podSpec = (p.spec ?? {}) as KubeObject;
      if (str(podSpec.serviceAccountName) !== name) {
        throw apiError.badRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`);
      }
      uid = uidOf(p);
      pod = { name: refName, uid };
      const nodeName = str(podSpec.nodeName);
      if (nodeName !== '') {
        const n = await objects.get('nodes', '', nodeName);
        if (!n) throw apiError.notFound({ group: '', resource: 'nodes' }, nodeName);
        node = { name: nodeName, uid: uidOf(n) };
      }
    } else if (core && kind === 'Secret') {
      const s = await lookup('secrets');
      uid = uidOf(s);
      secret = { name: refName, uid };
    } else if (core && kind === 'Node') {
      const n = await lookup('nodes');
      uid = uidOf(n);
      node = { name: refName, uid };
    } else {
      throw apiError.badRequest(`cannot bind token to object of type ${gvkString(apiVersion, kind)}`);
    }
    if (str(ref.uid) !== '' && str(ref.uid) !== uid) {
      throw apiError.conflict({ group: '', resource: kind }, refName, `the UID in the bound object reference (${str(ref.uid)}) does not match the UID in record. The object might have been deleted and then recreated`);
    }
  }

  const max = issuer.maxExpirationSeconds ?? 0;
  if (max > 0 && (spec.expirationSeconds as number) > max) {
    ctx.warnings.push(`requested expiration of ${String(spec.expirationSeconds)} seconds shortened to ${max} seconds`);
    spec.expirationSeconds = max;
  }
  const requested = spec.expirationSeconds as number;
  // The projected volume's tokens: valid a year, warned about after the 3607 s asked for (only for
  // pod-bound tokens for the API server's own audiences).
  const audiences = spec.audiences as string[];
  let exp = requested;
  let warnAfter = 0;
  if ((issuer.extendExpiration ?? true) && pod && requested === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS && audiences.every((a) => issuer.apiAudiences.includes(a))) {
    warnAfter = requested;
    exp = EXPIRATION_EXTENSION_SECONDS;
  }
  const nowSeconds = Math.floor(now / 1000);
  const claims = boundClaims({
    issuer: issuer.issuer,
    serviceAccount: { namespace, name, uid: uidOf(sa) },
    audiences,
    expirationSeconds: exp,
    warnAfterSeconds: warnAfter,
    pod,
    secret,
    node,
    now: nowSeconds,
  });
  const token = await signToken(claims, issuer.signingKey);
  req.status = { token, expirationTimestamp: timestamp((nowSeconds + requested) * 1000) };
  const body = encodeOther(req, TokenRequest, ctx.format);
  writeBytes(ctx.res, 201, body.contentType, body.body, { warnings: ctx.warnings });
}
