// The HTTP(S) Clientset: one connection pool (keep-alive Agent), one token bucket and one
// content-type memory per client, shared by every ResourceClient it hands out.
//
// - Bodies in protobuf (the default, as kube-controller-manager) or JSON; a resource whose
//   server answers 406/415 to protobuf is remembered and spoken to in JSON from then on.
//   Patches, DeleteOptions and subresource POST bodies (binding, eviction, rollback) are JSON.
// - Non-2xx answers throw ApiStatusError (ClientStatusError) carrying the server's Status.
// - Reads (GET, list, watch start) are retried with exponential back-off on connection errors;
//   every verb is retried on 429/503 with Retry-After (the server did not act on it).
// - Watches are async iterables of events decoded as they arrive (JSON lines or protobuf frames).
// - delete resolves with the object while it still exists (finalizers, or a pod's graceful
//   deletion: the answer is the object with a deletionTimestamp), undefined once it is gone.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { createSecureContext, type ConnectionOptions, type DetailedPeerCertificate, type SecureContext, type SecureContextOptions, type TLSSocket } from 'node:tls';
import { findKind, findResource } from '../api/kinds.js';
import { Scale } from '../api/autoscaling/v1.js';
import { TokenRequest } from '../api/authentication/tokenrequest-tokenreview.js';
import { Status } from '../api/meta/v1.js';
import type { StructType } from '../api/schema/dsl.js';
import { JsonWatchDecoder, WatchFrameDecoder, decodeProtobuf, decodeWatchFrame, encodeProtobuf, type ProtobufDecodeOptions, type TypeMeta } from '../machinery/codec/index.js';
import { realClock, type Clock } from './clock.js';
import { RestDiscoveryClient } from './discovery.js';
import { ClientStatusError } from './errors.js';
import type { Impersonation, RestConfig } from './kubeconfig.js';
import { QueueWatch } from './queue-watch.js';
import { TokenBucket } from './rate-limit.js';
import type {
  Clientset,
  DeleteOptions,
  KubeObject,
  ListOptions,
  ObjectList,
  PatchType,
  ResourceClient,
  ResourceRef,
  Watch,
  WatchEventType,
  WatchOptions,
  WriteOptions,
} from './types.js';

export const KUBERNETES_CLIENT_VERSION = 'v1.33.0';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const JSON_TYPE = 'application/json';

export interface RestClientOptions {
  config: RestConfig;
  /** `program/version (os/arch) kubernetes/commit`; the program names the default field manager. */
  userAgent?: string;
  /** Body and preferred answer format (kube-controller-manager's --kube-api-content-type). */
  contentType?: typeof PROTOBUF | typeof JSON_TYPE | string;
  /** --kube-api-qps / --kube-api-burst (20 / 30); qps ≤ 0: unlimited. */
  qps?: number;
  burst?: number;
  /** A token bucket shared with other clients (instead of one of its own from qps/burst). */
  limiter?: TokenBucket;
  /** Connections at most (default unlimited); a simulated kubelet's own client keeps it small. */
  maxSockets?: number;
  /**
   * A connection pool (newAgent) shared with other clients of the same server and TLS settings
   * that differ in their bearer token only, as client-go's transport cache shares one; its owner
   * destroys it. Default: a pool of this client's own.
   */
  agent?: http.Agent;
  clock?: Clock;
  /** Per-request timeout for non-watch requests (default 60 s). */
  timeoutMs?: number;
  /** Retries of a read after a connection error (default 5; back-off 100 ms doubling to 5 s). */
  maxRetries?: number;
  log?: (fields: Record<string, unknown>) => void;
}

/** Request counters for /metrics (rest_client_requests_total, rest_client_request_duration_seconds). */
export interface RestClientMetrics {
  /** `${code} ${method}` → count ('<error>' when no answer came). */
  requests: Map<string, number>;
  latencyMsSum: number;
  latencyCount: number;
  retries: number;
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: Buffer;
  contentType?: string;
  accept: string;
  /** Safe to resend after a connection error. */
  idempotent: boolean;
}

