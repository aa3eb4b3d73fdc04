// What the simulated node agent is told (flags of `kubelite nodes`) and what it counts, shared by
// its parts: node registration and heartbeats (heartbeats.ts) and the pod lifecycle
// (pod-lifecycle.ts), composed by agent.ts.
import type { Clock } from '../client/clock.js';
import type { Clientset, EventRecorder, InformerFactory } from '../client/types.js';
import type { BehaviourDefaults } from './behaviour.js';
import type { EvictionOptions } from './eviction.js';
import type { ImagePullOptions } from './image-pull.js';
import type { ProcessRuntimeOptions } from './process/runtime.js';

/** Structured log lines (`msg` plus fields). */
export type Log = (fields: Record<string, unknown>) => void;

export interface NodeAgentOptions {
  /**
   * The agent's own client: the Gone fault's Node delete, the not-ready taint with
   * `lifecycleTaints`, and every node's writes when `nodeClientset` is absent.
   */
  clientset: Clientset;
  /**
   * The client each node writes through — its Node and status, its Lease, its pods' status and
   * deletes — as a kubelet with its own credential (`system:node:<name>` in `system:nodes`), so
   * the Node authorizer and NodeRestriction hold it to itself and its pods. Default: `clientset`.
   */
  nodeClientset?: (nodeName: string) => Clientset;
  /** Shared informers (pods and nodes are requested from it); started by the caller. */
  informers: InformerFactory;
  /** How many nodes (default 3). */
  nodes?: number;
  namePrefix?: string;
  /** The first node's index (names are prefix + index). Default 0. */
  firstIndex?: number;
  cpu?: string;
  memory?: string;
  pods?: number;
  ephemeralStorage?: string;
  zones?: string[];
  region?: string;
  arch?: string;
  instanceType?: string;
  /** Extra labels of every node. */
  labels?: Record<string, string>;
  leaseRenewIntervalMs?: number;
  leaseDurationSeconds?: number;
  /** How often node status is computed (and written when it changed). Default 10 s. */
  statusUpdateFrequencyMs?: number;
  /** How often node status is written when nothing changed (kubelet's nodeStatusReportFrequency, 5 min). */
  statusReportFrequencyMs?: number;
  /** How long containers stay ContainerCreating. Default 0. */
  podStartDelayMs?: number;
  behaviour?: Partial<BehaviourDefaults>;
  /** Image pulls: their time (default 0), the images that fail, the image back-off's first wait (default 10 s). */
  imagePull?: Partial<ImagePullOptions>;
  /** The kubelet's eviction manager: --eviction-hard, its monitoring interval, the pressure transition period. */
  eviction?: Partial<EvictionOptions>;
  /** Nodes that start NotReady: a count (the last ones) or names. */
  unreadyNodes?: number | string[];
  /**
   * Whether each node registers with its own spec.podCIDR (`10.<64 + i/256>.<i%256>.0/24`), as a
   * kubelet given --pod-cidr does. Default true; false: the node registers without one and waits for
   * the controller manager's nodeipam (--allocate-node-cidrs) to assign it, starting no pod until then.
   */
  registerPodCIDR?: boolean;
  /**
   * Whether the agent does the node lifecycle controller's taint work itself: the
   * node.kubernetes.io/not-ready:NoSchedule taint removed once a node is Ready and put back while
   * it is NotReady. Default true, for a cluster without a controller manager; `kubelite up` turns it
   * off, as its controller manager runs the nodelifecycle controller.
   */
  lifecycleTaints?: boolean;
  /**
   * The port of the nodes' kubelet API (one listener for all of them, kubelet/server.ts), reported
   * as each Node's status.daemonEndpoints.kubeletEndpoint.Port. Default 10250.
   */
  kubeletPort?: number;
  /**
   * Whether the nodes run the simulated CSI driver csi.kubelite.dev (csi/driver.ts: attach,
   * provision, expand) and, as kubelets do, start a pod only once its volumes are attached. Default true.
   */
  csiDriver?: boolean;
  /**
   * Run the containers of the host-image allow-list as real processes (process/README.md); the
   * others stay simulated. Absent: every container is simulated.
   */
  processRuntime?: ProcessRuntimeOptions;
  /** Where kubelet events go (none when absent). */
  recorder?: EventRecorder | ((nodeName: string) => EventRecorder);
  /** Where the CSI driver's events about claims go (none when absent). */
  csiRecorder?: EventRecorder;
  /** Events per second across all nodes (beyond: dropped). Default 50, burst 200. */
  eventQps?: number;
  /** Concurrent pod status writers (default 16). */
  workers?: number;
  clock?: Clock;
  log?: Log;
}

export interface NodeAgentStats {
  nodeWrites: number;
  leaseWrites: number;
  podStatusWrites: number;
  podDeletes: number;
  eventsDropped: number;
  errors: number;
}

export function errMsg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
