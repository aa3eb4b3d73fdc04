// The Deployment controller (kube-controller-manager's pkg/controller/deployment): claims replica
// sets by selector, creates the new one named by the pod-template hash, rolls out by
// RollingUpdate (maxSurge/maxUnavailable) or Recreate, scales proportionally, honours paused,
// rolls back (kubectl's template patch, or the annotation the beta spec.rollbackTo becomes),
// cleans up old replica sets beyond revisionHistoryLimit, and reports status and the Available and
// Progressing conditions (with the progress deadline).
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, ResourceRef, Tombstone, WorkQueue } from '../../client/types.js';
import { labelSelectorAsSelector, type LabelSelector, type LabelSelectorObject } from '../../machinery/selectors/index.js';
import { claimObjects, getControllerOf, newControllerRef, recheckOwner } from '../common/controller-ref.js';
import { computeHash } from '../common/hash.js';
import { isAlreadyExists, isNotFound } from '../../client/errors.js';
import { keyOf, splitKey } from '../../client/cache.js';
import { deepCopy, meta, unwrapTombstone } from '../common/objects.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { PODS, REPLICASETS, specReplicas } from '../replicaset/replicaset.js';
import * as u from './util.js';

export const DEPLOYMENTS: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments' };
const API_VERSION = 'apps/v1';
const KIND = 'Deployment';

type DeploymentStatus = u.DeploymentStatus;

export class DeploymentController implements Controller {
  readonly name = 'deployment';
  readonly queue: WorkQueue<string>;
  private readonly dLister: Lister;
  private readonly rsLister: Lister;
  private readonly podLister: Lister;
  private readonly dClient: ResourceClient;
  private readonly rsClient: ResourceClient;
  private readonly recorder: EventRecorder;

