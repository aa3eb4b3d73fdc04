// The simulated nodes as a library: `kubelite nodes` and `kubelite up` compose it.
//
//   const nodes = await startNodes({ clientset, nodes: 3 });
//   ...
//   await nodes.stop();
//
// Without `informers`, a shared informer factory of its own is created and started (one list+watch
// of pods and one of nodes for all simulated nodes, through `clientset`: the agent's own identity,
// not a node's — Kubernetes' Node authorizer lets a node read only its own Node and pods once
// AuthorizeNodeWithSelectors is on). Each node's writes and events go through `nodeClientset(name)`
// when given. Behaviour
// annotations: see README.md.
import { EventBroadcaster } from '../client/events.js';
import { CSI_DRIVER_NAME } from './csi/names.js';
import { SharedInformerFactory } from '../client/informers.js';
import { agentView } from './informer-view.js';
import type { InformerFactory } from '../client/types.js';
import { NodeAgent, type NodeAgentOptions, type NodeAgentStats } from './agent.js';
import { startKubeletServer, type KubeletServer, type KubeletServerOptions } from './kubelet/server.js';

export { NodeAgent, LEASE_NAMESPACE, SIMULATE_ANNOTATION, KUBELET_VERSION, type NodeAgentOptions, type NodeAgentStats } from './agent.js';
export { containerBehaviour, DEFAULT_BEHAVIOUR, ANNOTATION_PREFIX, type BehaviourDefaults, type ContainerBehaviour } from './behaviour.js';
export { parseShellForm, parseShellScript } from './shell-form.js';
export { simulatePod, containerTimeline, type SimulateInput, type SimulateResult } from './simulate.js';

export interface StartNodesOptions extends Omit<NodeAgentOptions, 'informers' | 'recorder'> {
  informers?: InformerFactory;
  /** Emit kubelet events (default true): through `recorder`, or a broadcaster of its own. */
  events?: boolean;
  recorder?: NodeAgentOptions['recorder'];
  /**
   * Serve the kubelet API of the nodes (kubelet/server.ts) on this port (0: a free one), reported
   * as every Node's kubelet endpoint. Absent: none is served (the nodes report `kubeletPort`).
   */
  kubeletServer?: Omit<KubeletServerOptions, 'host' | 'log'>;
}

export interface NodesHandle {
  readonly agent: NodeAgent;
  readonly nodeNames: string[];
  readonly stats: NodeAgentStats;
  /** The kubelet API listener, when one was asked for. */
  readonly kubelet?: KubeletServer;
  stop(): Promise<void>;
}

/** Registers the nodes (resolves once every Node and Lease exists) and runs the pods bound to them. */
export async function startNodes(opts: StartNodesOptions): Promise<NodesHandle> {
  const abort = new AbortController();
  let informers = opts.informers;
  const own = informers === undefined;
  // Caches of what the nodes read (informer-view.ts): no managedFields, Nodes without what they report themselves.
  if (!informers) informers = new SharedInformerFactory(opts.clientset, { resyncPeriodMs: 0, dropManagedFields: true, transform: agentView, ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.log ? { log: opts.log } : {}) });
  // One broadcaster per node (created on its first event): events name their node as source.host.
  const broadcasters = new Map<string, EventBroadcaster>();
  let recorder = opts.recorder;
  if (!recorder && opts.events !== false) {
    const recorders = new Map<string, ReturnType<EventBroadcaster['newRecorder']>>();
    recorder = (nodeName: string) => {
      let r = recorders.get(nodeName);
      if (!r) {
        const b = new EventBroadcaster({ clientset: opts.nodeClientset?.(nodeName) ?? opts.clientset, host: nodeName, ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.log ? { log: opts.log } : {}) });
        broadcasters.set(nodeName, b);
        recorders.set(nodeName, (r = b.newRecorder('kubelet')));
      }
      return r;
    };
  }
  // The CSI driver's own broadcaster: its events about claims come from csi.kubelite.dev, not a kubelet.
  let csiRecorder = opts.csiRecorder;
  if (!csiRecorder && opts.events !== false && opts.csiDriver !== false) {
    const b = new EventBroadcaster({ clientset: opts.clientset, host: '', ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.log ? { log: opts.log } : {}) });
    broadcasters.set('', b);
    csiRecorder = b.newRecorder(CSI_DRIVER_NAME);
  }
  const agent = new NodeAgent({ ...opts, informers, ...(recorder ? { recorder } : {}), ...(csiRecorder ? { csiRecorder } : {}) });
  let kubelet: KubeletServer | undefined;
  try {
    if (opts.kubeletServer) {
      kubelet = await startKubeletServer({ ...opts.kubeletServer, host: agent, ...(opts.log ? { log: opts.log } : {}) });
      agent.opts.kubeletPort = kubelet.port;
    }
    await agent.start();
  } catch (e) {
    await kubelet?.close();
    await agent.stop();
    for (const b of broadcasters.values()) b.shutDown();
    throw e;
  }
  if (own) informers.start(abort.signal);
  return {
    agent,
    nodeNames: agent.nodeNames(),
    stats: agent.stats,
    ...(kubelet ? { kubelet } : {}),
    async stop() {
      await kubelet?.close();
      await agent.stop();
      abort.abort();
      for (const b of broadcasters.values()) b.shutDown();
    },
  };
}
