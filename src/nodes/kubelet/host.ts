// What the kubelet API server needs from the node agent: its nodes, the pods bound to each as the
// agent sees them, their container logs, and each node's client (for SubjectAccessReviews).
import type { Pod } from '../../api/types.js';
import type { Clock } from '../../client/clock.js';
import type { Clientset } from '../../client/types.js';
import type { ContainerLogs } from '../logs/container-logs.js';
import type { NodeAgentOptions } from '../options.js';
import type { ProcessRuntime } from '../process/runtime.js';

export interface KubeletHost {
  readonly opts: NodeAgentOptions;
  readonly clock: Clock;
  readonly logs: ContainerLogs;
  /** When the agent started (the nodes' boot time), ms. */
  readonly startedAt: number;
  nodeNames(): string[];
  hasNode(name: string): boolean;
  /** The pods bound to `node`. */
  podsOf(node: string): Pod[];
  pod(namespace: string, name: string): Pod | undefined;
  /** The process runtime, when containers run as processes (`--runtime process`). */
  readonly runtime?: ProcessRuntime | undefined;
  /** The client `node` acts through ('' : the agent's first node's). */
  clientOf(node: string): Clientset;
}
