// `kubelite apiserver` as a library: an HTTPS server (HTTP/2 and HTTP/1.1) for the Workload
// Resource API over a storage backend, with discovery, OpenAPI, health, version and metrics. Every
// request ends in a response (a Kubernetes Status on any failure); nothing a client sends can
// crash the process. Each request goes as in kube-apiserver's filter chain: authentication,
// impersonation, the max-in-flight limit, authorization, then the handler.
import { SNAPSHOTS_PATH, SnapshotEndpoints } from './snapshots.js';
import { decodeProtobuf } from '../machinery/codec/protobuf.js';
import { upgradeTaken } from '../machinery/http-upgrade.js';
import { auditOf, Auditor } from './audit/auditor.js';
import { AuditLogBackend, type AuditLogOptions } from './audit/log-backend.js';
import type { AuditPolicy } from './audit/policy.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { allKinds } from '../api/kinds.js';
import { componentStatuses, DEFAULT_COMPONENT_HEALTH_URLS } from './component-statuses.js';
import { StatusError } from '../machinery/status.js';
import { apiError } from '../registry/errors.js';
import { moduleOf } from '../registry/kinds/index.js';
import { Registry } from '../registry/registry.js';
import { alwaysAllow } from './auth/always-allow.js';
import { AuthenticationChain, type AuthenticationOptions } from './auth/chain.js';
import { buildAuthorization, fixedAuthorization } from './auth/authorization.js';
import type { ControllerRole } from './auth/rbac/bootstrap-policy.js';
import type { DeploymentPolicy } from './auth/rbac/reconcile.js';
import { authError } from './auth/errors.js';
import type { AuthorizationMode } from './auth/modes.js';
import { impersonate, wantsImpersonation } from './auth/impersonation.js';
import { SYSTEM_AUTHENTICATED, SYSTEM_MASTERS, type Attributes, type Authorizer, type UserInfo } from './auth/types.js';
import { bootstrapSystemObjects } from './bootstrap.js';
import { bootstrapLocalAPIServices } from './bootstrap-apiservices.js';
import { bootstrapFlowControl } from './bootstrap-apf.js';
import { DEFAULT_ADMISSION_PLUGINS, newAdmissionChain, type AdmissionPluginName } from './admission/index.js';
import type { ServiceAccountTokenIssuer } from './auth/serviceaccount-token-issuer.js';
import { registryLegacyTokenMarker, registryObjectGetter } from './auth/serviceaccount-token-lookup.js';
import { BootstrapTokenAuthenticator } from './auth/bootstrap-token.js';
import { ServiceAccountTokenAuthenticator, type TokenAuthentication } from './auth/serviceaccount-token.js';
import { TokenCache } from './auth/token-cache.js';
import { feedTokenCache } from './auth/token-cache-feed.js';
import type { VerificationKey } from '../machinery/jwt/keys.js';
import { tokenReviewer } from './auth/token-reviewer.js';
import type { ResourceStrategy } from '../registry/strategy.js';
import { openStorage, type StorageBackend } from '../storage/open.js';
import type { Storage } from '../storage/types.js';
import { Discovery } from './discovery/discovery.js';
import type { ResponseFormat } from './encode.js';
import { DEFAULT_INFLIGHT_LIMITS, InflightLimiter, type InflightLimits } from './http/inflight.js';
import { isPrettyPrint, writeBytes, writeError } from './http/respond.js';
import { ApiServerMetrics, METRICS_CONTENT_TYPE } from './metrics.js';
import { acceptable, negotiateResource, wantsAggregatedDiscovery } from './negotiate.js';
import { CustomResourceDefinitionController } from './crd/controller.js';
import { conversionWebhook } from './crd/conversion-webhook.js';
import { registryServiceResolver } from './admission/webhooks/services.js';
import type { ConversionWebhook } from '../registry/custom/index.js';
import type { OpenApiDocuments } from './openapi.js';
import { KubeletClient, type KubeletClientOptions } from './proxy/kubelet-client.js';
import { isConnection } from './proxy/index.js';
import type { OpenApiV2Endpoint } from './openapi-v2-serve.js';
import { fieldSelectorOf, parseRequestInfo, selectedName } from './request/request-info.js';
import { parseTarget, type RequestTarget } from './request/target.js';
import type { RequestContext } from './request/context.js';
import { handleResource } from './resource-router.js';
import { plainListener, tlsListener, type TlsOptions } from './tls/serve.js';
import { KUBERNETES_VERSION, versionInfo } from './version.js';
import { apiserverIdentity, identityHostname } from './peers/identity.js';
import { IdentityLeaseController } from './peers/identity-lease.js';
import { LeaseEndpointReconciler } from './peers/endpoint-reconciler.js';
import { hostname } from 'node:os';

