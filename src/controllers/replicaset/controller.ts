// The ReplicaSet controller (kube-controller-manager's pkg/controller/replicaset): keeps
// spec.replicas active pods from spec.template, adopting orphans that match the selector and
// releasing owned pods that no longer match; creates in slow-start batches and deletes the least
// valuable pods first; expectations keep a burst of watch events from causing duplicate creates
// or deletes; status carries replicas, fullyLabeledReplicas, readyReplicas, availableReplicas,
// observedGeneration and the ReplicaFailure condition. The same code runs ReplicationControllers
// (a map selector, core/v1).
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, Tombstone, WorkQueue } from '../../client/types.js';
import { controllerRefOf, isBeingDeleted, labelsOf, nameOf, namespaceOf, resourceVersionOf, uidOf } from '../../api/meta/object.js';
import type { OwnerReference, Pod, PodTemplateSpec, ReplicaSetStatus } from '../../api/types.js';
import { LabelSelector } from '../../machinery/selectors/index.js';
import { claimCandidates, claimObjects, newControllerRef, recheckOwner } from '../common/controller-ref.js';
import { ControllerExpectations } from '../common/expectations.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { deepCopy } from '../common/objects.js';
import { rfc3339 } from '../common/time.js';
import { filterActivePods, isPodAvailable, isPodReady, podsToDelete } from '../common/pods.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { PODS, REPLICASET_KIND, REPLICATIONCONTROLLER_KIND, type ReplicaSetKind } from './kinds.js';
import { slowStartBatch } from './slow-start.js';
import { asReplicaSet, minReadySecondsOf, specReplicas, statusOf, type ReplicaSetLike } from './spec.js';

/** Kubernetes' burstReplicas: at most this many creates or deletes per sync. */
export const BURST_REPLICAS = 500;

export class ReplicaSetController implements Controller {
  readonly name: string;
  readonly expectations: ControllerExpectations;
  readonly queue: WorkQueue<string>;
  private readonly rsLister: Lister;
  private readonly podLister: Lister;
  private readonly rsClient: ResourceClient;
  private readonly podClient: ResourceClient;
  private readonly recorder: EventRecorder;