const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET']);

function isConnectionError(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code && TRANSIENT_CODES.has(code)) return true;
  const msg = e instanceof Error ? e.message : '';
  return /socket hang up|ECONNRESET|timed out/.test(msg);
}

function schemaFor(tm: TypeMeta): StructType | undefined {
  if (tm.kind === 'Status') return Status;
  if (tm.kind === 'Scale') return Scale;
  // The body of serviceaccounts/<name>/token, not a resource of its own.
  if (tm.kind === 'TokenRequest' && tm.apiVersion === 'authentication.k8s.io/v1') return TokenRequest;
  const kv = findKind(tm.apiVersion, tm.kind);
  if (kv) return kv.type;
  if (tm.kind.endsWith('List')) return findKind(tm.apiVersion, tm.kind.slice(0, -4))?.list;
  return undefined;
}

/** The program name of a user agent (`kubelite-controller-manager/v1.33.0 (...)` → `kubelite-controller-manager`). */
export function programName(userAgent: string): string {
  return userAgent.split('/')[0]!.split(' ')[0]!;
}

/**
 * Node's TLS client asks for getPeerCertificate(true) at every handshake — the whole chain as
 * objects, with three fingerprints and the raw bytes of each certificate, ~1 ms — only to hand it
 * to checkServerIdentity, which reads the subject's CN and the subjectaltname. Those two come from
 * the X509Certificate instead (same formats); the chain itself is verified by OpenSSL against the
 * CA before, as always.
 */
function lightPeerCertificate(socket: TLSSocket): void {
  const full = socket.getPeerCertificate.bind(socket);
  socket.getPeerCertificate = ((detailed?: boolean) => {
    const x = detailed === true ? socket.getPeerX509Certificate() : undefined;
    if (x === undefined) return full(detailed as true);
    const cn = x.subject.split('\n').filter((line) => line.startsWith('CN=')).map((line) => line.slice(3));
    return { subject: cn.length === 0 ? {} : { CN: cn.length === 1 ? cn[0] : cn }, subjectaltname: x.subjectAltName } as unknown as DetailedPeerCertificate;
  }) as TLSSocket['getPeerCertificate'];
}

/** The Impersonate-* headers of an impersonation (client-go's): one header per group and per extra value. */
export function impersonationHeaders(who: Impersonation | undefined): http.OutgoingHttpHeaders {
  if (who === undefined) return {};
  const h: http.OutgoingHttpHeaders = { 'Impersonate-User': who.userName };
  if (who.groups !== undefined && who.groups.length > 0) h['Impersonate-Group'] = [...who.groups];
  if (who.uid !== undefined && who.uid !== '') h['Impersonate-Uid'] = who.uid;
  // A key may hold characters a header name cannot (client-go escapes them; the server unescapes).
  for (const [key, values] of Object.entries(who.extra ?? {})) if (values.length > 0) h[`Impersonate-Extra-${encodeURIComponent(key)}`] = [...values];
  return h;
}

/**
 * An HTTPS agent that makes its TLS context (CA store, client certificate and key) once, at its
 * first connection, where https.Agent makes one per connection: OpenSSL 3 takes ~1.5 ms a context,
 * which a client that opens many connections (and the 1,000 clients of 1,000 simulated kubelets)
 * would pay at every one.
 */
class ReusingContextAgent extends https.Agent {
  private context: SecureContext | undefined;

  constructor(
    private readonly tls: SecureContextOptions,
    opts: https.AgentOptions,
  ) {
    super({ ...opts, ...tls });
  }

  override createConnection(options: ConnectionOptions, callback?: (err: Error | null, socket: Socket) => void): Socket {
    this.context ??= createSecureContext(this.tls);
    const create = https.Agent.prototype.createConnection as unknown as (this: https.Agent, o: ConnectionOptions, cb?: (err: Error | null, socket: Socket) => void) => Socket;
    const socket = create.call(this, { ...options, secureContext: this.context }, callback);
    lightPeerCertificate(socket as TLSSocket);
    return socket;
  }
}

