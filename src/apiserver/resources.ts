// Resource requests: one handler per verb of the operation template (get, list, watch, create,
// update, patch, delete, deletecollection) and the status subresource, for every served kind and
// version. Bodies are decoded in the URL's version, defaulted, converted to the storage version,
// and answered back in the URL's version.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiVersionOf, findResource, storageVersionOf } from '../api/kinds.js';
import { DeleteOptions as DeleteOptionsType, Status } from '../api/meta/v1.js';
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { StatusError } from '../machinery/status.js';
import { fieldError } from '../machinery/validation/field-errors.js';
import { apiError } from '../registry/errors.js';
import { metaOf, str } from '../registry/meta.js';
import type { Registry } from '../registry/registry.js';
import type { Authorization } from './auth/authorization.js';
import type { UserInfo } from './auth/types.js';
import type { AdmissionChain } from './admission/chain.js';
import type { AdmissionHook } from '../registry/store.js';
import type { ServiceAccountTokenIssuer } from './auth/serviceaccount-token-issuer.js';
import { handleTokenReview, type TokenReviewer } from './token-review.js';
import { validateDeleteOptions, type Store } from '../registry/store.js';
import { CreateBodies, cutBody } from './create-bodies.js';
import { decodeBody, isJsonBody, type DecodedBody } from './decode.js';
import { encodeCachedObject, encodeList, encodeObject, encodeOther, type Body, type ResponseFormat, type TableOptions } from './encode.js';
import { readBody } from './http/body.js';
import { writeBytes } from './http/respond.js';
import { cacheFailure, filterOf, handleList } from './list.js';
import { applyObject, fieldManagerOf, isApply } from './apply.js';
import { applyPatch } from './patch.js';
import type { ResourceRequestInfo } from './request/request-info.js';
import { handleReview } from './reviews/access-reviews.js';
import { handleSubresource } from './subresources.js';
import { handleWatch } from './watch.js';
import type { CachedObject } from '../storage/cacher/types.js';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  info: ResourceRequestInfo;
  query: URLSearchParams;
  format: ResponseFormat;
  registry: Registry;
  /** The authenticated user (for admission, access reviews, managedFields). */
  user: UserInfo;
  /** The authorizer and what builds on it: access reviews, RBAC's escalation check. */
  authorization: Authorization;
  /** Warnings for the `Warning` response header. */
  warnings: string[];
  now: number;
  /** The admission chain writes go through (absent: none). */
  admission?: AdmissionChain;
  /** Issues TokenRequests (absent: serviceaccounts/token is not served). */
  serviceAccountTokens?: ServiceAccountTokenIssuer;
  /** Answers TokenReviews (absent: nothing authenticates). */
  reviewToken?: TokenReviewer;
}


/** The store's admission hook for this request's write of `store`'s kind. */
export function admissionOf(ctx: RequestContext, store: Store, dryRun: boolean, subresource = ctx.info.subresource): AdmissionHook | undefined {
  return ctx.admission?.hook({ kind: store.kind, subresource, namespace: ctx.info.namespace, name: ctx.info.name, user: ctx.user, dryRun });
}

function reply(ctx: RequestContext, code: number, body: Body): void {
  writeBytes(ctx.res, code, body.contentType, body.body, { warnings: ctx.warnings });
}

function tableOptions(ctx: RequestContext): TableOptions {
  const include = ctx.query.get('includeObject');
  return { includeObject: include === 'None' || include === 'Object' ? include : 'Metadata', now: ctx.now };
}

const OPTIONS_KIND: Record<string, string> = {
  create: 'CreateOptions',
  update: 'UpdateOptions',
  patch: 'PatchOptions',
  delete: 'DeleteOptions',
  deletecollection: 'DeleteOptions',
};

/** The meta.k8s.io options kind Kubernetes validates a request's query parameters as (for 422 bodies). */
export function optionsKindOf(verb: string): string {
  return OPTIONS_KIND[verb] ?? 'CreateOptions';
}

