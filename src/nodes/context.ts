// What the agent's parts (heartbeats.ts, pod-lifecycle.ts) share: the nodes, the options, the
// counters, the clock and the log.
import type { Clock } from '../client/clock.js';
import type { Log, NodeAgentOptions, NodeAgentStats } from './options.js';
import type { SimNode } from './sim-node.js';

export interface AgentContext {
  readonly nodes: ReadonlyMap<string, SimNode>;
  readonly opts: NodeAgentOptions;
  readonly stats: NodeAgentStats;
  readonly clock: Clock;
  readonly log: Log;
}
