// The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go): per CronJob, a sync that
// cleans up finished Jobs beyond the history limits, reconciles status.active with the Jobs it
// owns, starts the Job of the most recent unmet schedule time (concurrency policy, starting
// deadline, suspend, the 100-missed-times guard) and requeues itself at the next schedule time.
import { isBeingDeleted, nameOf, namespaceOf, resourceVersionOf, uidOf } from '../../api/meta/object.js';
import type { CronJob, Job } from '../../api/types.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, Tombstone, WorkQueue } from '../../client/types.js';
import { getControllerOf, type OwnerReference } from '../common/controller-ref.js';
import { CRONJOBS, JOBS, finishedCondition, isJobFinished, isJobSucceeded } from '../common/jobs.js';
import { isAlreadyExists, isNamespaceTerminating, isNotFound } from '../../client/errors.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { deepCopy } from '../common/objects.js';
import { timeMs } from '../common/time.js';
import { newRateLimitingQueue, runWorkers } from '../../client/workqueue.js';
import { parseSchedule } from './schedule.js';
import { deleteFromActiveList, inActiveList, inActiveListByName } from './active-list.js';
import { specOf, statusOf } from './cronjob.js';
import { jobFromTemplate, jobName, jobReference } from './job-template.js';
import { formatSchedule, nextScheduleTime, nextScheduleTimeDuration } from './schedule-times.js';

export interface CronJobControllerOptions {
  queue?: WorkQueue<string>;
}

/** byJobStartTime: jobs without a start time last, then by start time, then by name. */
function byJobStartTime(a: Job, b: Job): number {
  const sa = timeMs(a.status?.startTime);
  const sb = timeMs(b.status?.startTime);
  if (sa === 0 && sb !== 0) return 1;
  if (sa !== 0 && sb === 0) return -1;
  if (sa === sb) return nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0;
  return sa - sb;
}

export class CronJobController implements Controller {
  readonly name = 'cronjob';
  readonly queue: WorkQueue<string>;
  private readonly recorder: EventRecorder;
  private readonly jobs: ResourceClient;
  private readonly cronJobs: ResourceClient;
  private readonly jobLister: Lister;
  private readonly cronJobLister: Lister;

  constructor(
    private readonly ctx: ControllerContext,
    opts: CronJobControllerOptions = {},
  ) {
    this.queue = opts.queue ?? newRateLimitingQueue<string>();
    this.recorder = ctx.recorder('cronjob-controller');
    this.jobs = ctx.clientset.resource(JOBS);
    this.cronJobs = ctx.clientset.resource(CRONJOBS);
    const jobInformer = ctx.informers.informer(JOBS);
    const cronJobInformer = ctx.informers.informer(CRONJOBS);
    this.jobLister = jobInformer.lister;
    this.cronJobLister = cronJobInformer.lister;
    jobInformer.addEventHandler({
      onAdd: (job) => this.addJob(job),
      onUpdate: (old, cur) => this.updateJob(old, cur),
      onDelete: (job) => this.deleteJob(job),
    });
    cronJobInformer.addEventHandler({
      onAdd: (cj) => this.queue.add(keyOf(cj)),
      onUpdate: (old, cur) => this.updateCronJob(old, cur),
      onDelete: (cj) => this.queue.add(keyOf(objectOf(cj))),
    });
  }

  // ---- event handlers ----

  private resolveControllerRef(namespace: string, ref: OwnerReference | undefined): CronJob | undefined {
    if (!ref || ref.kind !== 'CronJob') return undefined;
    const cj = this.cronJobLister.get(namespace, ref.name);
    if (!cj || uidOf(cj) !== ref.uid) return undefined;
    return cj;
  }

  private addJob(job: Job): void {
    if (isBeingDeleted(job)) return this.deleteJob(job);
    const cj = this.resolveControllerRef(namespaceOf(job), getControllerOf(job));
    if (cj) this.queue.add(keyOf(cj));
  }

  private updateJob(old: Job, cur: Job): void {
    if (resourceVersionOf(old) === resourceVersionOf(cur)) return;
    const ns = namespaceOf(cur);
    const curRef = getControllerOf(cur);
    const oldRef = getControllerOf(old);
    if (oldRef && JSON.stringify(oldRef) !== JSON.stringify(curRef)) {
      const oldCj = this.resolveControllerRef(ns, oldRef);
      if (oldCj) this.queue.add(keyOf(oldCj));
    }
    const cj = this.resolveControllerRef(ns, curRef);
    if (cj) this.queue.add(keyOf(cj));
  }

  private deleteJob(obj: KubeObject | Tombstone): void {
    const job = objectOf(obj);
    const cj = this.resolveControllerRef(namespaceOf(job), getControllerOf(job));
    if (cj) this.queue.add(keyOf(cj));
  }

