// The ephemeral volume controller (kube-controller-manager's `ephemeral-volume`): for each generic
// ephemeral volume of a pod (`volumes[].ephemeral.volumeClaimTemplate`), a PersistentVolumeClaim
// `<pod>-<volume>` owned by the pod (so it goes with it), with the template's labels, annotations
// and spec. A claim of that name the pod does not own is an error, reported on the pod.
import { controllerRefOf, isBeingDeleted, nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { PersistentVolumeClaim, Pod } from '../../api/types.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { isAlreadyExists } from '../../client/errors.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, Tombstone, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
export const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };

const hasEphemeral = (pod: Pod): boolean => (pod.spec?.volumes ?? []).some((v) => v?.ephemeral);

export class EphemeralVolumeController implements Controller {
  readonly name = 'ephemeral-volume';
  readonly queue: WorkQueue<string>;
  private readonly pods: Lister;
  private readonly claims: Lister;
  private readonly claimClient: ResourceClient;
  private readonly recorder: EventRecorder;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = newRateLimitingQueue<string>({ name: 'ephemeral_volume' });
    const pods = ctx.informers.informer(PODS);
    const claims = ctx.informers.informer(PVCS);
    this.pods = pods.lister;
    this.claims = claims.lister;
    this.claimClient = ctx.clientset.resource(PVCS);
    this.recorder = ctx.recorder('ephemeral_volume');
    const onPod = (p: KubeObject) => {
      if (!isBeingDeleted(p) && hasEphemeral(p as Pod)) this.queue.add(keyOf(p));
    };
    pods.addEventHandler({ onAdd: onPod, onUpdate: (_o, p) => onPod(p) });
    // a claim deleted under a live pod is made again
    claims.addEventHandler({
      onDelete: (c: KubeObject | Tombstone) => {
        const o = objectOf(c);
        const owner = controllerRefOf(o);
        if (owner?.kind === 'Pod') this.queue.add(`${namespaceOf(o)}/${owner.name ?? ''}`);
      },
    });
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    return runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), (key, err) => this.ctx.log({ controller: this.name, msg: 'sync failed', key, err: (err as Error).message }));
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const pod = this.pods.get(namespace, name) as Pod | undefined;
    if (!pod || isBeingDeleted(pod as KubeObject)) return;
    for (const vol of pod.spec?.volumes ?? []) {
      const template = vol?.ephemeral?.volumeClaimTemplate;
      if (!vol || !vol.ephemeral) continue;
      const claimName = `${nameOf(pod as KubeObject)}-${vol.name ?? ''}`;
      try {
        const existing = this.claims.get(namespace, claimName) as PersistentVolumeClaim | undefined;
        if (existing) {
          if (controllerRefOf(existing as KubeObject)?.uid !== uidOf(pod as KubeObject)) throw new Error(`PVC ${namespace}/${claimName} was not created for pod ${namespace}/${name} (pod is not owner)`);
          continue;
        }
        const claim: PersistentVolumeClaim = {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: {
            name: claimName,
            namespace,
            ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name, uid: uidOf(pod as KubeObject), controller: true, blockOwnerDeletion: true }],
            ...(template?.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
            ...(template?.metadata?.labels ? { labels: { ...template.metadata.labels } } : {}),
          },
          spec: structuredClone(template?.spec ?? {}),
        };
        try {
          await this.claimClient.create(namespace, claim as KubeObject);
        } catch (err) {
          if (!isAlreadyExists(err)) throw new Error(`create PVC ${claimName}: ${(err as Error).message}`);
        }
      } catch (err) {
        this.recorder.event(pod as KubeObject, 'Warning', 'FailedBinding', `ephemeral volume ${vol.name ?? ''}: ${(err as Error).message}`);
        throw new Error(`pod ${key}, ephemeral volume ${vol.name ?? ''}: ${(err as Error).message}`);
      }
    }
  }
}
