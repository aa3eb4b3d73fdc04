// Routes a resource request to its handler: the create-only reviews (TokenReview, the access
// reviews), the subresources other than status, and the verbs of the operation template (get,
// list, watch, create, update, patch, delete, deletecollection) on an object, a collection or an
// object's status, for every served kind and version. Routing only: what a handler needs from
// the request lives in request/, the verbs in handlers/.
import type { KindVersion } from '../api/schema/kind.js';
import { METRICS_GROUP } from '../api/metrics/kinds.js';
import { handleComputed } from './handlers/computed.js';
import { apiError } from '../registry/errors.js';
import { StatusError } from '../machinery/status.js';
import { handleCreate } from './handlers/create.js';
import { handleDeleteCollection } from './handlers/delete-collection.js';
import { handleDelete } from './handlers/delete.js';
import { handleGet } from './handlers/get.js';
import { handleList } from './handlers/list.js';
import { handlePatch } from './handlers/patch.js';
import { handleUpdate } from './handlers/update.js';
import { handleWatch } from './handlers/watch.js';
import { namespaceOf, resolve, type RequestContext } from './request/context.js';
import { requestTimeoutMs } from './request/query-params.js';
import { handleReview } from './reviews/access-reviews.js';
import { handleResourceMetrics } from './resource-metrics.js';
import { handleSubresource } from './subresources.js';
import { handleLegacyProxy } from './proxy/index.js';
import { handleTokenReview } from './token-review.js';

/**
 * A POST to a resource that is another's action (core/v1 bindings: pods/<name>/binding): served
 * as that subresource, for the object the request names.
 */
function handleActsOn(ctx: RequestContext, kv: KindVersion): Promise<void> {
  const { info } = ctx;
  if (info.name !== '' || info.subresource !== '') throw apiError.unknownResource();
  if (info.verb !== 'create' || (kv.namespaced && info.namespace === '')) throw apiError.methodNotAllowed();
  ctx.info = { ...info, resource: kv.actsOn!.resource, subresource: kv.actsOn!.subresource };
  return handleSubresource(ctx);
}

/**
 * What Kubernetes' CRD handler answers before serving a custom resource: the version's
 * deprecation warning, no creates while the CRD is being deleted, no protobuf bodies.
 */
function checkCustomResourceRequest(ctx: RequestContext, kv: KindVersion): void {
  const { info } = ctx;
  if (kv.custom!.deprecationWarning) ctx.warnings.push(kv.custom!.deprecationWarning);
  if (info.verb === 'create' && ctx.registry.customResources().get(kv.custom!.crd)?.terminating) {
    throw new StatusError(405, 'MethodNotAllowed', `${info.verb} not allowed while custom resource definition is terminating`, {
      details: { group: info.group, kind: info.resource },
    });
  }
  refuseProtobufBody(ctx);
  const contentType = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (info.verb === 'patch' && contentType === 'application/strategic-merge-patch+json') {
    throw StatusError.unsupportedMediaType(`${UNKNOWN_FORMAT}application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`);
  }
}

const UNKNOWN_FORMAT = 'the body of the request was in an unknown format - accepted media types include: ';

/** A create or update of a kind served in JSON and YAML only, with a protobuf body: 415. */
function refuseProtobufBody(ctx: RequestContext): void {
  const contentType = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if ((ctx.info.verb === 'create' || ctx.info.verb === 'update') && contentType === 'application/vnd.kubernetes.protobuf') {
    throw StatusError.unsupportedMediaType(`${UNKNOWN_FORMAT}application/json, application/yaml`);
  }
}

export async function handleResource(ctx: RequestContext): Promise<void> {
  const { info } = ctx;
  const virtual = ctx.registry.findResource(info.group, info.version, info.resource);
  if (virtual?.custom) checkCustomResourceRequest(ctx, virtual);
  else if (virtual?.jsonOnly) refuseProtobufBody(ctx);
  if (virtual?.actsOn) return handleActsOn(ctx, virtual);
  if (info.verb === 'proxy') return handleLegacyProxy(ctx);
  // Computed kinds: the metrics of the simulated nodes' usage model, and component statuses.
  if (virtual?.computed) return virtual.group === METRICS_GROUP ? handleResourceMetrics(ctx) : handleComputed(ctx, virtual);
  if (virtual?.createOnly) return virtual.kind === 'TokenReview' ? handleTokenReview(ctx) : handleReview(ctx, virtual, ctx.authorization);
  if (info.subresource !== '' && info.subresource !== 'status') return handleSubresource(ctx);
  const { kv, store } = resolve(ctx);
  if (info.subresource === 'status' && !kv.subresources?.status) throw apiError.unknownResource();
  const namespace = namespaceOf(ctx, kv);
  // kube-apiserver's request-deadline filter refuses a malformed `timeout` on every request that is not long-running.
  if (info.verb !== 'watch') requestTimeoutMs(ctx.query);
  switch (info.verb) {
    case 'get':
      return handleGet(ctx, kv, store, namespace);
    case 'list':
      if (info.subresource !== '') throw apiError.methodNotAllowed();
      return handleList(ctx, kv, store, namespace);
    case 'watch':
      return handleWatch(ctx, kv, store, namespace);
    case 'create':
      return handleCreate(ctx, kv, store, namespace);
    case 'update':
      return handleUpdate(ctx, kv, store, namespace);
    case 'patch':
      return handlePatch(ctx, kv, store, namespace);
    case 'delete':
      return handleDelete(ctx, kv, store, namespace);
    case 'deletecollection':
      return handleDeleteCollection(ctx, kv, store, namespace);
    default:
      throw apiError.methodNotAllowed();
  }
}
