// The pod lifecycle: walks each pod bound to a simulated node through what a kubelet reports
// (Pending → Running → Succeeded/Failed, restarts, graceful termination), writing its status when
// it changes and deleting it once it has stopped for its deletion. One list+watch of pods for all
// nodes; `--workers` status writers over all of them.
import { deletionGracePeriodSecondsOf, isBeingDeleted, nameOf, namespaceOf, uidOf } from '../api/meta/object.js';
import type { Pod, PodCondition } from '../api/types.js';
import type { Clock, TimerHandle } from '../client/clock.js';
import { keyOf, objectOf, splitKey } from '../client/cache.js';
import { isConflict, isNotFound } from '../client/errors.js';
import type { InformerOptions, KubeObject, SharedInformer, Tombstone } from '../client/types.js';
import { ItemExponentialRateLimiter, RateLimitingQueue } from '../client/workqueue.js';
import { DEFAULT_BEHAVIOUR, type BehaviourDefaults } from './behaviour.js';
import { admissionRejection, type PressureCondition } from './eviction.js';
import { DEFAULT_IMAGE_PULL, planImagePull, type ImagePullOptions } from './image-pull.js';
import type { AgentContext } from './context.js';
import type { ContainerLogs } from './logs/container-logs.js';
import { errMsg, type Log, type NodeAgentOptions, type NodeAgentStats } from './options.js';
import { PodEvents, type PodEventsSent } from './pod-events.js';
import { PodIPs } from './pod-ips.js';
import { writableMap, type SimNode } from './sim-node.js';
import { ProcessRuntime } from './process/runtime.js';
import { simulatePod } from './simulate.js';
import { allocationOf, containersToRestart, decideResize, requestsOf, sameAllocation, type Allocation } from './resize.js';
import { nodeResources } from './node-status.js';
import { parseQuantity } from '../api/meta/quantity.js';
import { apiVolumeSources } from './volume-sources.js';

export const PODS = { group: '', version: 'v1', resource: 'pods' };
/**
 * The pods the nodes watch: those bound to a node, as each kubelet watches only its own
 * (`spec.nodeName=<node>`); one watch serves every node of the process. Pending pods, which no
 * node runs, are not sent to it at all.
 */
export const BOUND_PODS: InformerOptions = { fieldSelector: 'spec.nodeName!=' };

/** One node's pods as this agent runs them. */
interface NodePods {
  ips: PodIPs;
  keys: Set<string>;
}

interface PodRecord extends PodEventsSent {
  key: string;
  node: SimNode;
  acceptedAt: number;
  podIP: string;
  /** Its IPv6 address on a dual-stack node. */
  podIPv6?: string;
  ipSlot: number | undefined;
  /** The pod's loopback IP when the process runtime runs some of its containers. */
  loopbackIP?: string;
  lastStatusJson?: string;
  lastConditions?: PodCondition[];
  timer?: TimerHandle;
  timerAt?: number;
  reportScheduled: boolean;
  deleting: boolean;
  terminal: boolean;
  /** When this agent first saw each ephemeral container of the pod. */
  ephemeralStarts?: Map<string, number>;
  /** The cpu and memory the node allocated its containers (in-place resize), a resize it did not, and the restarts resizes caused. */
  allocation: Allocation;
  resizePending?: { reason: 'Infeasible' | 'Deferred'; message: string };
  resizeRestarts?: Map<string, number[]>;
}

export class PodLifecycle {
  private readonly pods = new Map<string, PodRecord>();
  private readonly nodePods = new Map<string, NodePods>();
  private readonly queue: RateLimitingQueue<string>;
  private readonly defaults: BehaviourDefaults;
  private readonly events: PodEvents;
  private readonly podStartDelayMs: number;
  private readonly imagePull: ImagePullOptions;
  private podInformer!: SharedInformer;
  private stopped = false;
  private workers: Promise<void>[] = [];

  private readonly nodes: ReadonlyMap<string, SimNode>;
  private readonly opts: NodeAgentOptions;
  private readonly stats: NodeAgentStats;
  private readonly clock: Clock;
  private readonly log: Log;
  private readonly volumesReady: AgentContext['volumesReady'];
  /** Pods not started because their volumes are not attached (or their claims not seen) yet. */
  private readonly waitingForVolumes = new Set<string>();
  /** Runs the containers of the host-image allow-list as processes (`--runtime process`). */
  readonly runtime: ProcessRuntime | undefined;

