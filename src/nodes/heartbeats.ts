// Node registration and heartbeats: registers each simulated Node (again when someone deletes it),
// renews its Lease, posts its status (the NodeReady condition) as the kubelet does, and plays the
// faults the kubelite.dev/simulate annotation asks for. It deletes the Node of the Gone fault (the
// cloud node lifecycle controller's job), and with `lifecycleTaints` (a cluster without a
// controller manager) it also keeps the not-ready NoSchedule taint, the node lifecycle
// controller's job.
import { annotationsOf, nameOf, uidOf } from '../api/meta/object.js';
import type { Lease, Node, Taint } from '../api/types.js';
import type { Clock } from '../client/clock.js';
import type { AgentContext } from './context.js';
import { isAlreadyExists, isNotFound } from '../client/errors.js';
import { objectOf } from '../client/cache.js';
import type { KubeObject, SharedInformer, Tombstone } from '../client/types.js';
import { nodeConditions, nodeImages, nodeLabels, nodeStatus, SIMULATE_ANNOTATION } from './node-status.js';
import { errMsg, type Log, type NodeAgentOptions, type NodeAgentStats } from './options.js';
import { REGISTER_BACKOFF_MAX_MS, REGISTER_BACKOFF_MIN_MS, type SimNode } from './sim-node.js';
import { rfc3339 } from './simulate.js';

export const NODES = { group: '', version: 'v1', resource: 'nodes' };
const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
export const LEASE_NAMESPACE = 'kube-node-lease';
const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
/** The node lifecycle controller's NoSchedule taint for each pressure condition that is True. */
const PRESSURE_TAINTS: Record<string, string> = { MemoryPressure: 'node.kubernetes.io/memory-pressure', DiskPressure: 'node.kubernetes.io/disk-pressure', PIDPressure: 'node.kubernetes.io/pid-pressure' };

const readyStatusOf = (node: Node) => node.status?.conditions?.find((c) => c.type === 'Ready')?.status;

/** `ms` plus up to 4% more (wait.Jitter with the kubelet's factor 0.04). */
const jittered = (ms: number) => ms * (1 + 0.04 * Math.random());

/** A 403 answer, whatever else the error carries (client/errors.ts has no isForbidden). */
function isForbiddenCode(e: unknown): boolean {
  return typeof e === 'object' && e !== null && 'code' in e && e.code === 403;
}

/**
 * What a kubelet annotates its Node with: the TTL the ttl controller manages, kubelite's mark, and
 * that the attach/detach controller attaches its volumes (--enable-controller-attach-detach).
 */