/** dryRun=All (the only value Kubernetes accepts), or none; anything else is a 422 on the verb's options. */
export function dryRunOf(query: URLSearchParams, verb = 'create'): boolean {
  const values = query.getAll('dryRun');
  if (values.some((v) => v !== 'All')) {
    throw apiError.invalid(optionsKindOf(verb), 'meta.k8s.io', '', [fieldError.notSupported('dryRun', values, ['All'])]);
  }
  return values.length > 0;
}

/** Kubernetes' ValidatePatchOptions: apply patches need a fieldManager, `force` is only for them. */
export function validatePatchOptions(ctx: RequestContext): void {
  const apply = /^application\/apply-patch\+(yaml|json)\b/i.test(ctx.req.headers['content-type'] ?? '');
  const errors = [];
  if (apply && (ctx.query.get('fieldManager') ?? '') === '') errors.push(fieldError.required('fieldManager', 'is required for apply patch'));
  if (!apply && ctx.query.has('force')) errors.push(fieldError.forbidden('force', 'may not be specified for non-apply patch'));
  if (errors.length > 0) throw apiError.invalid('PatchOptions', 'meta.k8s.io', '', errors);
}

/** The Go package of a group's internal types, as conversion errors name them (core.ConfigMap, apps.Deployment). */
function internalPackage(group: string): string {
  return group === '' ? 'core' : group.split('.')[0]!;
}

/** fieldValidation (default Warn); another value is a 422 on the verb's options, as Kubernetes' ValidateFieldValidation. */
export function fieldValidationOf(query: URLSearchParams, verb = 'create'): 'Strict' | 'Warn' | 'Ignore' {
  const v = query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Strict' || v === 'Warn' || v === 'Ignore') return v;
  throw apiError.invalid(optionsKindOf(verb), 'meta.k8s.io', '', [fieldError.notSupported('fieldValidation', v, ['', 'Ignore', 'Strict', 'Warn'])]);
}

/** The served kind and its store, or 404 for anything the server does not serve at this path. */
export function resolve(ctx: RequestContext): { kv: KindVersion; store: Store } {
  const kv = findResource(ctx.info.group, ctx.info.version, ctx.info.resource);
  if (!kv) throw apiError.unknownResource();
  // A cluster-scoped resource under /namespaces/<ns>/ does not exist (namespaces themselves aside).
  if (!kv.namespaced && ctx.info.namespace !== '' && kv.resource !== 'namespaces') throw apiError.unknownResource();
  // A namespaced resource outside /namespaces/<ns>/ is only listed and watched (across namespaces):
  // Kubernetes registers no other route there.
  if (kv.namespaced && ctx.info.namespace === '') {
    if (ctx.info.name !== '') throw apiError.unknownResource();
    if (ctx.info.verb !== 'list' && ctx.info.verb !== 'watch') throw apiError.methodNotAllowed();
  }
  return { kv, store: ctx.registry.storeFor(kv) };
}

/** The namespace of the request for the store ('' for cluster-scoped kinds). */
export function namespaceOf(ctx: RequestContext, kv: KindVersion): string {
  return kv.namespaced ? ctx.info.namespace : '';
}

/** Decodes a request body as an object of the served kind, checks its kind, defaults it, and converts it to the storage version. */
async function objectFromBody(ctx: RequestContext, kv: KindVersion, body: DecodedBody): Promise<KubeObject> {
  const obj = body.object;
  const apiVersion = str(obj.apiVersion);
  const kind = str(obj.kind);
  if ((apiVersion !== '' && apiVersion !== apiVersionOf(kv)) || (kind !== '' && kind !== kv.kind)) {
    throw apiError.badRequest(
      `${kind || kv.kind} in version ${JSON.stringify(apiVersion || apiVersionOf(kv))} cannot be handled as a ${kv.kind}: converting (${(apiVersion || kv.version).split('/').pop()}.${kind || kv.kind}) to (${internalPackage(kv.group)}.${kv.kind}): unknown conversion`,
    );
  }
  obj.apiVersion = apiVersionOf(kv);
  obj.kind = kv.kind;
  kv.defaults?.(obj);
  return kv.toHub ? kv.toHub(obj) : obj;
}

