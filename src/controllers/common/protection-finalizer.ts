// What the PV and PVC protection controllers share (Kubernetes' pkg/util/protectionutil and the
// controllers' add/removeFinalizer): when an object needs its protection finalizer added, when it
// is a candidate for its removal, and the update that does either.
import { finalizersOf, isBeingDeleted } from '../../api/meta/object.js';
import { isConflict } from '../../client/errors.js';
import type { ControllerContext, KubeObject, ResourceClient, WorkQueue } from '../../client/types.js';
import { runSyncWorkers } from '../../client/workqueue.js';

/** Not being deleted and without the finalizer: the controller adds it (objects created before the admission plugin). */
export function needsFinalizer(obj: KubeObject, finalizer: string): boolean {
  return !isBeingDeleted(obj) && !finalizersOf(obj).includes(finalizer);
}

/** Being deleted and held by the finalizer: the controller removes it once nothing uses the object. */
export function isDeletionCandidate(obj: KubeObject, finalizer: string): boolean {
  return isBeingDeleted(obj) && finalizersOf(obj).includes(finalizer);
}

/**
 * Adds or removes `finalizer` with an update guarded by the object's resourceVersion: a conflict
 * (someone wrote it since the informer saw it) fails the sync, which is retried with the new object.
 */
export async function setFinalizer(client: ResourceClient, obj: KubeObject, finalizer: string, present: boolean): Promise<void> {
  const metadata = (obj.metadata ?? {}) as KubeObject;
  const others = finalizersOf(obj).filter((f) => f !== finalizer);
  const finalizers = present ? [...others, finalizer] : others;
  await client.update(String(metadata.namespace ?? ''), { ...obj, metadata: { ...metadata, finalizers } });
}

/** Both controllers' run: once the caches have synced, workers over `sync`; conflicts retry quietly. */
export async function runProtectionWorkers(ctx: ControllerContext, controller: string, queue: WorkQueue<string>, workers: number, signal: AbortSignal, sync: (key: string) => Promise<void>): Promise<void> {
  if (!(await ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
    queue.shutDown();
    return;
  }
  await runSyncWorkers(queue, workers, signal, sync, (key, err) => {
    if (!isConflict(err)) ctx.log({ controller, msg: 'protection finalizer not updated', key, err: String(err) });
  });
}