/**
 * Drops metadata.managedFields from a JSON answer just parsed (nobody else holds it), and from the
 * items of a list: what skipManagedFields asks of JSON, which cannot skip them while parsing.
 */
function dropManagedFields(obj: KubeObject): void {
  delete (obj.metadata as Record<string, unknown> | undefined)?.managedFields;
  if (Array.isArray(obj.items)) for (const item of obj.items as KubeObject[]) delete (item?.metadata as Record<string, unknown> | undefined)?.managedFields;
}

/** A keep-alive connection pool to `config`'s server with its TLS settings (CA, client certificate). */
export function newAgent(config: RestConfig, maxSockets?: number): http.Agent {
  if (new URL(config.server).protocol !== 'https:') return new http.Agent({ keepAlive: true, ...(maxSockets !== undefined ? { maxSockets } : {}) });
  const tls: SecureContextOptions = {};
  if (config.ca) tls.ca = config.ca;
  if (config.clientCert) tls.cert = config.clientCert;
  if (config.clientKey) tls.key = config.clientKey;
  return new ReusingContextAgent(tls, {
    keepAlive: true,
    ...(maxSockets !== undefined ? { maxSockets } : {}),
    rejectUnauthorized: !config.insecureSkipTlsVerify,
    servername: config.serverName,
  });
}

export class RestClientset implements Clientset {
  readonly config: RestConfig;
  readonly userAgent: string;
  readonly fieldManager: string;
  readonly contentType: string;
  readonly limiter: TokenBucket;
  readonly metrics: RestClientMetrics;
  private readonly agent: http.Agent;
  /** Whether close() ends the connections (a client made by impersonating() borrows its parent's). */
  private readonly ownsAgent: boolean;
  /** The Impersonate-* headers of every request (none: {}). */
  private readonly impersonationHeaders: http.OutgoingHttpHeaders;
  private readonly base: URL;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly log: (fields: Record<string, unknown>) => void;
  /** Resources (group/resource) whose server refused protobuf. */
  private readonly jsonOnly: Set<string>;
  private readonly clients = new Map<string, RestResourceClient>();
  private closed = false;
  private discoveryClient: RestDiscoveryClient | undefined;

  /**
   * `shared`: what the client this one is made from (impersonating()) lends it: its connections,
   * limiter, metrics, protobuf memory and parsed server URL, and the config this one acts with
   * (`opts` stay the parent's). A simulated node's client is one of these: it costs little more
   * than its Impersonate-* headers.
   */
  constructor(
    private readonly opts: RestClientOptions,
    shared?: { agent: http.Agent; limiter: TokenBucket; metrics: RestClientMetrics; jsonOnly: Set<string>; base: URL; fieldManager: string; config: RestConfig },
  ) {
    this.config = shared?.config ?? opts.config;
    this.impersonationHeaders = impersonationHeaders(this.config.impersonate);
    this.metrics = shared?.metrics ?? { requests: new Map(), latencyMsSum: 0, latencyCount: 0, retries: 0 };
    this.jsonOnly = shared?.jsonOnly ?? new Set();
    this.userAgent = opts.userAgent ?? `kubelite/${KUBERNETES_CLIENT_VERSION} (${process.platform}/${process.arch}) kubernetes/kubelite`;
    this.fieldManager = shared?.fieldManager ?? programName(this.userAgent);
    this.contentType = opts.contentType ?? PROTOBUF;
    this.clock = opts.clock ?? realClock;
    this.limiter = shared?.limiter ?? opts.limiter ?? new TokenBucket({ qps: opts.qps ?? 20, burst: opts.burst ?? 30, clock: this.clock });
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.maxRetries = opts.maxRetries ?? 5;
    this.log = opts.log ?? (() => {});
    this.base = shared?.base ?? new URL(this.config.server);
    this.ownsAgent = shared === undefined && opts.agent === undefined;
    this.agent = shared?.agent ?? opts.agent ?? newAgent(this.config, opts.maxSockets);
  }

