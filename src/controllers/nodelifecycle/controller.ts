// The node lifecycle controller (kube-controller-manager's pkg/controller/nodelifecycle):
// - on every Node event, the NoSchedule taints follow the node's conditions and spec.unschedulable;
// - every --node-monitor-period, each node's health is judged from its Ready heartbeats and its
//   Lease: silent past --node-monitor-grace-period (--node-startup-grace-period before it first
//   reports), its conditions become Unknown; a node turning not Ready has its pods marked NotReady;
// - a not-Ready node is queued in its zone for the NoExecute taint (not-ready, or unreachable when
//   Unknown), applied at the zone's rate (zones.ts) and removed when it is Ready again; when every
//   zone is fully disrupted nothing is tainted (the control plane is the likelier culprit).
// With --enable-taint-manager=false it deletes the pods of a node not Ready for --pod-eviction-timeout
// instead of tainting, at the same rates (what Kubernetes did before taint-based eviction).
import { nameOf, namespaceOf, uidOf, controllerRefOf } from '../../api/meta/object.js';
import type { Lease, Node, NodeCondition, Pod, PodCondition } from '../../api/types.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, WorkQueue } from '../../client/types.js';
import { sleep } from '../../client/wait.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { rfc3339 } from '../common/time.js';
import { decideHealth, type NodeHealth } from './health.js';
import { newNodeCollectorMetrics, releaseNodeCollectorMetrics, type NodeCollectorMetrics } from './metrics.js';
import { hasTaint, nodeCondition, noScheduleTaintDiff, NOT_READY_NO_EXECUTE, swapTaints, UNREACHABLE_NO_EXECUTE } from './taints.js';
import { computeZoneState, RateLimitedTimedQueue, zoneKey, type ZoneState } from './zones.js';

export const NODES = { group: '', version: 'v1', resource: 'nodes' };
export const PODS = { group: '', version: 'v1', resource: 'pods' };
export const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** scheduler.NodeEvictionPeriod: how often the zone queues are drained. */
export const NODE_EVICTION_PERIOD_MS = 100;
/** The label that keeps a node out of the zone counts (control-plane nodes, for instance). */
const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

export interface NodeLifecycleOptions {
  monitorPeriodMs: number;
  monitorGraceMs: number;
  startupGraceMs: number;
  podEvictionTimeoutMs: number;
  evictionRate: number;
  secondaryEvictionRate: number;
  unhealthyZoneThreshold: number;
  largeClusterThreshold: number;
  taintManager: boolean;
}

function optionsOf(o: Readonly<Record<string, unknown>>): NodeLifecycleOptions {
  const num = (k: string, d: number): number => (typeof o[k] === 'number' ? (o[k] as number) : d);
  return {
    monitorPeriodMs: num('nodeMonitorPeriod', 5_000),
    monitorGraceMs: num('nodeMonitorGracePeriod', 40_000),
    startupGraceMs: num('nodeStartupGracePeriod', 60_000),
    podEvictionTimeoutMs: num('podEvictionTimeout', 300_000),
    evictionRate: num('nodeEvictionRate', 0.1),
    secondaryEvictionRate: num('secondaryNodeEvictionRate', 0.01),
    unhealthyZoneThreshold: num('unhealthyZoneThreshold', 0.55),
    largeClusterThreshold: num('largeClusterSizeThreshold', 50),
    taintManager: o.enableTaintManager !== false,
  };
}

const isDaemonSetPod = (pod: Pod): boolean => controllerRefOf(pod)?.kind === 'DaemonSet';