  private updateCronJob(old: CronJob, cur: CronJob): void {
    const os = specOf(old);
    const ns = specOf(cur);
    if (os.schedule !== ns.schedule || os.timeZone !== ns.timeZone) {
      let sched;
      try {
        sched = parseSchedule(formatSchedule(cur, undefined));
      } catch {
        this.recorder.event(cur, 'Warning', 'UnParseableCronJobSchedule', `unparseable schedule for cronjob: ${ns.schedule}`);
        return;
      }
      this.queue.addAfter(keyOf(cur), Math.max(0, nextScheduleTimeDuration(cur, this.ctx.now(), sched)));
      return;
    }
    this.queue.add(keyOf(cur));
  }

  // ---- sync ----

  /** Syncs one CronJob; resolves with the delay (ms) after which it wants to be synced again. */
  async sync(key: string): Promise<number | undefined> {
    const [ns, name] = splitKey(key);
    const shared = this.cronJobLister.get(ns, name);
    if (!shared) return undefined;
    const uid = uidOf(shared);
    const jobs = this.jobLister.list(ns).filter((j) => getControllerOf(j)?.uid === uid);
    const cj = deepCopy(shared);
    const cleaned = await this.cleanupFinishedJobs(cj, jobs);
    let requeueAfter: number | undefined;
    let updated = false;
    let syncErr: unknown;
    try {
      const r = await this.syncCronJob(cj, jobs);
      requeueAfter = r.requeueAfter;
      updated = r.updateStatus;
    } catch (e) {
      syncErr = e;
      updated = (e as { updateStatus?: boolean }).updateStatus === true;
    }
    if (cleaned || updated) {
      await this.cronJobs.update(ns, cj, { subresource: 'status' });
    }
    if (requeueAfter !== undefined) return requeueAfter;
    if (syncErr) throw syncErr;
    return undefined;
  }

  private async deleteJobOf(cj: CronJob, job: Job): Promise<boolean> {
    try {
      await this.jobs.delete(namespaceOf(job), nameOf(job), { propagationPolicy: 'Background' });
    } catch (e) {
      this.recorder.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${(e as Error).message}`);
      this.ctx.log({ msg: 'Error deleting job from cronjob', job: `${namespaceOf(job)}/${nameOf(job)}`, cronjob: keyOf(cj), err: String(e) });
      return false;
    }
    deleteFromActiveList(cj, uidOf(job));
    this.recorder.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${nameOf(job)}`);
    return true;
  }

  private async cleanupFinishedJobs(cj: CronJob, jobs: Job[]): Promise<boolean> {
    const spec = specOf(cj);
    if (typeof spec.failedJobsHistoryLimit !== 'number' && typeof spec.successfulJobsHistoryLimit !== 'number') return false;
    const successful: Job[] = [];
    const failed: Job[] = [];
    for (const j of jobs) {
      const c = finishedCondition(j);
      if (c?.type === 'Complete') successful.push(j);
      else if (c?.type === 'Failed') failed.push(j);
    }
    let updated = false;
    const removeOldest = async (list: Job[], max: number): Promise<void> => {
      const n = list.length - max;
      if (n <= 0) return;
      list.sort(byJobStartTime);
      for (let i = 0; i < n; i++) if (await this.deleteJobOf(cj, list[i]!)) updated = true;
    };
    if (typeof spec.successfulJobsHistoryLimit === 'number') await removeOldest(successful, spec.successfulJobsHistoryLimit);
    if (typeof spec.failedJobsHistoryLimit === 'number') await removeOldest(failed, spec.failedJobsHistoryLimit);
    return updated;
  }