  constructor(
    ctx: AgentContext,
    /** Where the containers' logs are kept (fed with each pod's simulated states). */
    private readonly logs?: ContainerLogs,
  ) {
    ({ nodes: this.nodes, opts: this.opts, stats: this.stats, clock: this.clock, log: this.log, volumesReady: this.volumesReady } = ctx);
    const { opts, stats, clock } = ctx;
    this.queue = new RateLimitingQueue<string>({ clock, rateLimiter: new ItemExponentialRateLimiter<string>(200, 30_000) });
    this.defaults = { ...DEFAULT_BEHAVIOUR, ...(opts.behaviour ?? {}) };
    this.events = new PodEvents(opts.recorder, opts.eventQps, stats, clock);
    this.podStartDelayMs = opts.podStartDelayMs ?? 0;
    if (opts.processRuntime) {
      this.runtime = new ProcessRuntime(opts.processRuntime, {
        now: () => clock.now(),
        changed: (key) => this.queue.add(key),
        output: (pod, c, restartCount, runStart, text, at) => this.logs?.printed(pod, c, restartCount, runStart, text, at),
        event: (pod, type, reason, message) => this.events.event(pod, type, reason, message),
        sources: (pod) => apiVolumeSources(this.nodes.get(pod.spec?.nodeName ?? '')?.client ?? opts.clientset),
        log: this.log,
      });
    }
    this.imagePull = { ...DEFAULT_IMAGE_PULL, ...(opts.imagePull ?? {}) };
  }

  /**
   * The kubelet evicts the pod (eviction-manager.ts): the Evicted event, its containers killed at
   * once, and it ends Failed with reason Evicted and `message`.
   */
  evict(key: string, message: string): void {
    const rec = this.pods.get(key);
    const pod: Pod | undefined = this.podInformer.lister.get(...splitKey(key));
    if (!rec || !pod || rec.terminal || rec.eviction) return;
    rec.eviction = { at: this.clock.now(), message };
    this.events.event(pod, 'Warning', 'Evicted', message);
    this.queue.add(key);
  }