async function readObject(ctx: RequestContext, kv: KindVersion): Promise<KubeObject> {
  const decoded = decodeBytes(ctx, kv, await readBody(ctx.req), fieldValidationOf(ctx.query, ctx.info.verb));
  ctx.warnings.push(...decoded.warnings);
  return objectFromBody(ctx, kv, decoded);
}

function decodeBytes(ctx: RequestContext, kv: KindVersion, bytes: Buffer, fieldValidation: ReturnType<typeof fieldValidationOf>): DecodedBody {
  return decodeBody(bytes, ctx.req.headers['content-type'], kv.type, { fieldValidation, defaultGVK: { group: kv.group, version: kv.version, kind: kv.kind } });
}

/** Bodies of creates decoded before, for the next create from the same template (create-bodies.ts). */
const createBodies = new CreateBodies();
/** Larger bodies (a ConfigMap's data) are not templates: not worth keeping. */
const MAX_REMEMBERED_BODY = 16 * 1024;

/**
 * readObject for a create, through the create-body memo: the object, and the memo's key when the
 * key stands for the object (the field manager then keys its fields by it too).
 */
async function readNewObject(ctx: RequestContext, kv: KindVersion): Promise<{ object: KubeObject; contentKey: string | undefined }> {
  const bytes = await readBody(ctx.req);
  const fieldValidation = fieldValidationOf(ctx.query, ctx.info.verb);
  const cut = bytes.length <= MAX_REMEMBERED_BODY && isJsonBody(ctx.req.headers['content-type']) ? cutBody(`${apiVersionOf(kv)}/${kv.kind}\u0000${fieldValidation}`, bytes) : undefined;
  let decoded = cut === undefined ? undefined : createBodies.recall(cut);
  const known = decoded !== undefined;
  decoded ??= decodeBytes(ctx, kv, bytes, fieldValidation);
  const kept = known || (cut !== undefined && createBodies.remember(cut, bytes, decoded));
  ctx.warnings.push(...decoded.warnings);
  return { object: await objectFromBody(ctx, kv, decoded), contentKey: kept ? cut!.key : undefined };
}

/**
 * The object from the watch cache once the cache has seen the newest revision on disk (404 when
 * it is not there), or undefined when the cache cannot say (not ready, or behind for too long).
 */
async function freshCachedObject(ctx: RequestContext, store: Store, namespace: string, name: string): Promise<CachedObject | undefined> {
  try {
    await ctx.registry.cacher.waitUntilFresh();
  } catch {
    return undefined;
  }
  return store.getCached(namespace, name);
}

