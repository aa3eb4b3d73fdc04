// The proxy subresources (kube-apiserver's ProxyREST and each kind's ResourceLocation), every
// HTTP method, streamed both ways:
//   pods/proxy      `<pod>`, `<pod>:<port>` or `<scheme>:<pod>:<port>`; without a port, the first
//                   declared containerPort (else none: port 80). A simulated pod's IP does not
//                   exist on the host, so the request goes to its node's kubelet listener, which
//                   answers as the container's HTTP server (src/nodes/kubelet/container-http.ts).
//   services/proxy  `<svc>`, `<svc>:<port name or number>`, `<scheme>:<svc>:<port>`: a ready
//                   address of the Service's Endpoints with that port, then as pods/proxy to the
//                   pod the address names.
//   nodes/proxy     `<node>` (or `<node>:<kubelet port>`): the node's kubelet API.
// and the legacy `/api/v1/proxy/namespaces/<ns>/pods|services/<name>/...` and
// `/api/v1/proxy/nodes/<name>/...` paths, authorized with the `proxy` verb on the resource.
import { nameOf } from '../../api/meta/object.js';
import type { Endpoints, Node, Pod, Service } from '../../api/types.js';
import { StatusError } from '../../machinery/status.js';
import { apiError } from '../../registry/errors.js';
import type { RequestContext } from '../request/context.js';
import { nodeOf, requireKubelet } from './pod-log.js';
import { unreachable, type KubeletLocation } from './kubelet-client.js';
import { backendError, clientGone, errorBody, forwardableHeaders, relay } from './relay.js';

/** The header the simulated container's server sets when nobody listens on the port. */
const DIAL_ERROR_HEADER = 'x-kubelite-dial-error';

/** utilnet.SplitSchemeNamePort: `name`, `name:port`, `scheme:name:port` (scheme http or https). */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) [name, port] = [parts[0]!, parts[1]!];
  else if (parts.length === 3) [scheme, name, port] = [parts[0]!, parts[1]!, parts[2]!];
  else return undefined;
  if (name === '' || (parts.length > 1 && port === '') || (scheme !== '' && scheme !== 'http' && scheme !== 'https')) return undefined;
  return { scheme, name, port };
}

/** The path after the proxied object (`.../pods/<id>/proxy<rest>` or the legacy form), raw, with its query. */
function proxiedPath(ctx: RequestContext): string {
  const raw = ctx.req.url ?? '/';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 ? '' : raw.slice(q);
  const m = ctx.info.verb === 'proxy' ? /^\/api\/v1\/proxy\/(?:namespaces\/[^/]+\/)?[^/]+\/[^/]+(\/.*)?$/.exec(path) : /\/proxy(\/.*)?$/.exec(path);
  return `${m?.[1] ?? '/'}${query}`;
}

async function get<T>(ctx: RequestContext, resource: string, namespace: string, name: string): Promise<T> {
  const store = ctx.registry.store('', resource);
  if (!store) throw apiError.unknownResource();
  return (await store.get(namespace, name)) as T;
}

/** Sends the request on to the kubelet at `loc` (`path` there) and the answer back. */
async function forward(ctx: RequestContext, loc: KubeletLocation, path: string, subject: string): Promise<void> {
  const kubelet = requireKubelet(ctx);
  const abort = clientGone(ctx);
  const method = ctx.req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  let upstream;
  try {
    upstream = await kubelet.request(loc, path, {
      method,
      headers: forwardableHeaders(ctx.req.headers, ['authorization', 'host', 'cookie', 'impersonate-user', 'impersonate-group', 'impersonate-uid']),
      ...(hasBody ? { body: ctx.req } : {}),
      signal: abort.signal,
    });
  } catch (e) {
    throw unreachable(loc, e);
  }
  const dialError = upstream.headers[DIAL_ERROR_HEADER];
  if (dialError !== undefined) {
    const text = await errorBody(upstream);
    throw new StatusError(503, 'ServiceUnavailable', `error trying to reach service: ${text}`);
  }
  if (upstream.statusCode === 401 || upstream.statusCode === 403) {
    // The kubelet refused the API server itself: a configuration problem, reported as such.
    throw backendError(upstream.statusCode, await errorBody(upstream), subject, ctx.info.name);
  }
  await relay(ctx, upstream, forwardableHeaders(upstream.headers), abort);
}

/** A pod's simulated HTTP server on `port`, through its node's kubelet. */
async function toPod(ctx: RequestContext, pod: Pod, port: string, rest: string, subject: string): Promise<void> {
  const nodeName = pod.spec?.nodeName ?? '';
  const ip = pod.status?.podIP ?? '';
  // kube-apiserver also refuses loopback pod IPs, which it would dial itself; here the node's
  // kubelet dials them, and the process runtime's pods live on loopback addresses.
  if (nodeName === '' || !/^\d+\.\d+\.\d+\.\d+$|:/.test(ip) || ip === '0.0.0.0' || ip === '::') throw StatusError.badRequest('address not allowed');
  const loc = requireKubelet(ctx).location(await nodeOf(ctx, nodeName));
  const ns = pod.metadata?.namespace ?? '';
  await forward(ctx, loc, `/containerHTTP/${encodeURIComponent(ns)}/${encodeURIComponent(nameOf(pod))}/${port === '' ? '80' : port}${rest}`, subject);
}

