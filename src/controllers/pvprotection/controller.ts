// The PV protection controller (Kubernetes' pkg/controller/volume/pvprotection): a volume being
// deleted keeps its kubernetes.io/pv-protection finalizer while it is bound to a claim; once it
// is not (phase other than Bound), the finalizer goes and the volume with it. Volumes without the
// finalizer get it.
import { FINALIZER_PV_PROTECTION } from '../../api/meta/object.js';
import type { PersistentVolume } from '../../api/types.js';
import { keyOf, splitKey } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, KubeObject, Lister, ResourceRef, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue } from '../../client/workqueue.js';
import { isDeletionCandidate, needsFinalizer, runProtectionWorkers, setFinalizer } from '../common/protection-finalizer.js';

const PVS: ResourceRef = { group: '', version: 'v1', resource: 'persistentvolumes' };

export class PVProtectionController implements Controller {
  readonly name = 'pv-protection';
  readonly queue: WorkQueue<string>;
  private readonly volumes: Lister;

  constructor(
    private readonly ctx: ControllerContext,
    opts: { newQueue?: () => WorkQueue<string> } = {},
  ) {
    this.queue = (opts.newQueue ?? (() => newRateLimitingQueue<string>({ name: 'pvprotection' })))();
    const inf = ctx.informers.informer(PVS);
    this.volumes = inf.lister;
    inf.addEventHandler({
      onAdd: (v) => this.enqueueIfNeeded(v),
      onUpdate: (_old, v) => this.enqueueIfNeeded(v),
    });
  }

  private enqueueIfNeeded(volume: KubeObject): void {
    if (isDeletionCandidate(volume, FINALIZER_PV_PROTECTION) || needsFinalizer(volume, FINALIZER_PV_PROTECTION)) this.queue.add(keyOf(volume));
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    return runProtectionWorkers(this.ctx, this.name, this.queue, workers, signal, (key) => this.sync(key));
  }

  /** Kubernetes' processPV: a bound volume is in use. */
  async sync(key: string): Promise<void> {
    const [, name] = splitKey(key);
    const volume = this.volumes.get('', name) as PersistentVolume | undefined;
    if (!volume) return;
    const client = this.ctx.clientset.resource(PVS);
    try {
      if (isDeletionCandidate(volume, FINALIZER_PV_PROTECTION)) {
        if (volume.status?.phase !== 'Bound') await setFinalizer(client, volume, FINALIZER_PV_PROTECTION, false);
      } else if (needsFinalizer(volume, FINALIZER_PV_PROTECTION)) {
        await setFinalizer(client, volume, FINALIZER_PV_PROTECTION, true);
      }
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
  }
}
