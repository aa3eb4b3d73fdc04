// The attacher of the simulated CSI driver (what csi-attacher does for a real driver): a
// VolumeAttachment of this driver for one of this agent's nodes is attached at once — the
// attacher's finalizer, then status.attached — and, once deleted, detached: the finalizer goes.
import { finalizersOf, isBeingDeleted, nameOf } from '../../api/meta/object.js';
import type { VolumeAttachment } from '../../api/types.js';
import { isNotFound } from '../../client/errors.js';
import type { Clientset, KubeObject, Lister, SharedInformer } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { ATTACHER_FINALIZER, ATTACHMENTS, CSI_DRIVER_NAME } from './names.js';

export class SimulatedAttacher {
  private readonly queue = newRateLimitingQueue<string>({ name: 'csi-attacher' });
  private lister!: Lister;

  constructor(
    private readonly clientset: Clientset,
    private readonly isOurNode: (name: string) => boolean,
    private readonly log: (fields: Record<string, unknown>) => void,
  ) {}

  watch(informer: SharedInformer): void {
    this.lister = informer.lister;
    const enqueue = (o: KubeObject) => {
      const va = o as VolumeAttachment;
      if (va.spec?.attacher === CSI_DRIVER_NAME && this.isOurNode(va.spec.nodeName ?? '')) this.queue.add(nameOf(va));
    };
    informer.addEventHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });
  }

  run(signal: AbortSignal): Promise<void> {
    return runSyncWorkers(this.queue, 4, signal, (name) => this.sync(name), (name, err) => this.log({ msg: 'volume attachment sync failed', attachment: name, error: (err as Error).message }));
  }

  async sync(name: string): Promise<void> {
    const va = this.lister.get('', name) as VolumeAttachment | undefined;
    if (!va) return;
    const client = this.clientset.resource(ATTACHMENTS);
    const finalizers = finalizersOf(va);
    try {
      if (isBeingDeleted(va)) {
        if (finalizers.includes(ATTACHER_FINALIZER)) await client.update('', { ...va, metadata: { ...va.metadata, finalizers: finalizers.filter((f) => f !== ATTACHER_FINALIZER) } } as KubeObject);
        return;
      }
      if (va.status?.attached === true) return;
      let current = va;
      if (!finalizers.includes(ATTACHER_FINALIZER)) current = await client.update('', { ...va, metadata: { ...va.metadata, finalizers: [...finalizers, ATTACHER_FINALIZER] } } as KubeObject);
      await client.update('', { ...current, status: { attached: true } } as KubeObject, { subresource: 'status' });
    } catch (err) {
      // a conflict is retried by the worker with the newer object
      if (!isNotFound(err)) throw err;
    }
  }
}