  /** Follows the pods and starts the status writers. */
  start(podInformer: SharedInformer): void {
    this.podInformer = podInformer;
    podInformer.addEventHandler({
      onAdd: (o) => this.onPod(o),
      onUpdate: (_old, o) => this.onPod(o),
      onDelete: (o) => this.onPod(o),
    });
    for (let w = 0; w < (this.opts.workers ?? 64); w++) this.workers.push(this.work());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const rec of this.pods.values()) rec.timer?.cancel();
    this.queue.shutDown();
    await Promise.all(this.workers);
    await this.runtime?.stop();
  }

  /** Stops running the pods of a node that is gone (their IPs go with the node). */
  forgetNode(node: SimNode): void {
    const np = this.nodePods.get(node.name);
    if (!np) return;
    for (const key of np.keys) {
      const rec = this.pods.get(key);
      rec?.timer?.cancel();
      if (rec) {
        this.logs?.forget(rec.uid);
        this.releaseIP(rec);
        void this.runtime?.forget(rec.uid);
      }
      this.pods.delete(key);
    }
    np.keys.clear();
  }

  /** Looks at every pod of the node again (its network became ready, or volumes were attached to it). */
  requeueNode(node: SimNode): void {
    for (const pod of this.podInformer.lister.byIndex('nodeName', node.name)) this.queue.add(keyOf(pod));
  }

  /** Looks again at the pods waiting for their volumes (a claim, volume or attachment changed). */
  requeueWaitingForVolumes(): void {
    for (const key of this.waitingForVolumes) this.queue.add(key);
  }

  private podsOf(node: SimNode): NodePods {
    let np = this.nodePods.get(node.name);
    if (!np) this.nodePods.set(node.name, (np = { ips: new PodIPs(node.podCIDR, node.podCIDRv6), keys: new Set() }));
    return np;
  }

  private onPod(obj: KubeObject | Tombstone): void {
    if (this.stopped) return;
    const pod: Pod = objectOf(obj);
    const nodeName = pod.spec?.nodeName ?? '';
    const key = keyOf(pod);
    if (!this.nodes.has(nodeName) && !this.pods.has(key)) return;
    this.queue.add(key);
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.syncPod(key);
        this.queue.forget(key);
      } catch (e) {
        this.stats.errors++;
        if (!isNotFound(e)) this.log({ msg: 'pod sync failed', pod: key, error: errMsg(e) });
        if (!this.stopped && !isNotFound(e)) this.queue.addRateLimited(key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  private forgetPod(rec: PodRecord): void {
    rec.timer?.cancel();
    this.logs?.forget(rec.uid);
    void this.runtime?.forget(rec.uid);
    this.releaseIP(rec);
    this.podsOf(rec.node).keys.delete(rec.key);
    this.pods.delete(rec.key);
    // a resize deferred for want of room on the node may fit now
    for (const key of this.podsOf(rec.node).keys) if (this.pods.get(key)?.resizePending?.reason === 'Deferred') this.queue.add(key);
  }

  private releaseIP(rec: PodRecord): void {
    if (rec.ipSlot !== undefined) this.podsOf(rec.node).ips.release(rec.ipSlot);
    rec.ipSlot = undefined;
    if (rec.loopbackIP !== undefined) this.runtime?.releaseIP(rec.loopbackIP);
    rec.loopbackIP = undefined;
  }

  /** The record of a pod this agent sees for the first time (new, or adopted after a restart: its IP kept). */
  private newRecord(key: string, pod: Pod, node: SimNode, now: number): PodRecord {
    const spec = pod.spec ?? {};
    const status = pod.status ?? {};
    const np = this.podsOf(node);
    const phase = status.phase ?? '';
    const terminal = phase === 'Succeeded' || phase === 'Failed';
    const started = typeof status.startTime === 'string' ? Date.parse(status.startTime) : NaN;
    let ip: { ip: string; slot: number | undefined; loopback?: string };
    // a pod some of whose containers run as processes gets a loopback IP of its own (kept across an agent restart)
    const runtime = this.runtime !== undefined && spec.hostNetwork !== true && !terminal && this.runtime.runsPod(pod) ? this.runtime : undefined;
    const loopback = runtime && (typeof status.podIP === 'string' && runtime.adoptIP(status.podIP) ? status.podIP : runtime.allocateIP());
    if (loopback) ip = { ip: loopback, slot: undefined, loopback };
    else if (typeof status.podIP === 'string' && status.podIP !== '' && spec.hostNetwork !== true) ip = { ip: status.podIP, slot: terminal ? undefined : np.ips.adopt(status.podIP) };
    else if (terminal || spec.hostNetwork === true) ip = { ip: node.ip, slot: undefined };
    else ip = np.ips.allocate();
    const rec: PodRecord = {
      key,
      uid: uidOf(pod),
      node,
      acceptedAt: Number.isFinite(started) ? Math.min(started, now) : now,
      podIP: ip.ip,
      ipSlot: ip.slot,
      ...(ip.loopback !== undefined ? { loopbackIP: ip.loopback } : {}),
      runs: new Map(),
      backoffs: new Map(),
      killingSent: false,
      reportScheduled: !status.conditions?.some((c) => c.type === 'PodScheduled'),
      allocation: allocationOf(pod),
      deleting: false,
      terminal,
    };
    const ipv6 = ip.slot !== undefined ? np.ips.ipv6Of(ip.slot) : undefined;
    if (ipv6 !== undefined) rec.podIPv6 = ipv6;
    if (status.conditions) rec.lastConditions = status.conditions;
    // The node's image cache as the kubelet finds it when it starts the pod's containers.
    const cached = (ref: string) => node.images.has(ref);
    rec.images = new Map([...(spec.initContainers ?? []), ...(spec.containers ?? [])].map((c) => [c.name ?? '', planImagePull(pod, c, cached, this.imagePull)]));
    np.keys.add(key);
    return rec;
  }

  /** Brings one pod's reported status up to date, and deletes it when it has stopped for its deletion. */
  private async syncPod(key: string): Promise<void> {
    // The informer's cache holds the pods as the API server served them, validated against the
    // schema the Pod type is inferred from: read as Pods from here on.
    const pod: Pod | undefined = this.podInformer.lister.get(...splitKey(key));
    let rec = this.pods.get(key);
    if (!pod || (rec && rec.uid !== uidOf(pod))) {
      if (rec) this.forgetPod(rec);
      rec = undefined;
      if (!pod) {
        this.waitingForVolumes.delete(key);
        return;
      }
    }
    const node = this.nodes.get(pod.spec?.nodeName ?? '');
    if (!node || node.mode === 'gone') {
      if (rec) this.forgetPod(rec);
      return;
    }
    // no pod network before the node has its podCIDR (the controller manager's to assign): the pod waits
    if (!rec && node.podCIDR === '' && pod.spec?.hostNetwork !== true && !isBeingDeleted(pod)) return;
    // nor before its volumes are attached (the node's status lists them; a node update brings the pod back)
    if (!rec && this.volumesReady && !isBeingDeleted(pod) && !this.volumesReady(pod, node.name)) {
      this.waitingForVolumes.add(key);
      return;
    }
    this.waitingForVolumes.delete(key);
    const now = this.clock.now();
    if (!rec) {
      rec = this.newRecord(key, pod, node, now);
      this.pods.set(key, rec);
      if (!pod.status?.startTime) this.admit(rec, pod, node);
    }
    if (rec.deleting) return;
    if (isBeingDeleted(pod)) {
      const graceMs = (deletionGracePeriodSecondsOf(pod) ?? 30) * 1000;
      // a second delete with a shorter grace period brings the kill forward (never back), as the kubelet's pod workers do
      if (!rec.deletion) rec.deletion = { at: now, graceMs };
      else if (now + graceMs < rec.deletion.at + rec.deletion.graceMs) rec.deletion = { at: rec.deletion.at, graceMs: now - rec.deletion.at + graceMs };
    }
    if (rec.terminal) {
      if (rec.deletion) await this.deletePod(rec, pod);
      return;
    }
    this.reconcileResize(rec, pod);
    for (const c of pod.spec?.ephemeralContainers ?? []) {
      const name = c.name ?? '';
      if (!(rec.ephemeralStarts ??= new Map()).has(name)) rec.ephemeralStarts.set(name, now);
    }
    const result = simulatePod({
      pod,
      ...(rec.ephemeralStarts ? { ephemeralStarts: rec.ephemeralStarts } : {}),
      acceptedAt: rec.acceptedAt,
      startDelayMs: this.podStartDelayMs,
      now,
      ...(rec.deletion ? { deletion: rec.deletion } : {}),
      defaults: this.defaults,
      hostIP: node.ip,
      podIP: rec.podIP,
      ...(rec.podIPv6 !== undefined ? { podIPv6: rec.podIPv6 } : {}),
      reportScheduled: rec.reportScheduled,
      ...(rec.lastConditions ? { previousConditions: rec.lastConditions } : {}),
      ...(rec.images ? { images: rec.images, imageBackoffMs: this.imagePull.backoffInitialMs } : {}),
      ...(rec.eviction ? { eviction: rec.eviction } : {}),
      ...(this.runtime && rec.loopbackIP !== undefined ? { runner: this.runtime.runner(pod, key, rec.loopbackIP) } : {}),
      allocation: rec.allocation,
      ...(rec.resizePending ? { resizePending: rec.resizePending } : {}),
      ...(rec.resizeRestarts ? { resizeRestarts: rec.resizeRestarts } : {}),
    });
    this.cachePulledImages(rec, result);
    this.events.emit(pod, rec, result);
    const runtime = rec.loopbackIP !== undefined ? this.runtime : undefined;
    this.logs?.observe(pod, result, runtime ? (c) => runtime.runs(c) : undefined);
    const json = JSON.stringify(result.status);
    if (json !== rec.lastStatusJson) {
      // (a strategic merge keeps list entries the patch leaves out: a condition the pod no longer has is deleted by name)
      const gone = (rec.lastConditions ?? pod.status?.conditions ?? []).filter((c) => c.type === 'PodResizePending' && !result.status.conditions?.some((n) => n.type === c.type));
      const status = gone.length === 0 ? result.status : { ...result.status, conditions: [...(result.status.conditions ?? []), ...gone.map((c) => ({ type: c.type, $patch: 'delete' }))] };
      await rec.node.client.resource(PODS).patch(namespaceOf(pod), nameOf(pod), 'strategic', { metadata: { uid: rec.uid }, status }, { subresource: 'status', skipManagedFields: true });
      this.stats.podStatusWrites++;
      rec.lastStatusJson = json;
      rec.lastConditions = result.status.conditions ?? undefined;
    }
    if (result.phase === 'Succeeded' || result.phase === 'Failed') {
      rec.terminal = true;
      this.releaseIP(rec);
    }
    if (result.stopped && rec.deletion) {
      await this.deletePod(rec, pod);
      return;
    }
    this.schedule(rec, result.next);
  }

  /**
   * An in-place resize (pods/resize changed the spec's cpu or memory): allocated when it fits the
   * node beside its other pods' allocations, restarting the containers whose resizePolicy says so;
   * otherwise pending (retried when the pod changes or another pod of the node goes).
   */
  private reconcileResize(rec: PodRecord, pod: Pod): void {
    const desired = allocationOf(pod);
    if (sameAllocation(desired, rec.allocation)) {
      rec.resizePending = undefined;
      return;
    }
    let others = { cpu: 0, memory: 0 };
    for (const key of this.podsOf(rec.node).keys) {
      const other = this.pods.get(key);
      if (!other || other === rec || other.terminal) continue;
      const r = requestsOf(other.allocation);
      others = { cpu: others.cpu + r.cpu, memory: others.memory + r.memory };
    }
    const node = nodeResources(this.opts);
    const allocatable = { cpu: parseQuantity(node.cpu!)?.milliValue() ?? 0, memory: parseQuantity(node.memory!)?.value() ?? 0 };
    const decision = decideResize(requestsOf(desired), others, allocatable);
    if (!decision.allocate) {
      rec.resizePending = { reason: decision.reason, message: decision.message };
      return;
    }
    const now = this.clock.now();
    for (const name of containersToRestart(pod, rec.allocation, desired)) {
      const times = (rec.resizeRestarts ??= new Map()).get(name) ?? [];
      rec.resizeRestarts.set(name, [...times, now]);
    }
    rec.allocation = desired;
    rec.resizePending = undefined;
  }

  /** The kubelet's eviction admit handler: a new pod refused under pressure ends Failed at once, reason Evicted. */
  private admit(rec: PodRecord, pod: Pod, node: SimNode): void {
    const pressure = [...node.pressure].filter(([, p]) => p.status).map(([type]) => type as PressureCondition);
    const refused = admissionRejection(pod, pressure);
    if (refused === undefined) return;
    rec.eviction = { at: rec.acceptedAt, message: refused, refused: true };
    this.events.event(pod, 'Warning', 'Evicted', refused);
  }

  /** An image pulled for a container that started is on its node from then on. */
  private cachePulledImages(rec: PodRecord, result: ReturnType<typeof simulatePod>): void {
    for (const [name, st] of [...result.initContainers, ...result.containers]) {
      const plan = rec.images?.get(name);
      if (plan?.kind === 'pull' && st.pull?.runStart !== undefined) writableMap(rec.node, 'images').set(plan.ref, plan.sizeBytes);
    }
  }

  private schedule(rec: PodRecord, at: number | undefined): void {
    if (at === undefined) {
      rec.timer?.cancel();
      rec.timer = undefined;
      rec.timerAt = undefined;
      return;
    }
    if (rec.timer && rec.timerAt === at) return;
    rec.timer?.cancel();
    rec.timerAt = at;
    rec.timer = this.clock.setTimer(() => {
      rec.timer = undefined;
      rec.timerAt = undefined;
      this.queue.add(rec.key);
    }, at - this.clock.now());
  }

  private async deletePod(rec: PodRecord, pod: Pod): Promise<void> {
    rec.deleting = true;
    rec.timer?.cancel();
    try {
      await rec.node.client.resource(PODS).delete(namespaceOf(pod), nameOf(pod), { gracePeriodSeconds: 0, preconditions: { uid: rec.uid } });
      this.stats.podDeletes++;
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) {
        rec.deleting = false;
        throw e;
      }
    }
  }
}
