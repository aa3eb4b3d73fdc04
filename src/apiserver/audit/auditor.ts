// Audit events for every request (k8s.io/apiserver's WithAudit filters): an Audit-Id for each
// request (its response header), the policy's level for the request once it is authenticated, and
// the events of its stages — RequestReceived, ResponseStarted (long-running requests: watches,
// exec/attach/port-forward, proxies, followed logs) and ResponseComplete — as audit.k8s.io/v1
// Events: the user, impersonated user, source IPs, user agent, object reference, response status,
// the authorization decision and, at Request and RequestResponse levels, the request's and
// response's objects (JSON bodies; managedFields dropped with omitManagedFields).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isProtobuf } from '../../machinery/codec/protobuf.js';
import type { UserInfo } from '../auth/types.js';
import type { RequestInfo } from '../request/request-info.js';
import type { AuditLogBackend } from './log-backend.js';
import { evaluatePolicy, levelAtLeast, type AuditDecision, type AuditPolicy, type AuditStage } from './policy.js';

/** At most this much of a response body is kept for a RequestResponse event. */
const MAX_CAPTURED_BYTES = 3 * 1024 * 1024;
const LONG_RUNNING_SUBRESOURCES = new Set(['exec', 'attach', 'portforward', 'proxy']);

const requestAudits = new WeakMap<IncomingMessage, RequestAudit>();
const requestBodies = new WeakMap<IncomingMessage, Buffer>();
const requestObjects = new WeakMap<IncomingMessage, object>();

/** The audit of a request (undefined: auditing is off). */
export function auditOf(req: IncomingMessage): RequestAudit | undefined {
  return requestAudits.get(req);
}

/** Keeps a request's body for its audit event (called by the body reader): a JSON body is its requestObject. */
export function noteRequestBody(req: IncomingMessage, body: Buffer): void {
  if (requestAudits.get(req)?.wantsRequestObject) requestBodies.set(req, body);
}

/** Keeps the object a request's body decoded to (a protobuf or YAML body is recorded as this JSON). */
export function noteRequestObject(req: IncomingMessage, obj: object): void {
  // a copy: the request goes on to fill the object in (uid, managedFields, defaults)
  if (requestAudits.get(req)?.wantsRequestObject) requestObjects.set(req, structuredClone(obj));
}

function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/(\.\d{3})Z$/, '$1000Z');
}

function withoutManagedFields(obj: { metadata?: { managedFields?: unknown } }, omit: boolean): unknown {
  if (omit && obj.metadata && typeof obj.metadata === 'object') delete obj.metadata.managedFields;
  return obj;
}

function jsonOf(body: Buffer | undefined, omitManagedFields: boolean): unknown {
  if (!body || body.length === 0 || body[0] !== 0x7b) return undefined;
  try {
    return withoutManagedFields(JSON.parse(body.toString('utf8')) as object, omitManagedFields);
  } catch {
    return undefined;
  }
}

/** Decodes a protobuf response body (its envelope names the kind) to record it as JSON; undefined when it cannot. */
export type ProtobufToJSON = (bytes: Uint8Array) => object | undefined;

export class Auditor {
  constructor(
    private readonly policy: AuditPolicy,
    private readonly backend: AuditLogBackend,
    private readonly protobufToJSON: ProtobufToJSON,
  ) {}

  /** Starts the audit of a request: its Audit-Id. */
  begin(req: IncomingMessage, res: ServerResponse): RequestAudit {
    const a = new RequestAudit(req, res, this.policy, this.backend, this.protobufToJSON);
    requestAudits.set(req, a);
    return a;
  }

  close(): void {
    this.backend.close();
  }
}