  constructor(
    private readonly ctx: ControllerContext,
    readonly kind: ReplicaSetKind = REPLICASET_KIND,
    queue?: WorkQueue<string>,
  ) {
    this.name = kind.kind === 'ReplicaSet' ? 'replicaset' : 'replicationcontroller';
    this.expectations = new ControllerExpectations(() => ctx.now());
    this.queue = queue ?? newRateLimitingQueue<string>();
    const rsInformer = ctx.informers.informer(kind.ref);
    const podInformer = ctx.informers.informer(PODS);
    this.rsLister = rsInformer.lister;
    this.podLister = podInformer.lister;
    this.rsClient = ctx.clientset.resource(kind.ref);
    this.podClient = ctx.clientset.resource(PODS);
    this.recorder = ctx.recorder(kind.name);
    rsInformer.addEventHandler({
      onAdd: (rs) => this.enqueue(rs),
      onUpdate: (oldRS, curRS) => {
        if (uidOf(oldRS) !== uidOf(curRS)) this.deleteRS(oldRS);
        this.enqueue(curRS);
      },
      onDelete: (obj) => this.deleteRS(obj),
    });
    podInformer.addEventHandler({
      onAdd: (pod) => this.addPod(pod),
      onUpdate: (oldPod, curPod) => this.updatePod(oldPod, curPod),
      onDelete: (pod) => this.deletePod(pod),
    });
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    return runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), (key, err) =>
      this.ctx.log({ controller: this.name, msg: 'sync failed', key, err: (err as Error)?.message ?? String(err) }),
    );
  }

  enqueue(rs: KubeObject): void {
    this.queue.add(keyOf(rs));
  }

  private deleteRS(obj: KubeObject | Tombstone): void {
    const rs = objectOf(obj);
    const key = keyOf(rs);
    this.expectations.delete(key);
    this.queue.add(key);
  }

  /** The owner a pod's controllerRef names, when it is one of ours (same uid). */
  private resolveControllerRef(namespace: string, ref: OwnerReference | undefined): ReplicaSetLike | undefined {
    if (!ref || ref.kind !== this.kind.kind) return undefined;
    const rs = this.rsLister.get(namespace, ref.name ?? '');
    if (!rs || uidOf(rs) !== ref.uid) return undefined;
    return asReplicaSet(rs);
  }

  /** The owners whose selector matches an orphan pod. */
  private getPodReplicaSets(pod: KubeObject): KubeObject[] {
    const labels = labelsOf(pod);
    if (Object.keys(labels).length === 0) return [];
    return this.rsLister.list(namespaceOf(pod)).filter((rs) => {
      try {
        const sel = this.kind.selector(asReplicaSet(rs));
        return !sel.isEmpty() && sel.matches(labels);
      } catch {
        return false;
      }
    });
  }

  private addPod(pod: KubeObject): void {
    if (isBeingDeleted(pod)) {
      this.deletePod(pod);
      return;
    }
    const rs = this.resolveControllerRef(namespaceOf(pod), controllerRefOf(pod));
    if (controllerRefOf(pod)) {
      if (!rs) return;
      const key = keyOf(rs);
      this.expectations.creationObserved(key);
      this.queue.add(key);
      return;
    }
    for (const o of this.getPodReplicaSets(pod)) this.enqueue(o);
  }

  private updatePod(oldPod: KubeObject, curPod: KubeObject): void {
    if (resourceVersionOf(oldPod) === resourceVersionOf(curPod)) return;
    const labelChanged = JSON.stringify(labelsOf(oldPod)) !== JSON.stringify(labelsOf(curPod));
    if (isBeingDeleted(curPod)) {
      this.deletePod(curPod);
      if (labelChanged) this.deletePod(oldPod);
      return;
    }
    const ns = namespaceOf(curPod);
    const curRef = controllerRefOf(curPod);
    const oldRef = controllerRefOf(oldPod);
    if (oldRef && (!curRef || curRef.uid !== oldRef.uid)) {
      const old = this.resolveControllerRef(ns, oldRef);
      if (old) this.enqueue(old);
    }
    if (curRef) {
      const rs = this.resolveControllerRef(ns, curRef);
      if (!rs) return;
      this.enqueue(rs);
      // A pod that just became ready: check availability again after minReadySeconds.
      const minReady = minReadySecondsOf(rs);
      if (!isPodReady(oldPod) && isPodReady(curPod) && minReady > 0) this.queue.addAfter(keyOf(rs), minReady * 1000 + 1000);
      return;
    }
    if (labelChanged || oldRef) for (const o of this.getPodReplicaSets(curPod)) this.enqueue(o);
  }

  private deletePod(obj: KubeObject | Tombstone): void {
    const pod = objectOf(obj);
    const ref = controllerRefOf(pod);
    if (!ref) return;
    const rs = this.resolveControllerRef(namespaceOf(pod), ref);
    if (!rs) return;
    const key = keyOf(rs);
    this.expectations.deletionObserved(key, keyOf(pod));
    this.queue.add(key);
  }

  /** syncReplicaSet. */
  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const cached = this.rsLister.get(namespace, name);
    if (!cached) {
      this.expectations.delete(key);
      return;
    }
    const rs = asReplicaSet(deepCopy(cached));
    const needsSync = this.expectations.satisfiedExpectations(key);
    let selector: LabelSelector;
    try {
      selector = this.kind.selector(rs);
    } catch (e) {
      this.ctx.log({ controller: this.name, msg: 'invalid selector', key, err: (e as Error).message });
      return;
    }
    const active = filterActivePods(claimCandidates(this.podLister, namespace, uidOf(rs)));
    const filteredPods = await claimObjects(active, {
      owner: rs,
      ownerApiVersion: this.kind.apiVersion,
      ownerKind: this.kind.kind,
      match: (p) => selector.matches(labelsOf(p)),
      client: this.podClient,
      canAdopt: recheckOwner(this.rsClient, rs, this.kind.kind),
    });
    let manageError: unknown;
    if (needsSync && !isBeingDeleted(rs)) {
      try {
        await this.manageReplicas(filteredPods, rs, () => this.podLister.list(namespace));
      } catch (e) {
        manageError = e;
      }
    }
    const newStatus = this.calculateStatus(rs, filteredPods, manageError);
    const updated = await this.updateStatus(rs, newStatus);
    const minReady = minReadySecondsOf(rs);
    const st = statusOf(updated);
    if (manageError === undefined && minReady > 0 && st.readyReplicas === specReplicas(rs) && st.availableReplicas !== specReplicas(rs)) {
      this.queue.addAfter(key, minReady * 1000);
    }
    if (manageError !== undefined) throw manageError;
  }

  /** `allPods`: the namespace's pods, listed only when some must go (to rank them by their related pods). */
  private async manageReplicas(filteredPods: KubeObject[], rs: ReplicaSetLike, allPods: () => KubeObject[]): Promise<void> {
    const key = keyOf(rs);
    let diff = filteredPods.length - specReplicas(rs);
    if (diff < 0) {
      diff = Math.min(-diff, BURST_REPLICAS);
      this.expectations.expectCreations(key, diff);
      const { successes, error } = await slowStartBatch(diff, 1, () => this.createPod(rs));
      const skipped = diff - successes;
      if (skipped > 0) this.expectations.lowerExpectations(key, skipped, 0);
      if (error !== undefined) throw error;
      return;
    }
    if (diff > 0) {
      diff = Math.min(diff, BURST_REPLICAS);
      const related = this.relatedPods(rs, allPods());
      const victims = podsToDelete(filteredPods, related, diff);
      this.expectations.expectDeletions(key, victims.map(keyOf));
      const results = await Promise.allSettled(
        victims.map(async (pod) => {
          try {
            await this.podClient.delete(namespaceOf(pod), nameOf(pod));
            this.recorder.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${nameOf(pod)}`);
          } catch (e) {
            this.expectations.deletionObserved(key, keyOf(pod));
            if (isNotFound(e)) return;
            this.recorder.event(rs, 'Warning', 'FailedDelete', `Error deleting: ${(e as Error).message}`);
            throw e;
          }
        }),
      );
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
  }

  /** The pods of this owner and of its siblings (owned by the same controller): for ranking by node. */
  private relatedPods(rs: ReplicaSetLike, allPods: KubeObject[]): KubeObject[] {
    const owner = controllerRefOf(rs);
    const uids = new Set<string>([uidOf(rs)]);
    if (owner) {
      for (const other of this.rsLister.list(namespaceOf(rs))) {
        if (controllerRefOf(other)?.uid === owner.uid) uids.add(uidOf(other));
      }
    }
    return allPods.filter((p) => {
      const ref = controllerRefOf(p);
      return ref !== undefined && uids.has(ref.uid ?? '');
    });
  }

  /** controller.GetPodFromTemplate + CreatePodsWithControllerRef. */
  private async createPod(rs: ReplicaSetLike): Promise<void> {
    const tmpl: PodTemplateSpec = rs.spec?.template ?? {};
    const tm = tmpl.metadata ?? {};
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${rs.metadata?.name}-`,
        namespace: rs.metadata?.namespace,
        ...(tm.labels ? { labels: { ...tm.labels } } : {}),
        ...(tm.annotations ? { annotations: { ...tm.annotations } } : {}),
        ...(tm.finalizers ? { finalizers: [...tm.finalizers] } : {}),
        ownerReferences: [newControllerRef(rs, this.kind.apiVersion, this.kind.kind)],
      },
      spec: deepCopy(tmpl.spec ?? {}),
    };
    try {
      const created = await this.podClient.create(namespaceOf(rs), pod, { skipManagedFields: true });
      this.recorder.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${nameOf(created)}`);
    } catch (e) {
      this.recorder.event(rs, 'Warning', 'FailedCreate', `Error creating: ${(e as Error).message}`);
      throw e;
    }
  }

  calculateStatus(rs: ReplicaSetLike, filteredPods: KubeObject[], manageError: unknown): ReplicaSetStatus {
    const status = deepCopy(statusOf(rs));
    const templateLabels = rs.spec?.template?.metadata?.labels;
    const templateSel = LabelSelector.fromSet(templateLabels ?? {});
    const minReady = minReadySecondsOf(rs);
    const now = this.ctx.now();
    let fully = 0;
    let ready = 0;
    let available = 0;
    for (const pod of filteredPods) {
      if (templateSel.matches(labelsOf(pod))) fully++;
      if (isPodReady(pod)) {
        ready++;
        if (isPodAvailable(pod, minReady, now)) available++;
      }
    }
    const conds = status.conditions ?? [];
    const failure = conds.find((c) => c.type === 'ReplicaFailure');
    if (manageError !== undefined && !failure) {
      const diff = filteredPods.length - specReplicas(rs);
      const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
      status.conditions = [...conds, { type: 'ReplicaFailure', status: 'True', lastTransitionTime: rfc3339(now), reason, message: (manageError as Error)?.message ?? String(manageError) }];
    } else if (manageError === undefined && failure) {
      status.conditions = conds.filter((c) => c.type !== 'ReplicaFailure');
      if (status.conditions.length === 0) delete status.conditions;
    }
    status.replicas = filteredPods.length;
    status.fullyLabeledReplicas = fully;
    status.readyReplicas = ready;
    status.availableReplicas = available;
    return status;
  }

  /** updateReplicaSetStatus: skips identical statuses; one retry with a fresh read on conflict. */
  private async updateStatus(rs: ReplicaSetLike, newStatus: ReplicaSetStatus): Promise<ReplicaSetLike> {
    const generation = rs.metadata?.generation ?? 0;
    const cur = statusOf(rs);
    if (
      cur.replicas === newStatus.replicas &&
      cur.fullyLabeledReplicas === newStatus.fullyLabeledReplicas &&
      cur.readyReplicas === newStatus.readyReplicas &&
      cur.availableReplicas === newStatus.availableReplicas &&
      (cur.observedGeneration ?? 0) >= generation &&
      JSON.stringify(cur.conditions ?? []) === JSON.stringify(newStatus.conditions ?? [])
    ) {
      return rs;
    }
    let target = rs;
    for (let attempt = 0; ; attempt++) {
      const body = deepCopy(target);
      const status: ReplicaSetStatus = { ...newStatus, observedGeneration: target.metadata?.generation ?? generation };
      if (status.conditions === undefined) delete status.conditions;
      body.status = status;
      try {
        return asReplicaSet(await this.rsClient.update(namespaceOf(body), body, { subresource: 'status' }));
      } catch (e) {
        if (attempt >= 1 || !isConflict(e)) throw e;
        target = asReplicaSet(await this.rsClient.get(namespaceOf(rs), nameOf(rs)));
      }
    }
  }
}

/** The daemon's instances use client-go's rate-limited queues, named as Kubernetes' (metrics). */
export function newReplicaSetController(ctx: ControllerContext): Controller {
  return new ReplicaSetController(ctx, REPLICASET_KIND, newRateLimitingQueue({ name: 'replicaset' }));
}

export function newReplicationControllerController(ctx: ControllerContext): Controller {
  return new ReplicaSetController(ctx, REPLICATIONCONTROLLER_KIND, newRateLimitingQueue({ name: 'replicationmanager' }));
}