  resource(ref: ResourceRef): ResourceClient {
    return this.client(ref, false);
  }

  /** A client whose get/list/watch answer PartialObjectMetadata (the metadata-only informers). */
  metadataResource(ref: ResourceRef): ResourceClient {
    return this.client(ref, true);
  }

  private client(ref: ResourceRef, metadataOnly: boolean): RestResourceClient {
    const k = `${ref.group}/${ref.version}/${ref.resource}${metadataOnly ? '#meta' : ''}`;
    let c = this.clients.get(k);
    if (!c || (ref.namespaced !== undefined && c.ref.namespaced !== ref.namespaced) || (ref.kind !== undefined && c.ref.kind !== ref.kind)) {
      this.clients.set(k, (c = new RestResourceClient(this, plainRef(ref), metadataOnly)));
    }
    return c;
  }

  /** The server's discovery, read with this client's connection pool, credentials and rate limiter. */
  discovery(): RestDiscoveryClient {
    return (this.discoveryClient ??= new RestDiscoveryClient(async (path, accept) => {
      const res = await this.send({ method: 'GET', path, accept, idempotent: true });
      return { status: res.status, contentType: String(res.headers['content-type'] ?? ''), body: res.body.toString('utf8') };
    }));
  }

  /**
   * A client acting as `who` (Impersonate-* headers) over this client's connections, credentials,
   * rate limiter and metrics: many identities cost one connection pool. Closing it stops its own
   * requests only; the connections close with this client.
   */
  impersonating(who: Impersonation): RestClientset {
    const shared = { agent: this.agent, limiter: this.limiter, metrics: this.metrics, jsonOnly: this.jsonOnly, base: this.base, fieldManager: this.fieldManager };
    return new RestClientset(this.opts, { ...shared, config: { ...this.config, impersonate: who } });
  }

  /** Closes idle keep-alive connections (open watches end when closed). */
  close(): void {
    this.closed = true;
    if (this.ownsAgent) this.agent.destroy();
  }

  /** @internal Protobuf only for compiled kinds: a custom resource has no schema to encode with (nor does its server speak protobuf for it). */
  usesProtobuf(ref: ResourceRef): boolean {
    return this.contentType.startsWith(PROTOBUF) && !this.jsonOnly.has(`${ref.group}/${ref.resource}`) && findResource(ref.group, ref.version, ref.resource) !== undefined;
  }

  /** @internal */
  refuseProtobuf(ref: ResourceRef): void {
    if (!this.jsonOnly.has(`${ref.group}/${ref.resource}`)) {
      this.jsonOnly.add(`${ref.group}/${ref.resource}`);
      this.log({ msg: 'server refused protobuf; using JSON', group: ref.group, resource: ref.resource });
    }
  }

