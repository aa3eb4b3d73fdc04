// The Job controller (pkg/controller/job/job_controller.go): runs pods from a Job's template until
// `completions` succeed (or, without completions, the first success once none is running), at most
// `parallelism` at a time, with exponential back-off after failures; fails the Job past its
// backoffLimit or activeDeadlineSeconds; suspends and resumes. Pods are tracked with the
// batch.kubernetes.io/job-tracking finalizer as current Kubernetes does: a finished pod is first
// recorded in status.uncountedTerminatedPods, then its finalizer is removed, then it is counted in
// succeeded/failed, so no pod is counted twice or lost. Terminal conditions go through the interim
// SuccessCriteriaMet/FailureTarget conditions and are set once no pod is terminating.
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, Tombstone, WorkQueue } from '../../client/types.js';
import { controllerRefOf, finalizersOf, isBeingDeleted, labelsOf, nameOf, namespaceOf, resourceVersionOf, uidOf } from '../../api/meta/object.js';
import type { Job, JobCondition, OwnerReference, Pod } from '../../api/types.js';
import { labelSelectorAsSelector } from '../../machinery/selectors/index.js';
import { claimCandidates, claimObjects, newControllerRef, recheckOwner } from '../common/controller-ref.js';
import { ControllerExpectations } from '../common/expectations.js';
import { JOBS, PODS, isJobFinished } from '../common/jobs.js';
import { deepCopy } from '../common/objects.js';
import { isNamespaceTerminating, isNotFound } from '../../client/errors.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { rfc3339, timeMs } from '../common/time.js';
import { filterActivePods, isPodReady } from '../common/pods.js';
import { BackoffStore, podFinishedTime, remainingBackoffMs } from './backoff.js';
import { failJobMessage, matchPodFailurePolicy } from './podfailurepolicy.js';
import {
  completionIndexOf,
  firstPendingIndexes,
  formatIndexes,
  indexAbsoluteFailureCount,
  indexedTemplate,
  matchSuccessPolicy,
  parseIndexes,
} from './indexed.js';
import { ensureCondition, findCondition, newCondition } from './conditions.js';
import { countTerminatingPods, isPodFailed, podPhaseOf } from './pods.js';
import { asPod } from '../replicaset/spec.js';
import { asJob, backoffLimitOf, completionsOf, isIndexedJob, jobSpec, jobStatus, jobSuspended, onlyReplaceFailedPods, parallelismOf } from './spec.js';
import { FinalizerExpectations, JOB_TRACKING_FINALIZER, hasTrackingFinalizer, removeTrackingFinalizerPatch } from './tracking-finalizer.js';
import { activePodsForRemoval, addIndexFailureCounts, cleanUncountedPodsWithoutFinalizers, isIndexFailed, pastBackoffLimitOnFailure, perIndexLimit, podsWithDelayedDeletionPerIndex, type SyncCtx } from './sync-ctx.js';

/** MaxUncountedPods: at most this many pod UIDs in status.uncountedTerminatedPods. */
const MAX_UNCOUNTED_PODS = 500;
/** MaxPodCreateDeletePerSync. */
const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
const SLOW_START_INITIAL_BATCH_SIZE = 1;

export interface JobControllerOptions {
  queue?: WorkQueue<string>;
  orphanQueue?: WorkQueue<string>;
  /** syncJobBatchPeriod: pod events are batched this long before a sync (Kubernetes: 1 s). */
  batchPeriodMs?: number;
}

export class JobController implements Controller {
  readonly name = 'job';
  readonly queue: WorkQueue<string>;
  readonly orphanQueue: WorkQueue<string>;
  readonly expectations: ControllerExpectations;
  readonly finalizerExpectations = new FinalizerExpectations();
  readonly backoff = new BackoffStore();
  private readonly recorder: EventRecorder;
  private readonly jobs: ResourceClient;
  private readonly podClient: ResourceClient;
  private readonly jobLister: Lister;
  private readonly podLister: Lister;
  /**
   * Each Job as this controller last wrote its status, until the informer has caught up with it.
   * The Job and pod watches are separate streams: a sync started by a pod event can read a Job
   * from before the write that counted a pod's success, with that pod's tracking finalizer already
   * gone, and so count the success nowhere and create a pod past `completions` (seen in
   * up-workloads: six pods for five completions).
   */
  private readonly written = new Map<string, Job>();
  private readonly batchPeriodMs: number;

