// The simulated node agent: registers Node objects, keeps them alive (Lease renewals, NodeReady
// heartbeats) and runs the pods bound to them through the states a kubelet reports, with one
// list+watch of pods and one of nodes for all of its nodes. See README.md in this folder.
import { isAlreadyExists, isConflict, isNotFound } from '../client/errors.js';
import { realClock, type Clock, type TimerHandle } from '../client/clock.js';
import { keyOf, splitKey } from '../client/cache.js';
import { TokenBucket } from '../client/rate-limit.js';
import { ItemExponentialRateLimiter, RateLimitingQueue } from '../client/workqueue.js';
import type { Clientset, EventRecorder, InformerFactory, KubeObject, SharedInformer, Tombstone } from '../client/types.js';
import { ANNOTATION_PREFIX, DEFAULT_BEHAVIOUR, type BehaviourDefaults } from './behaviour.js';
import { rfc3339, simulatePod, type SimulateResult } from './simulate.js';

type Obj = Record<string, unknown>;

const PODS = { group: '', version: 'v1', resource: 'pods' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
export const LEASE_NAMESPACE = 'kube-node-lease';
export const SIMULATE_ANNOTATION = `${ANNOTATION_PREFIX}simulate`;
export const KUBELET_VERSION = 'v1.33.0-kubelite';
const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';

export interface NodeAgentOptions {
  /**
   * The agent's own client: the node lifecycle work it does while kubelite has no node lifecycle
   * controller (the not-ready taint, the Gone fault's Node delete), and every node's writes when
   * `nodeClientset` is absent.
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
  /** Nodes that start NotReady: a count (the last ones) or names. */
  unreadyNodes?: number | string[];
  /** Where kubelet events go (none when absent). */
  recorder?: EventRecorder | ((nodeName: string) => EventRecorder);
  /** Events per second across all nodes (beyond: dropped). Default 50, burst 200. */
  eventQps?: number;
  /** Concurrent pod status writers (default 16). */
  workers?: number;
  clock?: Clock;
  log?: (fields: Record<string, unknown>) => void;
}

// kubelet's registerWithAPIServer retries 100 ms, 200 ms, ... up to 7 s: started together with the
// API server (as `kubelite up` does), a node registers as soon as the server answers.
const REGISTER_BACKOFF_MIN_MS = 100;
const REGISTER_BACKOFF_MAX_MS = 7000;

interface SimNode {
  name: string;
  /** What this node writes through (its own identity). */
  client: Clientset;
  index: number;
  ip: string;
  podCIDR: string;
  zone: string;
  /** 'ok': heartbeating; 'notready': Ready=False, no heartbeats; 'gone': deleted. */
  mode: 'ok' | 'notready' | 'gone';
  registered: boolean;
  /** The wait before the next registration attempt after a failure (the kubelet's: 100 ms doubling to 7 s). */
  registerBackoffMs: number;
  /** NotReady from the command line (--unready-nodes), whatever its annotation says. */
  forcedNotReady: boolean;
  /** When this agent first reported the node (the pressure conditions' transition time). */
  registeredAt?: number;
  uid: string;
  leaseTimer?: TimerHandle;
  statusTimer?: TimerHandle;
  lastStatusReport: number;
  readyTransition: number;
  lastReady: boolean | undefined;
  ipCursor: number;
  ipsInUse: Set<number>;
  pods: Set<string>;
}

interface PodRecord {
  key: string;
  uid: string;
  node: SimNode;
  acceptedAt: number;
  podIP: string;
  ipSlot: number | undefined;
  deletion?: { at: number; graceMs: number };
  lastStatusJson?: string;
  lastConditions?: Obj[];
  timer?: TimerHandle;
  timerAt?: number;
  /** Per container: the run start last reported (events), waiting back-off reported. */
  runs: Map<string, number>;
  backoffs: Map<string, number>;
  killingSent: boolean;
  deadlineSent?: boolean;
  reportScheduled: boolean;
  deleting: boolean;
  terminal: boolean;
}

export interface NodeAgentStats {
  nodeWrites: number;
  leaseWrites: number;
  podStatusWrites: number;
  podDeletes: number;
  eventsDropped: number;
  errors: number;
}

function ipOf(index: number): string {
  return `10.0.${Math.floor(index / 250) % 256}.${(index % 250) + 2}`;
}

function podCIDROf(index: number): string {
  return `10.${64 + Math.floor(index / 256)}.${index % 256}.0/24`;
}

function podIPOf(cidr: string, slot: number): string {
  const base = cidr.split('/')[0]!.split('.');
  return `${base[0]}.${base[1]}.${base[2]}.${slot}`;
}

function errMsg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class NodeAgent {
  readonly nodes = new Map<string, SimNode>();
  readonly stats: NodeAgentStats = { nodeWrites: 0, leaseWrites: 0, podStatusWrites: 0, podDeletes: 0, eventsDropped: 0, errors: 0 };
  private readonly pods = new Map<string, PodRecord>();
  private readonly clock: Clock;
  private readonly log: (fields: Record<string, unknown>) => void;
  private readonly queue: RateLimitingQueue<string>;
  private readonly defaults: BehaviourDefaults;
  private readonly eventBucket: TokenBucket;
  private podInformer!: SharedInformer;
  private nodeInformer!: SharedInformer;
  private stopped = false;
  private workers: Promise<void>[] = [];
  private readonly o: Required<Pick<NodeAgentOptions, 'leaseRenewIntervalMs' | 'leaseDurationSeconds' | 'statusUpdateFrequencyMs' | 'statusReportFrequencyMs' | 'podStartDelayMs'>>;

  constructor(private readonly opts: NodeAgentOptions) {
    this.clock = opts.clock ?? realClock;
    this.log = opts.log ?? (() => {});
    this.queue = new RateLimitingQueue<string>({ clock: this.clock, rateLimiter: new ItemExponentialRateLimiter<string>(200, 30_000) });
    this.defaults = { ...DEFAULT_BEHAVIOUR, ...(opts.behaviour ?? {}) };
    this.eventBucket = new TokenBucket({ qps: opts.eventQps ?? 50, burst: Math.max(1, (opts.eventQps ?? 50) * 4), clock: this.clock });
    this.o = {
      leaseRenewIntervalMs: opts.leaseRenewIntervalMs ?? 10_000,
      leaseDurationSeconds: opts.leaseDurationSeconds ?? 40,
      statusUpdateFrequencyMs: opts.statusUpdateFrequencyMs ?? 10_000,
      statusReportFrequencyMs: opts.statusReportFrequencyMs ?? 300_000,
      podStartDelayMs: opts.podStartDelayMs ?? 0,
    };
    const n = opts.nodes ?? 3;
    const first = opts.firstIndex ?? 0;
    const prefix = opts.namePrefix ?? 'kubelite-node-';
    const zones = opts.zones && opts.zones.length > 0 ? opts.zones : [];
    const unready = new Set<string>();
    for (let i = 0; i < n; i++) {
      const index = first + i;
      const name = `${prefix}${index}`;
      this.nodes.set(name, {
        name,
        client: opts.nodeClientset?.(name) ?? opts.clientset,
        index,
        ip: ipOf(index),
        podCIDR: podCIDROf(index),
        zone: zones.length > 0 ? zones[i % zones.length]! : '',
        mode: 'ok',
        registered: false,
        registerBackoffMs: REGISTER_BACKOFF_MIN_MS,
        forcedNotReady: false,
        uid: '',
        lastStatusReport: 0,
        readyTransition: 0,
        lastReady: undefined,
        ipCursor: 0,
        ipsInUse: new Set(),
        pods: new Set(),
      });
    }
    if (typeof opts.unreadyNodes === 'number') [...this.nodes.keys()].slice(Math.max(0, n - opts.unreadyNodes)).forEach((k) => unready.add(k));
    else for (const k of opts.unreadyNodes ?? []) unready.add(k);
    for (const k of unready) {
      const node = this.nodes.get(k);
      if (node) {
        node.mode = 'notready';
        node.forcedNotReady = true;
      }
    }
  }

  /** Requests the informers and registers the nodes; resolves once every node and lease exists. */
  async start(): Promise<void> {
    this.podInformer = this.opts.informers.informer(PODS);
    this.nodeInformer = this.opts.informers.informer(NODES);
    await this.ensureNamespace();
    const list = [...this.nodes.values()];
    let i = 0;
    const worker = async () => {
      while (i < list.length && !this.stopped) {
        const node = list[i++]!;
        await this.register(node);
      }
    };
    // Kubelets register independently; 128 at a time keeps 1,000 nodes from queueing behind a few
    // round trips each (32 took 1–1.5 s longer to get 1,000 nodes Ready on the loaded 2-core machine).
    await Promise.all(Array.from({ length: Math.min(128, list.length) }, worker));
    this.nodeInformer.addEventHandler({
      onAdd: (o) => this.onNode(o),
      onUpdate: (_old, o) => this.onNode(o),
      onDelete: (o) => this.onNodeDeleted(o),
    });
    this.podInformer.addEventHandler({
      onAdd: (o) => this.onPod(o),
      onUpdate: (_old, o) => this.onPod(o),
      onDelete: (o) => this.onPod(o),
    });
    for (let w = 0; w < (this.opts.workers ?? 64); w++) this.workers.push(this.work());
    // stagger the heartbeats of the nodes over one interval
    list.forEach((node, k) => {
      const offset = Math.floor((k / list.length) * this.o.leaseRenewIntervalMs);
      node.leaseTimer = this.clock.setTimer(() => this.leaseLoop(node), offset || this.o.leaseRenewIntervalMs);
      const soff = Math.floor((k / list.length) * this.o.statusUpdateFrequencyMs);
      node.statusTimer = this.clock.setTimer(() => this.statusLoop(node), soff || this.o.statusUpdateFrequencyMs);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const node of this.nodes.values()) {
      node.leaseTimer?.cancel();
      node.statusTimer?.cancel();
    }
    for (const rec of this.pods.values()) rec.timer?.cancel();
    this.queue.shutDown();
    await Promise.all(this.workers);
  }

  registeredCount(): number {
    let n = 0;
    for (const node of this.nodes.values()) if (node.registered) n++;
    return n;
  }

  nodeNames(): string[] {
    return [...this.nodes.keys()];
  }

  // ---- nodes ----

  private namespaceReady = false;

  private async ensureNamespace(): Promise<void> {
    if (this.namespaceReady) return;
    try {
      await this.opts.clientset.resource(NAMESPACES).create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: LEASE_NAMESPACE } });
      this.namespaceReady = true;
    } catch (e) {
      // A kubelet's credentials (the system:node role) may not create namespaces: the API server
      // bootstraps kube-node-lease, so a refusal just means it is not ours to create.
      if (isAlreadyExists(e) || (e as { code?: number }).code === 403) this.namespaceReady = true;
      else this.log({ msg: 'cannot create namespace', namespace: LEASE_NAMESPACE, error: errMsg(e) });
    }
  }

  private labels(node: SimNode): Record<string, string> {
    const arch = this.opts.arch ?? 'amd64';
    const l: Record<string, string> = {
      'beta.kubernetes.io/arch': arch,
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': arch,
      'kubernetes.io/hostname': node.name,
      'kubernetes.io/os': 'linux',
      'node.kubernetes.io/instance-type': this.opts.instanceType ?? 'kubelite',
      'beta.kubernetes.io/instance-type': this.opts.instanceType ?? 'kubelite',
      type: 'kubelite',
    };
    if (node.zone) {
      l['topology.kubernetes.io/zone'] = node.zone;
      l['failure-domain.beta.kubernetes.io/zone'] = node.zone;
    }
    if (this.opts.region) {
      l['topology.kubernetes.io/region'] = this.opts.region;
      l['failure-domain.beta.kubernetes.io/region'] = this.opts.region;
    }
    return { ...l, ...(this.opts.labels ?? {}) };
  }

  private resources(): Record<string, string> {
    return {
      cpu: this.opts.cpu ?? '4',
      memory: this.opts.memory ?? '8Gi',
      pods: String(this.opts.pods ?? 110),
      'ephemeral-storage': this.opts.ephemeralStorage ?? '100Gi',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
    };
  }

  private conditions(node: SimNode, now: number): Obj[] {
    const ready = node.mode === 'ok';
    if (node.lastReady !== ready) {
      node.lastReady = ready;
      node.readyTransition = now;
    }
    const hb = rfc3339(now);
    const since = rfc3339(node.readyTransition || now);
    if (!node.registeredAt) node.registeredAt = now;
    const registered = rfc3339(node.registeredAt);
    const ok = (type: string, reason: string, message: string): Obj => ({ type, status: 'False', lastHeartbeatTime: hb, lastTransitionTime: registered, reason, message });
    return [
      ok('MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      ok('DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      ok('PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      ready
        ? { type: 'Ready', status: 'True', lastHeartbeatTime: hb, lastTransitionTime: since, reason: 'KubeletReady', message: 'kubelet is posting ready status' }
        : { type: 'Ready', status: 'False', lastHeartbeatTime: hb, lastTransitionTime: since, reason: 'KubeletNotReady', message: `simulated by ${SIMULATE_ANNOTATION}=NotReady` },
    ];
  }

  private nodeStatus(node: SimNode, now: number): Obj {
    const res = this.resources();
    const arch = this.opts.arch ?? 'amd64';
    return {
      capacity: res,
      allocatable: res,
      conditions: this.conditions(node, now),
      addresses: [
        { type: 'InternalIP', address: node.ip },
        { type: 'Hostname', address: node.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: `kubelite-${node.index}`,
        systemUUID: `00000000-0000-4000-8000-${String(node.index).padStart(12, '0')}`,
        bootID: `kubelite-boot-${node.index}`,
        kernelVersion: '6.1.0-kubelite',
        osImage: 'kubelite simulated node',
        containerRuntimeVersion: 'kubelite://0.1',
        kubeletVersion: KUBELET_VERSION,
        kubeProxyVersion: KUBELET_VERSION,
        operatingSystem: 'linux',
        architecture: arch,
      },
    };
  }

  private async register(node: SimNode): Promise<void> {
    if (this.stopped) return;
    await this.ensureNamespace();
    const nodes = node.client.resource(NODES);
    const now = this.clock.now();
    node.lastReady = undefined;
    const status = this.nodeStatus(node, now);
    const body: KubeObject = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: node.name, labels: this.labels(node), annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'kubelite.dev/simulated': 'true' } },
      spec: { podCIDR: node.podCIDR, podCIDRs: [node.podCIDR] },
      status,
    };
    try {
      let current: KubeObject;
      try {
        current = await nodes.create('', body);
        this.stats.nodeWrites++;
      } catch (e) {
        if (!isAlreadyExists(e)) throw e;
        current = await nodes.get('', node.name);
        await nodes.patch('', node.name, 'strategic', { metadata: { labels: this.labels(node) } });
        await nodes.patch('', node.name, 'strategic', { status }, { subresource: 'status' });
        this.stats.nodeWrites += 2;
        const sim = ((current.metadata as Obj).annotations as Record<string, string> | undefined)?.[SIMULATE_ANNOTATION];
        if (sim === 'NotReady') node.mode = 'notready';
      }
      node.uid = String((current.metadata as Obj).uid ?? '');
      if (node.mode === 'ok') await this.removeNotReadyTaint(current);
      node.lastStatusReport = now;
      if (node.mode === 'notready') await this.writeNodeStatus(node, true);
      await this.renewLease(node, true);
      node.registered = true;
      node.registerBackoffMs = REGISTER_BACKOFF_MIN_MS;
      this.log({ msg: 'node registered', node: node.name });
    } catch (e) {
      this.stats.errors++;
      this.log({ msg: 'node registration failed', node: node.name, error: errMsg(e), retryInMs: node.registerBackoffMs });
      if (!this.stopped) node.leaseTimer = this.clock.setTimer(() => void this.register(node), node.registerBackoffMs);
      node.registerBackoffMs = Math.min(REGISTER_BACKOFF_MAX_MS, node.registerBackoffMs * 2);
    }
  }

  /** The node lifecycle controller's job, done here while kubelite has none: a Ready node loses the not-ready taint. */
  private async removeNotReadyTaint(node: KubeObject): Promise<void> {
    const taints = (((node.spec as Obj | undefined)?.taints ?? []) as Obj[]);
    if (!taints.some((t) => t.key === NOT_READY_TAINT)) return;
    const rest = taints.filter((t) => t.key !== NOT_READY_TAINT);
    await this.opts.clientset.resource(NODES).patch('', String((node.metadata as Obj).name), 'merge', { spec: { taints: rest.length > 0 ? rest : null } });
    this.stats.nodeWrites++;
  }

  /** Renews the node's Lease (a merge patch of its spec), creating it when missing; `create` tries the create first (registration). */
  private async renewLease(node: SimNode, createFirst = false): Promise<void> {
    const leases = node.client.resource(LEASES);
    const now = this.clock.now();
    const spec = { holderIdentity: node.name, leaseDurationSeconds: this.o.leaseDurationSeconds, renewTime: new Date(now).toISOString().replace('Z', '000Z') };
    const create = () =>
      leases.create(LEASE_NAMESPACE, {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: node.name, namespace: LEASE_NAMESPACE, ...(node.uid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid }] } : {}) },
        spec,
      });
    if (createFirst) {
      try {
        await create();
        this.stats.leaseWrites++;
        return;
      } catch (e) {
        if (!isAlreadyExists(e)) throw e;
      }
    }
    try {
      const owner = createFirst && node.uid ? { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid }] } } : {};
      await leases.patch(LEASE_NAMESPACE, node.name, 'merge', { ...owner, spec });
      this.stats.leaseWrites++;
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await create();
      this.stats.leaseWrites++;
    }
  }

  private leaseLoop(node: SimNode): void {
    if (this.stopped || node.mode === 'gone') return;
    const again = () => {
      if (!this.stopped && node.mode !== 'gone') node.leaseTimer = this.clock.setTimer(() => this.leaseLoop(node), this.o.leaseRenewIntervalMs);
    };
    if (node.mode !== 'ok' || !node.registered) return again();
    this.renewLease(node).then(again, (e) => {
      this.stats.errors++;
      this.log({ msg: 'lease renewal failed', node: node.name, error: errMsg(e) });
      again();
    });
  }

  private async writeNodeStatus(node: SimNode, force: boolean): Promise<void> {
    const now = this.clock.now();
    const wasReady = node.lastReady;
    const status = { conditions: this.conditions(node, now) };
    const changed = wasReady !== node.lastReady;
    if (!force && !changed && now - node.lastStatusReport < this.o.statusReportFrequencyMs) return;
    try {
      await node.client.resource(NODES).patch('', node.name, 'strategic', { status }, { subresource: 'status' });
      this.stats.nodeWrites++;
      node.lastStatusReport = now;
    } catch (e) {
      if (isNotFound(e) && node.mode !== 'gone') {
        this.log({ msg: 'node is gone; registering it again', node: node.name });
        node.registered = false;
        await this.register(node);
        return;
      }
      throw e;
    }
  }

  private statusLoop(node: SimNode): void {
    if (this.stopped || node.mode === 'gone') return;
    const again = () => {
      if (!this.stopped && node.mode !== 'gone') node.statusTimer = this.clock.setTimer(() => this.statusLoop(node), this.o.statusUpdateFrequencyMs);
    };
    // A NotReady node has stopped posting status (after reporting Ready=False once).
    if (node.mode !== 'ok' || !node.registered) return again();
    this.writeNodeStatus(node, false).then(again, (e) => {
      this.stats.errors++;
      this.log({ msg: 'node status update failed', node: node.name, error: errMsg(e) });
      again();
    });
  }

  private onNode(obj: KubeObject): void {
    if (this.stopped) return;
    const node = this.nodes.get(String((obj.metadata as Obj | undefined)?.name ?? ''));
    if (!node || !node.registered) return;
    const sim = ((obj.metadata as Obj).annotations as Record<string, string> | undefined)?.[SIMULATE_ANNOTATION];
    const want: SimNode['mode'] = sim === 'Gone' ? 'gone' : sim === 'NotReady' || node.forcedNotReady ? 'notready' : 'ok';
    if (want === node.mode) return;
    if (node.mode === 'gone') return;
    const was = node.mode;
    node.mode = want;
    this.log({ msg: 'node fault', node: node.name, mode: want });
    if (want === 'gone') void this.removeNode(node);
    else if (want === 'notready') {
      this.writeNodeStatus(node, true)
        .then(() => this.addNotReadyTaint(obj))
        .catch((e) => this.log({ msg: 'node status update failed', node: node.name, error: errMsg(e) }));
    } else if (was === 'notready') {
      this.writeNodeStatus(node, true)
        .then(() => this.renewLease(node))
        .then(() => this.removeNotReadyTaint(obj))
        .catch((e) => this.log({ msg: 'node status update failed', node: node.name, error: errMsg(e) }));
    }
  }

  /** The node lifecycle controller's NoSchedule taint on a NotReady node (see removeNotReadyTaint). */
  private async addNotReadyTaint(node: KubeObject): Promise<void> {
    const taints = ((node.spec as Obj | undefined)?.taints ?? []) as Obj[];
    if (taints.some((t) => t.key === NOT_READY_TAINT && t.effect === 'NoSchedule')) return;
    await this.opts.clientset.resource(NODES).patch('', String((node.metadata as Obj).name), 'merge', { spec: { taints: [...taints, { key: NOT_READY_TAINT, effect: 'NoSchedule', timeAdded: rfc3339(this.clock.now()) }] } });
    this.stats.nodeWrites++;
  }

  /** A Node deleted by someone else (not by the Gone fault): registered again, as a restarted kubelet would. */
  private onNodeDeleted(obj: KubeObject | Tombstone): void {
    if (this.stopped) return;
    const o = 'finalStateUnknown' in obj ? (obj as Tombstone).obj : (obj as KubeObject);
    const node = this.nodes.get(String((o.metadata as Obj | undefined)?.name ?? ''));
    if (!node || !node.registered || node.mode === 'gone') return;
    if (String((o.metadata as Obj).uid ?? '') !== node.uid) return;
    this.log({ msg: 'node deleted; registering it again', node: node.name });
    node.registered = false;
    void this.register(node);
  }

  private async removeNode(node: SimNode): Promise<void> {
    node.leaseTimer?.cancel();
    node.statusTimer?.cancel();
    for (const key of node.pods) {
      const rec = this.pods.get(key);
      rec?.timer?.cancel();
      this.pods.delete(key);
    }
    node.pods.clear();
    try {
      await this.opts.clientset.resource(NODES).delete('', node.name);
      this.stats.nodeWrites++;
      await node.client.resource(LEASES).delete(LEASE_NAMESPACE, node.name).catch(() => undefined);
    } catch (e) {
      if (!isNotFound(e)) this.log({ msg: 'node removal failed', node: node.name, error: errMsg(e) });
    }
  }

  // ---- pods ----

  private onPod(obj: KubeObject | Tombstone): void {
    if (this.stopped) return;
    const o = 'finalStateUnknown' in obj ? (obj as Tombstone).obj : (obj as KubeObject);
    const nodeName = String((o.spec as Obj | undefined)?.nodeName ?? '');
    const key = keyOf(o);
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
    this.releaseIP(rec);
    rec.node.pods.delete(rec.key);
    this.pods.delete(rec.key);
  }

  private allocateIP(node: SimNode): { ip: string; slot: number } {
    for (let tries = 0; tries < 253; tries++) {
      node.ipCursor = (node.ipCursor % 253) + 1;
      const slot = node.ipCursor + 1; // .2 .. .254
      if (!node.ipsInUse.has(slot)) {
        node.ipsInUse.add(slot);
        return { ip: podIPOf(node.podCIDR, slot), slot };
      }
    }
    const slot = node.ipCursor + 1;
    return { ip: podIPOf(node.podCIDR, slot), slot };
  }

  private releaseIP(rec: PodRecord): void {
    if (rec.ipSlot !== undefined) rec.node.ipsInUse.delete(rec.ipSlot);
    rec.ipSlot = undefined;
  }

  /** Brings one pod's reported status up to date, and deletes it when it has stopped for its deletion. */
  private async syncPod(key: string): Promise<void> {
    const pod = this.podInformer.lister.get(...splitKey(key));
    let rec = this.pods.get(key);
    const meta = (pod?.metadata ?? {}) as Obj;
    if (!pod || (rec && rec.uid !== meta.uid)) {
      if (rec) this.forgetPod(rec);
      rec = undefined;
      if (!pod) return;
    }
    const spec = (pod.spec ?? {}) as Obj;
    const node = this.nodes.get(String(spec.nodeName ?? ''));
    if (!node || node.mode === 'gone') {
      if (rec) this.forgetPod(rec);
      return;
    }
    const status = (pod.status ?? {}) as Obj;
    const now = this.clock.now();
    if (!rec) {
      const phase = String(status.phase ?? '');
      const terminal = phase === 'Succeeded' || phase === 'Failed';
      const started = typeof status.startTime === 'string' ? Date.parse(status.startTime) : NaN;
      let ip: { ip: string; slot: number | undefined };
      if (typeof status.podIP === 'string' && status.podIP !== '' && spec.hostNetwork !== true) {
        ip = { ip: status.podIP, slot: undefined };
        const parts = status.podIP.split('.');
        const slot = Number(parts[3]);
        if (status.podIP.startsWith(node.podCIDR.split('.').slice(0, 3).join('.') + '.') && !terminal) {
          node.ipsInUse.add(slot);
          ip.slot = slot;
        }
      } else if (terminal || spec.hostNetwork === true) ip = { ip: node.ip, slot: undefined };
      else ip = this.allocateIP(node);
      rec = {
        key,
        uid: String(meta.uid ?? ''),
        node,
        acceptedAt: Number.isFinite(started) ? Math.min(started, now) : now,
        podIP: ip.ip,
        ipSlot: ip.slot,
        runs: new Map(),
        backoffs: new Map(),
        killingSent: false,
        reportScheduled: !(Array.isArray(status.conditions) && (status.conditions as Obj[]).some((c) => c.type === 'PodScheduled')),
        deleting: false,
        terminal,
      };
      if (Array.isArray(status.conditions)) rec.lastConditions = status.conditions as Obj[];
      this.pods.set(key, rec);
      node.pods.add(key);
    }
    if (rec.deleting) return;
    const deletionTimestamp = meta.deletionTimestamp;
    if (deletionTimestamp && !rec.deletion) {
      const grace = typeof meta.deletionGracePeriodSeconds === 'number' ? meta.deletionGracePeriodSeconds : 30;
      rec.deletion = { at: now, graceMs: grace * 1000 };
    }
    if (rec.terminal) {
      if (rec.deletion) await this.deletePod(rec, pod);
      return;
    }
    const result = simulatePod({
      pod,
      acceptedAt: rec.acceptedAt,
      startDelayMs: this.o.podStartDelayMs,
      now,
      ...(rec.deletion ? { deletion: rec.deletion } : {}),
      defaults: this.defaults,
      hostIP: node.ip,
      podIP: rec.podIP,
      reportScheduled: rec.reportScheduled,
      ...(rec.lastConditions ? { previousConditions: rec.lastConditions } : {}),
    });
    this.emitEvents(pod, rec, result);
    const json = JSON.stringify(result.status);
    if (json !== rec.lastStatusJson) {
      await rec.node.client.resource(PODS).patch(String(meta.namespace ?? ''), String(meta.name ?? ''), 'strategic', { metadata: { uid: rec.uid }, status: result.status }, { subresource: 'status' });
      this.stats.podStatusWrites++;
      rec.lastStatusJson = json;
      rec.lastConditions = result.status.conditions as Obj[];
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

  private async deletePod(rec: PodRecord, pod: KubeObject): Promise<void> {
    const meta = pod.metadata as Obj;
    rec.deleting = true;
    rec.timer?.cancel();
    try {
      await rec.node.client.resource(PODS).delete(String(meta.namespace ?? ''), String(meta.name ?? ''), { gracePeriodSeconds: 0, preconditions: { uid: rec.uid } });
      this.stats.podDeletes++;
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) {
        rec.deleting = false;
        throw e;
      }
    }
  }

  // ---- events ----

  private event(pod: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const r = this.opts.recorder;
    if (!r) return;
    if (!this.eventBucket.tryTake()) {
      this.stats.eventsDropped++;
      return;
    }
    const recorder = typeof r === 'function' ? r(String((pod.spec as Obj | undefined)?.nodeName ?? '')) : r;
    recorder.event({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata }, type, reason, message);
  }

  private emitEvents(pod: KubeObject, rec: PodRecord, result: SimulateResult): void {
    const spec = (pod.spec ?? {}) as Obj;
    const meta = pod.metadata as Obj;
    const all = [...((spec.initContainers ?? []) as Obj[]), ...((spec.containers ?? []) as Obj[])];
    const states = new Map([...result.initContainers, ...result.containers]);
    for (const c of all) {
      const name = String(c.name ?? '');
      const st = states.get(name);
      if (!st) continue;
      const runStart = st.kind === 'running' ? st.runStart : st.kind === 'terminated' ? st.terminated!.startedAt : undefined;
      if (runStart !== undefined && rec.runs.get(name) !== runStart) {
        const first = !rec.runs.has(name);
        rec.runs.set(name, runStart);
        const image = String(c.image ?? '');
        if (first) {
          this.event(pod, 'Normal', 'Pulling', `Pulling image "${image}"`);
          this.event(pod, 'Normal', 'Pulled', `Successfully pulled image "${image}" in 0s (0s including waiting). Image size: 0 bytes.`);
        } else this.event(pod, 'Normal', 'Pulled', `Container image "${image}" already present on machine`);
        this.event(pod, 'Normal', 'Created', `Created container: ${name}`);
        this.event(pod, 'Normal', 'Started', `Started container ${name}`);
      }
      if (st.kind === 'waiting' && st.waitingReason === 'CrashLoopBackOff' && st.last && rec.backoffs.get(name) !== st.last.finishedAt) {
        rec.backoffs.set(name, st.last.finishedAt);
        this.event(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${name} in pod ${String(meta.name)}_${String(meta.namespace)}(${rec.uid})`);
      }
    }
    if (result.status.reason === 'DeadlineExceeded' && !rec.deadlineSent) {
      rec.deadlineSent = true;
      this.event(pod, 'Warning', 'DeadlineExceeded', 'Pod was active on the node longer than the specified deadline');
    }
    if (rec.deletion && !rec.killingSent) {
      rec.killingSent = true;
      for (const c of (spec.containers ?? []) as Obj[]) {
        if (result.containers.get(String(c.name))?.kind === 'running' || result.containers.get(String(c.name))?.killed) {
          this.event(pod, 'Normal', 'Killing', `Stopping container ${String(c.name)}`);
        }
      }
    }
  }
}