export async function handlePodProxy(ctx: RequestContext): Promise<void> {
  const id = splitSchemeNamePort(ctx.info.name);
  if (!id) throw StatusError.badRequest(`invalid pod request ${JSON.stringify(ctx.info.name)}`);
  const pod = await get<Pod>(ctx, 'pods', ctx.info.namespace, id.name);
  let port = id.port;
  if (port === '') port = String((pod.spec?.containers ?? []).find((c) => (c.ports ?? []).length > 0)?.ports?.[0]?.containerPort ?? '');
  await toPod(ctx, pod, port, proxiedPath(ctx), 'pods/proxy');
}

export async function handleServiceProxy(ctx: RequestContext): Promise<void> {
  const id = splitSchemeNamePort(ctx.info.name);
  if (!id) throw StatusError.badRequest(`invalid service request ${JSON.stringify(ctx.info.name)}`);
  const ns = ctx.info.namespace;
  let portName = id.port;
  if (/^\d+$/.test(portName)) {
    const svc = await get<Service>(ctx, 'services', ns, id.name);
    const found = (svc.spec?.ports ?? []).find((p) => p.port === Number(portName));
    if (!found) throw new StatusError(503, 'ServiceUnavailable', `no service port ${portName} found for service ${JSON.stringify(id.name)}`);
    portName = found.name ?? '';
  }
  const eps = await get<Endpoints>(ctx, 'endpoints', ns, id.name).catch((e: unknown) => {
    if (e instanceof StatusError && e.code === 404) throw new StatusError(503, 'ServiceUnavailable', `no endpoints available for service ${JSON.stringify(id.name)}`);
    throw e;
  });
  const subsets = eps.subsets ?? [];
  if (subsets.length === 0) throw new StatusError(503, 'ServiceUnavailable', `no endpoints available for service ${JSON.stringify(id.name)}`);
  // A random subset and address to start from, as kube-apiserver spreads proxied requests.
  const seed = Math.floor(Math.random() * subsets.length);
  for (let i = 0; i < subsets.length; i++) {
    const ss = subsets[(seed + i) % subsets.length]!;
    const addresses = ss.addresses ?? [];
    const port = (ss.ports ?? []).find((p) => (p.name ?? '') === portName);
    if (addresses.length === 0 || !port) continue;
    const start = Math.floor(Math.random() * addresses.length);
    for (let t = 0; t < addresses.length; t++) {
      const addr = addresses[(start + t) % addresses.length]!;
      // Only an address of a pod that has that IP is valid (isValidAddress).
      if (addr.targetRef?.kind !== 'Pod' || !addr.targetRef.name) continue;
      const pod = await get<Pod>(ctx, 'pods', addr.targetRef.namespace ?? ns, addr.targetRef.name).catch(() => undefined);
      if (!pod || !(pod.status?.podIPs ?? [{ ip: pod.status?.podIP }]).some((p) => p?.ip === addr.ip)) continue;
      return toPod(ctx, pod, String(port.port), proxiedPath(ctx), 'services/proxy');
    }
  }
  throw new StatusError(503, 'ServiceUnavailable', `no endpoints available for service ${JSON.stringify(ctx.info.name)}`);
}

export async function handleNodeProxy(ctx: RequestContext): Promise<void> {
  const id = splitSchemeNamePort(ctx.info.name);
  if (!id) throw StatusError.badRequest(`invalid node request ${JSON.stringify(ctx.info.name)}`);
  const node = await get<Node>(ctx, 'nodes', '', id.name);
  const loc = requireKubelet(ctx).location(node);
  // Only the kubelet listens on a simulated node: any other port refuses the connection.
  if (id.port !== '' && Number(id.port) !== loc.port) throw unreachable({ host: node.status?.addresses?.[0]?.address ?? id.name, port: id.port }, Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
  await forward(ctx, loc, proxiedPath(ctx), 'nodes/proxy');
}

/** The `proxy` verb's paths: /api/v1/proxy/namespaces/<ns>/<pods|services>/<name>/..., /api/v1/proxy/nodes/<name>/... */
export function handleLegacyProxy(ctx: RequestContext): Promise<void> {
  const { group, resource } = ctx.info;
  if (group === '' && resource === 'pods' && ctx.info.namespace !== '') return handlePodProxy(ctx);
  if (group === '' && resource === 'services' && ctx.info.namespace !== '') return handleServiceProxy(ctx);
  if (group === '' && resource === 'nodes') return handleNodeProxy(ctx);
  throw apiError.unknownResource();
}