  constructor(
    private readonly ctx: ControllerContext,
    queue?: WorkQueue<string>,
  ) {
    this.queue = queue ?? newRateLimitingQueue<string>();
    const dInf = ctx.informers.informer(DEPLOYMENTS);
    const rsInf = ctx.informers.informer(REPLICASETS);
    const podInf = ctx.informers.informer(PODS);
    this.dLister = dInf.lister;
    this.rsLister = rsInf.lister;
    this.podLister = podInf.lister;
    this.dClient = ctx.clientset.resource(DEPLOYMENTS);
    this.rsClient = ctx.clientset.resource(REPLICASETS);
    this.recorder = ctx.recorder('deployment-controller');
    dInf.addEventHandler({
      onAdd: (d) => this.enqueue(d),
      onUpdate: (_o, d) => this.enqueue(d),
      onDelete: (d) => this.enqueue(unwrapTombstone(d)),
    });
    rsInf.addEventHandler({
      onAdd: (rs) => this.addReplicaSet(rs),
      onUpdate: (o, rs) => this.updateReplicaSet(o, rs),
      onDelete: (rs) => this.deleteReplicaSet(rs),
    });
    podInf.addEventHandler({ onDelete: (p) => this.deletePod(p) });
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    const period = Number(this.ctx.options.deploymentControllerSyncPeriod ?? 30_000);
    let timer: NodeJS.Timeout | undefined;
    if (period > 0) {
      timer = setInterval(() => {
        for (const d of this.dLister.list()) this.enqueue(d);
      }, period);
      timer.unref?.();
      signal.addEventListener('abort', () => clearInterval(timer), { once: true });
    }
    return runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), (key, err) =>
      this.ctx.log({ controller: this.name, msg: 'sync failed', key, err: (err as Error)?.message ?? String(err) }),
    ).finally(() => clearInterval(timer));
  }

  enqueue(d: KubeObject): void {
    this.queue.add(keyOf(d));
  }

  // ----- event handlers --------------------------------------------------------------------------

  private resolveControllerRef(namespace: string, ref: { kind: string; name: string; uid: string } | undefined): KubeObject | undefined {
    if (!ref || ref.kind !== KIND) return undefined;
    const d = this.dLister.get(namespace, ref.name);
    return d && meta(d).uid === ref.uid ? d : undefined;
  }

  /** getDeploymentsForReplicaSet: deployments whose selector matches an orphan replica set. */
  private deploymentsFor(rs: KubeObject): KubeObject[] {
    const labels = meta(rs).labels;
    if (!labels || Object.keys(labels).length === 0) return [];
    return this.dLister.list(String(meta(rs).namespace ?? '')).filter((d) => {
      try {
        const sel = labelSelectorAsSelector(u.dSpec(d).selector as LabelSelectorObject);
        return !sel.isEmpty() && sel.matches(labels);
      } catch {
        return false;
      }
    });
  }

  private addReplicaSet(rs: KubeObject): void {
    if (meta(rs).deletionTimestamp) return this.deleteReplicaSet(rs);
    const ref = getControllerOf(rs);
    if (ref) {
      const d = this.resolveControllerRef(String(meta(rs).namespace ?? ''), ref);
      if (d) this.enqueue(d);
      return;
    }
    for (const d of this.deploymentsFor(rs)) this.enqueue(d);
  }

  private updateReplicaSet(oldRS: KubeObject, curRS: KubeObject): void {
    if (meta(oldRS).resourceVersion === meta(curRS).resourceVersion) return;
    const ns = String(meta(curRS).namespace ?? '');
    const curRef = getControllerOf(curRS);
    const oldRef = getControllerOf(oldRS);
    if (oldRef && (!curRef || curRef.uid !== oldRef.uid)) {
      const d = this.resolveControllerRef(ns, oldRef);
      if (d) this.enqueue(d);
    }
    if (curRef) {
      const d = this.resolveControllerRef(ns, curRef);
      if (d) this.enqueue(d);
      return;
    }
    const labelChanged = JSON.stringify(meta(oldRS).labels ?? {}) !== JSON.stringify(meta(curRS).labels ?? {});
    if (labelChanged || oldRef) for (const d of this.deploymentsFor(curRS)) this.enqueue(d);
  }

  private deleteReplicaSet(obj: KubeObject | Tombstone): void {
    const rs = unwrapTombstone(obj);
    const d = this.resolveControllerRef(String(meta(rs).namespace ?? ''), getControllerOf(rs));
    if (d) this.enqueue(d);
  }

  /** A Recreate deployment waits for its old pods to be gone. */
  private deletePod(obj: KubeObject | Tombstone): void {
    const pod = unwrapTombstone(obj);
    const ns = String(meta(pod).namespace ?? '');
    const ref = getControllerOf(pod);
    if (!ref || ref.kind !== 'ReplicaSet') return;
    const rs = this.rsLister.get(ns, ref.name);
    if (!rs || meta(rs).uid !== ref.uid) return;
    const d = this.resolveControllerRef(ns, getControllerOf(rs));
    if (!d || u.dSpec(d).strategy?.type !== 'Recreate') return;
    const rss = this.rsLister.list(ns).filter((r) => getControllerOf(r)?.uid === meta(d).uid);
    const uids = new Set(rss.map((r) => String(meta(r).uid)));
    const remaining = this.podLister.list(ns).filter((p) => {
      const pr = getControllerOf(p);
      return pr !== undefined && uids.has(pr.uid);
    });
    if (remaining.length === 0) this.enqueue(d);
  }

  // ----- sync ------------------------------------------------------------------------------------

  private now(): number {
    return this.ctx.now();
  }

  /** syncDeployment. */
  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const cached = this.dLister.get(namespace, name);
    if (!cached) return;
    const d = deepCopy(cached);
    const sel = u.dSpec(d).selector;
    if (sel && Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0) {
      this.recorder.event(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((u.dStatus(d).observedGeneration ?? 0) < (meta(d).generation ?? 0)) {
        d.status = { ...u.dStatus(d), observedGeneration: meta(d).generation };
        await this.updateStatus(d);
      }
      return;
    }
    const rsList = await this.getReplicaSetsForDeployment(d);
    if (meta(d).deletionTimestamp) return this.syncStatusOnly(d, rsList);
    await this.checkPausedConditions(d);
    if (u.dSpec(d).paused) return this.syncScale(d, rsList);
    if (getRollbackTo(d) !== undefined) return this.rollback(d, rsList);
    if (this.isScalingEvent(d, rsList)) return this.syncScale(d, rsList);
    if (u.dSpec(d).strategy?.type === 'Recreate') return this.rolloutRecreate(d, rsList);
    return this.rolloutRolling(d, rsList);
  }

  private selector(d: KubeObject): LabelSelector {
    return labelSelectorAsSelector(u.dSpec(d).selector as LabelSelectorObject);
  }

  private async getReplicaSetsForDeployment(d: KubeObject): Promise<KubeObject[]> {
    const selector = this.selector(d);
    const all = this.rsLister.list(String(meta(d).namespace ?? ''));
    return claimObjects(all, {
      owner: d,
      ownerApiVersion: API_VERSION,
      ownerKind: KIND,
      match: (rs) => selector.matches(meta(rs).labels),
      client: this.rsClient,
      canAdopt: recheckOwner(this.dClient, d, KIND),
    });
  }

  /** Pods of the deployment's replica sets, by replica set uid (for Recreate). */
  private podMap(d: KubeObject, rsList: KubeObject[]): Map<string, KubeObject[]> {
    const selector = this.selector(d);
    const map = new Map<string, KubeObject[]>();
    for (const rs of rsList) map.set(String(meta(rs).uid), []);
    for (const p of this.podLister.list(String(meta(d).namespace ?? ''))) {
      if (!selector.matches(meta(p).labels)) continue;
      const ref = getControllerOf(p);
      if (ref && map.has(ref.uid)) map.get(ref.uid)!.push(p);
    }
    return map;
  }

  private async updateStatus(d: KubeObject): Promise<void> {
    const m = meta(d);
    const out = await this.dClient.update(String(m.namespace ?? ''), d, { subresource: 'status' });
    (d.metadata as Record<string, unknown>).resourceVersion = meta(out).resourceVersion;
  }

  private async updateDeployment(d: KubeObject): Promise<void> {
    const m = meta(d);
    const out = await this.dClient.update(String(m.namespace ?? ''), d);
    (d.metadata as Record<string, unknown>).resourceVersion = meta(out).resourceVersion;
  }

  // ----- sync.go ---------------------------------------------------------------------------------

  private async syncStatusOnly(d: KubeObject, rsList: KubeObject[]): Promise<void> {
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    return this.syncDeploymentStatus([...oldRSs, newRS], newRS, d);
  }

  /** sync: scaling and paused deployments. */
  private async syncScale(d: KubeObject, rsList: KubeObject[]): Promise<void> {
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    await this.scale(d, newRS, oldRSs);
    if (u.dSpec(d).paused && getRollbackTo(d) === undefined) await this.cleanupDeployment(oldRSs, d);
    return this.syncDeploymentStatus([...oldRSs, newRS], newRS, d);
  }

  private async checkPausedConditions(d: KubeObject): Promise<void> {
    if (!u.hasProgressDeadline(d)) return;
    const st = (d.status ??= {}) as DeploymentStatus;
    const cond = u.getCondition(st, 'Progressing');
    if (cond?.reason === u.TIMED_OUT_REASON) return;
    const pausedCondExists = cond?.reason === u.PAUSED_DEPLOY_REASON;
    const paused = !!u.dSpec(d).paused;
    if (paused && !pausedCondExists) u.setCondition(st, u.newCondition('Progressing', 'Unknown', u.PAUSED_DEPLOY_REASON, 'Deployment is paused', this.now()));
    else if (!paused && pausedCondExists) u.setCondition(st, u.newCondition('Progressing', 'Unknown', u.RESUMED_DEPLOY_REASON, 'Deployment is resumed', this.now()));
    else return;
    await this.updateStatus(d);
  }

  private isScalingEvent(d: KubeObject, rsList: KubeObject[]): boolean {
    const newRS = u.findNewReplicaSet(d, rsList);
    const [, oldRSs] = u.findOldReplicaSets(d, rsList);
    for (const rs of u.filterActiveReplicaSets([...oldRSs, newRS])) {
      const desired = u.desiredReplicasAnnotation(rs);
      if (desired === undefined) continue;
      if (desired !== specReplicas(d)) return true;
    }
    return false;
  }

  private async getAllReplicaSetsAndSyncRevision(d: KubeObject, rsList: KubeObject[], create: boolean): Promise<{ newRS: KubeObject | undefined; oldRSs: KubeObject[] }> {
    const [, oldRSs] = u.findOldReplicaSets(d, rsList);
    const newRS = await this.getNewReplicaSet(d, rsList, oldRSs, create);
    return { newRS, oldRSs };
  }

  private async getNewReplicaSet(d: KubeObject, rsList: KubeObject[], oldRSs: KubeObject[], create: boolean): Promise<KubeObject | undefined> {
    const existing = u.findNewReplicaSet(d, rsList);
    const newRevision = String(u.maxRevision(oldRSs) + 1);
    const st = (d.status ??= {}) as DeploymentStatus;
    if (existing) {
      const rsCopy = deepCopy(existing);
      const annotationsUpdated = u.setNewReplicaSetAnnotations(d, rsCopy, newRevision, true);
      const minReady = u.dSpec(d).minReadySeconds ?? 0;
      const rsSpec = (rsCopy.spec ??= {}) as Record<string, unknown>;
      if (annotationsUpdated || (rsSpec.minReadySeconds ?? 0) !== minReady) {
        rsSpec.minReadySeconds = minReady;
        return this.rsClient.update(String(meta(rsCopy).namespace ?? ''), rsCopy);
      }
      let needsUpdate = u.setDeploymentRevision(d, u.annotations(rsCopy)[u.REVISION_ANNOTATION] ?? '');
      if (u.hasProgressDeadline(d) && !u.getCondition(st, 'Progressing')) {
        u.setCondition(st, u.newCondition('Progressing', 'True', u.FOUND_NEW_RS_REASON, `Found new replica set "${meta(rsCopy).name}"`, this.now()));
        needsUpdate = true;
      }
      if (needsUpdate) await this.updateStatus(d);
      return rsCopy;
    }
    if (!create) return undefined;

    const spec = u.dSpec(d);
    const template = deepCopy(spec.template ?? {}) as { metadata?: { labels?: Record<string, string> } };
    const hash = computeHash(template as KubeObject, st.collisionCount);
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [u.POD_TEMPLATE_HASH]: hash } };
    const selector = deepCopy(spec.selector ?? {}) as { matchLabels?: Record<string, string> };
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [u.POD_TEMPLATE_HASH]: hash };
    const newRS: KubeObject = {
      apiVersion: API_VERSION,
      kind: 'ReplicaSet',
      metadata: {
        name: `${meta(d).name}-${hash}`,
        namespace: meta(d).namespace,
        ownerReferences: [newControllerRef(d, API_VERSION, KIND)],
        labels: { ...template.metadata.labels },
      },
      spec: { replicas: 0, minReadySeconds: spec.minReadySeconds ?? 0, selector, template },
    };
    const newReplicas = u.newRSNewReplicas(d, [...oldRSs, newRS], newRS);
    (newRS.spec as Record<string, unknown>).replicas = newReplicas;
    u.setNewReplicaSetAnnotations(d, newRS, newRevision, false);
    let created: KubeObject;
    let alreadyExists = false;
    try {
      created = await this.rsClient.create(String(meta(d).namespace ?? ''), newRS);
    } catch (e) {
      if (isAlreadyExists(e)) {
        alreadyExists = true;
        const rs = this.rsLister.get(String(meta(d).namespace ?? ''), String(meta(newRS).name));
        if (!rs) throw e;
        const ref = getControllerOf(rs);
        if (ref && ref.uid === meta(d).uid && u.equalIgnoreHash(spec.template, (rs.spec as { template?: KubeObject }).template)) {
          created = rs;
        } else {
          // A hash collision: bump collisionCount and requeue.
          st.collisionCount = (st.collisionCount ?? 0) + 1;
          try {
            await this.updateStatus(d);
            this.ctx.log({ controller: this.name, msg: 'found a hash collision for deployment - bumping collisionCount', deployment: keyOf(d), collisionCount: st.collisionCount });
          } catch {
            // requeued below
          }
          throw e;
        }
      } else {
        const msg = `Failed to create new replica set "${meta(newRS).name}": ${(e as Error).message}`;
        if (u.hasProgressDeadline(d)) {
          u.setCondition(st, u.newCondition('Progressing', 'False', u.FAILED_RS_CREATE_REASON, msg, this.now()));
          await this.updateStatus(d).catch(() => undefined);
        }
        this.recorder.event(d, 'Warning', u.FAILED_RS_CREATE_REASON, msg);
        throw e;
      }
    }
    if (!alreadyExists && newReplicas > 0) {
      this.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${meta(created).name} from 0 to ${newReplicas}`);
    }
    let needsUpdate = u.setDeploymentRevision(d, newRevision);
    if (!alreadyExists && u.hasProgressDeadline(d)) {
      u.setCondition(st, u.newCondition('Progressing', 'True', u.NEW_RS_REASON, `Created new replica set "${meta(created).name}"`, this.now()));
      needsUpdate = true;
    }
    if (needsUpdate) await this.updateStatus(d);
    return created;
  }

  /** scale: proportional scaling of a deployment whose replicas changed mid-rollout. */
  private async scale(d: KubeObject, newRS: KubeObject | undefined, oldRSs: KubeObject[]): Promise<void> {
    const activeOrLatest = u.findActiveOrLatest(newRS, oldRSs);
    if (activeOrLatest) {
      if (specReplicas(activeOrLatest) === specReplicas(d)) return;
      await this.scaleReplicaSetAndRecordEvent(activeOrLatest, specReplicas(d), d);
      return;
    }
    if (u.isSaturated(d, newRS)) {
      for (const old of u.filterActiveReplicaSets(oldRSs)) await this.scaleReplicaSetAndRecordEvent(old, 0, d);
      return;
    }
    if (!u.isRollingUpdate(d)) return;
    const allRSs = u.filterActiveReplicaSets([...oldRSs, newRS]);
    const allRSsReplicas = u.replicaCount(allRSs);
    const allowedSize = specReplicas(d) > 0 ? specReplicas(d) + u.maxSurge(d) : 0;
    const toAdd = allowedSize - allRSsReplicas;
    if (toAdd > 0) allRSs.sort(u.bySizeNewer);
    else if (toAdd < 0) allRSs.sort(u.bySizeOlder);
    let added = 0;
    const sizes = new Map<string, number>();
    for (const rs of allRSs) {
      const n = String(meta(rs).name);
      if (toAdd !== 0) {
        const proportion = u.getProportion(rs, d, toAdd, added);
        sizes.set(n, specReplicas(rs) + proportion);
        added += proportion;
      } else sizes.set(n, specReplicas(rs));
    }
    for (let i = 0; i < allRSs.length; i++) {
      const rs = allRSs[i]!;
      const n = String(meta(rs).name);
      if (i === 0 && toAdd !== 0) sizes.set(n, Math.max(0, sizes.get(n)! + toAdd - added));
      await this.scaleReplicaSet(rs, sizes.get(n)!, d);
    }
  }

  private async scaleReplicaSetAndRecordEvent(rs: KubeObject, newScale: number, d: KubeObject): Promise<{ scaled: boolean; rs: KubeObject }> {
    if (specReplicas(rs) === newScale) return { scaled: false, rs };
    return this.scaleReplicaSet(rs, newScale, d);
  }

  private async scaleReplicaSet(rs: KubeObject, newScale: number, d: KubeObject): Promise<{ scaled: boolean; rs: KubeObject }> {
    const sizeNeedsUpdate = specReplicas(rs) !== newScale;
    const probe = deepCopy(rs);
    const annotationsNeedUpdate = u.setReplicasAnnotations(probe, specReplicas(d), specReplicas(d) + u.maxSurge(d));
    if (!sizeNeedsUpdate && !annotationsNeedUpdate) return { scaled: false, rs };
    const oldScale = specReplicas(rs);
    const copy = probe;
    (copy.spec as Record<string, unknown>).replicas = newScale;
    const updated = await this.rsClient.update(String(meta(copy).namespace ?? ''), copy);
    if (sizeNeedsUpdate) {
      const op = oldScale < newScale ? 'up' : 'down';
      this.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled ${op} replica set ${meta(updated).name} from ${oldScale} to ${newScale}`);
    }
    return { scaled: sizeNeedsUpdate, rs: updated };
  }

  /** cleanupDeployment: deletes old, empty replica sets beyond revisionHistoryLimit, oldest revisions first. */
  private async cleanupDeployment(oldRSs: KubeObject[], d: KubeObject): Promise<void> {
    if (!u.hasRevisionHistoryLimit(d)) return;
    const cleanable = oldRSs.filter((rs) => !meta(rs).deletionTimestamp);
    const diff = cleanable.length - (u.dSpec(d).revisionHistoryLimit ?? 0);
    if (diff <= 0) return;
    cleanable.sort(u.byRevision);
    for (let i = 0; i < diff; i++) {
      const rs = cleanable[i]!;
      const st = (rs.status ?? {}) as { replicas?: number; observedGeneration?: number };
      if ((st.replicas ?? 0) !== 0 || specReplicas(rs) !== 0 || (meta(rs).generation ?? 0) > (st.observedGeneration ?? 0) || meta(rs).deletionTimestamp) continue;
      try {
        await this.rsClient.delete(String(meta(rs).namespace ?? ''), String(meta(rs).name));
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }

  private async syncDeploymentStatus(allRSs: (KubeObject | undefined)[], newRS: KubeObject | undefined, d: KubeObject): Promise<void> {
    const newStatus = this.calculateStatus(allRSs, newRS, d);
    if (statusEqual(u.dStatus(d), newStatus)) return;
    d.status = newStatus;
    await this.updateStatus(d);
  }

  calculateStatus(allRSs: (KubeObject | undefined)[], newRS: KubeObject | undefined, d: KubeObject): DeploymentStatus {
    const available = u.availableReplicaCount(allRSs);
    const total = u.replicaCount(allRSs);
    const unavailable = Math.max(0, total - available);
    const old = u.dStatus(d);
    const status: DeploymentStatus = {
      observedGeneration: meta(d).generation ?? 0,
      replicas: u.actualReplicaCount(allRSs),
      updatedReplicas: u.actualReplicaCount([newRS]),
      readyReplicas: u.readyReplicaCount(allRSs),
      availableReplicas: available,
      unavailableReplicas: unavailable,
      conditions: (old.conditions ?? []).map((c) => ({ ...c })),
    };
    if (old.collisionCount !== undefined) status.collisionCount = old.collisionCount;
    if (available >= specReplicas(d) - u.maxUnavailable(d)) {
      u.setCondition(status, u.newCondition('Available', 'True', u.MIN_REPLICAS_AVAILABLE, 'Deployment has minimum availability.', this.now()));
    } else {
      u.setCondition(status, u.newCondition('Available', 'False', u.MIN_REPLICAS_UNAVAILABLE, 'Deployment does not have minimum availability.', this.now()));
    }
    return status;
  }

  // ----- rolling.go ------------------------------------------------------------------------------

  private async rolloutRolling(d: KubeObject, rsList: KubeObject[]): Promise<void> {
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, true);
    if (!newRS) return;
    const allRSs = [...oldRSs, newRS];
    if (await this.reconcileNewReplicaSet(allRSs, newRS, d)) return this.syncRolloutStatus(allRSs, newRS, d);
    if (await this.reconcileOldReplicaSets(allRSs, u.filterActiveReplicaSets(oldRSs), newRS, d)) return this.syncRolloutStatus(allRSs, newRS, d);
    if (u.deploymentComplete(d, u.dStatus(d))) await this.cleanupDeployment(oldRSs, d);
    return this.syncRolloutStatus(allRSs, newRS, d);
  }

  private async reconcileNewReplicaSet(allRSs: KubeObject[], newRS: KubeObject, d: KubeObject): Promise<boolean> {
    if (specReplicas(newRS) === specReplicas(d)) return false;
    if (specReplicas(newRS) > specReplicas(d)) return (await this.scaleReplicaSetAndRecordEvent(newRS, specReplicas(d), d)).scaled;
    const count = u.newRSNewReplicas(d, allRSs, newRS);
    return (await this.scaleReplicaSetAndRecordEvent(newRS, count, d)).scaled;
  }

  private async reconcileOldReplicaSets(allRSs: KubeObject[], oldRSs: KubeObject[], newRS: KubeObject, d: KubeObject): Promise<boolean> {
    const oldPods = u.replicaCount(oldRSs);
    if (oldPods === 0) return false;
    const allPods = u.replicaCount(allRSs);
    const minAvailable = specReplicas(d) - u.maxUnavailable(d);
    const newRSUnavailable = specReplicas(newRS) - (((newRS.status ?? {}) as { availableReplicas?: number }).availableReplicas ?? 0);
    const maxScaledDown = allPods - minAvailable - newRSUnavailable;
    if (maxScaledDown <= 0) return false;
    const { rss, count: cleanupCount } = await this.cleanupUnhealthyReplicas(oldRSs, d, maxScaledDown);
    const scaledDown = await this.scaleDownOldReplicaSetsForRollingUpdate([...rss, newRS], rss, d);
    return cleanupCount + scaledDown > 0;
  }

  private async cleanupUnhealthyReplicas(oldRSs: KubeObject[], d: KubeObject, maxCleanup: number): Promise<{ rss: KubeObject[]; count: number }> {
    const rss = [...oldRSs].sort(u.byCreationTimestamp);
    let total = 0;
    for (let i = 0; i < rss.length; i++) {
      if (total >= maxCleanup) break;
      const rs = rss[i]!;
      const replicas = specReplicas(rs);
      const avail = ((rs.status ?? {}) as { availableReplicas?: number }).availableReplicas ?? 0;
      if (replicas === 0 || replicas === avail) continue;
      const down = Math.min(maxCleanup - total, replicas - avail);
      const res = await this.scaleReplicaSetAndRecordEvent(rs, replicas - down, d);
      total += down;
      rss[i] = res.rs;
    }
    return { rss, count: total };
  }

  private async scaleDownOldReplicaSetsForRollingUpdate(allRSs: KubeObject[], oldRSs: KubeObject[], d: KubeObject): Promise<number> {
    const minAvailable = specReplicas(d) - u.maxUnavailable(d);
    const available = u.availableReplicaCount(allRSs);
    if (available <= minAvailable) return 0;
    const sorted = [...oldRSs].sort(u.byCreationTimestamp);
    const totalToScaleDown = available - minAvailable;
    let total = 0;
    for (const rs of sorted) {
      if (total >= totalToScaleDown) break;
      if (specReplicas(rs) === 0) continue;
      const down = Math.min(specReplicas(rs), totalToScaleDown - total);
      await this.scaleReplicaSetAndRecordEvent(rs, specReplicas(rs) - down, d);
      total += down;
    }
    return total;
  }

  // ----- recreate.go -----------------------------------------------------------------------------

  private async rolloutRecreate(d: KubeObject, rsList: KubeObject[]): Promise<void> {
    const podMap = this.podMap(d, rsList);
    let { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    let allRSs: (KubeObject | undefined)[] = [...oldRSs, newRS];
    let scaledDown = false;
    for (const rs of u.filterActiveReplicaSets(oldRSs)) {
      if ((await this.scaleReplicaSetAndRecordEvent(rs, 0, d)).scaled) scaledDown = true;
    }
    if (scaledDown) return this.syncRolloutStatus(allRSs, newRS, d);
    if (oldPodsRunning(newRS, oldRSs, podMap)) return this.syncRolloutStatus(allRSs, newRS, d);
    if (!newRS) {
      ({ newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, true));
      allRSs = [...oldRSs, newRS];
    }
    if (newRS) await this.scaleReplicaSetAndRecordEvent(newRS, specReplicas(d), d);
    if (u.deploymentComplete(d, u.dStatus(d))) await this.cleanupDeployment(oldRSs, d);
    return this.syncRolloutStatus(allRSs, newRS, d);
  }

  // ----- progress.go -----------------------------------------------------------------------------

  private async syncRolloutStatus(allRSs: (KubeObject | undefined)[], newRS: KubeObject | undefined, d: KubeObject): Promise<void> {
    const newStatus = this.calculateStatus(allRSs, newRS, d);
    if (!u.hasProgressDeadline(d)) u.removeCondition(newStatus, 'Progressing');
    const currentCond = u.getCondition(u.dStatus(d), 'Progressing');
    const isComplete = newStatus.replicas === newStatus.updatedReplicas && currentCond?.reason === u.NEW_RS_AVAILABLE_REASON;
    const now = this.now();
    if (u.hasProgressDeadline(d) && !isComplete) {
      if (u.deploymentComplete(d, newStatus)) {
        const msg = newRS ? `ReplicaSet "${meta(newRS).name}" has successfully progressed.` : `Deployment "${meta(d).name}" has successfully progressed.`;
        u.setCondition(newStatus, u.newCondition('Progressing', 'True', u.NEW_RS_AVAILABLE_REASON, msg, now));
      } else if (u.deploymentProgressing(d, newStatus)) {
        const msg = newRS ? `ReplicaSet "${meta(newRS).name}" is progressing.` : `Deployment "${meta(d).name}" is progressing.`;
        const cond = u.newCondition('Progressing', 'True', u.RS_UPDATED_REASON, msg, now);
        if (currentCond) {
          if (currentCond.status === 'True') cond.lastTransitionTime = currentCond.lastTransitionTime;
          u.removeCondition(newStatus, 'Progressing');
        }
        u.setCondition(newStatus, cond);
      } else if (u.deploymentTimedOut(d, newStatus, now)) {
        const msg = newRS ? `ReplicaSet "${meta(newRS).name}" has timed out progressing.` : `Deployment "${meta(d).name}" has timed out progressing.`;
        u.setCondition(newStatus, u.newCondition('Progressing', 'False', u.TIMED_OUT_REASON, msg, now));
      }
    }
    const failure = replicaFailures(allRSs, newRS);
    if (failure) u.setCondition(newStatus, failure);
    else u.removeCondition(newStatus, 'ReplicaFailure');
    if (statusEqual(u.dStatus(d), newStatus)) {
      this.requeueStuckDeployment(d, newStatus);
      return;
    }
    d.status = newStatus;
    await this.updateStatus(d);
  }

  /** requeueStuckDeployment: re-check a deployment without progress once its deadline passes. */
  requeueStuckDeployment(d: KubeObject, newStatus: DeploymentStatus): number {
    const cond = u.getCondition(u.dStatus(d), 'Progressing');
    if (!u.hasProgressDeadline(d) || !cond) return -1;
    if (u.deploymentComplete(d, newStatus) || cond.reason === u.TIMED_OUT_REASON) return -1;
    const from = Date.parse(cond.lastUpdateTime ?? '') || 0;
    const after = from + (u.dSpec(d).progressDeadlineSeconds ?? 0) * 1000 - this.now();
    if (after < 1000) {
      this.queue.addRateLimited(keyOf(d));
      return 0;
    }
    this.queue.addAfter(keyOf(d), after + 1000);
    return after;
  }

  // ----- rollback.go -----------------------------------------------------------------------------

  private async rollback(d: KubeObject, rsList: KubeObject[]): Promise<void> {
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, true);
    const allRSs = [...oldRSs, ...(newRS ? [newRS] : [])];
    let to = getRollbackTo(d)!;
    if (to === 0) {
      to = u.lastRevision(allRSs);
      if (to === 0) {
        this.recorder.event(d, 'Warning', u.ROLLBACK_REVISION_NOT_FOUND, 'Unable to find last revision.');
        return this.updateDeploymentAndClearRollbackTo(d);
      }
    }
    for (const rs of allRSs) {
      const v = u.annotations(rs)[u.REVISION_ANNOTATION];
      if (v === undefined || !/^-?\d+$/.test(v) || Number(v) !== to) continue;
      let performed = false;
      if (!u.equalIgnoreHash(u.dSpec(d).template, (rs.spec as { template?: KubeObject }).template)) {
        u.setFromReplicaSetTemplate(d, (rs.spec as { template?: KubeObject }).template);
        u.setDeploymentAnnotationsTo(d, rs);
        performed = true;
      } else {
        this.recorder.event(d, 'Warning', u.ROLLBACK_TEMPLATE_UNCHANGED, `The rollback revision contains the same template as current deployment "${meta(d).name}"`);
      }
      await this.updateDeploymentAndClearRollbackTo(d);
      if (performed) this.recorder.event(d, 'Normal', u.ROLLBACK_DONE, `Rolled back deployment "${meta(d).name}" to revision ${to}`);
      return;
    }
    this.recorder.event(d, 'Warning', u.ROLLBACK_REVISION_NOT_FOUND, 'Unable to find the revision to rollback to.');
    return this.updateDeploymentAndClearRollbackTo(d);
  }

  private async updateDeploymentAndClearRollbackTo(d: KubeObject): Promise<void> {
    const m = d.metadata as Record<string, unknown>;
    const ann = { ...((m.annotations as Record<string, string> | undefined) ?? {}) };
    delete ann[u.DEPRECATED_ROLLBACK_TO];
    m.annotations = ann;
    await this.updateDeployment(d);
  }
}

