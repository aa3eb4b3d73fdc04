// The request a resource handler serves: what was asked (verb, path, query, format), by whom, and
// the server parts that answer it. Also what every handler derives from it: the served kind and
// its store, the namespace for the store, the admission hook of a write.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KindVersion } from '../../api/schema/kind.js';
import { apiError } from '../../registry/errors.js';
import type { Registry } from '../../registry/registry.js';
import type { KubeletClient } from '../proxy/kubelet-client.js';
import type { AdmissionHook, Store } from '../../registry/store.js';
import type { AdmissionChain } from '../admission/chain.js';
import type { Authorization } from '../auth/authorization.js';
import type { ServiceAccountTokenIssuer } from '../auth/serviceaccount-token-issuer.js';
import type { TokenReviewer } from '../auth/token-reviewer.js';
import type { UserInfo } from '../auth/types.js';
import type { ResponseFormat } from '../encode.js';
import type { ComponentStatuses } from '../component-statuses.js';
import { namespaceScoped, type ResourceRequestInfo } from './request-info.js';

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
  /** Reaches the nodes' kubelets for pods/log and the proxies (absent: they answer 503). */
  kubelet?: KubeletClient;
  /** Probes the control plane's components for componentstatuses (absent: none are known). */
  componentStatuses?: ComponentStatuses;
  /** The server's log: who opened which exec, attach or port-forward (kubelite has no audit backend). */
  log?: (fields: Record<string, unknown>) => void;
}

/** The store's admission hook for this request's write of `store`'s kind. */
export function admissionOf(ctx: RequestContext, store: Store, dryRun: boolean, subresource = ctx.info.subresource): AdmissionHook | undefined {
  const served = ctx.registry.findResource(ctx.info.group, ctx.info.version, ctx.info.resource);
  const requestKind = served && served !== store.kind && served.resource === store.kind.resource ? served : undefined;
  return ctx.admission?.hook({ kind: store.kind, requestKind, subresource, namespace: ctx.info.namespace, name: ctx.info.name, user: ctx.user, dryRun, warnings: ctx.warnings });
}

/** The served kind addressed, or 404 (405) for anything the server does not serve at this path. */
export function resolveKind(ctx: RequestContext): KindVersion {
  const kv = ctx.registry.findResource(ctx.info.group, ctx.info.version, ctx.info.resource);
  if (!kv) throw apiError.unknownResource();
  // A cluster-scoped resource under /namespaces/<ns>/ does not exist.
  if (!kv.namespaced && namespaceScoped(ctx.info)) throw apiError.unknownResource();
  // A namespaced resource outside /namespaces/<ns>/ is only listed and watched (across namespaces):
  // Kubernetes registers no other route there.
  if (kv.namespaced && ctx.info.namespace === '') {
    if (ctx.info.name !== '') throw apiError.unknownResource();
    if (ctx.info.verb !== 'list' && ctx.info.verb !== 'watch') throw apiError.methodNotAllowed();
  }
  return kv;
}

/** The served kind and its store, or 404 for anything the server does not serve at this path. */
export function resolve(ctx: RequestContext): { kv: KindVersion; store: Store } {
  const kv = resolveKind(ctx);
  return { kv, store: ctx.registry.storeFor(kv) };
}

/** The namespace of the request for the store ('' for cluster-scoped kinds). */
export function namespaceOf(ctx: RequestContext, kv: KindVersion): string {
  return kv.namespaced ? ctx.info.namespace : '';
}
