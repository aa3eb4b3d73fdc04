// pods/exec, pods/attach and pods/portforward (kube-apiserver's ExecREST, AttachREST and
// PortForwardREST with its UpgradeAwareHandler): the container is chosen as Kubernetes'
// streamLocation chooses it, the upgrade request goes on to the pod's kubelet with the API
// server's kubelet client certificate (the client's own credentials stay here), and once the
// kubelet answers 101 the two connections are joined byte for byte: the protocols (SPDY/3.1,
// WebSocket channels, port-forward tunnels) are the kubelet's and the client's business.
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { nameOf, namespaceOf } from '../../api/meta/object.js';
import type { Pod } from '../../api/types.js';
import { StatusError } from '../../machinery/status.js';
import { apiError } from '../../registry/errors.js';
import { isUpgrade, takeUpgrade } from '../../machinery/http-upgrade.js';
import { forward, untilEitherCloses } from '../../machinery/streams/forward.js';
import { auditOf } from '../audit/auditor.js';
import type { RequestContext } from '../request/context.js';
import { unreachable } from './kubelet-client.js';
import { nodeOf, requireKubelet } from './pod-log.js';
import { backendError, errorBody, forwardableHeaders, relay } from './relay.js';
import { joinTunnel, spdyUpgradeHeaders, tunneledSpdyProtocols, tunnelProtocol, webSocketAccept, webSocketHandshakeError } from './tunnel.js';

const KUBELET_PATHS: Readonly<Record<string, string>> = { exec: 'exec', attach: 'attach', portforward: 'portForward' };

/** What the client's own request says of itself, kept from the kubelet. */
const CLIENT_CREDENTIALS = ['authorization', 'host', 'cookie', 'impersonate-user', 'impersonate-group', 'impersonate-uid'];

const names = (cs: readonly { name?: string | null }[] | null | undefined): string => (cs ?? []).map((c) => c.name ?? '').join(' ');

/** streamLocation: the named container must exist; unnamed, the pod must have exactly one. */
export function containerFor(pod: Pod, requested: string): string {
  const name = nameOf(pod);
  const containers = pod.spec?.containers ?? [];
  if (requested === '') {
    if (containers.length === 1) return containers[0]!.name ?? '';
    if (containers.length === 0) throw StatusError.badRequest(`a container name must be specified for pod ${name}`);
    let msg = `a container name must be specified for pod ${name}, choose one of: [${names(containers)}]`;
    if ((pod.spec?.initContainers ?? []).length > 0) msg += ` or one of the init containers: [${names(pod.spec?.initContainers)}]`;
    throw StatusError.badRequest(msg);
  }
  const all = [...containers, ...(pod.spec?.initContainers ?? []), ...(pod.spec?.ephemeralContainers ?? [])];
  if (!all.some((c) => c.name === requested)) throw StatusError.badRequest(`container ${requested} is not valid for pod ${name}`);
  return requested;
}

