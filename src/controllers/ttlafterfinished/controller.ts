// The TTL-after-finished controller (pkg/controller/ttlafterfinished): deletes a finished Job
// (condition Complete or Failed) `spec.ttlSecondsAfterFinished` after the condition's
// lastTransitionTime, requeueing the Job until then. Before deleting, the TTL is checked again on
// a fresh read (it may have changed); the delete carries the Job's uid as a precondition and
// cascades in the foreground, as Kubernetes' does, so the Job goes once its pods are gone.
import { isBeingDeleted, nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { Job } from '../../api/types.js';
import type { Controller, ControllerContext, Lister, ResourceClient, WorkQueue } from '../../client/types.js';
import { JOBS, finishedCondition } from '../common/jobs.js';
import { isNotFound } from '../../client/errors.js';
import { keyOf, splitKey } from '../../client/cache.js';
import { timeMs } from '../common/time.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';

/** The deletion's propagation policy (Kubernetes' DeletePropagationForeground). */
export const TTL_DELETE_PROPAGATION = 'Foreground' as const;

export interface TTLAfterFinishedOptions {
  queue?: WorkQueue<string>;
}

const ttlOf = (job: Job): number | undefined => {
  const t = job.spec?.ttlSecondsAfterFinished;
  return typeof t === 'number' ? t : undefined;
};

/** needsCleanup: a TTL and a finished Job. */
export function needsCleanup(job: Job): boolean {
  return ttlOf(job) !== undefined && finishedCondition(job) !== undefined;
}

/** The instant (ms) the Job expires; throws when its finish time is unknown. */
export function expireAt(job: Job): number {
  const c = finishedCondition(job);
  const finishedAt = timeMs(c?.lastTransitionTime);
  if (!c || finishedAt === 0) throw new Error(`unable to find the time when the Job ${namespaceOf(job)}/${nameOf(job)} finished`);
  return finishedAt + ttlOf(job)! * 1000;
}

export class TTLAfterFinishedController implements Controller {
  readonly name = 'ttl-after-finished';
  readonly queue: WorkQueue<string>;
  private readonly jobs: ResourceClient;
  private readonly jobLister: Lister;

  constructor(
    private readonly ctx: ControllerContext,
    opts: TTLAfterFinishedOptions = {},
  ) {
    this.queue = opts.queue ?? newRateLimitingQueue<string>();
    this.jobs = ctx.clientset.resource(JOBS);
    const informer = ctx.informers.informer(JOBS);
    this.jobLister = informer.lister;
    const consider = (job: Job): void => {
      if (!isBeingDeleted(job) && needsCleanup(job)) this.queue.add(keyOf(job));
    };
    informer.addEventHandler({ onAdd: consider, onUpdate: (_old, cur) => consider(cur) });
  }

  /** processTTL: whether the Job has expired now; requeues it for its expiry otherwise. */
  private expired(job: Job): boolean {
    if (isBeingDeleted(job) || !needsCleanup(job)) return false;
    const now = this.ctx.now();
    const at = expireAt(job);
    if (at - ttlOf(job)! * 1000 > now) {
      this.ctx.log({ controller: this.name, msg: 'Found Job finished in the future. This is likely due to time skew in the cluster. Job cleanup will be deferred.', job: keyOf(job) });
    }
    if (at - now <= 0) return true;
    this.queue.addAfter(keyOf(job), at - now);
    return false;
  }

  async sync(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const cached = this.jobLister.get(ns, name);
    if (!cached || !this.expired(cached)) return;
    let fresh: Job;
    try {
      fresh = await this.jobs.get(ns, name);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (!this.expired(fresh)) return;
    this.ctx.log({ controller: this.name, msg: 'Cleaning up Job', job: key });
    await this.jobs.delete(ns, name, { propagationPolicy: TTL_DELETE_PROPAGATION, preconditions: { uid: uidOf(fresh) } });
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    await this.ctx.informers.waitForCacheSync(signal);
    await runSyncWorkers(this.queue, workers, signal, (k) => this.sync(k), (key, err) => this.ctx.log({ controller: this.name, msg: 'error cleaning up job', key, err: String(err) }));
  }
}
