// The attach/detach controller (kube-controller-manager's `attachdetach`,
// pkg/controller/volume/attachdetach): for the nodes whose kubelet lets the controller manage
// attachment (annotation volumes.kubernetes.io/controller-managed-attach-detach=true), every CSI
// volume a scheduled pod uses gets a VolumeAttachment that the driver's attacher acts on; once its
// status says attached the volume is listed in the node's status.volumesAttached (which the kubelet
// waits for) and the pods get SuccessfulAttachVolume. A volume no pod on the node uses any more is
// removed from that list and its VolumeAttachment deleted (the attacher detaches and lets it go),
// waiting while the kubelet still reports it in use, at most 6 minutes (maxWaitForUnmountDuration).
// Every --attach-detach-reconcile-sync-period the attachments believed done are checked against
// their VolumeAttachments and redone when gone or detached, unless --disable-attach-detach-reconcile-sync.
import { annotationsOf, isBeingDeleted, nameOf } from '../../api/meta/object.js';
import type { CSIDriver, Node, PersistentVolume, PersistentVolumeClaim, Pod, VolumeAttachment } from '../../api/types.js';
import { keyOf } from '../../client/cache.js';
import { isAlreadyExists, isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, Tombstone, WorkQueue } from '../../client/types.js';
import { sleep } from '../../client/wait.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { podClaimNames } from '../../machinery/volumes/storage.js';
import { attachableVolumesOf, attachmentName, uniqueVolumeName, type AttachableVolume, type VolumeLookups } from '../../machinery/volumes/attachable.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
const PVS = { group: '', version: 'v1', resource: 'persistentvolumes' };
const ATTACHMENTS = { group: 'storage.k8s.io', version: 'v1', resource: 'volumeattachments' };
const DRIVERS = { group: 'storage.k8s.io', version: 'v1', resource: 'csidrivers' };

export const ANN_CONTROLLER_MANAGED = 'volumes.kubernetes.io/controller-managed-attach-detach';
export const MAX_WAIT_FOR_UNMOUNT_MS = 6 * 60_000;

/** What the controller believes about one volume on one node (its actual state of the world). */
interface Attachment {
  volume: AttachableVolume;
  attachmentName: string;
  attached: boolean;
  /** When the volume stopped being wanted while the kubelet still had it in use. */
  unwantedSince?: number;
  lastError?: string;
}

const isTerminated = (pod: Pod): boolean => {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return true;
  return isBeingDeleted(pod) && !(pod.status?.containerStatuses ?? []).some((c) => c?.state?.running);
};