export class RequestAudit {
  readonly id: string;
  private readonly receivedAt = Date.now();
  private decision: AuditDecision | undefined;
  private info: RequestInfo | undefined;
  private user: UserInfo | undefined;
  private impersonatedBy: UserInfo | undefined;
  private path = '';
  private readonly annotations: Record<string, string> = {};
  private started = false;
  private completed = false;
  private captured: Buffer[] | undefined;
  private readonly sourceIPs: string[];

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly policy: AuditPolicy,
    private readonly backend: AuditLogBackend,
    private readonly protobufToJSON: ProtobufToJSON,
  ) {
    this.id = typeof req.headers['audit-id'] === 'string' && req.headers['audit-id'] !== '' ? req.headers['audit-id'] : randomUUID();
    res.setHeader('Audit-Id', this.id);
    // now: an HTTP/2 stream's socket address is gone once the stream ends
    const forwarded = typeof req.headers['x-forwarded-for'] === 'string' ? req.headers['x-forwarded-for'].split(',').map((s) => s.trim()).filter((s) => s !== '') : [];
    const remote = req.socket?.remoteAddress;
    this.sourceIPs = [...forwarded, ...(remote ? [remote.replace(/^::ffff:/, '')] : [])];
  }

  get wantsRequestObject(): boolean {
    return this.decision !== undefined && levelAtLeast(this.decision.level, 'Request');
  }

  /** The request is authenticated (and maybe impersonating): its level, and RequestReceived. */
  identify(info: RequestInfo, path: string, user: UserInfo, authenticated: UserInfo): void {
    this.info = info;
    this.path = path;
    this.user = user;
    if (authenticated !== user) this.impersonatedBy = authenticated;
    // the policy judges the authenticated user, as kube-apiserver's filter runs before impersonation
    const r = info.isResourceRequest ? info : undefined;
    this.decision = evaluatePolicy(this.policy, {
      user: authenticated.name,
      groups: authenticated.groups,
      verb: info.verb,
      resourceRequest: info.isResourceRequest,
      apiGroup: r?.group ?? '',
      resource: r?.resource ?? '',
      subresource: r?.subresource ?? '',
      namespace: r?.namespace ?? '',
      name: r?.name ?? '',
      path,
    });
    if (levelAtLeast(this.decision.level, 'RequestResponse')) this.captureResponse();
    if (this.isLongRunning()) this.hookResponseStart();
    this.emit('RequestReceived');
  }

  authorized(decision: string, reason: string): void {
    this.annotations['authorization.k8s.io/decision'] = decision === 'allow' ? 'allow' : 'forbid';
    this.annotations['authorization.k8s.io/reason'] = reason;
  }

  /** A long-running request's response began (for an upgrade, the 101 sent on). */
  responseStarted(code: number): void {
    if (this.started || !this.isLongRunning()) return;
    this.started = true;
    this.emit('ResponseStarted', code);
  }

  /** The response is complete (or the connection gone). */
  complete(code: number): void {
    if (this.completed) return;
    this.completed = true;
    // a request refused before it was authenticated: judged as the anonymous request it is
    if (!this.decision) {
      this.identifyUnauthenticated();
      if (this.decision!.level === 'None') return;
    }
    this.emit('ResponseComplete', code);
  }

  private identifyUnauthenticated(): void {
    this.path = (this.req.url ?? '/').split('?')[0]!;
    this.decision = evaluatePolicy(this.policy, { user: '', groups: [], verb: (this.req.method ?? 'get').toLowerCase(), resourceRequest: false, apiGroup: '', resource: '', subresource: '', namespace: '', name: '', path: this.path });
  }

  private isLongRunning(): boolean {
    const info = this.info;
    if (!info?.isResourceRequest) return false;
    if (info.verb === 'watch' || LONG_RUNNING_SUBRESOURCES.has(info.subresource) || info.verb === 'proxy') return true;
    return info.subresource === 'log' && /(?:^|&)follow=(?:true|1)(?:&|$)/.test((this.req.url ?? '').split('?')[1] ?? '');
  }

  private hookResponseStart(): void {
    const res = this.res;
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      this.responseStarted(typeof args[0] === 'number' ? args[0] : res.statusCode);
      return writeHead(...args);
    }) as typeof res.writeHead;
  }

  private captureResponse(): void {
    const res = this.res;
    const chunks: Buffer[] = (this.captured = []);
    let size = 0;
    const keep = (chunk: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_CAPTURED_BYTES) return;
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
      size += b.length;
      if (size <= MAX_CAPTURED_BYTES) chunks.push(b);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    // HTTP/2's end(chunk) writes the chunk through write(): each chunk is kept once
    let ending = false;
    res.write = ((...args: unknown[]) => {
      if (!ending) keep(args[0]);
      return write(...args);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      keep(args[0]);
      ending = true;
      return end(...args);
    }) as typeof res.end;
  }

  private emit(stage: AuditStage, code?: number): void {
    const d = this.decision!;
    if (d.level === 'None' || d.omitStages.has(stage)) return;
    const info = this.info;
    const user = this.impersonatedBy ?? this.user;
    const event: Record<string, unknown> = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: d.level,
      auditID: this.id,
      stage,
      requestURI: this.req.url ?? '/',
      verb: info?.verb ?? (this.req.method ?? '').toLowerCase(),
      user: user ? { username: user.name, ...(user.uid ? { uid: user.uid } : {}), groups: [...user.groups], ...(user.extra && Object.keys(user.extra).length > 0 ? { extra: user.extra } : {}) } : {},
      ...(this.impersonatedBy && this.user ? { impersonatedUser: { username: this.user.name, groups: [...this.user.groups] } } : {}),
      sourceIPs: this.sourceIPs,
      ...(typeof this.req.headers['user-agent'] === 'string' ? { userAgent: this.req.headers['user-agent'] } : {}),
    };
    if (info?.isResourceRequest) {
      event.objectRef = {
        resource: info.resource,
        ...(info.namespace ? { namespace: info.namespace } : {}),
        ...(info.name ? { name: info.name } : {}),
        ...(info.group ? { apiGroup: info.group } : {}),
        apiVersion: info.version,
        ...(info.subresource ? { subresource: info.subresource } : {}),
      };
    }
    if (code !== undefined) event.responseStatus = { metadata: {}, code, ...(code >= 400 ? { status: 'Failure' } : {}) };
    if (stage === 'ResponseComplete' && levelAtLeast(d.level, 'Request')) {
      const decoded = requestObjects.get(this.req);
      const requestObject = decoded !== undefined ? withoutManagedFields(decoded, d.omitManagedFields) : jsonOf(requestBodies.get(this.req), d.omitManagedFields);
      if (requestObject !== undefined) event.requestObject = requestObject;
      if (levelAtLeast(d.level, 'RequestResponse') && this.captured) {
        const body = Buffer.concat(this.captured);
        const decoded = isProtobuf(body) ? this.protobufToJSON(body) : undefined;
        const responseObject = decoded !== undefined ? withoutManagedFields(decoded, d.omitManagedFields) : jsonOf(body, d.omitManagedFields);
        if (responseObject !== undefined) event.responseObject = responseObject;
      }
    }
    event.requestReceivedTimestamp = microTime(this.receivedAt);
    event.stageTimestamp = microTime(Date.now());
    if (Object.keys(this.annotations).length > 0) event.annotations = { ...this.annotations };
    this.backend.write(event);
  }
}
