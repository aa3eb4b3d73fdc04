// The ReplicaSet controller (kube-controller-manager's pkg/controller/replicaset): keeps
// spec.replicas active pods from spec.template, adopting orphans that match the selector and
// releasing owned pods that no longer match; creates in slow-start batches and deletes the least
// valuable pods first; expectations keep a burst of watch events from causing duplicate creates
// or deletes; status carries replicas, fullyLabeledReplicas, readyReplicas, availableReplicas,
// observedGeneration and the ReplicaFailure condition. The same code runs ReplicationControllers
// (a map selector, core/v1).
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, ResourceRef, Tombstone, WorkQueue } from '../../client/types.js';
import { LabelSelector, labelSelectorAsSelector, type LabelSelectorObject } from '../../machinery/selectors/index.js';
import { claimCandidates, claimObjects, getControllerOf, newControllerRef, recheckOwner } from '../common/controller-ref.js';
import { ControllerExpectations } from '../common/expectations.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import { keyOf, splitKey } from '../../client/cache.js';
import { deepCopy, meta, unwrapTombstone } from '../common/objects.js';
import { rfc3339 } from '../common/time.js';
import { filterActivePods, isPodAvailable, isPodReady, podsToDelete } from '../common/pods.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';

/** Kubernetes' burstReplicas: at most this many creates or deletes per sync. */
export const BURST_REPLICAS = 500;

export const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
export const REPLICASETS: ResourceRef = { group: 'apps', version: 'v1', resource: 'replicasets' };
export const REPLICATIONCONTROLLERS: ResourceRef = { group: '', version: 'v1', resource: 'replicationcontrollers' };

export interface ReplicaSetKind {
  name: string;
  ref: ResourceRef;
  apiVersion: string;
  kind: string;
  /** The selector of an owner: metav1.LabelSelector for ReplicaSets, a map for ReplicationControllers. */
  selector(owner: KubeObject): LabelSelector;
}

export const REPLICASET_KIND: ReplicaSetKind = {
  name: 'replicaset-controller',
  ref: REPLICASETS,
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  selector: (rs) => labelSelectorAsSelector(((rs.spec ?? {}) as { selector?: LabelSelectorObject }).selector),
};

export const REPLICATIONCONTROLLER_KIND: ReplicaSetKind = {
  name: 'replicationcontroller-controller',
  ref: REPLICATIONCONTROLLERS,
  apiVersion: 'v1',
  kind: 'ReplicationController',
  selector: (rc) => {
    const sel = ((rc.spec ?? {}) as { selector?: Record<string, string> | null }).selector;
    return sel && Object.keys(sel).length ? LabelSelector.fromSet(sel) : LabelSelector.nothing();
  },
};

interface RSSpec {
  replicas?: number;
  minReadySeconds?: number;
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] }; spec?: unknown };
}
interface RSCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}
interface RSStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: RSCondition[];
}

export function rsSpec(rs: KubeObject): RSSpec {
  return (rs.spec ?? {}) as RSSpec;
}
export function rsStatus(rs: KubeObject): RSStatus {
  return (rs.status ?? {}) as RSStatus;
}
/** spec.replicas with its default of 1. */
export function specReplicas(obj: KubeObject): number {
  const r = (obj.spec as { replicas?: number } | undefined)?.replicas;
  return typeof r === 'number' ? r : 1;
}

