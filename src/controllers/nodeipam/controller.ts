// The node IPAM controller with the range allocator (kube-controller-manager's
// pkg/controller/nodeipam): with --allocate-node-cidrs, every Node without spec.podCIDRs gets one
// subnet per cluster CIDR (--cluster-cidr, --node-cidr-mask-size), written as spec.podCIDR and
// spec.podCIDRs; subnets nodes already hold and the service range are never handed out; a deleted
// node's subnets return to the pool. A full range is a CIDRNotAvailable event on the node.
import { nameOf } from '../../api/meta/object.js';
import type { Node } from '../../api/types.js';
import { objectOf } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, Tombstone, WorkQueue } from '../../client/types.js';
import { untilAborted } from '../../client/wait.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { CidrSet, formatCidr, parseCidr, type Cidr } from './cidr-set.js';
import { describeConfig, ipamConfig, type IpamConfig } from './config.js';

export const NODES = { group: '', version: 'v1', resource: 'nodes' };

const podCidrsOf = (node: Node): string[] => (node.spec?.podCIDRs ?? []).filter((c): c is string => typeof c === 'string' && c !== '');

export class NodeIpamController implements Controller {
  readonly name = 'nodeipam';
  readonly config: IpamConfig | undefined;
  readonly sets: CidrSet[] = [];
  readonly queue: WorkQueue<string>;
  private readonly nodeLister: Lister;
  private readonly nodeClient: ResourceClient;
  private readonly recorder: EventRecorder;
  /** The subnets each node holds, as this controller knows them (released when the node goes). */
  private readonly held = new Map<string, Cidr[]>();
  private started = false;

  constructor(private readonly ctx: ControllerContext) {
    this.config = ipamConfig(ctx.options);
    this.queue = newRateLimitingQueue<string>({ name: 'nodeipam' });
    const nodes = ctx.informers.informer(NODES);
    this.nodeLister = nodes.lister;
    this.nodeClient = ctx.clientset.resource(NODES);
    this.recorder = ctx.recorder('cidrAllocator');
    if (!this.config) return;
    this.config.clusterCidrs.forEach((cidr, i) => this.sets.push(new CidrSet(cidr, this.config!.maskSizes[i]!)));
    // the service range is never given to nodes
    for (const service of this.config.serviceCidrs) for (const set of this.sets) set.occupy(service);
    nodes.addEventHandler({
      onAdd: (n) => this.nodeSeen(n as Node),
      onUpdate: (_o, n) => this.nodeSeen(n as Node),
      onDelete: (n) => this.nodeGone(objectOf(n as KubeObject | Tombstone) as Node),
    });
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!this.config) {
      this.ctx.log({ controller: this.name, msg: 'not allocating node CIDRs: --allocate-node-cidrs is false' });
      await untilAborted(signal);
      return;
    }
    this.ctx.log({ controller: this.name, msg: 'allocating node CIDRs', from: describeConfig(this.config) });
    // what the nodes hold already is taken before anything is handed out
    for (const node of this.nodeLister.list() as Node[]) this.occupy(node);
    this.started = true;
    for (const node of this.nodeLister.list() as Node[]) if (podCidrsOf(node).length === 0) this.queue.add(nameOf(node));
    await runSyncWorkers(this.queue, workers, signal, (name) => this.sync(name), (name, err) =>
      this.ctx.log({ controller: this.name, msg: 'failed to allocate a CIDR', node: name, err: err instanceof Error ? err.message : String(err) }),
    );
  }

  private occupy(node: Node): void {
    const cidrs = podCidrsOf(node).map(parseCidr).filter((c): c is Cidr => c !== undefined);
    if (cidrs.length === 0) return;
    for (const cidr of cidrs) {
      const set = this.sets.find((s) => s.cluster.bits === cidr.bits);
      if (!set?.occupy(cidr)) this.ctx.log({ controller: this.name, msg: 'node CIDR outside the cluster CIDR', node: nameOf(node), cidr: formatCidr(cidr) });
    }
    this.held.set(nameOf(node), cidrs);
  }

  private nodeSeen(node: Node): void {
    if (!this.started) return;
    if (podCidrsOf(node).length > 0) {
      if (!this.held.has(nameOf(node))) this.occupy(node);
      return;
    }
    this.queue.add(nameOf(node));
  }

  private nodeGone(node: Node): void {
    const cidrs = this.held.get(nameOf(node)) ?? podCidrsOf(node).map(parseCidr).filter((c): c is Cidr => c !== undefined);
    this.held.delete(nameOf(node));
    for (const cidr of cidrs) for (const set of this.sets) set.release(cidr);
  }

  /** AllocateOrOccupyCIDR and the patch of the node's spec. */
  async sync(name: string): Promise<void> {
    const node = this.nodeLister.get('', name) as Node | undefined;
    if (!node || podCidrsOf(node).length > 0) return;
    // A node whose spec lost the subnets it holds (written back by a snapshot restore, or replaced
    // without them) gets the same ones again: they are still its, and new ones would leak these.
    const held = this.held.get(name);
    if (held) {
      await this.patchCidrs(node, held);
      return;
    }
    const allocated: Cidr[] = [];
    try {
      for (const set of this.sets) allocated.push(set.allocateNext());
    } catch (err) {
      for (const cidr of allocated) for (const set of this.sets) set.release(cidr);
      this.nodeEvent(node, 'CIDRNotAvailable');
      throw err;
    }
    this.held.set(name, allocated);
    try {
      await this.patchCidrs(node, allocated);
    } catch (err) {
      this.held.delete(name);
      for (const cidr of allocated) for (const set of this.sets) set.release(cidr);
      throw err;
    }
  }

  /** Writes `cidrs` as the node's spec.podCIDR(s); a node gone meanwhile is no error. */
  private async patchCidrs(node: Node, cidrs: Cidr[]): Promise<void> {
    const written = cidrs.map(formatCidr);
    try {
      await this.nodeClient.patch('', nameOf(node), 'strategic', { spec: { podCIDR: written[0], podCIDRs: written } });
    } catch (err) {
      if (isNotFound(err)) return;
      this.nodeEvent(node, 'CIDRAssignmentFailed');
      throw new Error(`failed to patch node CIDR: ${(err as Error).message}`);
    }
  }

  /** RecordNodeStatusChange: the node's uid is its name in these events, as in Kubernetes. */
  private nodeEvent(node: Node, status: string): void {
    this.recorder.event({ apiVersion: 'v1', kind: 'Node', metadata: { name: nameOf(node), uid: nameOf(node) } }, 'Normal', status, `Node ${nameOf(node)} status is now: ${status}`);
  }
}