  private url(spec: RequestSpec): URL {
    const u = new URL(this.base.toString());
    u.pathname = `${this.base.pathname === '/' ? '' : this.base.pathname}${spec.path}`;
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined && v !== '') u.searchParams.set(k, String(v));
    return u;
  }

  private headers(spec: RequestSpec): http.OutgoingHttpHeaders {
    const h: http.OutgoingHttpHeaders = { Accept: spec.accept, 'User-Agent': this.userAgent, ...this.impersonationHeaders };
    if (spec.body) {
      h['Content-Type'] = spec.contentType ?? JSON_TYPE;
      h['Content-Length'] = spec.body.length;
    }
    const token = this.config.tokenSource?.() ?? this.config.token;
    if (token) h.Authorization = `Bearer ${token}`;
    else if (this.config.username !== undefined) h.Authorization = `Basic ${Buffer.from(`${this.config.username}:${this.config.password ?? ''}`).toString('base64')}`;
    return h;
  }

  private count(key: string, started: number): void {
    this.metrics.requests.set(key, (this.metrics.requests.get(key) ?? 0) + 1);
    this.metrics.latencyMsSum += performance.now() - started;
    this.metrics.latencyCount++;
  }

  private once(spec: RequestSpec): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = (this.base.protocol === 'https:' ? https : http).request(this.url(spec), { method: spec.method, agent: this.agent, headers: this.headers(spec), timeout: this.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          this.count(`${res.statusCode ?? 0} ${spec.method}`, started);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(Object.assign(new Error(`request timed out after ${this.timeoutMs} ms`), { code: 'ETIMEDOUT' })));
      req.on('error', (e) => {
        this.count(`<error> ${spec.method}`, started);
        reject(e);
      });
      req.end(spec.body);
    });
  }

  /** Sends a request (rate limited, retried as the header says) and returns the raw answer. */
  async send(spec: RequestSpec): Promise<RawResponse> {
    let attempt = 0;
    for (;;) {
      if (this.closed) throw new Error('client closed');
      await this.limiter.wait();
      let res: RawResponse;
      try {
        res = await this.once(spec);
      } catch (e) {
        if (spec.idempotent && isConnectionError(e) && attempt < this.maxRetries) {
          const delay = Math.min(5000, 100 * 2 ** attempt++);
          this.metrics.retries++;
          this.log({ msg: 'request failed; retrying', method: spec.method, path: spec.path, error: (e as Error).message, retryInMs: delay, attempt });
          await this.clock.sleep(delay);
          continue;
        }
        throw e;
      }
      const retryAfter = Number(res.headers['retry-after']);
      if ((res.status === 429 || res.status === 503 || (res.status >= 500 && Number.isFinite(retryAfter) && retryAfter > 0)) && res.headers['retry-after'] !== undefined && attempt < 10) {
        attempt++;
        this.metrics.retries++;
        await this.clock.sleep(Math.min(Number.isFinite(retryAfter) ? retryAfter * 1000 : 1000, 10_000));
        continue;
      }
      return res;
    }
  }

  /** Decodes an answer's body (protobuf or JSON by its Content-Type). */
  decode(res: { headers: http.IncomingHttpHeaders; body: Buffer }, opts: ProtobufDecodeOptions = {}): KubeObject {
    const ct = String(res.headers['content-type'] ?? '');
    if (res.body.length === 0) return {};
    // No size limit: the codec's default (3 MiB) guards the API server against request bodies,
    // while an answer (a list of 10,000 pods) may be as large as the server chose to send.
    if (ct.startsWith(PROTOBUF)) return decodeProtobuf(res.body, schemaFor, { maxBytes: Infinity, skipManagedFields: opts.skipManagedFields }).object as KubeObject;
    const obj = JSON.parse(res.body.toString('utf8')) as KubeObject;
    if (opts.skipManagedFields) dropManagedFields(obj);
    return obj;
  }

  /** Throws the answer's Status when it is not 2xx. */
  check(res: RawResponse): RawResponse {
    if (res.status >= 200 && res.status < 300) return res;
    let status: KubeObject;
    try {
      status = this.decode(res);
      if (status.kind !== 'Status') throw new Error('not a Status');
    } catch {
      const text = res.body.toString('utf8').trim().slice(0, 500);
      status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: text || `the server responded with status ${res.status}`, code: res.status };
    }
    throw new ClientStatusError(status, res.status);
  }

  /** Opens a streaming GET (watch); resolves once the answer's headers arrived. */
  async stream(spec: RequestSpec): Promise<{ res: http.IncomingMessage; req: http.ClientRequest }> {
    let attempt = 0;
    for (;;) {
      if (this.closed) throw new Error('client closed');
      await this.limiter.wait();
      try {
        return await new Promise((resolve, reject) => {
          const started = performance.now();
          const req = (this.base.protocol === 'https:' ? https : http).request(this.url(spec), { method: 'GET', agent: this.agent, headers: this.headers(spec) }, (res) => {
            this.count(`${res.statusCode ?? 0} WATCH`, started);
            resolve({ res, req });
          });
          req.on('error', reject);
          req.end();
        });
      } catch (e) {
        if (isConnectionError(e) && attempt < this.maxRetries) {
          const delay = Math.min(5000, 100 * 2 ** attempt++);
          this.metrics.retries++;
          this.log({ msg: 'watch failed to start; retrying', path: spec.path, error: (e as Error).message, retryInMs: delay });
          await this.clock.sleep(delay);
          continue;
        }
        throw e;
      }
    }
  }
}