  constructor(
    private readonly ctx: ControllerContext,
    opts: JobControllerOptions = {},
  ) {
    this.queue = opts.queue ?? newRateLimitingQueue<string>();
    this.orphanQueue = opts.orphanQueue ?? newRateLimitingQueue<string>();
    this.batchPeriodMs = opts.batchPeriodMs ?? 1000;
    this.expectations = new ControllerExpectations(() => ctx.now());
    this.recorder = ctx.recorder('job-controller');
    this.jobs = ctx.clientset.resource(JOBS);
    this.podClient = ctx.clientset.resource(PODS);
    const jobInformer = ctx.informers.informer(JOBS);
    const podInformer = ctx.informers.informer(PODS);
    this.jobLister = jobInformer.lister;
    this.podLister = podInformer.lister;
    jobInformer.addEventHandler({
      onAdd: (job) => this.queue.add(keyOf(job)),
      onUpdate: (old, cur) => this.updateJob(asJob(old), asJob(cur)),
      onDelete: (job) => this.deleteJob(job),
    });
    podInformer.addEventHandler({
      onAdd: (pod) => this.addPod(asPod(pod)),
      onUpdate: (old, cur) => this.updatePod(asPod(old), asPod(cur)),
      onDelete: (pod) => this.deletePod(asPod(objectOf(pod)), true),
    });
  }

  // ---- event handlers ----

  private resolveControllerRef(namespace: string, ref: OwnerReference | undefined): Job | undefined {
    if (!ref || ref.kind !== 'Job') return undefined;
    const job = this.jobLister.get(namespace, ref.name ?? '');
    if (!job || uidOf(job) !== ref.uid) return undefined;
    return asJob(job);
  }

  private enqueueBatched(job: Job): void {
    if (this.batchPeriodMs > 0) this.queue.addAfter(keyOf(job), this.batchPeriodMs);
    else this.queue.add(keyOf(job));
  }

  private enqueueOrphanPod(pod: Pod): void {
    this.orphanQueue.add(keyOf(pod));
  }

  private updateJob(old: Job, cur: Job): void {
    this.queue.add(keyOf(cur));
    // A changed activeDeadlineSeconds: sync again when the new deadline passes.
    const ads = jobSpec(cur).activeDeadlineSeconds;
    const start = timeMs(cur.status?.startTime);
    if (typeof ads === 'number' && ads !== jobSpec(old).activeDeadlineSeconds && start !== 0) {
      this.queue.addAfter(keyOf(cur), Math.max(0, ads * 1000 - (this.ctx.now() - start)));
    }
  }

  private deleteJob(obj: KubeObject | Tombstone): void {
    const job = objectOf(obj);
    this.written.delete(keyOf(job));
    this.queue.add(keyOf(job));
    // Pods of a deleted job keep no finalizer of ours.
    for (const pod of this.podLister.byIndex('ownerUid', uidOf(job)).map(asPod)) if (hasTrackingFinalizer(pod)) this.enqueueOrphanPod(pod);
  }

  private addPod(pod: Pod): void {
    if (isBeingDeleted(pod)) return this.deletePod(pod, false);
    const ref = controllerRefOf(pod);
    if (ref) {
      const job = this.resolveControllerRef(namespaceOf(pod), ref);
      if (!job) {
        if (hasTrackingFinalizer(pod)) this.enqueueOrphanPod(pod);
        return;
      }
      this.expectations.creationObserved(keyOf(job));
      this.enqueueBatched(job);
      return;
    }
    if (hasTrackingFinalizer(pod)) this.enqueueOrphanPod(pod);
    for (const job of this.getPodJobs(pod)) this.enqueueBatched(job);
  }

  private updatePod(old: Pod, cur: Pod): void {
    if (resourceVersionOf(old) === resourceVersionOf(cur)) return;
    if (isBeingDeleted(cur)) this.deletePod(cur, false);
    const finalizerRemoved = !hasTrackingFinalizer(cur);
    const curRef = controllerRefOf(cur);
    const oldRef = controllerRefOf(old);
    const immediate = !(podPhaseOf(cur) === 'Failed' && podPhaseOf(old) !== 'Failed');
    const enqueue = (job: Job): void => {
      if (finalizerRemoved) this.finalizerExpectations.observed(keyOf(job), uidOf(cur));
      if (immediate) this.queue.add(keyOf(job));
      else this.enqueueBatched(job);
    };
    if (oldRef && JSON.stringify(oldRef) !== JSON.stringify(curRef)) {
      const oldJob = this.resolveControllerRef(namespaceOf(old), oldRef);
      if (oldJob) enqueue(oldJob);
    }
    if (curRef) {
      const job = this.resolveControllerRef(namespaceOf(cur), curRef);
      if (job) enqueue(job);
      return;
    }
    if (hasTrackingFinalizer(cur)) this.enqueueOrphanPod(cur);
    for (const job of this.getPodJobs(cur)) this.enqueueBatched(job);
  }

