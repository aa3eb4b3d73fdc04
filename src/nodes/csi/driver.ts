// The simulated CSI driver `csi.kubelite.dev` of the nodes process: its CSIDriver object (attach
// required, persistent and ephemeral lifecycles), a CSINode entry per node (node ID the node's
// name, the zone as its topology), and what a driver deployment's sidecars do — attach
// (attacher.ts), provision and delete (provisioner.ts), expand (resizer.ts). With it a claim of a
// StorageClass whose provisioner is csi.kubelite.dev walks the path a cloud disk does: provisioned,
// bound, attached to the pod's node by the attach/detach controller, grown on request.
import { nameOf } from '../../api/meta/object.js';
import type { CSINode } from '../../api/types.js';
import { isAlreadyExists, isForbidden } from '../../client/errors.js';
import type { Clientset, EventRecorder, InformerFactory, KubeObject } from '../../client/types.js';
import type { AgentContext } from '../context.js';
import { BOUND_PODS, PODS } from '../pod-lifecycle.js';
import type { SimNode } from '../sim-node.js';
import { SimulatedAttacher } from './attacher.js';
import { ATTACHMENTS, CLASSES, CSI_DRIVER_NAME, CSI_NODES, DRIVERS, PVCS, PVS, ZONE_KEY } from './names.js';
import { SimulatedProvisioner } from './provisioner.js';
import { SimulatedResizer } from './resizer.js';

const NODES = { group: '', version: 'v1', resource: 'nodes' };

export class SimulatedCSIDriver {
  private readonly attacher: SimulatedAttacher;
  private readonly provisioner: SimulatedProvisioner;
  private readonly resizer: SimulatedResizer;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly ctx: AgentContext,
    informers: InformerFactory,
    recorder: (nodeName: string) => EventRecorder | undefined,
    claimRecorder: EventRecorder | undefined,
  ) {
    const { clientset } = ctx.opts;
    const isOurNode = (name: string) => ctx.nodes.has(name);
    const claims = informers.informer(PVCS);
    const volumes = informers.informer(PVS);
    const pods = informers.informer(PODS, BOUND_PODS);
    this.attacher = new SimulatedAttacher(clientset, isOurNode, ctx.log);
    this.attacher.watch(informers.informer(ATTACHMENTS));
    this.provisioner = new SimulatedProvisioner(clientset, { claims: claims.lister, volumes: volumes.lister, classes: informers.informer(CLASSES).lister, nodes: informers.informer(NODES).lister }, claimRecorder, ctx.log);
    this.provisioner.watch(claims, volumes);
    this.resizer = new SimulatedResizer(clientset, { claims: claims.lister, volumes: volumes.lister, pods: pods.lister }, isOurNode, { claim: claimRecorder, pod: recorder }, () => ctx.clock.now(), ctx.log);
    this.resizer.watch(claims, pods);
  }

  /**
   * Registers the driver, then runs the sidecars until `signal` aborts. Each node's CSINode is
   * registered with the node itself (registerNode, at every registration of its Node).
   */
  async start(signal: AbortSignal): Promise<void> {
    await this.registerDriver(this.ctx.opts.clientset);
    this.running = Promise.all([this.attacher.run(signal), this.provisioner.run(signal), this.resizer.run(signal)]);
  }

  async stopped(): Promise<void> {
    await this.running;
  }

  private async registerDriver(clientset: Clientset): Promise<void> {
    const driver = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: CSI_DRIVER_NAME, labels: { 'app.kubernetes.io/managed-by': 'kubelite-nodes' } },
      spec: { attachRequired: true, podInfoOnMount: false, volumeLifecycleModes: ['Persistent', 'Ephemeral'], fsGroupPolicy: 'File', requiresRepublish: false, storageCapacity: false },
    };
    try {
      await clientset.resource(DRIVERS).create('', driver as KubeObject);
    } catch (err) {
      if (isAlreadyExists(err)) return;
      // Without the object the driver still works: attachment is then required, as it is here.
      const why = isForbidden(err) ? 'this identity may not create CSIDrivers' : (err as Error).message;
      this.ctx.log({ msg: `the CSI driver ${CSI_DRIVER_NAME} is not registered: ${why}`, level: 'warning' });
    }
  }

  /** The kubelet's CSINode, with this driver's entry (as the driver's node plugin registers it). */
  async registerNode(node: SimNode): Promise<void> {
    const csiNode: CSINode = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name: node.name, ...(node.uid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid }] } : {}) },
      spec: { drivers: [{ name: CSI_DRIVER_NAME, nodeID: node.name, topologyKeys: node.zone ? [ZONE_KEY] : [] }] },
    };
    try {
      await node.client.resource(CSI_NODES).create('', csiNode as KubeObject);
    } catch (err) {
      if (!isAlreadyExists(err)) this.ctx.log({ msg: 'CSINode registration failed', node: nameOf(csiNode), error: (err as Error).message });
    }
  }
}