  private async syncCronJob(cjIn: CronJob, jobs: Job[]): Promise<{ requeueAfter?: number; updateStatus: boolean }> {
    let cj = cjIn;
    const now = this.ctx.now();
    let updateStatus = false;
    const fail = (e: unknown): never => {
      throw Object.assign(e instanceof Error ? e : new Error(String(e)), { updateStatus });
    };
    const children = new Set<string>();
    for (const j of jobs) {
      const uid = uidOf(j);
      children.add(uid);
      const found = inActiveList(cj, uid);
      if (!found && !isJobFinished(j)) {
        let fresh: CronJob;
        try {
          fresh = await this.cronJobs.get(namespaceOf(cj), nameOf(cj));
        } catch (e) {
          return fail(e);
        }
        if (inActiveList(fresh, uid)) {
          // Keep the combined updates on the fresh copy, as Kubernetes does.
          Object.assign(cjIn, fresh);
          cj = cjIn;
          continue;
        }
        this.recorder.event(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${nameOf(j)}`);
      } else if (found && isJobFinished(j)) {
        const c = finishedCondition(j)!;
        deleteFromActiveList(cj, uid);
        this.recorder.event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${nameOf(j)}, condition: ${c.type}`);
        updateStatus = true;
      } else if (isJobSucceeded(j)) {
        const completion = j.status?.completionTime ?? undefined;
        const status = statusOf(cj);
        if (status.lastSuccessfulTime === undefined) {
          if (completion !== undefined) status.lastSuccessfulTime = completion;
          updateStatus = true;
        }
        if (completion !== undefined && timeMs(completion) > timeMs(status.lastSuccessfulTime)) {
          status.lastSuccessfulTime = completion;
          updateStatus = true;
        }
      }
    }

    // Active references whose Job is gone.
    for (const ref of [...(statusOf(cj).active ?? [])]) {
      if (children.has(String(ref.uid))) continue;
      try {
        await this.jobs.get(String(ref.namespace ?? ''), String(ref.name));
      } catch (e) {
        if (!isNotFound(e)) return fail(e);
        this.recorder.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
        deleteFromActiveList(cj, String(ref.uid));
        updateStatus = true;
      }
    }

    if (isBeingDeleted(cj)) return { updateStatus };

    const spec = specOf(cj);
    if (typeof spec.timeZone === 'string') {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: spec.timeZone });
      } catch (e) {
        this.recorder.event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(spec.timeZone)}: unknown time zone ${spec.timeZone}`);
        return { updateStatus };
      }
    }
    if (spec.suspend === true) return { updateStatus };

    let sched;
    try {
      sched = parseSchedule(formatSchedule(cj, this.recorder));
    } catch (e) {
      this.recorder.event(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(spec.schedule)} : ${(e as Error).message}`);
      return { updateStatus };
    }

    const next = nextScheduleTime(cj, now, sched, this.recorder);
    if (next.error !== undefined) {
      this.recorder.event(cj, 'Warning', 'InvalidSchedule', `invalid schedule: ${spec.schedule} : ${next.error}`);
      return { updateStatus };
    }
    const requeue = (): { requeueAfter: number; updateStatus: boolean } => ({ requeueAfter: nextScheduleTimeDuration(cj, now, sched), updateStatus });
    const scheduled = next.time;
    if (scheduled === undefined) return requeue();

    if (typeof spec.startingDeadlineSeconds === 'number' && scheduled + spec.startingDeadlineSeconds * 1000 < now) {
      this.recorder.event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
      return requeue();
    }
    const ns = namespaceOf(cj);
    const lastSchedule = statusOf(cj).lastScheduleTime;
    if (inActiveListByName(cj, ns, jobName(cj, scheduled)) || (lastSchedule !== undefined && timeMs(lastSchedule) === scheduled)) {
      return requeue();
    }
    if (spec.concurrencyPolicy === 'Forbid' && (statusOf(cj).active ?? []).length > 0) {
      this.recorder.event(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      return requeue();
    }
    if (spec.concurrencyPolicy === 'Replace') {
      for (const ref of [...(statusOf(cj).active ?? [])]) {
        let job: Job;
        try {
          job = await this.jobs.get(String(ref.namespace ?? ''), String(ref.name));
        } catch (e) {
          this.recorder.event(cj, 'Warning', 'FailedGet', `Get job: ${(e as Error).message}`);
          return fail(e);
        }
        if (!(await this.deleteJobOf(cj, job))) return fail(new Error(`could not replace job ${ref.namespace}/${ref.name}`));
        updateStatus = true;
      }
    }

    const req = jobFromTemplate(cj, scheduled);
    let created: Job;
    let alreadyExisted = false;
    try {
      created = await this.jobs.create(ns, req);
    } catch (e) {
      if (isNamespaceTerminating(e)) return fail(e);
      if (!isAlreadyExists(e)) {
        this.recorder.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${(e as Error).message}`);
        return fail(e);
      }
      alreadyExisted = true;
      try {
        created = await this.jobs.get(ns, nameOf(req));
      } catch (e2) {
        return fail(e2);
      }
      if (getControllerOf(created)?.uid !== uidOf(cj)) return { updateStatus };
      if (inActiveList(cj, uidOf(created))) return { updateStatus };
    }
    if (alreadyExisted) this.ctx.log({ msg: 'Job already exists', cronjob: keyOf(cj), job: `${ns}/${nameOf(req)}` });
    else this.recorder.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${nameOf(created)}`);

    const status = statusOf(cj);
    status.active = [...(status.active ?? []), jobReference(created)];
    status.lastScheduleTime = rfc3339(scheduled);
    updateStatus = true;
    return requeue();
  }

  // ---- workers ----

  async run(workers: number, signal: AbortSignal): Promise<void> {
    await this.ctx.informers.waitForCacheSync(signal);
    await runWorkers(this.queue, workers, signal, async (key) => {
      try {
        const after = await this.sync(key);
        if (after !== undefined) {
          this.queue.forget(key);
          this.queue.addAfter(key, Math.max(0, after));
        }
      } catch (err) {
        this.ctx.log({ msg: 'error syncing CronJobController, requeuing', key, err: String(err) });
        this.queue.addRateLimited(key);
      }
    });
  }
}

function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Go's time.RFC1123Z in UTC: "Mon, 02 Jan 2006 15:04:05 -0700". */
function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}