  private deletePod(pod: Pod, final: boolean): void {
    const ref = controllerRefOf(pod);
    const hasFinalizer = hasTrackingFinalizer(pod);
    const job = ref ? this.resolveControllerRef(namespaceOf(pod), ref) : undefined;
    if (!job || isJobFinished(job)) {
      if (hasFinalizer && !final) this.enqueueOrphanPod(pod);
      return;
    }
    const key = keyOf(job);
    this.expectations.deletionObserved(key, keyOf(pod));
    if (final || !hasFinalizer) this.finalizerExpectations.observed(key, uidOf(pod));
    this.enqueueBatched(job);
  }

  /** The jobs whose selector matches an orphan pod. */
  private getPodJobs(pod: Pod): Job[] {
    const labels = labelsOf(pod);
    return this.jobLister.list(namespaceOf(pod)).map(asJob).filter((job) => {
      try {
        const sel = labelSelectorAsSelector(jobSpec(job).selector);
        return !sel.isEmpty() && sel.matches(labels);
      } catch {
        return false;
      }
    });
  }

  // ---- orphan pods ----

  /** syncOrphanPod: removes our finalizer from a pod whose job is gone or finished. */
  async syncOrphanPod(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const cached = this.podLister.get(ns, name);
    if (!cached) return;
    const pod = asPod(cached);
    const ref = controllerRefOf(pod);
    if (ref) {
      if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return;
      const job = this.resolveControllerRef(ns, ref);
      if (job && !isJobFinished(job)) return;
    }
    const patch = removeTrackingFinalizerPatch(pod);
    if (!patch) return;
    try {
      await this.podClient.patch(ns, name, 'strategic', patch);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  // ---- sync ----

  private async getPodsForJob(job: Job): Promise<Pod[]> {
    const sel = labelSelectorAsSelector(jobSpec(job).selector);
    const pods = claimCandidates(this.podLister, namespaceOf(job), uidOf(job)).map(asPod);
    const claimed = await claimObjects(pods, {
      owner: job,
      ownerApiVersion: 'batch/v1',
      ownerKind: 'Job',
      match: (p) => sel.matches(labelsOf(p)),
      client: this.podClient,
      canAdopt: recheckOwner(this.jobs, job, 'Job'),
    });
    // Adopted pods get the tracking finalizer, as Kubernetes' adoption patch adds it.
    const owned = new Set(pods.filter((p) => controllerRefOf(p)?.uid === uidOf(job)).map(uidOf));
    return Promise.all(
      claimed.map(asPod).map(async (p) => {
        if (owned.has(uidOf(p)) || hasTrackingFinalizer(p)) return p;
        const finalizers = [...finalizersOf(p), JOB_TRACKING_FINALIZER];
        try {
          return asPod(await this.podClient.patch(namespaceOf(p), nameOf(p), 'merge', { metadata: { finalizers, resourceVersion: p.metadata?.resourceVersion } }));
        } catch (e) {
          this.ctx.log({ controller: this.name, msg: 'adding the tracking finalizer to an adopted pod', pod: keyOf(p), err: String(e) });
          return p;
        }
      }),
    );
  }

  async sync(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const cached = this.jobLister.get(ns, name);
    const shared = this.newestJob(key, cached === undefined ? undefined : asJob(cached));
    if (!shared) {
      this.written.delete(key);
      this.expectations.delete(key);
      this.finalizerExpectations.delete(key);
      this.backoff.remove(key);
      return;
    }
    const managedBy = jobSpec(shared).managedBy;
    if (managedBy !== undefined && managedBy !== 'kubernetes.io/job-controller') return;
    const job = deepCopy(shared);
    if (isJobFinished(job)) {
      this.backoff.remove(key);
      return;
    }
    const mode = jobSpec(job).completionMode;
    if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed') {
      this.recorder.event(job, 'Warning', 'UnknownCompletionMode', 'Skipped Job sync because completion mode is unknown');
      return;
    }
    const now = this.ctx.now();
    const status = jobStatus(job);
    status.uncountedTerminatedPods ??= {};
    const satisfied = this.expectations.satisfiedExpectations(key);
    const pods = await this.getPodsForJob(job);
    const activePods = filterActivePods(pods);
    const c: SyncCtx = {
      key,
      job,
      pods,
      activePods,
      ready: activePods.filter(isPodReady).length,
      terminating: countTerminatingPods(pods),
      uncountedSucceeded: new Set(status.uncountedTerminatedPods.succeeded ?? []),
      uncountedFailed: new Set(status.uncountedTerminatedPods.failed ?? []),
      expectedRmFinalizers: this.finalizerExpectations.expected(key),
      succeeded: 0,
      failed: 0,
      newBackoffRecord: { key, failuresAfterLastSuccess: 0 },
      prevSucceededIndexes: new Set(),
      succeededIndexes: new Set(),
    };
    const indexed = isIndexedJob(job);
    const completionsN = completionsOf(job) ?? 0;
    const validIndex = (p: Pod): boolean => !indexed || (completionIndexOf(p) >= 0 && completionIndexOf(p) < completionsN);
    let active = activePods.length;
    const valid = (uncounted: Set<string>, f: (p: Pod) => boolean): Pod[] =>
      pods.filter((p) => hasTrackingFinalizer(p) && !uncounted.has(uidOf(p)) && !c.expectedRmFinalizers.has(uidOf(p)) && validIndex(p) && f(p));
    const newSucceeded = valid(c.uncountedSucceeded, (p) => podPhaseOf(p) === 'Succeeded');
    const newFailed = valid(c.uncountedFailed, (p) => isPodFailed(p, job));
    c.succeeded = (status.succeeded ?? 0) + newSucceeded.length + c.uncountedSucceeded.size;
    c.failed = (status.failed ?? 0) + newFailed.filter((p) => matchPodFailurePolicy(job, p).countFailed).length + c.uncountedFailed.size;
    if (indexed) {
      c.prevSucceededIndexes = parseIndexes(status.completedIndexes, completionsN);
      c.succeededIndexes = new Set([...c.prevSucceededIndexes, ...newSucceeded.map(completionIndexOf)]);
      c.succeeded = c.succeededIndexes.size;
    }
    let startTimeChanged = false;
    if (status.startTime === undefined && !jobSuspended(job)) {
      status.startTime = rfc3339(now);
      startTimeChanged = true;
    }
    c.newBackoffRecord = this.backoff.newRecord(key, newSucceeded, newFailed);

    const successMet = findCondition(job, 'SuccessCriteriaMet');
    if (successMet?.status === 'True') c.finishedCondition = successMet;
    if (!c.finishedCondition) {
      const ft = findCondition(job, 'FailureTarget');
      if (ft?.status === 'True') c.finishedCondition = newCondition('Failed', 'True', ft.reason ?? '', ft.message ?? '', now);
      else {
        // The interim FailureTarget records the message before the pods' finalizers go.
        const msg = failJobMessage(job, pods);
        if (msg !== undefined) c.finishedCondition = newCondition('FailureTarget', 'True', 'PodFailurePolicy', msg, now);
      }
    }
    if (!c.finishedCondition) {
      const ads = jobSpec(job).activeDeadlineSeconds;
      if (c.failed > backoffLimitOf(job) || pastBackoffLimitOnFailure(job, pods)) {
        c.finishedCondition = newCondition('FailureTarget', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', now);
      } else if (this.pastActiveDeadline(job, now)) {
        c.finishedCondition = newCondition('FailureTarget', 'True', 'DeadlineExceeded', 'Job was active longer than specified deadline', now);
      } else if (typeof ads === 'number' && !jobSuspended(job)) {
        this.queue.addAfter(key, Math.max(0, ads * 1000 - (now - timeMs(status.startTime))));
      }
    }

    const limitPerIndex = perIndexLimit(job);
    if (limitPerIndex !== undefined) {
      c.failedIndexes = parseIndexes(jobStatus(job).failedIndexes, completionsN);
      for (const p of pods) {
        const ix = completionIndexOf(p);
        if (ix >= 0 && ix < completionsN && isIndexFailed(job, p, limitPerIndex)) c.failedIndexes.add(ix);
      }
      if (!c.finishedCondition) {
        const maxFailed = jobSpec(job).maxFailedIndexes;
        if (typeof maxFailed === 'number' && c.failedIndexes.size > maxFailed) {
          c.finishedCondition = newCondition('FailureTarget', 'True', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes', now);
        } else if (c.failedIndexes.size > 0 && c.failedIndexes.size + c.succeededIndexes.size >= completionsN) {
          c.finishedCondition = newCondition('FailureTarget', 'True', 'FailedIndexes', 'Job has failed indexes', now);
        }
      }
      c.delayedDeletion = podsWithDelayedDeletionPerIndex(c, completionsN);
    }
    if (!c.finishedCondition && indexed) {
      const msg = matchSuccessPolicy(jobSpec(job).successPolicy, completionsN, c.succeededIndexes);
      if (msg !== undefined) c.finishedCondition = newCondition('SuccessCriteriaMet', 'True', 'SuccessPolicy', msg, now);
    }

    let suspendCondChanged = false;
    let manageErr: unknown;
    if (c.finishedCondition) {
      const r = await this.deleteActivePods(job, activePods);
      if (r.deleted !== active || !satisfied) c.finishedCondition = undefined;
      active -= r.deleted;
      c.terminating += r.deleted;
      c.ready -= r.deletedReady;
      manageErr = r.error;
    } else {
      let manageCalled = false;
      if (satisfied && !isBeingDeleted(job)) {
        const r = await this.manageJob(c);
        active = r.active;
        manageErr = r.error;
        manageCalled = true;
      }
      const completions = completionsOf(job);
      const complete = completions === undefined ? c.succeeded > 0 && active === 0 : c.succeeded >= completions && active === 0;
      if (complete) {
        c.finishedCondition = newCondition('SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods', now);
      } else if (manageCalled) {
        if (jobSuspended(job)) {
          if (ensureCondition(job, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now)) {
            suspendCondChanged = true;
            this.recorder.event(job, 'Normal', 'Suspended', 'Job suspended');
          }
        } else if (ensureCondition(job, 'Suspended', 'False', 'JobResumed', 'Job resumed', now)) {
          suspendCondChanged = true;
          this.recorder.event(job, 'Normal', 'Resumed', 'Job resumed');
          // activeDeadlineSeconds counts the time a Job is continuously active.
          status.startTime = rfc3339(now);
        }
      }
    }
    const needsStatusUpdate =
      startTimeChanged || suspendCondChanged || active !== (status.active ?? 0) || c.ready !== status.ready || c.terminating !== status.terminating;
    status.active = active;
    status.ready = c.ready;
    status.terminating = c.terminating;
    await this.trackJobStatusAndRemoveFinalizers(c, needsStatusUpdate);
    if (manageErr !== undefined) throw manageErr;
  }

  private pastActiveDeadline(job: Job, now: number): boolean {
    const ads = jobSpec(job).activeDeadlineSeconds;
    const start = timeMs(jobStatus(job).startTime);
    if (typeof ads !== 'number' || start === 0 || jobSuspended(job)) return false;
    return now - start >= ads * 1000;
  }

  /** manageJob: creates or deletes pods towards the wanted number of active ones. */
  private async manageJob(c: SyncCtx): Promise<{ active: number; error?: unknown }> {
    const job = c.job;
    let active = c.activePods.length;
    const parallelism = parallelismOf(job);
    const key = c.key;
    if (jobSuspended(job)) {
      const toDelete = activePodsForRemoval(job, c.activePods, active);
      this.expectations.expectDeletions(key, toDelete.map(keyOf));
      const r = await this.deleteJobPods(job, key, toDelete);
      c.terminating += r.deleted;
      c.ready -= r.deletedReady;
      return { active: active - r.deleted, error: r.error };
    }
    let wantActive: number;
    const completions = completionsOf(job);
    if (completions === undefined) wantActive = c.succeeded > 0 ? active : parallelism;
    else wantActive = Math.max(0, Math.min(completions - c.succeeded, parallelism));

    const toDelete = activePodsForRemoval(job, c.activePods, Math.max(0, active - wantActive)).slice(0, MAX_POD_CREATE_DELETE_PER_SYNC);
    if (toDelete.length > 0) {
      this.expectations.expectDeletions(key, toDelete.map(keyOf));
      const r = await this.deleteJobPods(job, key, toDelete);
      c.terminating += r.deleted;
      c.ready -= r.deletedReady;
      return { active: active - r.deleted, error: r.error };
    }
    const terminating = onlyReplaceFailedPods(job) ? c.terminating : 0;
    let diff = wantActive - terminating - active;
    if (diff <= 0) return { active };
    const perIndex = perIndexLimit(job) !== undefined;
    if (!perIndex) {
      const remaining = remainingBackoffMs(c.newBackoffRecord, this.ctx.now());
      if (remaining > 0) {
        this.queue.addAfter(key, remaining);
        return { active };
      }
    }
    diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
    let indexesToAdd: number[] = [];
    if (isIndexedJob(job)) {
      const done = new Set([...c.succeededIndexes, ...(c.failedIndexes ?? [])]);
      indexesToAdd = firstPendingIndexes(c.activePods, done, perIndex ? completions ?? 0 : diff, completions ?? 0);
      if (perIndex) {
        // getPodCreationInfoForIndependentIndexes: each index waits out its own back-off.
        let minRemaining = 0;
        indexesToAdd = indexesToAdd.filter((ix) => {
          const last = c.delayedDeletion?.get(ix);
          if (!last) return true;
          const r = remainingBackoffMs({ key, failuresAfterLastSuccess: indexAbsoluteFailureCount(last) + 1, lastFailureTime: podFinishedTime(last) }, this.ctx.now());
          if (r > 0 && (minRemaining === 0 || r < minRemaining)) minRemaining = r;
          return r <= 0;
        });
        indexesToAdd = indexesToAdd.slice(0, diff);
        if (indexesToAdd.length === 0 && minRemaining > 0) this.queue.addAfter(key, minRemaining);
      }
      diff = indexesToAdd.length;
      if (diff === 0) return { active };
    }
    this.expectations.expectCreations(key, diff);
    active += diff;
    const template = deepCopy(jobSpec(job).template ?? {});
    const finalizers = [...(template.metadata?.finalizers ?? [])];
    if (!finalizers.includes(JOB_TRACKING_FINALIZER)) finalizers.push(JOB_TRACKING_FINALIZER);
    const errors: unknown[] = [];
    for (let batch = Math.min(diff, SLOW_START_INITIAL_BATCH_SIZE); diff > 0; batch = Math.min(2 * batch, diff)) {
      const before = errors.length;
      await Promise.all(
        Array.from({ length: batch }, async () => {
          const ix = indexesToAdd.shift();
          const t = deepCopy(template);
          if (ix !== undefined) {
            indexedTemplate(t, nameOf(job), ix);
            if (perIndex) addIndexFailureCounts(t, job, c.delayedDeletion?.get(ix));
          }
          const m = t.metadata ?? {};
          const pod: Pod = {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: {
              generateName: ix === undefined ? `${nameOf(job)}-` : `${nameOf(job)}-${ix}-`,
              namespace: namespaceOf(job),
              labels: { ...(m.labels ?? {}) },
              annotations: { ...(m.annotations ?? {}) },
              finalizers: [...finalizers],
              ownerReferences: [newControllerRef(job, 'batch/v1', 'Job')],
            },
            spec: t.spec ?? {},
          };
          try {
            const created = await this.podClient.create(namespaceOf(job), pod);
            this.recorder.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${nameOf(created)}`);
          } catch (e) {
            if (isNamespaceTerminating(e)) return;
            this.recorder.event(job, 'Warning', 'FailedCreate', `Error creating: ${(e as Error).message}`);
            this.expectations.creationObserved(key);
            active--;
            errors.push(e);
          }
        }),
      );
      const skipped = diff - batch;
      if (errors.length > before && skipped > 0) {
        active -= skipped;
        this.expectations.lowerExpectations(key, skipped, 0);
        break;
      }
      diff -= batch;
    }
    return { active, error: errors[0] };
  }

  /** deleteJobPods: removes the tracking finalizer (the pod is not counted as failed), then deletes. */
  private async deleteJobPods(job: Job, key: string, pods: Pod[]): Promise<{ deleted: number; deletedReady: number; error?: unknown }> {
    let deleted = pods.length;
    let deletedReady = 0;
    const errors: unknown[] = [];
    await Promise.all(
      pods.map(async (pod) => {
        const fail = (e: unknown): void => {
          this.expectations.deletionObserved(key, keyOf(pod));
          if (!isNotFound(e)) {
            deleted--;
            errors.push(e);
          }
        };
        const patch = removeTrackingFinalizerPatch(pod);
        if (patch) {
          try {
            await this.podClient.patch(namespaceOf(pod), nameOf(pod), 'strategic', patch);
          } catch (e) {
            return fail(e);
          }
        }
        const err = await this.deletePodOf(job, pod);
        if (err !== undefined) return fail(err);
        if (isPodReady(pod)) deletedReady++;
      }),
    );
    return { deleted, deletedReady, error: errors[0] };
  }

  /** podControl.DeletePod with its events; resolves with the error, if any. */
  private async deletePodOf(job: Job, pod: Pod): Promise<unknown> {
    try {
      await this.podClient.delete(namespaceOf(pod), nameOf(pod));
      this.recorder.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${nameOf(pod)}`);
      return undefined;
    } catch (e) {
      if (!isNotFound(e)) this.recorder.event(job, 'Warning', 'FailedDelete', `Error deleting: ${(e as Error).message}`);
      return e ?? new Error('delete failed');
    }
  }

  /** deleteActivePods: deletions that keep the finalizers (the pods are counted as failed). */
  private async deleteActivePods(job: Job, pods: Pod[]): Promise<{ deleted: number; deletedReady: number; error?: unknown }> {
    let deleted = pods.length;
    let deletedReady = 0;
    const errors: unknown[] = [];
    await Promise.all(
      pods.map(async (pod) => {
        const err = await this.deletePodOf(job, pod);
        if (err !== undefined && !isNotFound(err)) {
          deleted--;
          errors.push(err);
        }
        if (isPodReady(pod)) deletedReady++;
      }),
    );
    return { deleted, deletedReady, error: errors[0] };
  }

  // ---- status and finalizers ----

  private canRemoveFinalizer(c: SyncCtx, pod: Pod, considerFailed: boolean): boolean {
    if (isBeingDeleted(c.job) || c.finishedCondition || podPhaseOf(pod) === 'Succeeded') return true;
    if (!considerFailed) return false;
    // The last failed pod of an index keeps its finalizer until its replacement carries its count.
    const delayed = c.delayedDeletion?.get(completionIndexOf(pod));
    return !(delayed && uidOf(delayed) === uidOf(pod));
  }

  private async trackJobStatusAndRemoveFinalizers(c: SyncCtx, needsFlushIn: boolean): Promise<void> {
    let needsFlush = needsFlushIn;
    const uidsWithFinalizer = new Set(c.pods.filter((p) => hasTrackingFinalizer(p) && !c.expectedRmFinalizers.has(uidOf(p))).map(uidOf));
    if (cleanUncountedPodsWithoutFinalizers(c.job, uidsWithFinalizer)) needsFlush = true;
    const unc = jobStatus(c.job).uncountedTerminatedPods!;
    const toRemove: Pod[] = [];
    let reachedMax = false;
    const indexed = isIndexedJob(c.job);
    const completions = completionsOf(c.job) ?? 0;
    const newSucceededIndexes: number[] = [];
    for (const pod of c.pods) {
      const uid = uidOf(pod);
      if (!hasTrackingFinalizer(pod) || c.expectedRmFinalizers.has(uid)) continue;
      const considerFailed = isPodFailed(pod, c.job);
      if (!this.canRemoveFinalizer(c, pod, considerFailed)) continue;
      toRemove.push(pod);
      const ix = completionIndexOf(pod);
      if (podPhaseOf(pod) === 'Succeeded' && !c.uncountedFailed.has(uid)) {
        if (indexed) {
          // The completion index is enough to avoid counting a pod twice.
          if (ix >= 0 && ix < completions && !c.prevSucceededIndexes.has(ix)) {
            newSucceededIndexes.push(ix);
            needsFlush = true;
          }
        } else if (!c.uncountedSucceeded.has(uid)) {
          needsFlush = true;
          unc.succeeded = [...(unc.succeeded ?? []), uid];
        }
      } else if (considerFailed || (c.finishedCondition && c.finishedCondition.type !== 'SuccessCriteriaMet')) {
        if (!c.uncountedFailed.has(uid) && (!indexed || (ix >= 0 && ix < completions)) && matchPodFailurePolicy(c.job, pod).countFailed) {
          needsFlush = true;
          unc.failed = [...(unc.failed ?? []), uid];
        }
      }
      if (newSucceededIndexes.length + (unc.succeeded?.length ?? 0) + (unc.failed?.length ?? 0) >= MAX_UNCOUNTED_PODS) {
        reachedMax = true;
        break;
      }
    }
    if (indexed) {
      c.succeededIndexes = new Set([...c.succeededIndexes, ...newSucceededIndexes]);
      const st = jobStatus(c.job);
      const str = formatIndexes(c.succeededIndexes);
      if (str !== (st.completedIndexes ?? '')) needsFlush = true;
      st.succeeded = c.succeededIndexes.size;
      if (str === '') delete st.completedIndexes;
      else st.completedIndexes = str;
      if (c.failedIndexes) {
        const failedStr = formatIndexes(c.failedIndexes);
        if (st.failedIndexes !== failedStr) {
          st.failedIndexes = failedStr;
          needsFlush = true;
        }
      }
    }
    const now = this.ctx.now();
    const fc = c.finishedCondition;
    if (fc?.type === 'FailureTarget') {
      const st = jobStatus(c.job);
      st.conditions = [...(st.conditions ?? []), fc];
      needsFlush = true;
      c.finishedCondition = newCondition('Failed', 'True', fc.reason ?? '', fc.message ?? '', now);
    } else if (fc?.type === 'SuccessCriteriaMet') {
      if (findCondition(c.job, 'SuccessCriteriaMet')?.status !== 'True') {
        const st = jobStatus(c.job);
        st.conditions = [...(st.conditions ?? []), fc];
        needsFlush = true;
      }
      c.finishedCondition = newCondition('Complete', 'True', fc.reason ?? '', fc.message ?? '', now);
    }
    needsFlush = await this.flushUncountedAndRemoveFinalizers(c, toRemove, uidsWithFinalizer, needsFlush);
    const finished = !reachedMax && this.enactJobFinished(c);
    if (finished) needsFlush = true;
    if (needsFlush) {
      c.job = await this.updateStatus(c.job);
      if (finished) this.recordJobFinished(c.job, c.finishedCondition!);
    }
  }

  private async flushUncountedAndRemoveFinalizers(c: SyncCtx, toRemove: Pod[], uidsWithFinalizer: Set<string>, needsFlushIn: boolean): Promise<boolean> {
    let needsFlush = needsFlushIn;
    if (needsFlush) {
      c.job = await this.updateStatus(c.job);
      this.backoff.update(c.newBackoffRecord);
      needsFlush = false;
    }
    let rmErr: unknown;
    if (toRemove.length > 0) {
      this.finalizerExpectations.expectRemoved(c.key, toRemove.map(uidOf));
      await Promise.all(
        toRemove.map(async (pod) => {
          const patch = removeTrackingFinalizerPatch(pod);
          if (!patch) return;
          try {
            await this.podClient.patch(namespaceOf(pod), nameOf(pod), 'strategic', patch);
          } catch (e) {
            this.finalizerExpectations.observed(c.key, uidOf(pod));
            if (!isNotFound(e)) {
              rmErr ??= e;
              return;
            }
          }
          uidsWithFinalizer.delete(uidOf(pod));
        }),
      );
    }
    if (cleanUncountedPodsWithoutFinalizers(c.job, uidsWithFinalizer)) needsFlush = true;
    if (rmErr !== undefined) {
      if (needsFlush) c.job = await this.updateStatus(c.job);
      throw rmErr;
    }
    return needsFlush;
  }

  private enactJobFinished(c: SyncCtx): boolean {
    const fc = c.finishedCondition;
    if (!fc) return false;
    const st = jobStatus(c.job);
    const unc = st.uncountedTerminatedPods;
    if ((unc?.succeeded?.length ?? 0) + (unc?.failed?.length ?? 0) > 0) return false;
    if (c.terminating > 0) return false;
    ensureCondition(c.job, fc.type ?? '', fc.status ?? '', fc.reason ?? '', fc.message ?? '', this.ctx.now());
    if (fc.type === 'Complete') st.completionTime = fc.lastTransitionTime;
    return true;
  }

  private recordJobFinished(job: Job, fc: JobCondition): void {
    if (fc.type === 'Complete') {
      const completions = completionsOf(job);
      if (completions !== undefined && (jobStatus(job).succeeded ?? 0) > completions) {
        this.recorder.event(job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
      }
      this.recorder.event(job, 'Normal', 'Completed', 'Job completed');
    } else {
      this.recorder.event(job, 'Warning', fc.reason ?? '', fc.message ?? '');
    }
  }

  /** The informer's Job, or the one this controller wrote last when the informer is behind it. */
  private newestJob(key: string, cached: Job | undefined): Job | undefined {
    const written = this.written.get(key);
    if (written === undefined || cached === undefined) return cached;
    if (uidOf(written) === uidOf(cached) && Number(written.metadata?.resourceVersion) > Number(cached.metadata?.resourceVersion)) return written;
    this.written.delete(key);
    return cached;
  }

  private async updateStatus(job: Job): Promise<Job> {
    const st = jobStatus(job);
    const unc = st.uncountedTerminatedPods ?? {};
    // Go's omitempty on the UID lists.
    if (unc.succeeded && unc.succeeded.length === 0) delete unc.succeeded;
    if (unc.failed && unc.failed.length === 0) delete unc.failed;
    st.uncountedTerminatedPods = unc;
    const updated: Job | undefined = await this.jobs.update(namespaceOf(job), job, { subresource: 'status' });
    // A copy: the sync goes on changing the object it returns.
    if (updated) this.written.set(keyOf(updated), deepCopy(updated));
    return updated ?? job;
  }

  // ---- workers ----

  async run(workers: number, signal: AbortSignal): Promise<void> {
    await this.ctx.informers.waitForCacheSync(signal);
    const log = (key: string, err: unknown): void => this.ctx.log({ controller: this.name, msg: 'error syncing job', key, err: String(err) });
    await Promise.all([runSyncWorkers(this.queue, workers, signal, (k) => this.sync(k), log), runSyncWorkers(this.orphanQueue, 1, signal, (k) => this.syncOrphanPod(k), log)]);
  }
}