export async function handlePodConnect(ctx: RequestContext): Promise<void> {
  const sub = ctx.info.subresource;
  const kubeletPath = KUBELET_PATHS[sub]!;
  const method = ctx.req.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST') throw apiError.methodNotAllowed();
  const store = ctx.registry.store('', 'pods');
  if (!store) throw apiError.unknownResource();
  const pod = (await store.get(ctx.info.namespace, ctx.info.name)) as Pod;
  const raw = ctx.req.url ?? '';
  const q = raw.indexOf('?');
  const query = q < 0 ? '' : raw.slice(q);
  let path: string;
  const ns = encodeURIComponent(namespaceOf(pod));
  const podName = encodeURIComponent(nameOf(pod));
  if (sub === 'portforward') path = `/${kubeletPath}/${ns}/${podName}${query}`;
  else {
    const container = containerFor(pod, new URLSearchParams(query).get('container') ?? '');
    path = `/${kubeletPath}/${ns}/${podName}/${encodeURIComponent(container)}${query}`;
  }
  const nodeName = pod.spec?.nodeName ?? '';
  if (nodeName === '') throw StatusError.badRequest(`pod ${nameOf(pod)} does not have a host assigned`);
  if (!isUpgrade(ctx.req)) throw StatusError.badRequest('Upgrade request required');
  // kubectl's SPDY-in-WebSocket port-forward reaches the kubelet as SPDY (tunnel.ts).
  const tunneled = sub === 'portforward' ? tunneledSpdyProtocols(ctx.req) : [];
  if (tunneled.length > 0) {
    const refusal = webSocketHandshakeError(ctx.req);
    if (refusal) throw refusal;
  }
  const kubelet = requireKubelet(ctx);
  const loc = kubelet.location(await nodeOf(ctx, nodeName));
  const headers = forwardableHeaders(ctx.req.headers, CLIENT_CREDENTIALS, true);
  let answer;
  try {
    answer = await kubelet.upgrade(loc, path, tunneled.length > 0 ? { method: 'POST', headers: spdyUpgradeHeaders(headers, tunneled) } : { method, headers });
  } catch (e) {
    throw unreachable(loc, e);
  }
  if (!('upgraded' in answer)) {
    const { response } = answer;
    if (response.statusCode === 401 || response.statusCode === 403) throw backendError(response.statusCode, await errorBody(response), `pods/${sub}`, ctx.info.name);
    const abort = new AbortController();
    return relay(ctx, response, forwardableHeaders(response.headers), abort);
  }
  const { response, socket: kubeletSocket, head: kubeletHead } = answer.upgraded;
  let tunnel: string | undefined;
  if (tunneled.length > 0) {
    try {
      tunnel = tunnelProtocol(response);
    } catch (e) {
      kubeletSocket.destroy();
      throw e;
    }
  }
  const client = takeUpgrade(ctx.req, ctx.res);
  // Who ran what, as an audit event would say it (RequestResponse level keeps the command).
  const params = new URLSearchParams(query);
  ctx.log?.({
    msg: `pods/${sub}`,
    user: ctx.user.name,
    groups: ctx.user.groups,
    pod: `${namespaceOf(pod)}/${nameOf(pod)}`,
    ...(sub === 'portforward' ? { ports: [...params.getAll('ports'), ...params.getAll('port')] } : { container: path.split('?')[0]!.split('/').pop(), command: params.getAll('command') }),
  });
  if (!client) {
    kubeletSocket.destroy();
    return;
  }
  auditOf(ctx.req)?.responseStarted(response.statusCode ?? 101);
  if (tunnel !== undefined) {
    client.socket.write(webSocketAccept(ctx.req, tunnel));
    for (const s of [client.socket, kubeletSocket]) (s as Socket).setNoDelay?.(true);
    return joinTunnel(client.socket, client.head, kubeletSocket, kubeletHead);
  }
  await join(client.socket, client.head, response, kubeletSocket, kubeletHead);
}

/** Sends the kubelet's 101 to the client, then copies both ways until either side closes. */
function join(client: Duplex, clientHead: Buffer, response: { statusCode?: number; statusMessage?: string; rawHeaders: string[] }, kubelet: Duplex, kubeletHead: Buffer): Promise<void> {
  let lines = `HTTP/1.1 ${response.statusCode ?? 101} ${response.statusMessage || 'Switching Protocols'}\r\n`;
  for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) lines += `${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}\r\n`;
  client.write(`${lines}\r\n`);
  if (kubeletHead.length > 0) client.write(kubeletHead);
  if (clientHead.length > 0) kubelet.write(clientHead);
  for (const s of [client, kubelet]) (s as Socket).setNoDelay?.(true);
  // Each direction half-closes as the other side does; an error or a full close ends both.
  const { closed } = untilEitherCloses(client, kubelet);
  forward(client, kubelet);
  forward(kubelet, client);
  return closed;
}