/** The revision the deprecated spec.rollbackTo asks for (its annotation on apps/v1 objects). */
export function getRollbackTo(d: KubeObject): number | undefined {
  const v = u.annotations(d)[u.DEPRECATED_ROLLBACK_TO];
  if (v === undefined || v === '' || !/^-?\d+$/.test(v)) return undefined;
  return Number(v);
}

function oldPodsRunning(newRS: KubeObject | undefined, oldRSs: KubeObject[], podMap: Map<string, KubeObject[]>): boolean {
  if (u.actualReplicaCount(oldRSs) > 0) return true;
  for (const [uid, pods] of podMap) {
    if (newRS && meta(newRS).uid === uid) continue;
    for (const p of pods) {
      const phase = ((p.status ?? {}) as { phase?: string }).phase;
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      return true;
    }
  }
  return false;
}

/** getReplicaFailures: the new replica set's ReplicaFailure condition, else an old one's. */
function replicaFailures(allRSs: (KubeObject | undefined)[], newRS: KubeObject | undefined): u.DeploymentCondition | undefined {
  const toDeployment = (rs: KubeObject): u.DeploymentCondition | undefined => {
    const c = (((rs.status ?? {}) as { conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[] }).conditions ?? []).find((x) => x.type === 'ReplicaFailure');
    if (!c) return undefined;
    return { type: 'ReplicaFailure', status: c.status, reason: c.reason, message: c.message, lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime };
  };
  if (newRS) {
    const c = toDeployment(newRS);
    if (c) return c;
  }
  for (const rs of allRSs) {
    if (!rs || (newRS && meta(rs).uid === meta(newRS).uid)) continue;
    const c = toDeployment(rs);
    if (c) return c;
  }
  return undefined;
}

function statusEqual(a: DeploymentStatus, b: DeploymentStatus): boolean {
  const norm = (s: DeploymentStatus) => ({
    observedGeneration: s.observedGeneration ?? 0,
    replicas: s.replicas ?? 0,
    updatedReplicas: s.updatedReplicas ?? 0,
    readyReplicas: s.readyReplicas ?? 0,
    availableReplicas: s.availableReplicas ?? 0,
    unavailableReplicas: s.unavailableReplicas ?? 0,
    collisionCount: s.collisionCount ?? null,
    conditions: (s.conditions ?? []).map((c) => [c.type, c.status, c.reason ?? '', c.message ?? '', c.lastUpdateTime ?? '', c.lastTransitionTime ?? '']),
  });
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/** The daemon's instance uses client-go's rate-limited queue, named as Kubernetes' (metrics). */
export function newDeploymentController(ctx: ControllerContext): Controller {
  return new DeploymentController(ctx, newRateLimitingQueue({ name: 'deployment' }));
}