export interface ApiServerOptions {
  storage?: StorageBackend;
  /** Calls CRDs' conversion webhooks (tests may give their own). */
  conversionWebhook?: ConversionWebhook;
  dataDir?: string;
  etcdServers?: readonly string[];
  /**
   * How far back watches and snapshot reads reach (the seed: 5 minutes and at least 1,000
   * changes); continue tokens expire when their snapshot falls out of it.
   */
  history?: { minAgeMs: number; minRevisions: number };
  /** An already opened storage (tests, `kubelite up`); `storage`/`dataDir` are then ignored. */
  storageInstance?: Storage;
  /** 0 picks a free port. */
  port?: number;
  bindAddress?: string;
  strategyFor?: (group: string, resource: string) => ResourceStrategy | undefined;
  /**
   * How requests are authenticated. Absent: no authentication at all, every request is the
   * unsecured user (in system:masters) — for in-process tests only; the command line always
   * configures it.
   */
  authentication?: AuthenticationOptions;
  /** Decides every request (resource and non-resource) after authentication; absent: AlwaysAllow. */
  authorizer?: Authorizer;
  /**
   * `--authorization-mode` (e.g. ['Node', 'RBAC']): builds the authorizers over the registry, and
   * with RBAC reconciles the default roles and bindings before the server is ready. Takes
   * precedence over `authorizer`.
   */
  authorizationModes?: readonly AuthorizationMode[];
  /** With RBAC: the controllers' roles kept in place beside the default policy (their descriptors'). */
  controllerRoles?: readonly ControllerRole[];
  /**
   * With RBAC: ClusterRoles and ClusterRoleBindings of the deployment kept as given beside the
   * default policy, in place before the server is ready (`--bootstrap-policy-file`; `kubelite up`'s
   * components' grants, so that they can start with the server rather than after it).
   */
  bootstrapPolicy?: DeploymentPolicy;
  /**
   * Serve HTTPS (h2 and http/1.1) with this certificate, asking clients for certificates signed
   * by `clientCA`. Absent: plain HTTP/1.1 — for in-process tests only; the command line always
   * gives one.
   */
  tls?: TlsOptions;
  /** --max-requests-inflight / --max-mutating-requests-inflight (400 / 200; 0: unlimited). */
  inflight?: InflightLimits;
  /**
   * Service account tokens: issued by TokenRequest with the issuer's signing key; authenticated
   * (added to `authentication`'s authenticators) when signed by one of `verificationKeys` for one
   * of the issuers, or legacy. Absent: serviceaccounts/token is not served.
   */
  serviceAccountTokens?: ServiceAccountTokenIssuer & {
    /** Every --service-account-issuer (the first is `issuer`). */
    acceptedIssuers?: readonly string[];
    /** --service-account-key-file keys; the signing key's public half is always accepted. */
    verificationKeys?: readonly VerificationKey[];
    /** How long an accepted token is remembered (kube-apiserver's --token-success-cache-ttl; default 10 s, 0: not remembered). */
    successCacheTtlMs?: number;
  };
  /**
   * The health URLs componentstatuses probes, by component name (default: the scheduler's and
   * the controller manager's default ports); the storage is reported as etcd-0 besides them.
   */
  componentHealthURLs?: Readonly<Record<string, string>>;
  /** --enable-bootstrap-token-auth: bootstrap token Secrets of kube-system authenticate (added to `authentication`'s authenticators). */
  bootstrapTokenAuth?: boolean;
  /** The admission plugins, in Kubernetes' order (default: DEFAULT_ADMISSION_PLUGINS). */
  admissionPlugins?: readonly AdmissionPluginName[];
  /**
   * The fast path of creates and served bytes (registry/fast-path/); false serves everything the
   * plain way, the same bytes more slowly. Default: on, unless KUBELITE_FAST_PATH=off.
   */
  fastPath?: boolean;
  /** How pods/log and the proxies reach kubelets (--kubelet-client-certificate, ...; proxy/kubelet-client.ts). Absent: they answer 503. */
  kubelet?: KubeletClientOptions;
  /**
   * How far a watcher may fall behind before it is cut off, as kube-apiserver drops a watcher whose
   * buffer fills: live events and bytes queued (default 10,000 and 64 MiB).
   */
  watchQueueLimits?: { events?: number; bytes?: number };
  /** Audit events of every request (--audit-policy-file with --audit-log-path; audit/). Absent: none. */
  audit?: { policy: AuditPolicy; log: AuditLogOptions };
  /**
   * How this server makes itself known to the others on the same storage (peers/): its identity
   * Lease (renewed every `identityLeaseRenewIntervalMs`, lasting `identityLeaseDurationSeconds`,
   * expired ones collected every `identityLeaseGcPeriodMs`) and, with `endpointReconciler`, its
   * address in the `kubernetes` Service's endpoints, kept by the lease endpoint reconciler.
   * Absent (in-process servers of tests): neither, and the endpoints written once at start, so that
   * such a server writes nothing of its own after it is ready; the command line always gives them.
   */
  peers?: PeerOptions;
  log?: (fields: Record<string, unknown>) => void;
}

