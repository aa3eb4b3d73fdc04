// The connections the API server makes to nodes for a request (kube-apiserver's Connecter
// subresources): pods/log, exec, attach and portforward, the proxies of pods, services and nodes,
// and the legacy proxy verb.
import type { RequestContext } from '../request/context.js';
import { handlePodConnect } from './connect.js';
import { handlePodLog } from './pod-log.js';
import { handleNodeProxy, handlePodProxy, handleServiceProxy } from './proxy.js';

export { handleLegacyProxy } from './proxy.js';
export { KubeletClient, type KubeletClientOptions } from './kubelet-client.js';

const CONNECTIONS: Readonly<Record<string, (ctx: RequestContext) => Promise<void>>> = {
  'pods/log': handlePodLog,
  'pods/exec': handlePodConnect,
  'pods/attach': handlePodConnect,
  'pods/portforward': handlePodConnect,
  'pods/proxy': handlePodProxy,
  'services/proxy': handleServiceProxy,
  'nodes/proxy': handleNodeProxy,
};

/** The handler of a core/v1 connection subresource (undefined: not one). */
export function connectionHandler(ctx: RequestContext): ((ctx: RequestContext) => Promise<void>) | undefined {
  if (!isConnection(ctx.info)) return undefined;
  return CONNECTIONS[`${ctx.info.resource}/${ctx.info.subresource}`];
}

/**
 * Whether a request is for a connection subresource. Their answers are the node's or the
 * container's bytes, so, as kube-apiserver's connect routes produce any media type, an Accept
 * header the API's own formats do not meet is no reason for a 406.
 */
export function isConnection(info: Pick<RequestContext['info'], 'group' | 'resource' | 'subresource'>): boolean {
  return info.group === '' && Object.hasOwn(CONNECTIONS, `${info.resource}/${info.subresource}`);
}
