// The provisioner of the simulated CSI driver (what csi-provisioner does for a real driver): a
// claim the PV controller handed to this driver (volume.kubernetes.io/storage-provisioner) gets a
// volume `pvc-<claim uid>` with a csi source of this driver, pre-bound to it — for a
// WaitForFirstConsumer class only once the scheduler has chosen a node, whose zone then becomes the
// volume's node affinity. A volume it provisioned that is Released with reclaim policy Delete is
// deleted, its finalizer removed.
import { annotationsOf, finalizersOf, isBeingDeleted, nameOf, namespaceOf, resourceVersionOf, uidOf } from '../../api/meta/object.js';
import type { Node, PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../api/types.js';
import { keyOf, splitKey } from '../../client/cache.js';
import { isAlreadyExists, isNotFound } from '../../client/errors.js';
import type { Clientset, EventRecorder, KubeObject, Lister, SharedInformer } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { ANN_SELECTED_NODE } from '../../machinery/volumes/annotations.js';
import { CSI_DRIVER_NAME, PROVISIONER_FINALIZER, PVS, ZONE_KEY } from './names.js';

const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';

export interface ProvisionerListers {
  claims: Lister;
  volumes: Lister;
  classes: Lister;
  nodes: Lister;
}

export class SimulatedProvisioner {
  private readonly claimQueue = newRateLimitingQueue<string>({ name: 'csi-provisioner-claims' });
  private readonly volumeQueue = newRateLimitingQueue<string>({ name: 'csi-provisioner-volumes' });

  constructor(
    private readonly clientset: Clientset,
    private readonly listers: ProvisionerListers,
    private readonly recorder: EventRecorder | undefined,
    private readonly log: (fields: Record<string, unknown>) => void,
  ) {}

  watch(claims: SharedInformer, volumes: SharedInformer): void {
    const claimEvent = (o: KubeObject) => {
      const a = annotationsOf(o);
      if ((a[ANN_STORAGE_PROVISIONER] ?? a[ANN_BETA_STORAGE_PROVISIONER]) === CSI_DRIVER_NAME && !(o as PersistentVolumeClaim).spec?.volumeName) this.claimQueue.add(keyOf(o));
    };
    claims.addEventHandler({ onAdd: claimEvent, onUpdate: (_o, n) => claimEvent(n) });
    const volumeEvent = (o: KubeObject) => {
      if ((o as PersistentVolume).spec?.csi?.driver === CSI_DRIVER_NAME) this.volumeQueue.add(nameOf(o));
    };
    volumes.addEventHandler({ onAdd: volumeEvent, onUpdate: (_o, n) => volumeEvent(n) });
  }

  run(signal: AbortSignal): Promise<unknown> {
    const onError = (what: string) => (key: string, err: unknown) => this.log({ msg: what, key, error: (err as Error).message });
    return Promise.all([
      runSyncWorkers(this.claimQueue, 4, signal, (k) => this.syncClaim(k), onError('provisioning failed')),
      runSyncWorkers(this.volumeQueue, 2, signal, (k) => this.syncVolume(k), onError('volume deletion failed')),
    ]);
  }

  async syncClaim(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const claim = this.listers.claims.get(namespace, name) as PersistentVolumeClaim | undefined;
    if (!claim || claim.spec?.volumeName || isBeingDeleted(claim)) return;
    const volumeName = `pvc-${uidOf(claim)}`;
    if (this.listers.volumes.get('', volumeName)) return; // provisioned: the PV controller binds it
    const sc = this.listers.classes.get('', claim.spec?.storageClassName ?? '') as StorageClass | undefined;
    if (!sc || sc.provisioner !== CSI_DRIVER_NAME) return;
    let zone: string | undefined;
    if (sc.volumeBindingMode === 'WaitForFirstConsumer') {
      const selected = annotationsOf(claim)[ANN_SELECTED_NODE];
      if (!selected) return; // the scheduler has not chosen yet
      const node = this.listers.nodes.get('', selected) as Node | undefined;
      zone = node?.metadata?.labels?.[ZONE_KEY];
    }
    this.recorder?.event(claim as KubeObject, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${namespace}/${name}"`);
    const pv: PersistentVolume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: volumeName, annotations: { [ANN_PROVISIONED_BY]: CSI_DRIVER_NAME }, finalizers: [PROVISIONER_FINALIZER] },
      spec: {
        capacity: { storage: claim.spec?.resources?.requests?.storage ?? '0' },
        accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        storageClassName: nameOf(sc),
        volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
        ...(sc.mountOptions ? { mountOptions: sc.mountOptions } : {}),
        claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace, name, uid: uidOf(claim), resourceVersion: resourceVersionOf(claim) },
        csi: { driver: CSI_DRIVER_NAME, volumeHandle: uidOf(claim), fsType: 'ext4', volumeAttributes: { 'storage.kubernetes.io/csiProvisionerIdentity': CSI_DRIVER_NAME } },
        ...(zone ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE_KEY, operator: 'In', values: [zone] }] }] } } } : {}),
      },
    };
    try {
      await this.clientset.resource(PVS).create('', pv as KubeObject);
    } catch (err) {
      if (!isAlreadyExists(err)) {
        this.recorder?.event(claim as KubeObject, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${nameOf(sc)}": ${(err as Error).message}`);
        throw err;
      }
    }
    this.recorder?.event(claim as KubeObject, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${volumeName}`);
  }

  async syncVolume(name: string): Promise<void> {
    const pv = this.listers.volumes.get('', name) as PersistentVolume | undefined;
    if (!pv || annotationsOf(pv)[ANN_PROVISIONED_BY] !== CSI_DRIVER_NAME) return;
    const client = this.clientset.resource(PVS);
    try {
      if (isBeingDeleted(pv)) {
        // DeleteVolume succeeded (there is nothing to free): let the object go.
        const finalizers = finalizersOf(pv);
        if (finalizers.includes(PROVISIONER_FINALIZER)) await client.update('', { ...pv, metadata: { ...pv.metadata, finalizers: finalizers.filter((f) => f !== PROVISIONER_FINALIZER) } } as KubeObject);
        return;
      }
      if (pv.status?.phase === 'Released' && pv.spec?.persistentVolumeReclaimPolicy === 'Delete') await client.delete('', name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
