// Volume expansion for the simulated CSI driver, in its two halves. The controller half (what
// csi-resizer does): a bound claim of this driver asking for more than its volume holds gets the
// volume grown — Resizing while it happens, then FileSystemResizePending with the allocated size
// NodeResizePending (RecoverVolumeExpansionFailure's status). The node half (the kubelet's
// NodeExpandVolume): once a running pod on one of this agent's nodes uses such a claim, the claim's
// status.capacity becomes the new size and the pod gets FileSystemResizeSuccessful.
import { namespaceOf, nameOf } from '../../api/meta/object.js';
import { storageBytes } from '../../machinery/volumes/storage.js';
import type { PersistentVolume, PersistentVolumeClaim, PersistentVolumeClaimCondition, Pod } from '../../api/types.js';
import { keyOf, splitKey } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Clientset, EventRecorder, KubeObject, Lister, SharedInformer } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { CSI_DRIVER_NAME, PVCS, PVS } from './names.js';

const NODE_RESIZE_PENDING = 'NodeResizePending';
const FS_PENDING_MESSAGE = 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.';

export interface ResizerListers {
  claims: Lister;
  volumes: Lister;
  pods: Lister;
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

export class SimulatedResizer {
  private readonly queue = newRateLimitingQueue<string>({ name: 'csi-resizer' });

  constructor(
    private readonly clientset: Clientset,
    private readonly listers: ResizerListers,
    private readonly isOurNode: (name: string) => boolean,
    private readonly recorder: { claim?: EventRecorder; pod: (nodeName: string) => EventRecorder | undefined },
    private readonly now: () => number,
    private readonly log: (fields: Record<string, unknown>) => void,
  ) {}

  watch(claims: SharedInformer, pods: SharedInformer): void {
    const claimEvent = (o: KubeObject) => {
      if ((o as PersistentVolumeClaim).spec?.volumeName) this.queue.add(keyOf(o));
    };
    claims.addEventHandler({ onAdd: claimEvent, onUpdate: (_o, n) => claimEvent(n) });
    // A pod starting to run on one of these nodes may finish a claim's node expansion.
    pods.addEventHandler({
      onUpdate: (old, o) => {
        const pod = o as Pod;
        if (pod.status?.phase !== 'Running' || (old as Pod).status?.phase === 'Running' || !this.isOurNode(pod.spec?.nodeName ?? '')) return;
        for (const v of pod.spec?.volumes ?? []) if (v?.persistentVolumeClaim?.claimName) this.queue.add(`${namespaceOf(pod)}/${v.persistentVolumeClaim.claimName}`);
      },
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return runSyncWorkers(this.queue, 2, signal, (k) => this.sync(k), (key, err) => this.log({ msg: 'volume expansion failed', claim: key, error: (err as Error).message }));
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const claim = this.listers.claims.get(namespace, name) as PersistentVolumeClaim | undefined;
    const pv = claim?.spec?.volumeName ? (this.listers.volumes.get('', claim.spec.volumeName) as PersistentVolume | undefined) : undefined;
    if (!claim || !pv || pv.spec?.csi?.driver !== CSI_DRIVER_NAME || claim.status?.phase !== 'Bound') return;
    try {
      const requested = claim.spec?.resources?.requests?.storage;
      if (storageBytes(requested) > storageBytes(pv.spec?.capacity?.storage)) await this.expandVolume(claim, pv, requested as string);
      else if (claim.status?.allocatedResourceStatuses?.storage === NODE_RESIZE_PENDING) await this.expandOnNode(claim, pv);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private conditions(claim: PersistentVolumeClaim, add?: PersistentVolumeClaimCondition): PersistentVolumeClaimCondition[] {
    const kept = (claim.status?.conditions ?? []).filter((c) => c?.type !== 'Resizing' && c?.type !== 'FileSystemResizePending');
    return add ? [...kept, add] : kept;
  }

  /** ControllerExpandVolume: the volume grows; the file system on a node has to follow. */
  private async expandVolume(claim: PersistentVolumeClaim, pv: PersistentVolume, requested: string): Promise<void> {
    const claims = this.clientset.resource(PVCS);
    const ns = namespaceOf(claim);
    const at = rfc3339(this.now());
    let c: PersistentVolumeClaim = await claims.update(ns, { ...claim, status: { ...claim.status, conditions: this.conditions(claim, { type: 'Resizing', status: 'True', lastTransitionTime: at }), allocatedResources: { ...claim.status?.allocatedResources, storage: requested }, allocatedResourceStatuses: { ...claim.status?.allocatedResourceStatuses, storage: 'ControllerResizeInProgress' } } } as KubeObject, { subresource: 'status' });
    this.recorder.claim?.event(c as KubeObject, 'Normal', 'Resizing', `External resizer is resizing volume ${nameOf(pv)}`);
    await this.clientset.resource(PVS).update('', { ...pv, spec: { ...pv.spec, capacity: { ...pv.spec?.capacity, storage: requested } } } as KubeObject);
    c = await claims.update(ns, { ...c, status: { ...c.status, conditions: this.conditions(c, { type: 'FileSystemResizePending', status: 'True', lastTransitionTime: at, message: FS_PENDING_MESSAGE }), allocatedResourceStatuses: { ...c.status?.allocatedResourceStatuses, storage: NODE_RESIZE_PENDING } } } as KubeObject, { subresource: 'status' });
    this.recorder.claim?.event(c as KubeObject, 'Normal', 'FileSystemResizeRequired', 'Require file system resize of volume on node');
  }

  /** NodeExpandVolume, by the kubelet of a node where a running pod mounts the claim. */
  private async expandOnNode(claim: PersistentVolumeClaim, pv: PersistentVolume): Promise<void> {
    const ns = namespaceOf(claim);
    const pod = (this.listers.pods.list(ns) as Pod[]).find(
      (p) => p.status?.phase === 'Running' && this.isOurNode(p.spec?.nodeName ?? '') && (p.spec?.volumes ?? []).some((v) => v?.persistentVolumeClaim?.claimName === nameOf(claim)),
    );
    if (!pod) return; // until a pod mounts it, as FS_PENDING_MESSAGE says
    const statuses = { ...claim.status?.allocatedResourceStatuses };
    delete statuses.storage;
    const capacity = claim.status?.allocatedResources?.storage ?? pv.spec?.capacity?.storage;
    await this.clientset.resource(PVCS).update(ns, { ...claim, status: { ...claim.status, capacity: { ...claim.status?.capacity, storage: capacity }, conditions: this.conditions(claim), allocatedResourceStatuses: statuses } } as KubeObject, { subresource: 'status' });
    this.recorder.pod(pod.spec!.nodeName!)?.event(pod as KubeObject, 'Normal', 'FileSystemResizeSuccessful', `MountVolume.NodeExpandVolume succeeded for volume "${nameOf(pv)}" ${pod.spec!.nodeName}`);
  }
}
