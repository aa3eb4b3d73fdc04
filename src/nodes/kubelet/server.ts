// The kubelet's HTTPS API (pkg/kubelet/server/server.go) for every simulated node of this
// process, on one listener. Which node a request is for:
//   - /nodes/<name>/<kubelet path>: that node (what the API server's nodes/proxy sends);
//   - a path naming a pod (/containerLogs/<ns>/<pod>/<container>, ...): the node the pod is bound to;
//   - otherwise (/healthz, /metrics, /pods): the process as a whole — /pods lists the pods of all its
//     nodes; /stats/summary, /metrics/resource and /configz need a node unless there is only one.
// Authentication (client certificate, else bearer token by TokenReview) and authorization
// (SubjectAccessReview) as the kubelet's (auth.ts). Errors are plain text, as the
// kubelet writes them.
//
// Endpoints: /healthz, /pods, /configz, /containerLogs, /logs/ (a listing, and the nodes
// process's own recent log as kubelite-nodes.log), /stats/summary, /metrics/resource, /metrics;
// /exec, /attach and /portForward (streaming.ts: SPDY and WebSocket upgrades), /run (a command's
// output, no stream); and the simulated containers' HTTP servers (container-http.ts) under
// /containerHTTP/<ns>/<pod>/<port>/<path>.
import { createServer, type Server } from 'node:https';
import { SERVER_CIPHERS } from '../../machinery/tls-ciphers.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nameOf, uidOf } from '../../api/meta/object.js';
import type { Pod } from '../../api/types.js';
import { decodePodLogOptions, PodLogOptionsDecodeError, validatePodLogOptions } from '../../machinery/podlogs/options.js';
import { errMsg, type Log } from '../options.js';
import { logContainerID, LogStatusError, readLog } from '../logs/read.js';
import { certificateUser, forbiddenMessage, requestAttributes, TokenAuthenticator, WebhookAuthorizer } from './auth.js';
import { serveContainerHTTP } from './container-http.js';
import { ContainerStreams, StreamRefusal, type Upgrade } from './streaming.js';
import { isUpgrade, takeUpgrade, upgradeAsRequest } from '../../machinery/http-upgrade.js';
import { refusePortForwardWithoutUpgrade, refuseRemoteCommandWithoutUpgrade, stdStreamsFromQuery } from '../../machinery/streams/index.js';
import type { Duplex } from 'node:stream';
import type { KubeletHost } from './host.js';
import { kubeletConfiguration } from './configz.js';
import { KubeletMetrics } from './metrics.js';
import { processMetricsText } from '../../machinery/process-metrics.js';
import { cadvisorMetrics, resourceMetrics, summary } from './stats.js';

export interface KubeletServerOptions {
  host: KubeletHost;
  /** PEM serving certificate and key; `clientCA`: the CA client certificates must chain to (none: only bearer tokens authenticate). */
  tls: { cert: string | Buffer; key: string | Buffer; clientCA?: string | Buffer };
  port: number;
  address?: string;
  /** The nodes process's own recent log lines (served as /logs/kubelite-nodes.log). */
  processLog?: () => string;
  log?: Log;
}

export interface KubeletServer {
  readonly port: number;
  /** Serves a new certificate (a rotated one) from the next connection on. */
  setServingCertificate(cert: string, key: string): void;
  close(): Promise<void>;
}

const NODE_LOG_NAME = 'kubelite-nodes.log';
const STREAMING = new Set(['exec', 'attach', 'portForward']);
const RUN = 'run';