/** A ResourceRef without extra properties (callers may pass richer objects). */
export function plainRef(ref: ResourceRef): ResourceRef {
  const out: ResourceRef = { group: ref.group, version: ref.version, resource: ref.resource };
  if (ref.namespaced !== undefined) out.namespaced = ref.namespaced;
  if (ref.kind !== undefined) out.kind = ref.kind;
  return out;
}

function listQuery(opts: ListOptions | undefined): Record<string, string | number | boolean | undefined> {
  if (!opts) return {};
  return {
    labelSelector: opts.labelSelector,
    fieldSelector: opts.fieldSelector,
    limit: opts.limit,
    continue: opts.continue,
    resourceVersion: opts.resourceVersion,
    resourceVersionMatch: opts.resourceVersionMatch,
    timeoutSeconds: opts.timeoutSeconds,
  };
}

class RestResourceClient implements ResourceClient {
  private readonly kind: ReturnType<typeof findResource>;

  constructor(
    private readonly cs: RestClientset,
    readonly ref: ResourceRef,
    private readonly metadataOnly: boolean,
  ) {
    this.kind = findResource(ref.group, ref.version, ref.resource);
  }

  private path(namespace: string, name?: string, subresource?: string): string {
    const { group, version, resource } = this.ref;
    let p = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    const namespaced = this.kind ? this.kind.namespaced : (this.ref.namespaced ?? namespace !== '');
    if (namespaced && namespace !== '') p += `/namespaces/${encodeURIComponent(namespace)}`;
    p += `/${resource}`;
    if (name !== undefined) {
      if (name === '') throw ClientStatusError.of(400, 'BadRequest', 'resource name may not be empty');
      p += `/${encodeURIComponent(name)}`;
    }
    if (subresource) p += `/${subresource}`;
    return p;
  }

  private accept(list: boolean): string {
    if (this.metadataOnly) return `application/json;as=${list ? 'PartialObjectMetadataList' : 'PartialObjectMetadata'};g=meta.k8s.io;v=v1, application/json`;
    return this.cs.usesProtobuf(this.ref) ? `${PROTOBUF}, ${JSON_TYPE}` : JSON_TYPE;
  }

  /** Sends, falling back to JSON once if the server refuses protobuf. */
  private async call(build: () => RequestSpec, decode?: ProtobufDecodeOptions): Promise<KubeObject> {
    const usedProtobuf = this.cs.usesProtobuf(this.ref) && !this.metadataOnly;
    let res = await this.cs.send(build());
    if ((res.status === 406 || res.status === 415) && usedProtobuf) {
      this.cs.refuseProtobuf(this.ref);
      res = await this.cs.send(build());
    }
    return this.cs.decode(this.cs.check(res), decode);
  }

  private writeQuery(opts: (WriteOptions & { force?: boolean }) | undefined, patchType?: PatchType): Record<string, string | boolean | undefined> {
    const q: Record<string, string | boolean | undefined> = {};
    if (opts?.dryRun) q.dryRun = 'All';
    q.fieldManager = opts?.fieldManager ?? this.cs.fieldManager;
    if (patchType === 'apply' && opts?.force) q.force = true;
    return q;
  }