export class AttachDetachController implements Controller {
  readonly name = 'attachdetach';
  readonly queue: WorkQueue<string>;
  /** node → unique volume name → attachment. */
  private readonly actual = new Map<string, Map<string, Attachment>>();
  private readonly pods: Lister;
  private readonly nodes: Lister;
  private readonly attachments: Lister;
  private readonly lookups: VolumeLookups;
  private readonly recorder: EventRecorder;
  private populated = false;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = newRateLimitingQueue<string>({ name: 'attachdetach' });
    const pods = ctx.informers.informer(PODS);
    const nodes = ctx.informers.informer(NODES);
    const attachments = ctx.informers.informer(ATTACHMENTS);
    const claims = ctx.informers.informer(PVCS);
    const volumes = ctx.informers.informer(PVS);
    const drivers = ctx.informers.informer(DRIVERS);
    this.pods = pods.lister;
    this.nodes = nodes.lister;
    this.attachments = attachments.lister;
    this.lookups = {
      claim: (ns, name) => claims.lister.get(ns, name) as PersistentVolumeClaim | undefined,
      volume: (name) => volumes.lister.get('', name) as PersistentVolume | undefined,
      driver: (name) => drivers.lister.get('', name) as CSIDriver | undefined,
    };
    this.recorder = ctx.recorder('attachdetach-controller');
    const podNode = (o: KubeObject | Tombstone) => {
      const pod = ('finalStateUnknown' in o ? o.obj : o) as Pod;
      // Only claims are attached, and a pod's volumes never change: a pod without one cannot
      // change what its node needs (the node's sync walks every pod on it: not per pod event).
      if (pod.spec?.nodeName && podClaimNames(pod).length > 0) this.queue.add(pod.spec.nodeName);
    };
    pods.addEventHandler({ onAdd: podNode, onUpdate: (_o, n) => podNode(n), onDelete: podNode });
    nodes.addEventHandler({ onAdd: (n) => this.queue.add(nameOf(n)), onUpdate: (_o, n) => this.queue.add(nameOf(n)), onDelete: (n) => this.queue.add(keyOf(n)) });
    const attachmentNode = (o: KubeObject | Tombstone) => {
      const va = ('finalStateUnknown' in o ? o.obj : o) as VolumeAttachment;
      if (va.spec?.nodeName) this.queue.add(va.spec.nodeName);
    };
    attachments.addEventHandler({ onAdd: attachmentNode, onUpdate: (_o, n) => attachmentNode(n), onDelete: attachmentNode });
    // A claim binding or a volume appearing can make a pod's volume attachable: look at its nodes again.
    const everyNode = () => {
      for (const n of this.nodes.list()) this.queue.add(nameOf(n));
    };
    claims.addEventHandler({ onUpdate: everyNode });
    volumes.addEventHandler({ onAdd: everyNode });
    drivers.addEventHandler({ onAdd: everyNode, onUpdate: everyNode, onDelete: everyNode });
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    const period = typeof this.ctx.options.attachDetachReconcileSyncPeriod === 'number' ? this.ctx.options.attachDetachReconcileSyncPeriod : 60_000;
    const verify = async () => {
      if (this.ctx.options.disableAttachDetachReconcileSync === true) return;
      while (!signal.aborted) {
        await sleep(period, signal);
        this.verifyAttached();
      }
    };
    await Promise.all([
      runSyncWorkers(this.queue, Math.max(1, workers), signal, (node) => this.syncNode(node), (node, err) => this.ctx.log({ controller: this.name, msg: 'node sync failed', node, err: (err as Error).message })),
      verify(),
    ]);
  }

  /** The actual state from what exists already (a restart must neither re-attach nor forget). */
  private populate(): void {
    if (this.populated) return;
    this.populated = true;
    for (const va of this.attachments.list() as VolumeAttachment[]) {
      const node = va.spec?.nodeName;
      const pvName = va.spec?.source?.persistentVolumeName;
      const csi = pvName ? this.lookups.volume(pvName)?.spec?.csi : undefined;
      if (!node || !pvName || !csi?.driver || !csi.volumeHandle || va.spec?.attacher !== csi.driver) continue;
      const volume = { uniqueName: uniqueVolumeName(csi.driver, csi.volumeHandle), pvName, driver: csi.driver, handle: csi.volumeHandle };
      this.attachmentsOf(node).set(volume.uniqueName, { volume, attachmentName: nameOf(va), attached: va.status?.attached === true && !isBeingDeleted(va) });
    }
  }

  private attachmentsOf(node: string): Map<string, Attachment> {
    let m = this.actual.get(node);
    if (!m) this.actual.set(node, (m = new Map()));
    return m;
  }

  /** The reconciler's periodic sync: attachments believed done whose VolumeAttachment is gone or detached are redone. */
  verifyAttached(): void {
    for (const [node, atts] of this.actual) {
      let changed = false;
      for (const a of atts.values()) {
        if (!a.attached) continue;
        const va = this.attachments.get('', a.attachmentName) as VolumeAttachment | undefined;
        if (!va || va.status?.attached !== true || isBeingDeleted(va)) {
          a.attached = false;
          changed = true;
        }
      }
      if (changed) this.queue.add(node);
    }
  }

  /** Volumes the node's scheduled pods need, with those pods. */
  private desired(node: Node | undefined): Map<string, { volume: AttachableVolume; pods: Pod[] }> {
    const out = new Map<string, { volume: AttachableVolume; pods: Pod[] }>();
    if (!node || annotationsOf(node)[ANN_CONTROLLER_MANAGED] !== 'true') return out;
    for (const pod of this.pods.byIndex('nodeName', nameOf(node)) as Pod[]) {
      if (isTerminated(pod)) continue;
      for (const v of attachableVolumesOf(pod, this.lookups)) {
        const d = out.get(v.uniqueName);
        if (d) d.pods.push(pod);
        else out.set(v.uniqueName, { volume: v, pods: [pod] });
      }
    }
    return out;
  }

  async syncNode(nodeName: string): Promise<void> {
    this.populate();
    const node = this.nodes.get('', nodeName) as Node | undefined;
    const desired = this.desired(node);
    const atts = this.attachmentsOf(nodeName);
    const client = this.ctx.clientset.resource(ATTACHMENTS);
    let retry = false;
    for (const [unique, want] of desired) {
      let a = atts.get(unique);
      if (a?.attached) continue;
      if (!a) atts.set(unique, (a = { volume: want.volume, attachmentName: attachmentName(want.volume.handle, want.volume.driver, nodeName), attached: false }));
      a.unwantedSince = undefined;
      const va = this.attachments.get('', a.attachmentName) as VolumeAttachment | undefined;
      if (!va || isBeingDeleted(va)) {
        if (!va) await this.createAttachment(a, nodeName);
        retry ||= Boolean(va); // a detach still finishing: attach again once it has
        continue;
      }
      if (va.status?.attached === true) {
        a.attached = true;
        a.lastError = undefined;
        for (const pod of want.pods) this.recorder.event(pod as KubeObject, 'Normal', 'SuccessfulAttachVolume', `AttachVolume.Attach succeeded for volume "${want.volume.pvName}"`);
        continue;
      }
      const error = va.status?.attachError?.message;
      if (error && error !== a.lastError) {
        a.lastError = error;
        for (const pod of want.pods) this.recorder.event(pod as KubeObject, 'Warning', 'FailedAttachVolume', `AttachVolume.Attach failed for volume "${want.volume.pvName}" : ${error}`);
      }
    }
    const inUse = new Set(node?.status?.volumesInUse ?? []);
    for (const [unique, a] of atts) {
      if (desired.has(unique)) continue;
      // The kubelet still has it mounted: wait for the unmount, but not for ever.
      if (node && inUse.has(unique)) {
        a.unwantedSince ??= this.ctx.now();
        if (this.ctx.now() - a.unwantedSince < MAX_WAIT_FOR_UNMOUNT_MS) {
          retry = true;
          continue;
        }
      }
      atts.delete(unique);
      try {
        await client.delete('', a.attachmentName);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    if (node) await this.reportAttached(node, atts);
    if (atts.size === 0) this.actual.delete(nodeName);
    if (retry) this.queue.addAfter(nodeName, 1000);
  }

  private async createAttachment(a: Attachment, node: string): Promise<void> {
    const va: VolumeAttachment = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: a.attachmentName },
      spec: { attacher: a.volume.driver, nodeName: node, source: { persistentVolumeName: a.volume.pvName } },
    };
    try {
      await this.ctx.clientset.resource(ATTACHMENTS).create('', va as KubeObject);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }

  /** node.status.volumesAttached: the attached volumes, in name order (the kubelet waits for its volumes there). */
  private async reportAttached(node: Node, atts: Map<string, Attachment>): Promise<void> {
    const want = [...atts.values()].filter((a) => a.attached).map((a) => a.volume.uniqueName).sort();
    const have = (node.status?.volumesAttached ?? []).map((v) => v?.name ?? '').sort();
    if (want.length === have.length && want.every((v, i) => v === have[i])) return;
    try {
      await this.ctx.clientset.resource(NODES).patch('', nameOf(node), 'merge', { status: { volumesAttached: want.map((name) => ({ name, devicePath: '' })) } }, { subresource: 'status' });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