export class NodeLifecycleController implements Controller {
  readonly name = 'nodelifecycle';
  readonly opts: NodeLifecycleOptions;
  readonly metrics: NodeCollectorMetrics;
  /** Nodes whose NoSchedule taints should be looked at. */
  readonly nodeUpdates: WorkQueue<string>;
  readonly zoneStates = new Map<string, ZoneState>();
  /** Per zone, the nodes waiting for their NoExecute taint (or, without the taint manager, their pods' eviction). */
  readonly zoneQueues = new Map<string, RateLimitedTimedQueue>();
  private readonly known = new Map<string, Node>();
  private readonly health = new Map<string, NodeHealth>();
  private readonly retryMarkPods = new Set<string>();
  private readonly nodeLister: Lister;
  private readonly podLister: Lister;
  private readonly leaseLister: Lister;
  private readonly nodeClient: ResourceClient;
  private readonly podClient: ResourceClient;
  private readonly recorder: EventRecorder;

  constructor(private readonly ctx: ControllerContext) {
    this.opts = optionsOf(ctx.options);
    this.metrics = newNodeCollectorMetrics();
    this.nodeUpdates = newRateLimitingQueue<string>({ name: 'node_lifecycle_controller' });
    const nodes = ctx.informers.informer(NODES);
    this.nodeLister = nodes.lister;
    this.podLister = ctx.informers.informer(PODS).lister;
    this.leaseLister = ctx.informers.informer(LEASES).lister;
    this.nodeClient = ctx.clientset.resource(NODES);
    this.podClient = ctx.clientset.resource(PODS);
    this.recorder = ctx.recorder('node-controller');
    nodes.addEventHandler({
      onAdd: (n) => this.nodeUpdates.add(nameOf(n)),
      onUpdate: (_o, n) => this.nodeUpdates.add(nameOf(n)),
    });
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    const loop = async (periodMs: number, pass: () => Promise<void>) => {
      while (!signal.aborted) {
        await pass().catch((err: unknown) => this.ctx.log({ controller: this.name, msg: 'pass failed', err: err instanceof Error ? err.message : String(err) }));
        await sleep(periodMs, signal);
      }
    };
    try {
      await Promise.all([
        runSyncWorkers(this.nodeUpdates, workers, signal, (name) => this.doNoScheduleTaintingPass(name), (name, err) =>
          this.ctx.log({ controller: this.name, msg: 'failed to taint node', node: name, err: err instanceof Error ? err.message : String(err) }),
        ),
        loop(this.opts.monitorPeriodMs, () => this.monitorNodeHealth()),
        loop(NODE_EVICTION_PERIOD_MS, () => (this.opts.taintManager ? this.doNoExecuteTaintingPass() : this.doEvictionPass())),
      ]);
    } finally {
      releaseNodeCollectorMetrics(this.metrics);
    }
  }

  /** doNoScheduleTaintingPass. */
  async doNoScheduleTaintingPass(name: string): Promise<void> {
    const node = this.nodeLister.get('', name) as Node | undefined;
    if (!node) return;
    const { add, remove } = noScheduleTaintDiff(node);
    if (add.length === 0 && remove.length === 0) return;
    await this.swap(node, add, remove);
  }

