// pods/log (kube-apiserver's LogREST and pod.LogLocation): GET only; the query is a PodLogOptions
// (400 when a value does not convert, 422 Invalid PodLogOptions when it does not validate); the
// container must be named unless the pod has exactly one (ValidateContainer's messages); a pod
// not yet on a node has an empty log; otherwise the kubelet's /containerLogs answers, streamed
// as it comes (`follow` keeps it open), and a kubelet's refusal (400 `container "x" in pod "y" is
// waiting to start: ContainerCreating`, ...) becomes the API error Kubernetes makes of it.
// insecureSkipTLSVerifyBackend skips verifying the kubelet's serving certificate, as there.
import { nameOf } from '../../api/meta/object.js';
import type { Container, Node, Pod } from '../../api/types.js';
import { decodePodLogOptions, podLogQuery, PodLogOptionsDecodeError, validatePodLogOptions } from '../../machinery/podlogs/options.js';
import { StatusError } from '../../machinery/status.js';
import { apiError } from '../../registry/errors.js';
import { writeBytes } from '../http/respond.js';
import { namespaceOf, resolve, type RequestContext } from '../request/context.js';
import { backendError, clientGone, errorBody, relay } from './relay.js';
import { unreachable, type KubeletClient } from './kubelet-client.js';

const containerNames = (pod: Pod): string[] => [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? []), ...(pod.spec?.ephemeralContainers ?? [])].map((c: Container) => c.name ?? '');

/** ValidateContainer: the container a request reads. */
export function logContainer(pod: Pod, requested: string | undefined): string {
  const name = nameOf(pod);
  if (requested === undefined || requested === '') {
    const containers = pod.spec?.containers ?? [];
    if (containers.length === 1) return containers[0]!.name ?? '';
    if (containers.length === 0) throw StatusError.badRequest(`a container name must be specified for pod ${name}`);
    throw StatusError.badRequest(`a container name must be specified for pod ${name}, choose one of: [${containerNames(pod).join(' ')}]`);
  }
  if (!containerNames(pod).includes(requested)) throw StatusError.badRequest(`container ${requested} is not valid for pod ${name}`);
  return requested;
}

export function requireKubelet(ctx: RequestContext): KubeletClient {
  if (!ctx.kubelet) throw new StatusError(503, 'ServiceUnavailable', `${ctx.info.resource}/${ctx.info.subresource || 'proxy'} is not available: the API server has no kubelet client configured`);
  return ctx.kubelet;
}

export async function nodeOf(ctx: RequestContext, name: string): Promise<Node> {
  const store = ctx.registry.store('', 'nodes');
  if (!store) throw apiError.unknownResource();
  return (await store.get('', name)) as Node;
}

export async function handlePodLog(ctx: RequestContext): Promise<void> {
  if (ctx.info.verb !== 'get') throw apiError.methodNotAllowed();
  const { kv, store } = resolve(ctx);
  let opts;
  try {
    opts = decodePodLogOptions(ctx.query);
  } catch (e) {
    if (e instanceof PodLogOptionsDecodeError) throw StatusError.badRequest(e.message);
    throw e;
  }
  const errs = validatePodLogOptions(opts);
  if (errs.length > 0) throw apiError.invalid('PodLogOptions', '', ctx.info.name, errs);
  const namespace = namespaceOf(ctx, kv);
  const pod = (await store.get(namespace, ctx.info.name)) as Pod;
  const container = logContainer(pod, opts.container);
  const nodeName = pod.spec?.nodeName ?? '';
  // A pod on no node yet: an empty log, as LogLocation's nil location gives.
  if (nodeName === '') return writeBytes(ctx.res, 200, 'text/plain', '');
  const kubelet = requireKubelet(ctx);
  const loc = kubelet.location(await nodeOf(ctx, nodeName));
  const path = `/containerLogs/${encodeURIComponent(namespace)}/${encodeURIComponent(nameOf(pod))}/${encodeURIComponent(container)}`;
  const query = podLogQuery(opts).toString();
  const abort = clientGone(ctx);
  let upstream;
  try {
    upstream = await kubelet.request(loc, `${path}${query === '' ? '' : `?${query}`}`, { method: 'GET', signal: abort.signal, insecureSkipTLSVerify: opts.insecureSkipTLSVerifyBackend });
  } catch (e) {
    throw unreachable(loc, e);
  }
  const code = upstream.statusCode ?? 502;
  if (code < 200 || code > 206) throw backendError(code, await errorBody(upstream), 'pods/log', ctx.info.name);
  await relay(ctx, upstream, { 'content-type': 'text/plain' }, abort);
}
