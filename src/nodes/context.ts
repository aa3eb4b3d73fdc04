// What the agent's parts (heartbeats.ts, pod-lifecycle.ts) share: the nodes, the options, the
// counters, the clock, the log, and what the pods wait for before they start.
import type { Pod } from '../api/types.js';
import type { Clock } from '../client/clock.js';
import type { Log, NodeAgentOptions, NodeAgentStats } from './options.js';
import type { SimNode } from './sim-node.js';

export interface AgentContext {
  readonly nodes: ReadonlyMap<string, SimNode>;
  readonly opts: NodeAgentOptions;
  readonly stats: NodeAgentStats;
  readonly clock: Clock;
  readonly log: Log;
  /** Whether a pod's volumes are attached to its node, so its containers may start (absent: no wait). */
  readonly volumesReady?: (pod: Pod, nodeName: string) => boolean;
}
