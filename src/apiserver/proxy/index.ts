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
  if (ctx.info.group !== '') return undefined;
  const key = `${ctx.info.resource}/${ctx.info.subresource}`;
  return Object.hasOwn(CONNECTIONS, key) ? CONNECTIONS[key] : undefined;
}
