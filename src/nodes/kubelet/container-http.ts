// The HTTP server of a simulated container: a container listens on each TCP port it declares
// (spec.containers[].ports, and restartable init containers' — sidecars) while it runs, and
// answers any request there with a small JSON document saying who answered: the pod, its
// namespace and IP, the container and port, the node, and the request's method, path and query.
// The API server's pods/proxy and services/proxy reach it through the kubelet listener:
// /containerHTTP/<namespace>/<pod>/<port>/<path>, since pod IPs do not exist on the host.
// A port nobody listens on answers 502 with `x-kubelite-dial-error`, which the API server reports
// as the dial error a real connection would get.
import type { IncomingMessage, ServerResponse } from 'node:http';
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
  req.resume();
  if (!pod) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    return void res.end(`pod ${JSON.stringify(podName)} does not exist`);
  }
  const port = Number(portText);
  const ip = pod.status?.podIP ?? '';
  const statuses = host.logs.statuses(uidOf(pod)) ?? [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  const running = (name: string) => statuses.some((s) => s.name === name && s.state?.running !== undefined && s.state.running !== null);
  const container = Number.isInteger(port) && port > 0 && port < 65536 ? listeningContainer(pod, port, running) : undefined;
  if (!container || ip === '') {
    const error = `dial tcp ${ip === '' ? '<none>' : ip}:${portText}: connect: connection refused`;
    res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', [DIAL_ERROR_HEADER]: 'connection refused' });
    return void res.end(error);
  }
  // Everything after /containerHTTP/<ns>/<pod>/<port> is the container's own path, as sent.
  const path = /^(?:\/nodes\/[^/]+)?\/containerHTTP\/[^/]+\/[^/]+\/[^/]+(\/.*)?$/.exec(url.pathname)?.[1] ?? '/';
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
