// The HTTP server of a simulated container: a container listens on each TCP port it declares
// (spec.containers[].ports, and restartable init containers' — sidecars) while it runs, and
// answers any request there with a small JSON document saying who answered: the pod, its
// namespace and IP, the container and port, the node, and the request's method, path and query.
// The API server's pods/proxy and services/proxy reach it through the kubelet listener:
// /containerHTTP/<namespace>/<pod>/<port>/<path>, since pod IPs do not exist on the host.
// A port nobody listens on answers 502 with `x-kubelite-dial-error`, which the API server reports
// as the dial error a real connection would get.
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { Container, Pod } from '../../api/types.js';
import type { KubeletHost } from './host.js';

export const DIAL_ERROR_HEADER = 'x-kubelite-dial-error';

/** The running container of `pod` listening on TCP `port`. */
export function listeningContainer(pod: Pod, port: number, running: (name: string) => boolean): Container | undefined {
  const spec = pod.spec ?? {};
  const candidates = [...(spec.containers ?? []), ...(spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
  return candidates.find((c) => running(c.name ?? '') && (c.ports ?? []).some((p) => p.containerPort === port && (p.protocol ?? 'TCP') === 'TCP'));
}

export function serveContainerHTTP(req: IncomingMessage, res: ServerResponse, parts: string[], pod: Pod | undefined, host: KubeletHost): void {
  const [, , podName = '', portText = ''] = parts;
  const url = new URL(req.url ?? '/', 'https://kubelet');
  if (!pod) {
    req.resume();
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    return void res.end(`pod ${JSON.stringify(podName)} does not exist`);
  }
  const port = Number(portText);
  const processIP = host.runtime?.podIP(uidOf(pod));
  if (processIP !== undefined) return relayToProcess(req, res, processIP, port, containerPath(url));
  const ip = pod.status?.podIP ?? '';
  const statuses = host.logs.statuses(uidOf(pod)) ?? [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  const running = (name: string) => statuses.some((s) => s.name === name && s.state?.running !== undefined && s.state.running !== null);
  const container = Number.isInteger(port) && port > 0 && port < 65536 ? listeningContainer(pod, port, running) : undefined;
  req.resume();
  if (!container || ip === '') {
    const error = `dial tcp ${ip === '' ? '<none>' : ip}:${portText}: connect: connection refused`;
    res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', [DIAL_ERROR_HEADER]: 'connection refused' });
    return void res.end(error);
  }
  const path = containerPath(url);
  const body = `${JSON.stringify({
    pod: nameOf(pod),
    namespace: namespaceOf(pod),
    podIP: ip,
    container: container.name ?? '',
    port,
    node: pod.spec?.nodeName ?? '',
    method: req.method ?? 'GET',
    path,
    query: url.search.replace(/^\?/, ''),
  })}\n`;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Everything after /containerHTTP/<ns>/<pod>/<port> is the container's own path, as sent. */
function containerPath(url: URL): string {
  return /^(?:\/nodes\/[^/]+)?\/containerHTTP\/[^/]+\/[^/]+\/[^/]+(\/.*)?$/.exec(url.pathname)?.[1] ?? '/';
}

/** A pod the process runtime runs: the request goes on to its IP, where its processes listen. */
function relayToProcess(req: IncomingMessage, res: ServerResponse, ip: string, port: number, path: string): void {
  const search = new URL(req.url ?? '/', 'https://kubelet').search;
  const headers = { ...req.headers, host: `${ip}:${port}` };
  const upstream = request({ host: ip, port, method: req.method ?? 'GET', path: `${path}${search}`, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage ?? '', answer.headers);
    answer.pipe(res);
  });
  upstream.once('error', (e) => {
    if (res.headersSent) return void res.destroy();
    const refused = (e as NodeJS.ErrnoException).code === 'ECONNREFUSED';
    res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', [DIAL_ERROR_HEADER]: refused ? 'connection refused' : e.message });
    res.end(`dial tcp ${ip}:${port}: ${refused ? 'connect: connection refused' : e.message}`);
  });
  res.once('close', () => upstream.destroy());
  req.pipe(upstream);
}