  /** An object body in the client's format (protobuf when the schema is known and it encodes). */
  private body(obj: KubeObject, type: StructType | undefined, typeMeta: TypeMeta): { body: Buffer; contentType: string } {
    if (this.cs.usesProtobuf(this.ref) && type) {
      try {
        return { body: encodeProtobuf(obj, type, typeMeta), contentType: PROTOBUF };
      } catch {
        // Fall through to JSON: the server accepts both.
      }
    }
    return { body: Buffer.from(JSON.stringify({ ...obj, apiVersion: obj.apiVersion ?? typeMeta.apiVersion, kind: obj.kind ?? typeMeta.kind })), contentType: JSON_TYPE };
  }

  private typeMeta(): TypeMeta {
    const apiVersion = this.ref.group === '' ? this.ref.version : `${this.ref.group}/${this.ref.version}`;
    return { apiVersion, kind: this.kind?.kind ?? this.ref.kind ?? '' };
  }

  async get(namespace: string, name: string, opts?: { subresource?: string }): Promise<KubeObject> {
    return this.call(() => ({ method: 'GET', path: this.path(namespace, name, opts?.subresource), accept: this.accept(false), idempotent: true }));
  }

  async list(namespace: string, opts?: ListOptions): Promise<ObjectList> {
    const out = await this.call(() => ({ method: 'GET', path: this.path(namespace), query: listQuery(opts), accept: this.accept(true), idempotent: true }), { skipManagedFields: opts?.skipManagedFields });
    const list = out as unknown as ObjectList;
    list.items ??= [];
    list.metadata ??= {};
    // Protobuf list items carry no TypeMeta: fill it in as client-go's decoder does.
    if (!this.metadataOnly) {
      const tm = this.typeMeta();
      for (const it of list.items) {
        if (it.apiVersion === undefined || it.apiVersion === '') it.apiVersion = tm.apiVersion;
        if (it.kind === undefined || it.kind === '') it.kind = tm.kind;
      }
    }
    return list;
  }

