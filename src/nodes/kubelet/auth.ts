// Who may use a simulated kubelet's API, decided as the kubelet decides (pkg/kubelet/server/auth.go
// with --client-ca-file, --authentication-token-webhook and --authorization-mode Webhook, kubeadm's
// configuration): a client certificate chaining to the client CA authenticates (CN = user, O =
// groups), else a bearer token the API server's TokenReview accepts (answers cached 2 min, as the
// kubelet's webhook authenticator caches them); anything else is 401 "Unauthorized". The request is authorized by a
// SubjectAccessReview to the API server on the node object: verb from the HTTP method, resource
// `nodes`, the node's name, and a subresource from the path — `stats`, `metrics`, `log`, or
// `proxy` for everything else; with KubeletFineGrainedAuthz (on by default in 1.33) `/pods`,
// `/healthz` and `/configz` ask for `pods`, `healthz` or `configz` first and `proxy` as the
// fallback. Answers are cached as the kubelet's webhook authorizer caches them (allowed 5 min,
// denied 30 s).
import type { TLSSocket } from 'node:tls';
import type { IncomingMessage } from 'node:http';
import type { Clock } from '../../client/clock.js';
import type { Clientset, KubeObject } from '../../client/types.js';

export interface KubeletUser {
  name: string;
  groups: string[];
}

/** The verified client certificate's identity (undefined: no certificate, or one the CA did not sign). */
export function certificateUser(req: IncomingMessage): KubeletUser | undefined {
  const socket = req.socket as TLSSocket;
  if (typeof socket.getPeerCertificate !== 'function' || !socket.authorized) return undefined;
  const cert = socket.getPeerCertificate();
  const subject = cert?.subject as Record<string, string | string[] | undefined> | undefined;
  const cn = subject?.CN;
  const name = Array.isArray(cn) ? cn[0] : cn;
  if (name === undefined || name === '') return undefined;
  const o = subject?.O;
  const groups = o === undefined ? [] : Array.isArray(o) ? o : [o];
  return { name, groups: [...groups, 'system:authenticated'] };
}

const TOKEN_TTL_MS = 2 * 60_000;
const TOKEN_REVIEWS = { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews' };

/** Bearer tokens, authenticated by TokenReview through `client` (a node's credential may create them). */
export class TokenAuthenticator {
  private readonly cache = new Map<string, { user: KubeletUser | undefined; until: number }>();

  constructor(
    private readonly client: () => Clientset,
    private readonly clock: Clock,
  ) {}

  async authenticate(req: IncomingMessage): Promise<KubeletUser | undefined> {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) return undefined;
    const token = m[1]!;
    const now = this.clock.now();
    const hit = this.cache.get(token);
    if (hit && hit.until > now) return hit.user;
    const review = await this.client().resource(TOKEN_REVIEWS).create('', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
    const status = (review.status ?? {}) as { authenticated?: boolean; user?: { username?: string; groups?: string[] } };
    const user = status.authenticated === true && status.user?.username ? { name: status.user.username, groups: status.user.groups ?? [] } : undefined;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(token, { user, until: now + TOKEN_TTL_MS });
    return user;
  }
}

export interface NodeRequestAttributes {
  verb: string;
  /** The node's name ('' for a request about every node of this process). */
  node: string;
  /** Subresources tried in order; the first allowed wins. */
  subresources: string[];
}

const VERBS: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

const isSubpath = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The attributes a request is authorized by (kubelet's GetRequestAttributes), for `path` without any /nodes/<name> prefix. */
export function requestAttributes(method: string, path: string, node: string): NodeRequestAttributes {
  const verb = VERBS[method.toUpperCase()] ?? method.toLowerCase();
  let subresources = ['proxy'];
  if (isSubpath(path, '/stats')) subresources = ['stats'];
  else if (isSubpath(path, '/metrics')) subresources = ['metrics'];
  else if (isSubpath(path, '/logs')) subresources = ['log'];
  else if (isSubpath(path, '/pods')) subresources = ['pods', 'proxy'];
  else if (isSubpath(path, '/healthz')) subresources = ['healthz', 'proxy'];
  else if (isSubpath(path, '/configz')) subresources = ['configz', 'proxy'];
  return { verb, node, subresources };
}

const ALLOWED_TTL_MS = 5 * 60_000;
const DENIED_TTL_MS = 30_000;
const SUBJECT_ACCESS_REVIEWS = { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews' };

/** Authorizes by SubjectAccessReview through `client` (a node's own credential may create them). */
export class WebhookAuthorizer {
  private readonly cache = new Map<string, { allowed: boolean; reason: string; until: number }>();

  constructor(
    private readonly client: (node: string) => Clientset,
    private readonly clock: Clock,
  ) {}

  /** Whether `user` may do what `attrs` describe (an error reaching the API server is thrown). */
  async authorize(user: KubeletUser, attrs: NodeRequestAttributes): Promise<boolean> {
    for (const subresource of attrs.subresources) {
      if (await this.allowed(user, attrs.verb, attrs.node, subresource)) return true;
    }
    return false;
  }

  private async allowed(user: KubeletUser, verb: string, node: string, subresource: string): Promise<boolean> {
    const key = JSON.stringify([user.name, user.groups, verb, node, subresource]);
    const now = this.clock.now();
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return hit.allowed;
    const review: KubeObject = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: user.name, groups: user.groups, resourceAttributes: { verb, group: '', version: 'v1', resource: 'nodes', subresource, name: node } },
    };
    const answer = await this.client(node).resource(SUBJECT_ACCESS_REVIEWS).create('', review);
    const status = (answer.status ?? {}) as { allowed?: boolean; reason?: string };
    const allowed = status.allowed === true;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { allowed, reason: status.reason ?? '', until: now + (allowed ? ALLOWED_TTL_MS : DENIED_TTL_MS) });
    return allowed;
  }
}

/** kubelet's 403 text. */
export function forbiddenMessage(user: KubeletUser, attrs: NodeRequestAttributes): string {
  return `Forbidden (user=${user.name}, verb=${attrs.verb}, resource=nodes, subresource(s)=[${attrs.subresources.join(' ')}])\n`;
}
