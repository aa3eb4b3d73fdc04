// The simulated node agent: registers Node objects and keeps them alive (heartbeats.ts), and runs
// the pods bound to them through the states a kubelet reports (pod-lifecycle.ts), with one
// list+watch of pods and one of nodes for all of its nodes. See README.md in this folder.
import { realClock, type Clock } from '../client/clock.js';
import { NodeHeartbeats, NODES } from './heartbeats.js';
import type { Log, NodeAgentOptions, NodeAgentStats } from './options.js';
import { PodLifecycle, PODS } from './pod-lifecycle.js';
import { simNodes, type SimNode } from './sim-node.js';

export { LEASE_NAMESPACE } from './heartbeats.js';
export { KUBELET_VERSION, SIMULATE_ANNOTATION } from './node-status.js';
export type { NodeAgentOptions, NodeAgentStats } from './options.js';

export class NodeAgent {
  readonly nodes: Map<string, SimNode>;
  readonly stats: NodeAgentStats = { nodeWrites: 0, leaseWrites: 0, podStatusWrites: 0, podDeletes: 0, eventsDropped: 0, errors: 0 };
  private readonly heartbeats: NodeHeartbeats;
  private readonly pods: PodLifecycle;

  constructor(private readonly opts: NodeAgentOptions) {
    const clock: Clock = opts.clock ?? realClock;
    const log: Log = opts.log ?? (() => {});
    this.nodes = simNodes(opts);
    const ctx = { nodes: this.nodes, opts, stats: this.stats, clock, log };
    this.pods = new PodLifecycle(ctx);
    this.heartbeats = new NodeHeartbeats(
      ctx,
      (node) => this.pods.forgetNode(node),
      (node) => this.pods.requeueNode(node),
    );
  }

  /** Requests the informers and registers the nodes; resolves once every node and lease exists. */
  async start(): Promise<void> {
    const podInformer = this.opts.informers.informer(PODS);
    const nodeInformer = this.opts.informers.informer(NODES);
    await this.heartbeats.registerAll();
    this.heartbeats.watch(nodeInformer);
    this.pods.start(podInformer);
    this.heartbeats.startLoops();
  }

  async stop(): Promise<void> {
    this.heartbeats.stop();
    await this.pods.stop();
  }

  registeredCount(): number {
    let n = 0;
    for (const node of this.nodes.values()) if (node.registered) n++;
    return n;
  }

  nodeNames(): string[] {
    return [...this.nodes.keys()];
  }
}