  async watch(namespace: string, opts?: WatchOptions): Promise<Watch> {
    const usedProtobuf = this.cs.usesProtobuf(this.ref) && !this.metadataOnly;
    const spec = (): RequestSpec => ({
      method: 'GET',
      path: this.path(namespace),
      query: { ...listQuery(opts), watch: true, allowWatchBookmarks: opts?.allowWatchBookmarks || undefined, sendInitialEvents: opts?.sendInitialEvents },
      accept: this.accept(false),
      idempotent: true,
    });
    let { res, req } = await this.cs.stream(spec());
    if ((res.statusCode === 406 || res.statusCode === 415) && usedProtobuf) {
      res.resume();
      this.cs.refuseProtobuf(this.ref);
      ({ res, req } = await this.cs.stream(spec()));
    }
    if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      this.cs.check({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
    }
    const w = new QueueWatch(() => {
      req.destroy();
      res.destroy();
    });
    const tm = this.typeMeta();
    const fill = (o: KubeObject): KubeObject => {
      if (!this.metadataOnly) {
        if (!o.apiVersion) o.apiVersion = tm.apiVersion;
        if (!o.kind) o.kind = tm.kind;
      }
      return o;
    };
    const ct = String(res.headers['content-type'] ?? '');
    const onError = (e: unknown) => {
      if (!w.isClosed) this.cs['log']({ msg: 'watch stream error', path: this.path(namespace), error: e instanceof Error ? e.message : String(e) });
      w.close();
    };
    if (ct.startsWith(PROTOBUF)) {
      const dec = new WatchFrameDecoder();
      const decodeOpts: ProtobufDecodeOptions = { skipManagedFields: opts?.skipManagedFields };
      res.on('data', (chunk: Buffer) => {
        try {
          for (const f of dec.push(chunk)) {
            const ev = decodeWatchFrame(f, schemaFor, decodeOpts);
            w.push({ type: ev.type as WatchEventType, object: fill(ev.object as KubeObject) });
          }
        } catch (e) {
          onError(e);
        }
      });
    } else {
      const dec = new JsonWatchDecoder();
      res.on('data', (chunk: Buffer) => {
        try {
          for (const line of dec.push(chunk)) {
            const ev = JSON.parse(line) as { type: WatchEventType; object: KubeObject };
            if (opts?.skipManagedFields && ev.object) dropManagedFields(ev.object);
            w.push({ type: ev.type, object: fill(ev.object ?? {}) });
          }
        } catch (e) {
          onError(e);
        }
      });
    }
    res.on('end', () => w.close());
    res.on('error', onError);
    res.on('close', () => w.close());
    return w;
  }

  async create(namespace: string, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject> {
    return this.call(() => ({ method: 'POST', path: this.path(namespace), query: this.writeQuery(opts), ...this.body(obj, this.kind?.type, this.typeMeta()), accept: this.accept(false), idempotent: false }), { skipManagedFields: opts?.skipManagedFields });
  }

  async update(namespace: string, obj: KubeObject, opts?: WriteOptions & { subresource?: string }): Promise<KubeObject> {
    const name = String((obj.metadata as { name?: unknown } | undefined)?.name ?? '');
    const sub = opts?.subresource;
    const scale = sub === 'scale';
    const type = scale ? Scale : this.kind?.type;
    const tm = scale ? { apiVersion: 'autoscaling/v1', kind: 'Scale' } : this.typeMeta();
    return this.call(() => ({ method: 'PUT', path: this.path(namespace, name, sub), query: this.writeQuery(opts), ...this.body(obj, type, tm), accept: this.accept(false), idempotent: false }), { skipManagedFields: opts?.skipManagedFields });
  }

  async patch(namespace: string, name: string, type: PatchType, patch: unknown, opts?: WriteOptions & { subresource?: string; force?: boolean }): Promise<KubeObject> {
    const contentType = {
      json: 'application/json-patch+json',
      merge: 'application/merge-patch+json',
      strategic: 'application/strategic-merge-patch+json',
      apply: 'application/apply-patch+yaml',
    }[type];
    const body = typeof patch === 'string' ? Buffer.from(patch) : patch instanceof Uint8Array ? Buffer.from(patch) : Buffer.from(JSON.stringify(patch));
    return this.call(() => ({ method: 'PATCH', path: this.path(namespace, name, opts?.subresource), query: this.writeQuery(opts, type), body, contentType, accept: this.accept(false), idempotent: false }), { skipManagedFields: opts?.skipManagedFields });
  }

  async delete(namespace: string, name: string, opts?: DeleteOptions): Promise<KubeObject | undefined> {
    const body: KubeObject = { kind: 'DeleteOptions', apiVersion: 'v1' };
    if (opts?.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = opts.gracePeriodSeconds;
    if (opts?.propagationPolicy) body.propagationPolicy = opts.propagationPolicy;
    if (opts?.preconditions) body.preconditions = opts.preconditions;
    if (opts?.dryRun) body.dryRun = ['All'];
    const out = await this.call(() => ({ method: 'DELETE', path: this.path(namespace, name), body: Buffer.from(JSON.stringify(body)), contentType: JSON_TYPE, accept: this.accept(false), idempotent: false }));
    if (out.kind === 'Status' || Object.keys(out).length === 0) return undefined;
    const meta = (out.metadata ?? {}) as { deletionTimestamp?: string; finalizers?: unknown[] };
    if (this.ref.resource === 'pods' && !meta.deletionTimestamp) return undefined;
    return out;
  }

  async createSubresource(namespace: string, name: string, subresource: string, body: KubeObject, opts?: WriteOptions): Promise<KubeObject> {
    return this.call(() => ({
      method: 'POST',
      path: this.path(namespace, name, subresource),
      query: this.writeQuery(opts),
      body: Buffer.from(JSON.stringify(body)),
      contentType: JSON_TYPE,
      accept: this.accept(false),
      idempotent: false,
    }));
  }
}

/** A Clientset from a RestConfig with kube-controller-manager's defaults. */
export function newClientset(opts: RestClientOptions): RestClientset {
  return new RestClientset(opts);
}