export interface PeerOptions {
  /** The host name hashed into the identity (default: the machine's). */
  hostname?: string;
  /** --advertise-address: the address the endpoints list (default: the bound address). */
  advertiseAddress?: string;
  identityLeaseDurationSeconds?: number;
  identityLeaseRenewIntervalMs?: number;
  identityLeaseGcPeriodMs?: number;
  /** --endpoint-reconciler-type=lease: keep /registry/masterleases/<ip> and the endpoints listing the live servers. */
  endpointReconciler?: { leaseTtlMs?: number; intervalMs?: number };
}

export interface ApiServer {
  url: string;
  port: number;
  registry: Registry;
  storage: Storage;
  close(): Promise<void>;
}

const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
const OBJECT_TRANSFORMS = new Set<ResponseFormat['as']>(['', 'Table', 'PartialObjectMetadata']);
const LIST_TRANSFORMS = new Set<ResponseFormat['as']>(['', 'Table', 'PartialObjectMetadataList']);
/** The user of a server without authentication (kube-apiserver's former insecure port). */
const UNSECURED_USER: UserInfo = Object.freeze({ name: 'system:unsecured', groups: Object.freeze([SYSTEM_MASTERS, SYSTEM_AUTHENTICATED]) });
/** What answers before the server is bootstrapped: its health checks. */
const HEALTH_PATHS = /^\/(healthz|livez|readyz)(\/|$)/;
const WATCH_TRANSFORMS = new Set<ResponseFormat['as']>(['', 'Table', 'PartialObjectMetadata', 'PartialObjectMetadataList']);

/** The query of a request (empty when its URL does not parse). */
function queryOf(req: IncomingMessage): URLSearchParams {
  try {
    return new URL(req.url ?? '/', 'http://localhost').searchParams;
  } catch {
    return new URLSearchParams();
  }
}