function text(res: ServerResponse, code: number, body: string, contentType = 'text/plain; charset=utf-8'): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(code, { 'content-type': contentType, 'x-content-type-options': 'nosniff', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function json(res: ServerResponse, body: unknown): void {
  text(res, 200, JSON.stringify(body), 'application/json');
}

export async function startKubeletServer(o: KubeletServerOptions): Promise<KubeletServer> {
  const { host } = o;
  const authorizer = new WebhookAuthorizer((node) => host.clientOf(node), host.clock);
  const tokens = new TokenAuthenticator(() => host.clientOf(''), host.clock);
  const metrics = new KubeletMetrics();
  const streams = new ContainerStreams(host, o.log);
  const server: Server = createServer({ cert: o.tls.cert, key: o.tls.key, ...(o.tls.clientCA ? { ca: o.tls.clientCA } : {}), requestCert: true, rejectUnauthorized: false, ciphers: SERVER_CIPHERS, honorCipherOrder: true }, (req, res) => {
    handle(req, res).catch((e: unknown) => {
      o.log?.({ msg: 'kubelet request failed', url: req.url, error: errMsg(e) });
      text(res, 500, errMsg(e));
    });
    res.once('finish', () => metrics.request(req.method ?? 'GET', req.url ?? '/'));
  });

  // exec, attach and port-forward upgrade the connection: the same authentication and authorization first.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    upgradeAsRequest(req, socket, head, (r, res) =>
      handle(r, res).catch((e: unknown) => {
        o.log?.({ msg: 'kubelet request failed', url: r.url, error: errMsg(e) });
        if (!res.headersSent && res.socket) text(res, 500, errMsg(e));
        else socket.destroy();
      }),
    ),
  );

  // Responses written in parts (headers, then lines) go out at once, as Go's server sends them.
  server.on('secureConnection', (socket) => socket.setNoDelay(true));

  /** The pod `ns/name` if one of this process's nodes runs it (and `node`, when given, is that one). */
  const podOf = (ns: string, name: string, node: string): Pod | undefined => {
    const pod = host.pod(ns, name);
    const on = pod?.spec?.nodeName ?? '';
    return pod && host.hasNode(on) && (node === '' || node === on) ? pod : undefined;
  };

  /** The one node a node-scoped endpoint is about (undefined: ambiguous). */
  const oneNode = (node: string): string | undefined => (node !== '' ? node : host.nodeNames().length === 1 ? host.nodeNames()[0] : undefined);

  /** /exec/<ns>/<pod>/<container>, /attach/<ns>/<pod>/<container>, /portForward/<ns>/<pod>. */
  async function serveStreaming(req: IncomingMessage, res: ServerResponse, what: string, parts: string[], pod: Pod | undefined, query: URLSearchParams): Promise<void> {
    if (!pod) return text(res, 404, `pod does not exist`);
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.setHeader('allow', 'GET, POST');
      return text(res, 405, 'Method Not Allowed');
    }
    if (!isUpgrade(req)) {
      if (what === 'portForward') return refusePortForwardWithoutUpgrade(req, res);
      return refuseRemoteCommandWithoutUpgrade(req, res, stdStreamsFromQuery(query));
    }
    const take = (): Upgrade => ({ req, ...takeUpgrade(req, res)! });
    const container = parts[3] ?? '';
    try {
      if (what === 'exec') await streams.exec(take, pod, container, query);
      else if (what === 'attach') await streams.attach(take, pod, container, query);
      else await streams.portForward(take, pod, query);
    } catch (e) {
      if (e instanceof StreamRefusal) return text(res, e.status, e.message);
      throw e;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return text(res, 400, 'malformed request URL');
    }
    let user = certificateUser(req);
    try {
      user ??= await tokens.authenticate(req);
    } catch (e) {
      o.log?.({ msg: 'kubelet API: token review failed', error: errMsg(e) });
    }
    if (!user) return text(res, 401, 'Unauthorized');
    let node = '';
    const prefixed = /^\/nodes\/([^/]+)(\/.*)?$/.exec(path);
    if (prefixed) {
      node = prefixed[1]!;
      path = prefixed[2] ?? '/';
      if (!host.hasNode(node)) return text(res, 404, `node ${JSON.stringify(node)} is not served here`);
    }
    const parts = path.split('/').filter((p) => p !== '');
    const first = parts[0] ?? '';
    // A request about a pod is authorized on the node that runs it.
    const pod = ['containerLogs', 'containerHTTP', ...STREAMING, RUN].includes(first) && parts.length >= 3 ? podOf(parts[1]!, parts[2]!, node) : undefined;
    const attrs = requestAttributes(req.method ?? 'GET', path, node !== '' ? node : (pod?.spec?.nodeName ?? ''));
    let allowed: boolean;
    try {
      allowed = await authorizer.authorize(user, attrs);
    } catch (e) {
      return text(res, 500, `Authorization error (user=${user.name}, verb=${attrs.verb}, resource=nodes, subresource=${attrs.subresources[0]}): ${errMsg(e)}`);
    }
    if (!allowed) return text(res, 403, forbiddenMessage(user, attrs));

    if (first === 'containerHTTP') return serveContainerHTTP(req, res, parts, pod, host);
    if (STREAMING.has(first)) return serveStreaming(req, res, first, parts, pod, url.searchParams);
    if (first === RUN) {
      if (!pod) return text(res, 404, 'pod does not exist');
      if (req.method !== 'POST') {
        res.setHeader('allow', 'POST');
        return text(res, 405, 'Method Not Allowed');
      }
      try {
        return text(res, 200, await streams.run(pod, parts[3] ?? '', url.searchParams.get('cmd') ?? ''));
      } catch (e) {
        if (e instanceof StreamRefusal) return text(res, e.status, e.message);
        throw e;
      }
    }
    const get = req.method === 'GET' || req.method === 'HEAD';
    if (!get) {
      res.setHeader('allow', 'GET');
      return text(res, 405, 'Method Not Allowed');
    }
    switch (first) {
      case 'healthz':
        return text(res, 200, 'ok');
      case 'pods': {
        const pods = node !== '' ? host.podsOf(node) : host.nodeNames().flatMap((n) => host.podsOf(n));
        return json(res, { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: pods });
      }
      case 'configz': {
        const one = oneNode(node);
        if (one === undefined) return text(res, 404, 'configz: several nodes are served here: ask /nodes/<name>/configz');
        return json(res, { kubeletconfig: kubeletConfiguration(host, one, server.address() as AddressInfo) });
      }
      case 'stats':
      case 'metrics': {
        if (first === 'metrics' && parts.length === 1) {
          // The kubelet's own metrics, then the process's (the kubelet serves Go's process and memory metrics there).
          return text(res, 200, `${metrics.render(host, node)}\n${await processMetricsText()}`, 'text/plain; version=0.0.4; charset=utf-8');
        }
        const which = `${first}/${parts.slice(1).join('/')}`;
        if (which !== 'stats/summary' && which !== 'metrics/resource' && which !== 'metrics/cadvisor') return text(res, 404, '404 page not found');
        const one = oneNode(node);
        if (one === undefined) return text(res, 404, `${which}: several nodes are served here: ask /nodes/<name>/${which}`);
        const input = { node: one, nodeStart: host.startedAt, now: host.clock.now(), pods: host.podsOf(one), memoryCapacity: memoryCapacity(host) };
        if (which === 'stats/summary') return json(res, summary(input));
        return text(res, 200, which === 'metrics/cadvisor' ? cadvisorMetrics(input) : resourceMetrics(input), 'text/plain; version=0.0.4; charset=utf-8');
      }
      case 'logs':
        return serveNodeLogs(res, parts.slice(1), o.processLog);
      case 'containerLogs':
        return containerLogs(req, res, parts, pod, url.searchParams);
      default:
        return text(res, 404, '404 page not found');
    }
  }

  /** getContainerLogs. */
  async function containerLogs(req: IncomingMessage, res: ServerResponse, parts: string[], pod: Pod | undefined, query: URLSearchParams): Promise<void> {
    const [, , podName = '', container = ''] = parts;
    if (podName === '') return text(res, 400, '{"message": "Missing podID."}');
    if (container === '') return text(res, 400, '{"message": "Missing container name."}');
    let opts;
    try {
      opts = decodePodLogOptions(query, true);
    } catch (e) {
      if (e instanceof PodLogOptionsDecodeError) return text(res, 400, '{"message": "Unable to decode query."}');
      throw e;
    }
    if (validatePodLogOptions(opts).length > 0) return text(res, 422, '{"message": "Invalid request."}');
    if (!pod) return text(res, 404, `pod ${JSON.stringify(podName)} does not exist`);
    const spec = pod.spec ?? {};
    const all = [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])];
    if (!all.some((c) => c.name === container)) return text(res, 404, `container ${JSON.stringify(container)} not found in pod ${JSON.stringify(podName)}`);
    if (opts.stream !== undefined && opts.stream !== 'All') return text(res, 400, `unable to return the given log stream: ${JSON.stringify(opts.stream)}. Please enable PodLogsQuerySplitStreams feature gate in kubelet`);
    const statuses = host.logs.statuses(uidOf(pod)) ?? [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])];
    let id: string;
    try {
      id = logContainerID(nameOf(pod), container, statuses, opts.previous);
    } catch (e) {
      if (e instanceof LogStatusError) return text(res, 400, e.message);
      throw e;
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
    if (req.method === 'HEAD') return void res.end();
    res.flushHeaders();
    const abort = new AbortController();
    const onClose = () => abort.abort();
    res.once('close', onClose);
    try {
      await readLog(host.logs.run(uidOf(pod), container, id), opts, res, host.clock, abort.signal);
    } finally {
      res.removeListener('close', onClose);
      res.end();
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.address ?? '127.0.0.1', () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  o.log?.({ msg: 'kubelet API serving', port, nodes: host.nodeNames().length });
  return {
    port,
    setServingCertificate: (cert, key) => server.setSecureContext({ cert, key, ...(o.tls.clientCA ? { ca: o.tls.clientCA } : {}), ciphers: SERVER_CIPHERS, honorCipherOrder: true }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function memoryCapacity(host: KubeletHost): number {
  const m = /^(\d+)(Ki|Mi|Gi|Ti)?$/.exec(host.opts.memory ?? '8Gi');
  if (!m) return 8 * 2 ** 30;
  const mult = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 }[m[2] as 'Ki'] ?? 1;
  return Number(m[1]) * mult;
}

/** /logs/: a listing of what can be read, and the nodes process's own recent log. */
function serveNodeLogs(res: ServerResponse, rest: string[], processLog: (() => string) | undefined): void {
  if (rest.length === 0) {
    const items = processLog ? [NODE_LOG_NAME] : [];
    return text(res, 200, `<pre>\n${items.map((n) => `<a href="${n}">${n}</a>`).join('\n')}${items.length > 0 ? '\n' : ''}</pre>\n`, 'text/html; charset=utf-8');
  }
  if (rest.length === 1 && rest[0] === NODE_LOG_NAME && processLog) return text(res, 200, processLog());
  return text(res, 404, '404 page not found');
}