const CONTROLLER_MANAGED_ATTACH = { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' };
const NODE_ANNOTATIONS = { 'node.alpha.kubernetes.io/ttl': '0', 'kubelite.dev/simulated': 'true', ...CONTROLLER_MANAGED_ATTACH };

export class NodeHeartbeats {
  private stopped = false;
  private namespaceReady = false;
  private readonly o: Required<Pick<NodeAgentOptions, 'leaseRenewIntervalMs' | 'leaseDurationSeconds' | 'statusUpdateFrequencyMs' | 'statusReportFrequencyMs'>>;

  private readonly nodes: ReadonlyMap<string, SimNode>;
  private readonly opts: NodeAgentOptions;
  private readonly stats: NodeAgentStats;
  private readonly clock: Clock;
  private readonly log: Log;

  /**
   * `forgetPods` stops running a node's pods (the Gone fault); `networkReady` starts them once the
   * node has the podCIDR the controller manager assigned; `registered` follows each registration.
   */
  constructor(
    ctx: AgentContext,
    private readonly forgetPods: (node: SimNode) => void,
    private readonly networkReady: (node: SimNode) => void = () => {},
    private readonly registered: (node: SimNode) => void = () => {},
  ) {
    ({ nodes: this.nodes, opts: this.opts, stats: this.stats, clock: this.clock, log: this.log } = ctx);
    const opts = this.opts;
    this.o = {
      leaseRenewIntervalMs: opts.leaseRenewIntervalMs ?? 10_000,
      leaseDurationSeconds: opts.leaseDurationSeconds ?? 40,
      statusUpdateFrequencyMs: opts.statusUpdateFrequencyMs ?? 10_000,
      statusReportFrequencyMs: opts.statusReportFrequencyMs ?? 300_000,
    };
  }

  /** Registers every node; resolves once every Node and Lease exists (or registration is retrying). */
  async registerAll(): Promise<void> {
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
  }

  /** Follows the Nodes: faults asked for by annotation, a Node deleted by someone else. */
  watch(nodeInformer: SharedInformer): void {
    nodeInformer.addEventHandler({
      onAdd: (o) => this.onNode(o),
      onUpdate: (_old, o) => this.onNode(o),
      onDelete: (o) => this.onNodeDeleted(o),
    });
  }

  /**
   * Starts a node's Lease renewals and status updates once it is registered, as its kubelet does —
   * not after every node is: 10,000 nodes take longer to register than a lease lasts. The first
   * of each comes at a random point of one interval, so nodes registered together do not renew
   * together, and each later one after the interval plus up to 4% (the kubelet's
   * wait.JitterUntil(…, 0.04)), so they do not drift back into bursts.
   */
  private startLoops(node: SimNode): void {
    if (node.loopsStarted) return;
    node.loopsStarted = true;
    node.leaseTimer = this.clock.setTimer(() => this.leaseLoop(node), Math.random() * this.o.leaseRenewIntervalMs);
    node.statusTimer = this.clock.setTimer(() => this.statusLoop(node), Math.random() * this.o.statusUpdateFrequencyMs);
  }

  stop(): void {
    this.stopped = true;
    for (const node of this.nodes.values()) {
      node.leaseTimer?.cancel();
      node.statusTimer?.cancel();
    }
  }

  private async ensureNamespace(): Promise<void> {
    if (this.namespaceReady) return;
    try {
      await this.opts.clientset.resource(NAMESPACES).create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: LEASE_NAMESPACE } });
      this.namespaceReady = true;
    } catch (e) {
      // A kubelet's credentials (the system:node role) may not create namespaces: the API server
      // bootstraps kube-node-lease, so a refusal just means it is not ours to create.
      if (isAlreadyExists(e) || isForbiddenCode(e)) this.namespaceReady = true;
      else this.log({ msg: 'cannot create namespace', namespace: LEASE_NAMESPACE, error: errMsg(e) });
    }
  }

  private async register(node: SimNode): Promise<void> {
    if (this.stopped) return;
    await this.ensureNamespace();
    const nodes = node.client.resource(NODES);
    const now = this.clock.now();
    node.lastReady = undefined;
    const status = nodeStatus(node, this.opts, now);
    const body: Node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: node.name, labels: nodeLabels(node, this.opts), annotations: NODE_ANNOTATIONS },
      spec: node.podCIDR === '' ? {} : { podCIDR: node.podCIDR, podCIDRs: [node.podCIDR] },
      status,
    };
    try {
      // The API server's answers are Nodes it validated against the schema the Node type is inferred from.
      let current: Node;
      try {
        current = await nodes.create('', body);
        this.stats.nodeWrites++;
      } catch (e) {
        if (!isAlreadyExists(e)) throw e;
        current = await nodes.get('', node.name);
        await nodes.patch('', node.name, 'strategic', { metadata: { labels: nodeLabels(node, this.opts), annotations: CONTROLLER_MANAGED_ATTACH } });
        await nodes.patch('', node.name, 'strategic', { status }, { subresource: 'status', skipManagedFields: true });
        this.stats.nodeWrites += 2;
        if (annotationsOf(current)[SIMULATE_ANNOTATION] === 'NotReady') node.mode = 'notready';
      }
      node.uid = uidOf(current);
      if (node.mode === 'ok') await this.removeNotReadyTaint(current);
      node.lastStatusReport = now;
      if (node.mode === 'notready') await this.writeNodeStatus(node, true);
      await this.renewLease(node, true);
      node.registered = true;
      node.registerBackoffMs = REGISTER_BACKOFF_MIN_MS;
      this.startLoops(node);
      this.log({ msg: 'node registered', node: node.name });
      this.registered(node);
    } catch (e) {
      this.stats.errors++;
      this.log({ msg: 'node registration failed', node: node.name, error: errMsg(e), retryInMs: node.registerBackoffMs });
      if (!this.stopped) node.leaseTimer = this.clock.setTimer(() => void this.register(node), node.registerBackoffMs);
      node.registerBackoffMs = Math.min(REGISTER_BACKOFF_MAX_MS, node.registerBackoffMs * 2);
    }
  }

  /** The node lifecycle controller's job, done here with `lifecycleTaints`: a Ready node loses the not-ready taint. */
  private async removeNotReadyTaint(node: Node): Promise<void> {
    if (this.opts.lifecycleTaints === false) return;
    const taints = node.spec?.taints ?? [];
    if (!taints.some((t) => t.key === NOT_READY_TAINT)) return;
    const rest = taints.filter((t) => t.key !== NOT_READY_TAINT);
    await this.opts.clientset.resource(NODES).patch('', nameOf(node), 'merge', { spec: { taints: rest.length > 0 ? rest : null } });
    this.stats.nodeWrites++;
  }

  /** The node lifecycle controller's job, done here with `lifecycleTaints`: a NoSchedule taint per True pressure condition. */
  private async syncPressureTaints(node: SimNode): Promise<void> {
    if (this.opts.lifecycleTaints === false) return;
    const current: Node = await this.opts.clientset.resource(NODES).get('', node.name);
    const taints = current.spec?.taints ?? [];
    const want = Object.entries(PRESSURE_TAINTS).filter(([type]) => node.pressure.get(type)?.status).map(([, key]) => key);
    const kept = taints.filter((t) => !Object.values(PRESSURE_TAINTS).includes(t.key ?? '') || want.includes(t.key ?? ''));
    const added: Taint[] = want.filter((key) => !taints.some((t) => t.key === key && t.effect === 'NoSchedule')).map((key) => ({ key, effect: 'NoSchedule', timeAdded: rfc3339(this.clock.now()) }));
    if (added.length === 0 && kept.length === taints.length) return;
    const next = [...kept, ...added];
    await this.opts.clientset.resource(NODES).patch('', node.name, 'merge', { spec: { taints: next.length > 0 ? next : null } });
    this.stats.nodeWrites++;
  }

  /** Renews the node's Lease (a merge patch of its spec), creating it when missing; `create` tries the create first (registration). */
  private async renewLease(node: SimNode, createFirst = false): Promise<void> {
    const leases = node.client.resource(LEASES);
    const now = this.clock.now();
    const spec = { holderIdentity: node.name, leaseDurationSeconds: this.o.leaseDurationSeconds, renewTime: new Date(now).toISOString().replace('Z', '000Z') };
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: node.name, namespace: LEASE_NAMESPACE, ...(node.uid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid }] } : {}) },
      spec,
    };
    const create = () => leases.create(LEASE_NAMESPACE, lease);
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
      if (!this.stopped && node.mode !== 'gone') node.leaseTimer = this.clock.setTimer(() => this.leaseLoop(node), jittered(this.o.leaseRenewIntervalMs));
    };
    if (node.mode !== 'ok' || !node.registered) return again();
    this.renewLease(node).then(again, (e) => {
      this.stats.errors++;
      this.log({ msg: 'lease renewal failed', node: node.name, error: errMsg(e) });
      again();
    });
  }

  /** Writes the node's status now (a pressure condition changed), and with `lifecycleTaints` its pressure taints. */
  reportStatus(node: SimNode): void {
    if (this.stopped || node.mode !== 'ok' || !node.registered) return;
    this.writeNodeStatus(node, true).then(() => this.syncPressureTaints(node)).catch((e) => {
      this.stats.errors++;
      this.log({ msg: 'node status update failed', node: node.name, error: errMsg(e) });
    });
  }

  private async writeNodeStatus(node: SimNode, force: boolean): Promise<void> {
    const now = this.clock.now();
    const wasReady = node.lastReady;
    // (the images pulled since the last report are listed too: the cache only grows)
    const images = node.images.size > 0 ? { images: nodeImages(node) } : {};
    const status = { conditions: nodeConditions(node, now), ...images };
    const changed = wasReady !== node.lastReady || node.images.size !== (node.reportedImages ?? 0) || node.statusStale;
    if (!force && !changed && now - node.lastStatusReport < this.o.statusReportFrequencyMs) return;
    try {
      await node.client.resource(NODES).patch('', node.name, 'strategic', { status }, { subresource: 'status', skipManagedFields: true });
      this.stats.nodeWrites++;
      node.lastStatusReport = now;
      node.reportedImages = node.images.size;
      node.statusStale = false;
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
      if (!this.stopped && node.mode !== 'gone') node.statusTimer = this.clock.setTimer(() => this.statusLoop(node), jittered(this.o.statusUpdateFrequencyMs));
    };
    // A NotReady node has stopped posting status (after reporting Ready=False once).
    if (node.mode !== 'ok' || !node.registered) return again();
    this.writeNodeStatus(node, false).then(again, (e) => {
      this.stats.errors++;
      this.log({ msg: 'node status update failed', node: node.name, error: errMsg(e) });
      again();
    });
  }

  // The informer's Nodes are the API server's, validated against the schema the Node type is inferred from.
  private onNode(obj: Node): void {
    if (this.stopped) return;
    const node = this.nodes.get(nameOf(obj));
    if (node) this.takeAssignedPodCIDR(node, obj);
    if (!node || !node.registered) return;
    const sim = annotationsOf(obj)[SIMULATE_ANNOTATION];
    const want: SimNode['mode'] = sim === 'Gone' ? 'gone' : sim === 'NotReady' || node.forcedNotReady ? 'notready' : 'ok';
    // The kubelet patches its status when it differs from the API server's, not only from what it
    // last sent: a Ready the node lifecycle controller turned Unknown (a late lease) is put back
    // at the next status update, not at the next 5-minute report.
    if (want === 'ok' && node.mode === 'ok' && node.lastReady === true && readyStatusOf(obj) !== 'True') node.statusStale = true;
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

  /** Without its own podCIDR, a node uses the ones nodeipam gives it (a kubelet reads spec.podCIDRs): IPv4, and IPv6 when dual-stack. */
  private takeAssignedPodCIDR(node: SimNode, obj: Node): void {
    if (this.opts.registerPodCIDR !== false || node.podCIDR !== '') return;
    const cidrs = (obj.spec?.podCIDRs ?? [obj.spec?.podCIDR]).filter((c): c is string => typeof c === 'string');
    const cidr = cidrs.find((c) => /^\d+\.\d+\.\d+\.\d+\/\d+$/.test(c));
    if (!cidr) return;
    node.podCIDR = cidr;
    node.podCIDRv6 = cidrs.find((c) => c.includes(':')) ?? '';
    this.log({ msg: 'node podCIDR assigned', node: node.name, podCIDR: cidr });
    this.networkReady(node);
  }

  /** The node lifecycle controller's NoSchedule taint on a NotReady node (see removeNotReadyTaint). */
  private async addNotReadyTaint(node: Node): Promise<void> {
    if (this.opts.lifecycleTaints === false) return;
    const taints = node.spec?.taints ?? [];
    if (taints.some((t) => t.key === NOT_READY_TAINT && t.effect === 'NoSchedule')) return;
    const notReady: Taint = { key: NOT_READY_TAINT, effect: 'NoSchedule', timeAdded: rfc3339(this.clock.now()) };
    await this.opts.clientset.resource(NODES).patch('', nameOf(node), 'merge', { spec: { taints: [...taints, notReady] } });
    this.stats.nodeWrites++;
  }

  /** A Node deleted by someone else (not by the Gone fault): registered again, as a restarted kubelet would. */
  private onNodeDeleted(obj: KubeObject | Tombstone): void {
    if (this.stopped) return;
    const o = objectOf(obj);
    const node = this.nodes.get(nameOf(o));
    if (!node || !node.registered || node.mode === 'gone') return;
    if (uidOf(o) !== node.uid) return;
    this.log({ msg: 'node deleted; registering it again', node: node.name });
    node.registered = false;
    void this.register(node);
  }

  /** The Gone fault: the node stops, its pods with it, and its Node and Lease are deleted. */
  private async removeNode(node: SimNode): Promise<void> {
    node.leaseTimer?.cancel();
    node.statusTimer?.cancel();
    this.forgetPods(node);
    try {
      await this.opts.clientset.resource(NODES).delete('', node.name);
      this.stats.nodeWrites++;
      await node.client.resource(LEASES).delete(LEASE_NAMESPACE, node.name).catch(() => undefined);
    } catch (e) {
      if (!isNotFound(e)) this.log({ msg: 'node removal failed', node: node.name, error: errMsg(e) });
    }
  }
}
