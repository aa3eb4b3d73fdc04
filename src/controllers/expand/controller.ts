// The volume expand controller (kube-controller-manager's `persistentvolume-expander`,
// pkg/controller/volume/expand): a bound claim whose storage request exceeds its status capacity
// is handed to the driver that can grow its volume. No in-tree plugin expands any more: a CSI
// volume's external resizer does it (the event says the claim waits for it), and a volume of an
// in-tree plugin migrated to CSI gets the CSI driver's name in the claim's
// volume.kubernetes.io/storage-resizer annotation, which that driver's resizer acts on.
import { annotationsOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import { storageBytes } from '../../machinery/volumes/storage.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../../api/types.js';
import { keyOf, splitKey } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';

const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
const PVS = { group: '', version: 'v1', resource: 'persistentvolumes' };

export const ANN_STORAGE_RESIZER = 'volume.kubernetes.io/storage-resizer';

/** In-tree volume sources Kubernetes 1.33 migrates to CSI: the in-tree plugin's name and the CSI driver's. */
const MIGRATED: ReadonlyArray<{ source: string; plugin: string; driver: string }> = [
  { source: 'awsElasticBlockStore', plugin: 'kubernetes.io/aws-ebs', driver: 'ebs.csi.aws.com' },
  { source: 'gcePersistentDisk', plugin: 'kubernetes.io/gce-pd', driver: 'pd.csi.storage.gke.io' },
  { source: 'azureDisk', plugin: 'kubernetes.io/azure-disk', driver: 'disk.csi.azure.com' },
  { source: 'azureFile', plugin: 'kubernetes.io/azure-file', driver: 'file.csi.azure.com' },
  { source: 'cinder', plugin: 'kubernetes.io/cinder', driver: 'cinder.csi.openstack.org' },
  { source: 'vsphereVolume', plugin: 'kubernetes.io/vsphere-volume', driver: 'csi.vsphere.vmware.com' },
  { source: 'portworxVolume', plugin: 'kubernetes.io/portworx-volume', driver: 'pxd.portworx.com' },
];


export class ExpandController implements Controller {
  readonly name = 'persistentvolume-expander';
  readonly queue: WorkQueue<string>;
  private readonly claims: Lister;
  private readonly volumes: Lister;
  private readonly recorder: EventRecorder;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = newRateLimitingQueue<string>({ name: 'volume_expand' });
    const claims = ctx.informers.informer(PVCS);
    this.claims = claims.lister;
    this.volumes = ctx.informers.informer(PVS).lister;
    this.recorder = ctx.recorder('volume_expand');
    const enqueue = (c: KubeObject) => {
      if ((c as PersistentVolumeClaim).spec?.volumeName) this.queue.add(keyOf(c));
    };
    claims.addEventHandler({ onAdd: enqueue, onUpdate: (_o, c) => enqueue(c) });
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    return runSyncWorkers(this.queue, Math.max(1, workers), signal, (k) => this.sync(k), (key, err) => this.ctx.log({ controller: this.name, msg: 'claim sync failed', key, err: (err as Error).message }));
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const claim = this.claims.get(namespace, name) as PersistentVolumeClaim | undefined;
    const volumeName = claim?.spec?.volumeName;
    if (!claim || !volumeName) return;
    const volume = this.volumes.get('', volumeName) as PersistentVolume | undefined;
    if (!volume) throw new Error(`failed to get PV "${volumeName}": persistentvolumes "${volumeName}" not found`);
    const ref = volume.spec?.claimRef;
    if (!ref || ref.namespace !== namespace || ref.uid !== uidOf(claim)) throw new Error(`persistent Volume is not bound to PVC being updated : ${key}`);
    if (storageBytes(claim.spec?.resources?.requests?.storage) <= storageBytes(claim.status?.capacity?.storage)) return;
    const spec = (volume.spec ?? {}) as Record<string, unknown>;
    const migrated = MIGRATED.find((m) => spec[m.source] !== undefined && spec[m.source] !== null);
    if (!migrated) {
      this.recorder.event(claim as KubeObject, 'Normal', 'ExternalExpanding', 'waiting for an external controller to expand this PVC');
      return;
    }
    this.recorder.event(claim as KubeObject, 'Normal', 'ExternalExpanding', `CSI migration enabled for ${migrated.plugin}; waiting for external resizer to expand the pvc`);
    if (annotationsOf(claim)[ANN_STORAGE_RESIZER] === migrated.driver) return;
    try {
      // Through the status subresource, as Kubernetes' SetClaimResizer: its role may not patch claims.
      await this.ctx.clientset.resource(PVCS).patch(namespaceOf(claim), name, 'merge', { metadata: { annotations: { [ANN_STORAGE_RESIZER]: migrated.driver } } }, { subresource: 'status' });
    } catch (err) {
      const message = `error setting resizer annotation to pvc ${key}, with error ${(err as Error).message}`;
      this.recorder.event(claim as KubeObject, 'Warning', 'ExternalExpanding', message);
      if (!isNotFound(err)) throw new Error(message);
    }
  }
}
