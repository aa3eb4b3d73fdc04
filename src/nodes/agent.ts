// The simulated node agent: registers Node objects and keeps them alive (heartbeats.ts), and runs
// the pods bound to them through the states a kubelet reports (pod-lifecycle.ts), with one
// list+watch of pods and one of nodes for all of its nodes. See README.md in this folder.
import { nameOf } from '../api/meta/object.js';
import type { Node, Pod } from '../api/types.js';
import { realClock, type Clock } from '../client/clock.js';
import type { Clientset, EventRecorder } from '../client/types.js';
import { AttachedVolumes } from './csi/attached-volumes.js';
import { SimulatedCSIDriver } from './csi/driver.js';
import { NodeHeartbeats, NODES } from './heartbeats.js';
import type { KubeletHost } from './kubelet/host.js';
import { EvictionManager } from './eviction-manager.js';
import { ContainerLogs } from './logs/container-logs.js';
import type { Log, NodeAgentOptions, NodeAgentStats } from './options.js';
import { BOUND_PODS, PodLifecycle, PODS } from './pod-lifecycle.js';
import type { ProcessRuntime } from './process/runtime.js';
import { simNodes, type SimNode } from './sim-node.js';

export { LEASE_NAMESPACE } from './heartbeats.js';
export { KUBELET_VERSION, SIMULATE_ANNOTATION } from './node-status.js';
export type { NodeAgentOptions, NodeAgentStats } from './options.js';

export class NodeAgent implements KubeletHost {
  readonly nodes: Map<string, SimNode>;
  readonly clock: Clock;
  readonly logs: ContainerLogs;
  readonly startedAt: number;
  readonly stats: NodeAgentStats = { nodeWrites: 0, leaseWrites: 0, podStatusWrites: 0, podDeletes: 0, eventsDropped: 0, errors: 0 };
  private readonly heartbeats: NodeHeartbeats;
  private readonly pods: PodLifecycle;
  private readonly csi: SimulatedCSIDriver | undefined;
  private readonly eviction: EvictionManager;
  private readonly abort = new AbortController();

  constructor(readonly opts: NodeAgentOptions) {
    const clock: Clock = (this.clock = opts.clock ?? realClock);
    const log: Log = opts.log ?? (() => {});
    this.startedAt = clock.now();
    this.nodes = simNodes(opts);
    this.logs = new ContainerLogs(() => clock.now());
    const attached = opts.csiDriver === false ? undefined : new AttachedVolumes(opts.informers, () => this.pods?.requeueWaitingForVolumes());
    const ctx = { nodes: this.nodes, opts, stats: this.stats, clock, log, ...(attached ? { volumesReady: attached.ready.bind(attached) } : {}) };
    this.pods = new PodLifecycle(ctx, this.logs);
    if (attached) {
      const recorder = opts.recorder;
      const podRecorder = (nodeName: string): EventRecorder | undefined => (typeof recorder === 'function' ? recorder(nodeName) : recorder);
      this.csi = new SimulatedCSIDriver(ctx, opts.informers, podRecorder, opts.csiRecorder);
    }
    this.heartbeats = new NodeHeartbeats(
      ctx,
      (node) => this.pods.forgetNode(node),
      (node) => this.pods.requeueNode(node),
      (node) => void this.csi?.registerNode(node),
    );
    this.eviction = new EvictionManager(
      ctx,
      (node) => this.podsOf(node),
      (node) => opts.informers.informer(NODES).lister.get('', node),
      (key, message) => this.pods.evict(key, message),
      (node) => this.heartbeats.reportStatus(node),
    );
  }

  /** Requests the informers and registers the nodes; resolves once every node and lease exists. */
  async start(): Promise<void> {
    const podInformer = this.opts.informers.informer(PODS, BOUND_PODS);
    const nodeInformer = this.opts.informers.informer(NODES);
    await this.heartbeats.registerAll();
    this.heartbeats.watch(nodeInformer);
    this.pods.start(podInformer);
    if (this.csi) {
      // A pod waiting for its volumes starts once the attach/detach controller lists them on the node.
      nodeInformer.addEventHandler({
        onUpdate: (old, cur) => {
          const node = this.nodes.get(nameOf(cur));
          if (node && JSON.stringify((old as Node).status?.volumesAttached ?? []) !== JSON.stringify((cur as Node).status?.volumesAttached ?? [])) this.pods.requeueWaitingForVolumes();
        },
      });
      await this.csi.start(this.abort.signal);
    }
    this.eviction.start();
  }

  async stop(): Promise<void> {
    this.heartbeats.stop();
    this.eviction.stop();
    this.abort.abort();
    await Promise.all([this.pods.stop(), this.csi?.stopped()]);
  }

  get runtime(): ProcessRuntime | undefined {
    return this.pods.runtime;
  }

  /** The nodes' InternalIPs. */
  nodeIPs(): string[] {
    return [...this.nodes.values()].map((n) => n.ip);
  }

  registeredCount(): number {
    let n = 0;
    for (const node of this.nodes.values()) if (node.registered) n++;
    return n;
  }

  nodeNames(): string[] {
    return [...this.nodes.keys()];
  }

  hasNode(name: string): boolean {
    const node = this.nodes.get(name);
    return node !== undefined && node.mode !== 'gone';
  }

  podsOf(node: string): Pod[] {
    return this.opts.informers.informer(PODS, BOUND_PODS).lister.byIndex('nodeName', node) as Pod[];
  }

  pod(namespace: string, name: string): Pod | undefined {
    return this.opts.informers.informer(PODS, BOUND_PODS).lister.get(namespace, name);
  }

  clientOf(node: string): Clientset {
    const name = this.nodes.has(node) ? node : this.nodeNames()[0];
    return name === undefined ? this.opts.clientset : this.nodes.get(name)!.client;
  }
}
