// The persistent volume controller (kube-controller-manager's persistentvolume-binder,
// pkg/controller/volume/persistentvolume): claims bind to the best matching Available volume (or
// the one they or it name); a claim of a StorageClass with no volume to match is provisioned — by
// the in-tree hostPath provisioner `kubernetes.io/host-path` with --enable-hostpath-provisioner (as
// Kubernetes' testing provisioner: a volume `pvc-<claim uid>`, the class's reclaim policy), else
// left to an external provisioner. A claim of a WaitForFirstConsumer class waits for the scheduler:
// it binds the volume the scheduler pre-bound, or is provisioned once the scheduler annotates the
// node it chose (the host path then carries that node's affinity). A volume whose claim is gone is
// Released and, with reclaim policy Delete, deleted if this controller provisioned it, and with
// Recycle scrubbed by a recycler pod (recycler.ts) and made Available again. Every
// --pvclaimbinder-sync-period all are looked at again.
import { annotationsOf, nameOf, namespaceOf, resourceVersionOf, uidOf } from '../../api/meta/object.js';
import type { PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/types.js';
import { keyOf, splitKey } from '../../client/cache.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, WorkQueue } from '../../client/types.js';
import { sleep } from '../../client/wait.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE } from '../../machinery/volumes/annotations.js';
import { bestVolumeFor, claimClass, preBoundTo } from '../../machinery/volumes/claim-matching.js';
import { recyclerConfigs, recyclerPod, recyclerPodName } from './recycler.js';

const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
export const PVS = { group: '', version: 'v1', resource: 'persistentvolumes' };
const CLASSES = { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses' };
const PODS = { group: '', version: 'v1', resource: 'pods' };
const RECYCLER_PREFIX = recyclerPodName('');

export const HOSTPATH_PROVISIONER = 'kubernetes.io/host-path';
const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';

const withAnnotations = <T extends { metadata?: { annotations?: Record<string, string> | null } | null }>(o: T, add: Record<string, string>): T => ({
  ...o,
  metadata: { ...o.metadata, annotations: { ...(o.metadata?.annotations ?? {}), ...add } },
});

export class PersistentVolumeController implements Controller {
  readonly name = 'persistentvolume-binder';
  readonly claimQueue: WorkQueue<string>;
  readonly volumeQueue: WorkQueue<string>;
  private readonly claims: Lister;
  private readonly volumes: Lister;
  private readonly classes: Lister;
  private readonly claimClient: ResourceClient;
  private readonly volumeClient: ResourceClient;
  private readonly recorder: EventRecorder;
  private readonly hostPath: boolean;
  private readonly pods: Lister;
  private readonly recyclers: ReturnType<typeof recyclerConfigs>;

  constructor(private readonly ctx: ControllerContext) {
    this.claimQueue = newRateLimitingQueue<string>({ name: 'claims' });
    this.volumeQueue = newRateLimitingQueue<string>({ name: 'volumes' });
    const claims = ctx.informers.informer(PVCS);
    const volumes = ctx.informers.informer(PVS);
    this.claims = claims.lister;
    this.volumes = volumes.lister;
    this.classes = ctx.informers.informer(CLASSES).lister;
    this.claimClient = ctx.clientset.resource(PVCS);
    this.volumeClient = ctx.clientset.resource(PVS);
    this.recorder = ctx.recorder('persistentvolume-controller');
    this.hostPath = ctx.options.enableHostpathProvisioner === true && ctx.options.enableDynamicProvisioning !== false;
    claims.addEventHandler({ onAdd: (c) => this.claimQueue.add(keyOf(c)), onUpdate: (_o, c) => this.claimQueue.add(keyOf(c)), onDelete: (c) => this.claimGone(c as KubeObject) });
    volumes.addEventHandler({ onAdd: (v) => this.volumeQueue.add(nameOf(v)), onUpdate: (_o, v) => this.volumeQueue.add(nameOf(v)) });
    this.recyclers = recyclerConfigs(ctx.options);
    const pods = ctx.informers.informer(PODS);
    this.pods = pods.lister;
    // a recycler pod's progress brings its volume back
    const recyclerEvent = (p: KubeObject) => {
      const n = nameOf(p);
      if (n.startsWith(RECYCLER_PREFIX)) this.volumeQueue.add(n.slice(RECYCLER_PREFIX.length));
    };
    pods.addEventHandler({ onAdd: recyclerEvent, onUpdate: (_o, p) => recyclerEvent(p) });
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    const period = typeof this.ctx.options.pvclaimbinderSyncPeriod === 'number' ? this.ctx.options.pvclaimbinderSyncPeriod : 15_000;
    const onError = (what: string) => (key: string, err: unknown) => this.ctx.log({ controller: this.name, msg: what, key, err: (err as Error).message });
    const resync = async () => {
      while (!signal.aborted) {
        await sleep(period, signal);
        for (const c of this.claims.list()) this.claimQueue.add(keyOf(c));
        for (const v of this.volumes.list()) this.volumeQueue.add(nameOf(v));
      }
    };
    await Promise.all([
      runSyncWorkers(this.claimQueue, Math.max(1, workers), signal, (k) => this.syncClaim(k), onError('claim sync failed')),
      runSyncWorkers(this.volumeQueue, 1, signal, (k) => this.syncVolume(k), onError('volume sync failed')),
      resync(),
    ]);
  }

  private claimGone(c: KubeObject): void {
    const pv = (c.spec as { volumeName?: string } | undefined)?.volumeName;
    if (pv) this.volumeQueue.add(pv);
  }

  private event(claim: PersistentVolumeClaim, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.recorder.event(claim as KubeObject, type, reason, message);
  }

  async syncClaim(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const claim = this.claims.get(namespace, name) as PersistentVolumeClaim | undefined;
    if (!claim || claim.metadata?.deletionTimestamp) return;
    const volumes = this.volumes.list() as PersistentVolume[];
    const named = claim.spec?.volumeName;
    if (named) {
      const pv = volumes.find((v) => nameOf(v) === named);
      if (!pv) {
        if (claim.status?.phase === 'Bound') {
          await this.claimClient.update(namespace, { ...claim, status: { ...claim.status, phase: 'Lost' } } as KubeObject, { subresource: 'status' });
          this.event(claim, 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
        }
        return;
      }
      if (claim.status?.phase === 'Bound' && preBoundTo(pv, claim)) return;
      if (pv.spec?.claimRef && !preBoundTo(pv, claim)) {
        this.event(claim, 'Warning', 'FailedBinding', `volume "${named}" already bound to a different claim.`);
        return;
      }
      await this.bind(pv, claim, false);
      return;
    }
    if (claim.status?.phase === 'Bound') return;
    const className = claimClass(claim);
    const sc = className === '' ? undefined : (this.classes.get('', className) as StorageClass | undefined);
    // WaitForFirstConsumer: the scheduler picks the volume (as a claimRef) or the node to provision on.
    const delayBinding = sc?.volumeBindingMode === 'WaitForFirstConsumer';
    const best = bestVolumeFor(claim, volumes, { delayBinding });
    if (best) {
      await this.bind(best, claim, true);
      return;
    }
    if (className === '') {
      this.event(claim, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
      return;
    }
    if (!sc) {
      this.event(claim, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io "${className}" not found`);
      return;
    }
    const selectedNode = annotationsOf(claim)[ANN_SELECTED_NODE];
    if (delayBinding && !selectedNode) {
      this.event(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
      return;
    }
    await this.provision(claim, sc, delayBinding ? selectedNode : undefined);
  }

  private async provision(claim: PersistentVolumeClaim, sc: StorageClass, node: string | undefined): Promise<void> {
    const provisioner = sc.provisioner ?? '';
    const namespace = namespaceOf(claim);
    if (annotationsOf(claim)[ANN_STORAGE_PROVISIONER] !== provisioner) {
      await this.claimClient.update(namespace, withAnnotations(claim, { [ANN_STORAGE_PROVISIONER]: provisioner, [ANN_BETA_STORAGE_PROVISIONER]: provisioner }) as KubeObject);
      return; // the update brings the claim back with its annotations
    }
    if (provisioner !== HOSTPATH_PROVISIONER || !this.hostPath) {
      this.event(claim, 'Normal', 'ExternalProvisioning', `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`);
      return;
    }
    const modes = claim.spec?.accessModes ?? [];
    if (modes.some((m) => m !== 'ReadWriteOnce')) {
      this.event(claim, 'Warning', 'ProvisioningFailed', `Failed to provision volume with StorageClass "${nameOf(sc)}": invalid AccessModes ${JSON.stringify(modes)}: only AccessModes [ReadWriteOnce] are supported`);
      return;
    }
    const name = `pvc-${uidOf(claim)}`;
    const pv: PersistentVolume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name, annotations: { [ANN_PROVISIONED_BY]: HOSTPATH_PROVISIONER, [ANN_BOUND_BY_CONTROLLER]: 'yes' } },
      spec: {
        capacity: { storage: claim.spec?.resources?.requests?.storage ?? '0' },
        accessModes: modes,
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        storageClassName: nameOf(sc),
        ...(claim.spec?.volumeMode ? { volumeMode: claim.spec.volumeMode } : {}),
        ...(sc.mountOptions ? { mountOptions: sc.mountOptions } : {}),
        claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace, name: nameOf(claim), uid: uidOf(claim), resourceVersion: resourceVersionOf(claim) },
        hostPath: { path: `/tmp/hostpath_pv/${uidOf(claim)}` },
        // A host path lives on one node: provisioned for a chosen node, the volume stays with it.
        ...(node ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } } } : {}),
      },
    };
    try {
      await this.volumeClient.create('', pv as KubeObject);
      this.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${name} using ${HOSTPATH_PROVISIONER}`);
    } catch (err) {
      if (!isAlreadyExists(err)) {
        this.event(claim, 'Warning', 'ProvisioningFailed', `Failed to provision volume with StorageClass "${nameOf(sc)}": ${(err as Error).message}`);
        throw err;
      }
    }
  }

  /** bind: the volume's claimRef and phase, then the claim's volumeName, annotations and phase. */
  private async bind(pv: PersistentVolume, claim: PersistentVolumeClaim, byController: boolean): Promise<void> {
    const namespace = namespaceOf(claim);
    try {
      let volume = pv;
      if (!preBoundTo(pv, claim) || !pv.spec?.claimRef?.uid) {
        const ref = { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace, name: nameOf(claim), uid: uidOf(claim), resourceVersion: resourceVersionOf(claim) };
        const next = { ...pv, spec: { ...pv.spec, claimRef: ref } };
        volume = (await this.volumeClient.update('', (pv.spec?.claimRef ? next : withAnnotations(next, { [ANN_BOUND_BY_CONTROLLER]: 'yes' })) as KubeObject)) as PersistentVolume;
      }
      if (volume.status?.phase !== 'Bound') volume = (await this.volumeClient.update('', { ...volume, status: { ...volume.status, phase: 'Bound' } } as KubeObject, { subresource: 'status' })) as PersistentVolume;
      let c = claim;
      if (c.spec?.volumeName !== nameOf(pv) || annotationsOf(c)[ANN_BIND_COMPLETED] !== 'yes') {
        const add: Record<string, string> = { [ANN_BIND_COMPLETED]: 'yes', ...(byController ? { [ANN_BOUND_BY_CONTROLLER]: 'yes' } : {}) };
        c = (await this.claimClient.update(namespace, withAnnotations({ ...c, spec: { ...c.spec, volumeName: nameOf(pv) } }, add) as KubeObject)) as PersistentVolumeClaim;
      }
      await this.claimClient.update(namespace, { ...c, status: { ...c.status, phase: 'Bound', capacity: pv.spec?.capacity ?? {}, accessModes: pv.spec?.accessModes ?? [] } } as KubeObject, { subresource: 'status' });
    } catch (err) {
      // a newer version of either object is on its way: the next sync binds from it
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }

  async syncVolume(name: string): Promise<void> {
    const pv = this.volumes.get('', name) as PersistentVolume | undefined;
    if (!pv || pv.metadata?.deletionTimestamp) return;
    const ref = pv.spec?.claimRef;
    const setPhase = async (phase: string) => {
      if (pv.status?.phase === phase) return;
      try {
        await this.volumeClient.update('', { ...pv, status: { ...pv.status, phase } } as KubeObject, { subresource: 'status' });
      } catch (err) {
        if (!isConflict(err) && !isNotFound(err)) throw err;
      }
    };
    if (!ref) return setPhase('Available');
    const claim = this.claims.get(ref.namespace ?? '', ref.name ?? '') as PersistentVolumeClaim | undefined;
    if (claim && (!ref.uid || ref.uid === uidOf(claim))) {
      if (claim.spec?.volumeName === name) return setPhase('Bound');
      this.claimQueue.add(keyOf(claim as KubeObject));
      return;
    }
    // pre-bound by its author to a claim that does not exist yet: still available to it
    if (!ref.uid) return setPhase('Available');
    // a volume that failed to be reclaimed waits for its administrator
    if (pv.status?.phase === 'Failed') return;
    if (pv.status?.phase !== 'Released') await setPhase('Released');
    const policy = pv.spec?.persistentVolumeReclaimPolicy;
    if (policy === 'Recycle') return this.recycle(pv);
    if (policy === 'Delete' && annotationsOf(pv)[ANN_PROVISIONED_BY] === HOSTPATH_PROVISIONER) {
      try {
        await this.volumeClient.delete('', name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  /** recycleVolumeOperation: the recycler pod, then the volume Available again (or Failed). */
  private async recycle(pv: PersistentVolume): Promise<void> {
    const want = recyclerPod(pv, this.recyclers);
    if (!want) return this.failReclaim(pv, 'VolumeFailedRecycle', 'No recycler plugin found for the volume!');
    const [namespace, podName] = [namespaceOf(want), nameOf(want)];
    const pod = this.pods.get(namespace, podName) as Pod | undefined;
    const podClient = this.ctx.clientset.resource(PODS);
    if (!pod) {
      try {
        await podClient.create(namespace, want as KubeObject);
      } catch (err) {
        if (!isAlreadyExists(err)) return this.failReclaim(pv, 'VolumeFailedRecycle', `Recycle failed: unexpected error creating recycler pod:  ${(err as Error).message}`);
      }
      return; // the pod's updates bring the volume back
    }
    const phase = pod.status?.phase;
    if (phase !== 'Succeeded' && phase !== 'Failed') return;
    await podClient.delete(namespace, podName).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
    if (phase === 'Failed') return this.failReclaim(pv, 'VolumeFailedRecycle', `Recycle failed: pod failed, pod.Status.Message ${pod.status?.message ?? ''}.`);
    this.recorder.event(pv as KubeObject, 'Normal', 'VolumeRecycled', 'Volume recycled');
    // unbindVolume: no claimRef, no bound-by-controller, Available
    const { [ANN_BOUND_BY_CONTROLLER]: _bound, ...annotations } = annotationsOf(pv);
    void _bound;
    const spec = { ...pv.spec };
    delete spec.claimRef;
    try {
      const updated = (await this.volumeClient.update('', { ...pv, metadata: { ...pv.metadata, annotations }, spec } as KubeObject)) as PersistentVolume;
      await this.volumeClient.update('', { ...updated, status: { ...updated.status, phase: 'Available', message: undefined } } as KubeObject, { subresource: 'status' });
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }

  private async failReclaim(pv: PersistentVolume, reason: string, message: string): Promise<void> {
    this.recorder.event(pv as KubeObject, 'Warning', reason, message);
    try {
      await this.volumeClient.update('', { ...pv, status: { ...pv.status, phase: 'Failed', message } } as KubeObject, { subresource: 'status' });
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }
}