export async function startApiServer(opts: ApiServerOptions = {}): Promise<ApiServer> {
  const log = opts.log ?? ((fields) => process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), component: 'apiserver', ...fields })}\n`));
  const storage = opts.storageInstance ?? (await openStorage({ backend: opts.storage ?? 'memory', dataDir: opts.dataDir, etcdServers: opts.etcdServers, history: opts.history, log }));
  const registry = new Registry({
    storage,
    moduleOf: (kind) => {
      const module = moduleOf(kind);
      const strategy = opts.strategyFor?.(kind.group, kind.resource);
      return strategy ? { ...module, strategy } : module;
    },
    cacher: {
      log: (fields) => log({ subsystem: 'cacher', ...fields }),
      ...(opts.watchQueueLimits?.events !== undefined ? { maxQueueEvents: opts.watchQueueLimits.events } : {}),
      ...(opts.watchQueueLimits?.bytes !== undefined ? { maxQueueBytes: opts.watchQueueLimits.bytes } : {}),
    },
    window: opts.history ? { minAgeMs: opts.history.minAgeMs, minEvents: opts.history.minRevisions } : undefined,
    fastPath: opts.fastPath,
  });
  await registry.start();
  // Discovery and OpenAPI documents (and the OpenAPI modules) are built on the first request for
  // one, not on the way to ready: tens of milliseconds and megabytes that many clients never ask for.
  let discoveryDocs: Discovery | undefined;
  const discovery = () => (discoveryDocs ??= new Discovery(registry.servedKinds()));
  let openapiDocs: Promise<{ docs: OpenApiDocuments; v2: OpenApiV2Endpoint }> | undefined;
  const openapi = () =>
    (openapiDocs ??= Promise.all([import('./openapi.js'), import('./openapi-v2-serve.js')]).then(([{ buildOpenApi }, { OpenApiV2Endpoint }]) => {
      const custom = [...registry.customResources().values()].flatMap((c) => c.served.map((kv) => ({ kv, crd: c.definition })));
      const docs = buildOpenApi(allKinds, KUBERNETES_VERSION, custom);
      return { docs, v2: new OpenApiV2Endpoint(docs.v2) };
    }));
  // Custom resources come and go: the documents are built again on the next request for one.
  registry.onKindsChanged(() => {
    discoveryDocs = undefined;
    openapiDocs = undefined;
  });
  // kube-apiserver's apiextensions controllers: CRDs served as they come (crd/controller.ts).
  const customResources = new CustomResourceDefinitionController(registry, (fields) => log({ subsystem: 'apiextensions', ...fields }), opts.conversionWebhook ?? conversionWebhook(registryServiceResolver(registry)));
  const metrics = new ApiServerMetrics(() => registry.cacher.metrics.resources.map((r) => ({ resource: r.prefix.replace(/^\/registry\//, '').replace(/\/$/, ''), terminated: r.watchersTerminatedTooSlow, eventsSent: r.eventsSent })));
  const sa = opts.serviceAccountTokens;
  const tokenCache = sa && sa.successCacheTtlMs !== 0 ? new TokenCache<TokenAuthentication | undefined>({ successTtlMs: sa.successCacheTtlMs }) : undefined;
  const tokenCacheFeed = tokenCache ? feedTokenCache(registry, tokenCache) : undefined;
  const saAuthenticator = sa
    ? new ServiceAccountTokenAuthenticator({
        issuers: sa.acceptedIssuers ?? [sa.issuer],
        keys: [{ publicKey: sa.signingKey.publicKey, alg: sa.signingKey.alg, kid: sa.signingKey.kid }, ...(sa.verificationKeys ?? [])],
        apiAudiences: sa.apiAudiences,
        getter: registryObjectGetter(registry),
        markLegacyTokenUsed: registryLegacyTokenMarker(registry),
        cache: tokenCache,
      })
    : undefined;
  const bootstrapAuthenticator = opts.bootstrapTokenAuth ? new BootstrapTokenAuthenticator(registryObjectGetter(registry)) : undefined;
  const authenticators = opts.authentication ? [...opts.authentication.authenticators, ...(bootstrapAuthenticator ? [bootstrapAuthenticator] : []), ...(saAuthenticator ? [saAuthenticator] : [])] : [];
  const authentication = opts.authentication ? new AuthenticationChain({ ...opts.authentication, authenticators }) : undefined;
  const reviewToken = tokenReviewer(authenticators, sa?.apiAudiences ?? []);
  const statuses = componentStatuses(opts.componentHealthURLs ?? DEFAULT_COMPONENT_HEALTH_URLS, storage);
  const authorization = opts.authorizationModes ? buildAuthorization(registry, opts.authorizationModes, opts.controllerRoles, opts.bootstrapPolicy) : fixedAuthorization(registry, opts.authorizer);
  const authorizer = opts.authorizationModes ? authorization.authorizer : (opts.authorizer ?? alwaysAllow);
  const admission = newAdmissionChain(registry, opts.admissionPlugins ?? DEFAULT_ADMISSION_PLUGINS, { authorizer });
  const inflight = new InflightLimiter(opts.inflight ?? DEFAULT_INFLIGHT_LIMITS);
  const snapshots = new SnapshotEndpoints(storage, (revision) => registry.cacher.waitForRevision(revision));
  const kubelet = opts.kubelet ? new KubeletClient(opts.kubelet) : undefined;
  const auditor = opts.audit
    ? new Auditor(opts.audit.policy, new AuditLogBackend(opts.audit.log), (bytes) => {
        try {
          return decodeProtobuf(bytes, (tm) => registry.findKind(tm.apiVersion, tm.kind)?.type).object;
        } catch {
          return undefined;
        }
      })
    : undefined;
  // Ready once the system namespaces and the kubernetes Service exist (kube-apiserver's
  // poststarthook/bootstrap-controller), not merely once the watch cache is.
  let bootstrapped = false;
  let endBootstrap!: () => void;
  const bootstrapEnded = new Promise<void>((resolve) => (endBootstrap = resolve));
  let serverAddress = '';

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    let labels = { verb: (req.method ?? '').toLowerCase(), group: '', resource: '' };
    let watching = false;
    const audit = auditor?.begin(req, res);
    res.on('finish', () => {
      metrics.request(labels, res.statusCode);
      if (!watching) metrics.observe(labels, (performance.now() - started) / 1000);
    });
    if (audit) {
      const complete = () => audit.complete(res.statusCode);
      res.once('finish', complete);
      res.once('close', complete);
    }
    handle(req, res, (l, w) => {
      labels = l;
      watching = w;
    })
      .catch((err) => {
        if (!(err instanceof StatusError)) log({ msg: 'request failed', method: req.method, url: req.url, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        writeError(res, err, { accept: req.headers.accept, pretty: isPrettyPrint(req, queryOf(req)) });
      })
      // an upgraded connection (exec, attach, port-forward) is no longer the response's: it ends here
      .finally(() => {
        if (audit && upgradeTaken(req)) audit.complete(101);
      });
  };

  async function handle(req: IncomingMessage, res: ServerResponse, label: (l: { verb: string; group: string; resource: string }, watch: boolean) => void): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = parseTarget(req.url ?? '/');
    // The path as Go's server hands it to Kubernetes (r.URL.Path): percent-escapes decoded, so
    // `clusterrolebindings/system%3Anode` names `system:node` as it does for kubectl and client-go.
    let pathname = url.pathname;
    if (pathname.includes('%')) {
      try {
        pathname = decodeURIComponent(pathname);
      } catch {
        throw apiError.badRequest('malformed request URL');
      }
    }
    // A request that comes before the post-start hooks are done would meet half a policy (403)
    // or no system namespace yet: it waits for them instead, so that clients started together
    // with the server (`kubelite up`'s components) need no retry. The health checks answer at once.
    if (!bootstrapped && !HEALTH_PATHS.test(pathname)) await bootstrapEnded;
    const info = parseRequestInfo(method, pathname, url.searchParams);
    const authenticated = authentication === undefined ? UNSECURED_USER : await authentication.authenticate(req);
    const user = wantsImpersonation(req) ? await impersonate(req, authenticated, authorizer) : authenticated;
    auditOf(req)?.identify(info, pathname, user, authenticated);
    const admitted = inflight.admit(info, user, res);
    if (admitted === false || (admitted !== true && !(await admitted))) {
      req.resume();
      return;
    }
    if (authorizer !== alwaysAllow) {
      const attrs: Attributes = info.isResourceRequest
        ? { user, verb: info.verb, resourceRequest: true, apiGroup: info.group, apiVersion: info.version, namespace: info.namespace, resource: info.resource, subresource: info.subresource, name: selectedName(info, url.searchParams), path: pathname, ...fieldSelectorOf(info, url.searchParams) }
        : { user, verb: info.verb, resourceRequest: false, apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', path: pathname };
      const { decision, reason } = await authorizer.authorize(attrs);
      auditOf(req)?.authorized(decision, reason);
      if (decision !== 'allow') throw authError.forbidden(attrs, reason);
    }
    if (!info.isResourceRequest) {
      if (pathname === SNAPSHOTS_PATH || pathname.startsWith(`${SNAPSHOTS_PATH}/`)) return snapshots.handle(req, res, pathname, method);
      req.resume();
      return handleNonResource(req, res, url, method);
    }
    if (!ALLOWED_METHODS.has(method)) throw apiError.methodNotAllowed();
    label({ verb: info.verb, group: info.group, resource: info.resource }, info.verb === 'watch');
    const pretty = isPrettyPrint(req, url.searchParams);
    const transforms = info.verb === 'list' || info.verb === 'deletecollection' ? LIST_TRANSFORMS : info.verb === 'watch' ? WATCH_TRANSFORMS : OBJECT_TRANSFORMS;
    const jsonOnly = registry.findResource(info.group, info.version, info.resource)?.jsonOnly === true;
    // (a connection's own errors are then JSON Statuses, as kube-apiserver's fallback writes them)
    const accept = isConnection(info) && !acceptable(req.headers.accept, pretty, transforms, jsonOnly) ? undefined : req.headers.accept;
    const ctx: RequestContext = {
      req,
      res,
      info,
      query: url.searchParams,
      format: negotiateResource(accept, pretty, transforms, info.verb === 'watch', jsonOnly),
      registry,
      user,
      authorization,
      warnings: [],
      now: Date.now(),
      admission,
      serviceAccountTokens: sa,
      reviewToken,
      componentStatuses: statuses,
      ...(kubelet ? { kubelet } : {}),
      log,
    };
    await handleResource(ctx);
  }

  function sendJson(res: ServerResponse, body: Buffer | string, contentType = 'application/json'): void {
    writeBytes(res, 200, contentType, body);
  }

  async function handleNonResource(req: IncomingMessage, res: ServerResponse, url: RequestTarget, method: string): Promise<void> {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (method !== 'GET' && method !== 'HEAD') throw apiError.methodNotAllowed();
    const accept = req.headers.accept;
    switch (path) {
      case '/version':
        return sendJson(res, `${JSON.stringify(versionInfo(), null, 2)}\n`);
      case '/healthz':
      case '/livez':
      case '/readyz': {
        const ready = path !== '/readyz' || (registry.cacher.isReady && bootstrapped);
        if (url.searchParams.has('verbose')) {
          const checks = ['ping', 'log', 'etcd', ...(path === '/readyz' ? ['informer-sync', 'poststarthook/bootstrap-controller', 'poststarthook/rbac/bootstrap-roles', 'watch-cache'] : [])];
          const body = checks.map((c) => `[${ready || c === 'ping' ? '+' : '-'}]${c} ${ready || c === 'ping' ? 'ok' : 'failed: not ready'}`).join('\n');
          return writeBytes(res, ready ? 200 : 500, 'text/plain; charset=utf-8', `${body}\n${path.slice(1)} check ${ready ? 'passed' : 'failed'}\n`);
        }
        return writeBytes(res, ready ? 200 : 500, 'text/plain; charset=utf-8', ready ? 'ok' : `${path.slice(1)} check failed`);
      }
      case '/metrics':
        void metrics.render().then((text) => writeBytes(res, 200, METRICS_CONTENT_TYPE, text), (err) => writeError(res, err));
        return;
      case '/api':
        return wantsAggregatedDiscovery(accept)
          ? sendJson(res, discovery().aggregatedCore, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')
          : sendJson(res, discovery().apiVersions(serverAddress));
      case '/apis':
        return wantsAggregatedDiscovery(accept)
          ? sendJson(res, discovery().aggregatedGroups, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')
          : sendJson(res, discovery().apiGroupList);
      case '/openapi/v2':
        return (await openapi()).v2.serve(req, res);
      case '/openapi/v3':
        return sendJson(res, (await openapi()).docs.v3Index);
    }
    if (path.startsWith('/openapi/v3/')) {
      const doc = (await openapi()).docs.v3.get(path.slice('/openapi/v3/'.length));
      if (!doc) throw apiError.unknownResource();
      res.setHeader('Etag', `"${doc.hash}"`);
      return sendJson(res, doc.body);
    }
    const parts = path.split('/').filter((p) => p !== '');
    if (parts[0] === 'api' && parts.length === 2) {
      const list = discovery().resourceList('', parts[1]!);
      if (list) return sendJson(res, list);
    }
    if (parts[0] === 'apis' && parts.length === 2) {
      const group = discovery().apiGroup(parts[1]!);
      if (group) return sendJson(res, group);
    }
    if (parts[0] === 'apis' && parts.length === 3) {
      const list = discovery().resourceList(parts[1]!, parts[2]!);
      if (list) return sendJson(res, list);
    }
    throw apiError.unknownResource();
  }

  const listener = opts.tls ? tlsListener(opts.tls, handler) : plainListener(handler);
  const address = await listener.listen(opts.port ?? 0, opts.bindAddress ?? '127.0.0.1');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  serverAddress = `${host}:${address.port}`;
  const url = `${listener.scheme}://${serverAddress}`;
  // kube-apiserver's post-start hooks, run side by side as there (their writes share storage
  // commits): bootstrap-controller (system namespaces, the kubernetes Service) and
  // rbac/bootstrap-roles — ready once the default policy is in place.
  const boundIP = address.address === '0.0.0.0' || address.family === 'IPv6' ? '127.0.0.1' : address.address;
  const advertised = { ip: opts.peers?.advertiseAddress ?? boundIP, port: address.port };
  const identityHost = opts.peers?.hostname ?? hostname();
  const identityLease = opts.peers && new IdentityLeaseController(registry, {
    id: apiserverIdentity(identityHostname(identityHost, opts.peers.advertiseAddress)),
    hostname: identityHost,
    leaseDurationSeconds: opts.peers.identityLeaseDurationSeconds,
    renewIntervalMs: opts.peers.identityLeaseRenewIntervalMs,
    gcPeriodMs: opts.peers.identityLeaseGcPeriodMs,
    log,
  });
  const endpointReconciler = opts.peers?.endpointReconciler ? new LeaseEndpointReconciler(registry, storage, { ...advertised, ...opts.peers.endpointReconciler, log }) : undefined;
  await Promise.all([
    // With the lease reconciler the endpoints are its to write (after the Service exists).
    bootstrapSystemObjects(registry, advertised, endpointReconciler === undefined).then(() => Promise.all([endpointReconciler?.start(), identityLease?.start()])),
    authorization.start(),
    bootstrapFlowControl(registry),
    bootstrapLocalAPIServices(registry),
    customResources.start(),
    tokenCacheFeed?.synced,
  ]);
  bootstrapped = true;
  endBootstrap();
  log({ msg: 'serving', url, storage: storage.backend });

  return {
    url,
    port: address.port,
    registry,
    storage,
    async close() {
      identityLease?.stop();
      await endpointReconciler?.stop().catch((err: unknown) => log({ msg: 'removing this server from the kubernetes endpoints', error: (err as Error).message }));
      await listener.close();
      kubelet?.close();
      auditor?.close();
      authorization.stop();
      tokenCacheFeed?.stop();
      customResources.stop();
      await registry.stop();
      if (!opts.storageInstance) await storage.close();
    },
  };
}