  private async swap(node: Node, add: Parameters<typeof swapTaints>[2], remove: Parameters<typeof swapTaints>[3]): Promise<boolean> {
    try {
      return await swapTaints(this.nodeClient, node, add, remove, this.ctx.now());
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  private queueOf(zone: string): RateLimitedTimedQueue {
    let q = this.zoneQueues.get(zone);
    if (!q) {
      q = new RateLimitedTimedQueue(this.opts.evictionRate, 1, () => this.ctx.now());
      this.zoneQueues.set(zone, q);
    }
    return q;
  }

  private podsOf(node: string): Pod[] {
    return this.podLister.byIndex('nodeName', node) as Pod[];
  }

  private nodeEvent(node: Node, reason: string, message: string): void {
    // Kubernetes names the node's uid after the node in these events
    this.recorder.event({ apiVersion: 'v1', kind: 'Node', metadata: { name: nameOf(node), uid: nameOf(node) } }, 'Normal', reason, message);
  }

  /** monitorNodeHealth: one pass over every node, then the zones' states. */
  async monitorNodeHealth(): Promise<void> {
    const nodes = this.nodeLister.list() as Node[];
    const names = new Set(nodes.map(nameOf));
    for (const node of nodes) {
      if (this.known.has(nameOf(node))) continue;
      this.known.set(nameOf(node), node);
      this.queueOf(zoneKey(node));
      this.nodeEvent(node, 'RegisteredNode', `Registered Node ${nameOf(node)} in Controller`);
      await this.markNodeAsReachable(node);
    }
    for (const [name, node] of this.known) {
      if (names.has(name)) continue;
      this.nodeEvent(node, 'RemovingNode', `Removing Node ${name} from Controller`);
      this.known.delete(name);
      this.health.delete(name);
    }
    const zoneConditions = new Map<string, (NodeCondition | undefined)[]>();
    await Promise.all(
      nodes.map(async (node) => {
        const current = await this.updateNodeHealth(node);
        if (current === false) return;
        if (!(EXCLUDE_DISRUPTION_LABEL in (node.metadata?.labels ?? {}))) {
          // (pushed, not copied: a copy per node is O(n²) for a pass over 10,000 nodes of one zone)
          const zone = zoneKey(node);
          const conditions = zoneConditions.get(zone);
          if (conditions) conditions.push(current);
          else zoneConditions.set(zone, [current]);
        }
      }),
    );
    await this.handleDisruption(zoneConditions, nodes);
  }

  /** The health decision for one node and what follows from it; false when its status could not be written. */
  private async updateNodeHealth(node: Node): Promise<NodeCondition | undefined | false> {
    const name = nameOf(node);
    const lease = this.leaseLister.get(NODE_LEASE_NAMESPACE, name) as Lease | undefined;
    const grace = { monitor: this.opts.monitorGraceMs, startup: this.opts.startupGraceMs };
    let decision = decideHealth(node, this.health.get(name), lease, this.ctx.now(), grace);
    if (decision.statusUpdate) {
      try {
        await this.nodeClient.update('', decision.statusUpdate as KubeObject, { subresource: 'status' });
      } catch (err) {
        if (isNotFound(err)) return false;
        // retried from a fresh read, as Kubernetes does
        try {
          const fresh = (await this.nodeClient.get('', name)) as Node;
          decision = decideHealth(fresh, this.health.get(name), lease, this.ctx.now(), grace);
          if (decision.statusUpdate) await this.nodeClient.update('', decision.statusUpdate as KubeObject, { subresource: 'status' });
        } catch (retryErr) {
          this.ctx.log({ controller: this.name, msg: 'failed to update node health; no pods will be evicted', node: name, err: (retryErr as Error).message });
          return false;
        }
      }
    }
    this.health.set(name, decision.health);
    const { observed, current } = decision;
    if (current) {
      if (this.opts.taintManager) await this.processTaintBasedEviction(node, observed);
      else await this.processPodEviction(node, observed, decision.health);
      const turnedNotReady = current.status !== 'True' && observed.status === 'True';
      if (turnedNotReady) this.nodeEvent(node, 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
      if (turnedNotReady || (this.retryMarkPods.has(name) && current.status !== 'True')) {
        try {
          await this.markPodsNotReady(name);
        } catch {
          this.retryMarkPods.add(name);
          return current;
        }
      }
    }
    this.retryMarkPods.delete(name);
    return current;
  }

  /** processTaintBaseEviction. */
  private async processTaintBasedEviction(node: Node, observed: NodeCondition): Promise<void> {
    const zone = zoneKey(node);
    const queue = this.queueOf(zone);
    if (observed.status === 'False') {
      if (hasTaint(node, UNREACHABLE_NO_EXECUTE)) await this.swap(node, [NOT_READY_NO_EXECUTE], [UNREACHABLE_NO_EXECUTE]);
      else {
        if (!hasTaint(node, NOT_READY_NO_EXECUTE)) queue.remove(nameOf(node));
        queue.add(nameOf(node), uidOf(node));
      }
    } else if (observed.status === 'Unknown') {
      if (hasTaint(node, NOT_READY_NO_EXECUTE)) await this.swap(node, [UNREACHABLE_NO_EXECUTE], [NOT_READY_NO_EXECUTE]);
      else {
        if (!hasTaint(node, UNREACHABLE_NO_EXECUTE)) queue.remove(nameOf(node));
        queue.add(nameOf(node), uidOf(node));
      }
    } else if (observed.status === 'True') {
      await this.markNodeAsReachable(node);
    }
  }

  /** markNodeAsReachable: the NoExecute taints go, and the node leaves its zone's queue. */
  private async markNodeAsReachable(node: Node): Promise<void> {
    this.zoneQueues.get(zoneKey(node))?.remove(nameOf(node));
    if (hasTaint(node, UNREACHABLE_NO_EXECUTE) || hasTaint(node, NOT_READY_NO_EXECUTE)) await this.swap(node, [], [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE]);
  }

  /** Without the taint manager: a node not Ready for --pod-eviction-timeout has its pods evicted (rate limited). */
  private async processPodEviction(node: Node, observed: NodeCondition, health: NodeHealth): Promise<void> {
    const queue = this.queueOf(zoneKey(node));
    const now = this.ctx.now();
    if (observed.status === 'False' && now > health.readyTransitionTimestamp + this.opts.podEvictionTimeoutMs) queue.add(nameOf(node), uidOf(node));
    else if (observed.status === 'Unknown' && now > health.probeTimestamp + this.opts.podEvictionTimeoutMs) queue.add(nameOf(node), uidOf(node));
    else if (observed.status === 'True') queue.remove(nameOf(node));
  }

  /** MarkPodsNotReady: the Ready condition of the node's pods turns False. */
  private async markPodsNotReady(node: string): Promise<void> {
    const errors: unknown[] = [];
    for (const pod of this.podsOf(node)) {
      const ready = (pod.status?.conditions ?? []).find((c) => c?.type === 'Ready');
      if (!ready || ready.status === 'False') continue;
      const next = structuredClone(pod);
      next.status!.conditions = (next.status!.conditions ?? []).map((c): PodCondition => (c?.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: rfc3339(this.ctx.now()) } : c));
      try {
        await this.podClient.update(namespaceOf(pod), next as KubeObject, { subresource: 'status' });
        this.recorder.event(pod as KubeObject, 'Warning', 'NodeNotReady', 'Node is not ready');
      } catch (err) {
        if (!isNotFound(err)) errors.push(err);
      }
    }
    if (errors.length > 0) throw errors[0];
  }

  /** handleDisruption: zone states, their queues' rates, and the metrics. */
  private async handleDisruption(zoneConditions: Map<string, (NodeCondition | undefined)[]>, nodes: Node[]): Promise<void> {
    const newStates = new Map<string, ZoneState>();
    let allAreFullyDisrupted = true;
    for (const [zone, conditions] of zoneConditions) {
      const [unhealthy, state] = computeZoneState(conditions, this.opts.unhealthyZoneThreshold);
      this.metrics.zones.set(zone, { size: conditions.length, health: (100 * (conditions.length - unhealthy)) / conditions.length, unhealthy });
      if (state !== 'FullDisruption') allAreFullyDisrupted = false;
      newStates.set(zone, state);
      if (!this.zoneStates.has(zone)) this.zoneStates.set(zone, 'Initial');
    }
    let allWereFullyDisrupted = true;
    for (const [zone, state] of [...this.zoneStates]) {
      if (!zoneConditions.has(zone)) {
        this.metrics.zones.set(zone, { size: 0, health: 100, unhealthy: 0 });
        this.zoneStates.delete(zone);
        continue;
      }
      if (state !== 'FullDisruption') {
        allWereFullyDisrupted = false;
        break;
      }
    }
    if (allAreFullyDisrupted && allWereFullyDisrupted) return;
    if (allAreFullyDisrupted) {
      this.ctx.log({ controller: this.name, msg: 'all nodes are not Ready: entering master disruption mode' });
      for (const node of nodes) await this.markNodeAsReachable(node);
      for (const zone of this.zoneStates.keys()) {
        this.queueOf(zone).swapLimiter(0);
        this.zoneStates.set(zone, 'FullDisruption');
      }
      return;
    }
    if (allWereFullyDisrupted) {
      this.ctx.log({ controller: this.name, msg: 'some nodes are Ready: exiting master disruption mode' });
      const now = this.ctx.now();
      for (const node of nodes) {
        const h = this.health.get(nameOf(node));
        if (h) this.health.set(nameOf(node), { ...h, probeTimestamp: now, readyTransitionTimestamp: now });
      }
      for (const zone of this.zoneStates.keys()) {
        this.setZoneRate(zone, zoneConditions.get(zone)?.length ?? 0, newStates.get(zone)!);
        this.zoneStates.set(zone, newStates.get(zone)!);
      }
      return;
    }
    for (const [zone, state] of this.zoneStates) {
      const next = newStates.get(zone)!;
      if (state === next) continue;
      this.ctx.log({ controller: this.name, msg: 'zone is now in a new state', zone, state: next });
      this.setZoneRate(zone, zoneConditions.get(zone)?.length ?? 0, next);
      this.zoneStates.set(zone, next);
    }
  }

  /** setLimiterInZone. */
  private setZoneRate(zone: string, zoneSize: number, state: ZoneState): void {
    const queue = this.queueOf(zone);
    if (state === 'PartialDisruption') queue.swapLimiter(zoneSize > this.opts.largeClusterThreshold ? this.opts.secondaryEvictionRate : 0);
    else if (state === 'Normal' || state === 'FullDisruption') queue.swapLimiter(this.opts.evictionRate);
  }

  /** doNoExecuteTaintingPass: each zone's due nodes get not-ready or unreachable (the other one goes). */
  async doNoExecuteTaintingPass(): Promise<void> {
    for (const [zone, queue] of this.zoneQueues) {
      await queue.try(async ({ value }) => {
        const node = this.nodeLister.get('', value) as Node | undefined;
        if (!node) return { done: true };
        const ready = nodeCondition(node, 'Ready');
        if (!ready) return { done: false, retryAfterMs: 50 };
        let add, opposite;
        if (ready.status === 'False') [add, opposite] = [NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE];
        else if (ready.status === 'Unknown') [add, opposite] = [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE];
        else return { done: true };
        const done = await this.swap(node, [add], [opposite]);
        if (done) this.metrics.evicted(zone);
        return { done };
      });
    }
  }

  /** doEvictionPass (no taint manager): each zone's due nodes have their pods deleted. */
  async doEvictionPass(): Promise<void> {
    for (const [zone, queue] of this.zoneQueues) {
      await queue.try(async ({ value }) => {
        const node = this.nodeLister.get('', value) as Node | undefined;
        if (!node) return { done: true };
        try {
          await this.deletePods(node);
        } catch {
          return { done: false };
        }
        this.metrics.evicted(zone);
        return { done: true };
      });
    }
  }

  /** DeletePods: every pod of the node but DaemonSet pods and those already going, marked NodeLost first. */
  private async deletePods(node: Node): Promise<void> {
    for (const pod of this.podsOf(nameOf(node))) {
      if (pod.metadata?.deletionGracePeriodSeconds != null || isDaemonSetPod(pod)) continue;
      const lost = structuredClone(pod);
      lost.status = { ...lost.status, reason: 'NodeLost', message: `Node ${nameOf(node)} which was running pod ${nameOf(pod)} is unresponsive` };
      try {
        await this.podClient.update(namespaceOf(pod), lost as KubeObject, { subresource: 'status' });
        this.recorder.event(pod as KubeObject, 'Normal', 'NodeControllerEviction', `Marking for deletion Pod ${nameOf(pod)} from Node ${nameOf(node)}`);
        await this.podClient.delete(namespaceOf(pod), nameOf(pod));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }
}