/** slowStartBatch: calls fn count times in batches of 1, 2, 4, ...; stops at the first batch with an error. */
export async function slowStartBatch(count: number, initialBatchSize: number, fn: () => Promise<void>): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const errors = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += batch - errors.length;
    if (errors.length > 0) return { successes, error: errors[0]!.reason };
    remaining -= batch;
  }
  return { successes };
}

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
        const oldUid = meta(oldRS).uid;
        if (oldUid !== meta(curRS).uid) this.deleteRS(oldRS);
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
    const rs = unwrapTombstone(obj);
    const key = keyOf(rs);
    this.expectations.delete(key);
    this.queue.add(key);
  }

  /** The owner a pod's controllerRef names, when it is one of ours (same uid). */
  private resolveControllerRef(namespace: string, ref: { kind: string; name: string; uid: string } | undefined): KubeObject | undefined {
    if (!ref || ref.kind !== this.kind.kind) return undefined;
    const rs = this.rsLister.get(namespace, ref.name);
    if (!rs || meta(rs).uid !== ref.uid) return undefined;
    return rs;
  }

  /** The owners whose selector matches an orphan pod. */
  private getPodReplicaSets(pod: KubeObject): KubeObject[] {
    const m = meta(pod);
    if (!m.labels || Object.keys(m.labels).length === 0) return [];
    return this.rsLister.list(String(m.namespace ?? '')).filter((rs) => {
      try {
        const sel = this.kind.selector(rs);
        return !sel.isEmpty() && sel.matches(m.labels);
      } catch {
        return false;
      }
    });
  }

  private addPod(pod: KubeObject): void {
    const m = meta(pod);
    if (m.deletionTimestamp) {
      this.deletePod(pod);
      return;
    }
    const rs = this.resolveControllerRef(String(m.namespace ?? ''), getControllerOf(pod));
    if (getControllerOf(pod)) {
      if (!rs) return;
      const key = keyOf(rs);
      this.expectations.creationObserved(key);
      this.queue.add(key);
      return;
    }
    for (const o of this.getPodReplicaSets(pod)) this.enqueue(o);
  }

  private updatePod(oldPod: KubeObject, curPod: KubeObject): void {
    const om = meta(oldPod);
    const cm = meta(curPod);
    if (om.resourceVersion === cm.resourceVersion) return;
    const labelChanged = JSON.stringify(om.labels ?? {}) !== JSON.stringify(cm.labels ?? {});
    if (cm.deletionTimestamp) {
      this.deletePod(curPod);
      if (labelChanged) this.deletePod(oldPod);
      return;
    }
    const ns = String(cm.namespace ?? '');
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    if (oldRef && (!curRef || curRef.uid !== oldRef.uid)) {
      const old = this.resolveControllerRef(ns, oldRef);
      if (old) this.enqueue(old);
    }
    if (curRef) {
      const rs = this.resolveControllerRef(ns, curRef);
      if (!rs) return;
      this.enqueue(rs);
      // A pod that just became ready: check availability again after minReadySeconds.
      const minReady = rsSpec(rs).minReadySeconds ?? 0;
      if (!isPodReady(oldPod) && isPodReady(curPod) && minReady > 0) this.queue.addAfter(keyOf(rs), minReady * 1000 + 1000);
      return;
    }
    if (labelChanged || oldRef) for (const o of this.getPodReplicaSets(curPod)) this.enqueue(o);
  }

  private deletePod(obj: KubeObject | Tombstone): void {
    const pod = unwrapTombstone(obj);
    const ref = getControllerOf(pod);
    if (!ref) return;
    const rs = this.resolveControllerRef(String(meta(pod).namespace ?? ''), ref);
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
    const rs = deepCopy(cached);
    const needsSync = this.expectations.satisfiedExpectations(key);
    let selector: LabelSelector;
    try {
      selector = this.kind.selector(rs);
    } catch (e) {
      this.ctx.log({ controller: this.name, msg: 'invalid selector', key, err: (e as Error).message });
      return;
    }
    const active = filterActivePods(claimCandidates(this.podLister, namespace, String(meta(rs).uid)));
    const filteredPods = await claimObjects(active, {
      owner: rs,
      ownerApiVersion: this.kind.apiVersion,
      ownerKind: this.kind.kind,
      match: (p) => selector.matches(meta(p).labels),
      client: this.podClient,
      canAdopt: recheckOwner(this.rsClient, rs, this.kind.kind),
    });
    let manageError: unknown;
    if (needsSync && !meta(rs).deletionTimestamp) {
      try {
        await this.manageReplicas(filteredPods, rs, () => this.podLister.list(namespace));
      } catch (e) {
        manageError = e;
      }
    }
    const newStatus = this.calculateStatus(rs, filteredPods, manageError);
    const updated = await this.updateStatus(rs, newStatus);
    const minReady = rsSpec(rs).minReadySeconds ?? 0;
    const st = rsStatus(updated);
    if (manageError === undefined && minReady > 0 && st.readyReplicas === specReplicas(rs) && st.availableReplicas !== specReplicas(rs)) {
      this.queue.addAfter(key, minReady * 1000);
    }
    if (manageError !== undefined) throw manageError;
  }

  /** `allPods`: the namespace's pods, listed only when some must go (to rank them by their related pods). */
  private async manageReplicas(filteredPods: KubeObject[], rs: KubeObject, allPods: () => KubeObject[]): Promise<void> {
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
          const pm = meta(pod);
          try {
            await this.podClient.delete(String(pm.namespace ?? ''), String(pm.name));
            this.recorder.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pm.name}`);
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
  private relatedPods(rs: KubeObject, allPods: KubeObject[]): KubeObject[] {
    const owner = getControllerOf(rs);
    const uids = new Set<string>([String(meta(rs).uid)]);
    if (owner) {
      for (const other of this.rsLister.list(String(meta(rs).namespace ?? ''))) {
        if (getControllerOf(other)?.uid === owner.uid) uids.add(String(meta(other).uid));
      }
    }
    return allPods.filter((p) => {
      const ref = getControllerOf(p);
      return ref !== undefined && uids.has(ref.uid);
    });
  }

  /** controller.GetPodFromTemplate + CreatePodsWithControllerRef. */
  private async createPod(rs: KubeObject): Promise<void> {
    const m = meta(rs);
    const tmpl = rsSpec(rs).template ?? {};
    const tm = tmpl.metadata ?? {};
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${m.name}-`,
        namespace: m.namespace,
        ...(tm.labels ? { labels: { ...tm.labels } } : {}),
        ...(tm.annotations ? { annotations: { ...tm.annotations } } : {}),
        ...(tm.finalizers ? { finalizers: [...tm.finalizers] } : {}),
        ownerReferences: [newControllerRef(rs, this.kind.apiVersion, this.kind.kind)],
      },
      spec: deepCopy(tmpl.spec ?? {}),
    };
    try {
      const created = await this.podClient.create(String(m.namespace ?? ''), pod);
      this.recorder.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${meta(created).name}`);
    } catch (e) {
      this.recorder.event(rs, 'Warning', 'FailedCreate', `Error creating: ${(e as Error).message}`);
      throw e;
    }
  }

  calculateStatus(rs: KubeObject, filteredPods: KubeObject[], manageError: unknown): RSStatus {
    const status = deepCopy(rsStatus(rs));
    const templateLabels = rsSpec(rs).template?.metadata?.labels;
    const templateSel = LabelSelector.fromSet(templateLabels ?? {});
    const minReady = rsSpec(rs).minReadySeconds ?? 0;
    const now = this.ctx.now();
    let fully = 0;
    let ready = 0;
    let available = 0;
    for (const pod of filteredPods) {
      if (templateSel.matches(meta(pod).labels)) fully++;
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
  private async updateStatus(rs: KubeObject, newStatus: RSStatus): Promise<KubeObject> {
    const generation = meta(rs).generation ?? 0;
    const cur = rsStatus(rs);
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
      body.status = { ...newStatus, observedGeneration: meta(target).generation ?? generation };
      if (!body.status || (body.status as RSStatus).conditions === undefined) delete (body.status as RSStatus).conditions;
      try {
        const m = meta(body);
        return await this.rsClient.update(String(m.namespace ?? ''), body, { subresource: 'status' });
      } catch (e) {
        if (attempt >= 1 || !isConflict(e)) throw e;
        const m = meta(rs);
        target = await this.rsClient.get(String(m.namespace ?? ''), String(m.name));
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