export async function handleResource(ctx: RequestContext): Promise<void> {
  const { info } = ctx;
  const virtual = findResource(info.group, info.version, info.resource);
  if (virtual?.createOnly) return virtual.kind === 'TokenReview' ? handleTokenReview(ctx) : handleReview(ctx, virtual, ctx.authorization);
  if (info.subresource !== '' && info.subresource !== 'status') return handleSubresource(ctx);
  const { kv, store } = resolve(ctx);
  if (info.subresource === 'status' && !kv.subresources?.status) throw apiError.unknownResource();
  const namespace = namespaceOf(ctx, kv);
  switch (info.verb) {
    case 'get': {
      const rv = ctx.query.get('resourceVersion') ?? '';
      if (rv !== '' && !/^\d+$/.test(rv)) {
        throw new StatusError(500, '', `resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
      }
      if (rv === '') {
        // A consistent read, as a consistent list: from the watch cache once it has seen the newest
        // revision on disk (its bytes served as they are, not decoded and encoded again); from
        // storage when the cache cannot answer (not ready, or not catching up in time).
        const cached = await freshCachedObject(ctx, store, namespace, info.name);
        const body = cached !== undefined ? encodeCachedObject(cached, kv, ctx.format, tableOptions(ctx)) : encodeObject(await store.get(namespace, info.name), kv, ctx.format, tableOptions(ctx));
        return reply(ctx, 200, body);
      }
      // resourceVersion=N: from the watch cache, once it is at least at N ("0": whatever it has).
      try {
        if (Number(rv) > 0) await ctx.registry.cacher.waitForRevision(Number(rv));
      } catch (err) {
        cacheFailure(err);
      }
      return reply(ctx, 200, encodeCachedObject(store.getCached(namespace, info.name), kv, ctx.format, tableOptions(ctx)));
    }
    case 'list':
      if (info.subresource !== '') throw apiError.methodNotAllowed();
      return handleList(ctx, kv, store, namespace, tableOptions(ctx));
    case 'watch':
      return handleWatch(ctx, kv, store, namespace);
    case 'create': {
      if (info.name !== '') throw apiError.methodNotAllowed();
      const dryRun = dryRunOf(ctx.query, 'create');
      const { object: obj, contentKey } = await readNewObject(ctx, kv);
      await ctx.authorization.checkWrite(ctx.user, store.kind.group, store.kind.resource, namespace, obj);
      const created = await store.create(namespace, obj, { dryRun, consumeInput: true, fieldManager: fieldManagerOf(ctx, kv), contentKey, admission: admissionOf(ctx, store, dryRun) });
      return reply(ctx, 201, encodeObject(created, kv, ctx.format, tableOptions(ctx)));
    }
    case 'update': {
      // PUT and PATCH only exist on objects, not on collections.
      if (info.name === '') throw apiError.methodNotAllowed();
      const dryRun = dryRunOf(ctx.query, 'update');
      const obj = await readObject(ctx, kv);
      await ctx.authorization.checkWrite(ctx.user, store.kind.group, store.kind.resource, namespace, obj);
      const subresource = info.subresource === 'status' ? 'status' : '';
      const result = await store.update(namespace, info.name, obj, { dryRun, subresource, fieldManager: fieldManagerOf(ctx, kv, subresource), admission: admissionOf(ctx, store, dryRun) });
      return reply(ctx, 200, encodeObject(result.object, kv, ctx.format, tableOptions(ctx)));
    }
    case 'patch': {
      if (info.name === '') throw apiError.methodNotAllowed();
      const dryRun = dryRunOf(ctx.query, 'patch');
      fieldValidationOf(ctx.query, 'patch');
      validatePatchOptions(ctx);
      if (isApply(ctx)) {
        const applied = await applyObject(ctx, kv, store, namespace, info.subresource === 'status' ? 'status' : '');
        return reply(ctx, applied.created ? 201 : 200, encodeObject(applied.object, kv, ctx.format, tableOptions(ctx)));
      }
      const bytes = await readBody(ctx.req);
      const hub = storageVersionOf(kv);
      const result = await store.guaranteedUpdate(
        namespace,
        info.name,
        (current) => {
          const served = kv.fromHub ? kv.fromHub(current) : current;
          const patched = applyPatch(ctx, kv, served, bytes);
          ctx.warnings.length = 0;
          ctx.warnings.push(...patched.warnings);
          const obj = patched.object;
          // A patch may pin the version it was made against: then a changed object is a conflict.
          const pinned = str(metaOf(obj).resourceVersion);
          if (pinned !== '' && pinned !== str(metaOf(served).resourceVersion)) throw apiError.modified(store.kind, info.name);
          kv.defaults?.(obj);
          const next = kv.toHub ? kv.toHub(obj) : obj;
          if (hub.kind !== str(next.kind)) throw apiError.internal('conversion produced another kind');
          if (store.kind.group !== 'rbac.authorization.k8s.io') return next;
          return ctx.authorization.checkWrite(ctx.user, store.kind.group, store.kind.resource, namespace, next).then(() => next);
        },
        {
          dryRun,
          subresource: info.subresource === 'status' ? 'status' : '',
          expectResourceVersion: undefined,
          fieldManager: fieldManagerOf(ctx, kv, info.subresource === 'status' ? 'status' : ''),
          admission: admissionOf(ctx, store, dryRun),
        },
      );
      return reply(ctx, 200, encodeObject(result.object, kv, ctx.format, tableOptions(ctx)));
    }
    case 'delete': {
      if (info.subresource !== '') throw apiError.methodNotAllowed();
      const opts = await deleteOptions(ctx);
      const result = await store.delete(namespace, info.name, { ...opts, admission: admissionOf(ctx, store, opts.dryRun) });
      if (!result.deleted || store.kind.resource === 'pods') {
        // Kubernetes answers with the object while it still exists (and always for pods).
        return reply(ctx, 200, encodeObject(result.object, kv, ctx.format, tableOptions(ctx)));
      }
      const m = metaOf(result.object);
      const status: KubeObject = {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: { name: str(m.name), group: kv.group || undefined, kind: kv.resource, uid: str(m.uid) },
      };
      return reply(ctx, 200, encodeOther(status, Status, ctx.format));
    }
    case 'deletecollection': {
      const opts = await deleteOptions(ctx);
      const filter = filterOf(ctx, kv);
      // Kubernetes lists (consistently), deletes each listed object, and answers with that list.
      try {
        await ctx.registry.cacher.waitUntilFresh();
      } catch (err) {
        cacheFailure(err);
      }
      const listed = store.cache.list({ prefix: store.prefix(namespace), filter });
      for (const o of listed.items) {
        try {
          await store.delete(o.namespace, o.name, { ...opts, admission: ctx.admission?.hook({ kind: store.kind, subresource: '', namespace: o.namespace, name: o.name, user: ctx.user, dryRun: opts.dryRun }) });
        } catch (err) {
          if (!(err instanceof StatusError && err.code === 404)) throw err;
        }
      }
      return reply(ctx, 200, encodeList({ items: listed.items, resourceVersion: String(listed.revision) }, kv, ctx.format, tableOptions(ctx)));
    }
    default:
      throw apiError.methodNotAllowed();
  }
}


/** DeleteOptions from the query and/or a body (kubectl sends a body), validated as Kubernetes does. */
async function deleteOptions(ctx: RequestContext) {
  const bytes = await readBody(ctx.req);
  let body: KubeObject = {};
  if (bytes.byteLength > 0) {
    body = decodeBody(bytes, ctx.req.headers['content-type'], DeleteOptionsType, { fieldValidation: 'Ignore' }).object;
  }
  const q = ctx.query;
  const num = (name: string, v: unknown): number | undefined => {
    if (v === undefined || v === null || v === '') return undefined;
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isInteger(n)) throw apiError.badRequest(`${name}: invalid integer ${JSON.stringify(v)}`);
    return n;
  };
  const gracePeriodSeconds = num('gracePeriodSeconds', q.get('gracePeriodSeconds') ?? body.gracePeriodSeconds);
  const propagationPolicy = (q.get('propagationPolicy') ?? body.propagationPolicy) as string | undefined;
  const orphanRaw = q.get('orphanDependents') ?? body.orphanDependents;
  const orphanDependents = orphanRaw === undefined || orphanRaw === null ? undefined : orphanRaw === true || orphanRaw === 'true';
  const errors = validateDeleteOptions(orphanDependents, propagationPolicy ?? undefined);
  if (errors.length > 0) throw apiError.invalid('DeleteOptions', 'meta.k8s.io', '', errors);
  const pre = (body.preconditions ?? {}) as { uid?: string; resourceVersion?: string };
  const dryRun = dryRunOf(q, 'delete') || (Array.isArray(body.dryRun) && body.dryRun.includes('All'));
  let policy = propagationPolicy as 'Orphan' | 'Background' | 'Foreground' | undefined;
  if (orphanDependents === true) policy = 'Orphan';
  else if (orphanDependents === false) policy = 'Background';
  return { gracePeriodSeconds, propagationPolicy: policy, preconditions: { uid: pre.uid ?? undefined, resourceVersion: pre.resourceVersion ?? undefined }, dryRun };
}
