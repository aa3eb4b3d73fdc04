// The Deployment controller (kube-controller-manager's pkg/controller/deployment): claims replica
// sets by selector, creates the new one named by the pod-template hash, rolls out by
// RollingUpdate (maxSurge/maxUnavailable) or Recreate, scales proportionally, honours paused,
// rolls back (kubectl's template patch, or the annotation the beta spec.rollbackTo becomes),
// cleans up old replica sets beyond revisionHistoryLimit, and reports status and the Available and
// Progressing conditions (with the progress deadline). This file holds the informers, the queue
// and the dispatch of a sync; the steps are in sync.ts, rolling.ts, recreate.ts, rollback.ts and
// progress.ts, as Kubernetes splits them.
import { controllerRefOf, isBeingDeleted, labelsOf, namespaceOf, resourceVersionOf, uidOf } from '../../api/meta/object.js';
import type { Deployment, OwnerReference, ReplicaSet } from '../../api/types.js';
import type { Controller, ControllerContext, KubeObject, Lister, ResourceRef, Tombstone, WorkQueue } from '../../client/types.js';
import { labelSelectorAsSelector } from '../../machinery/selectors/index.js';
import { claimObjects, recheckOwner } from '../common/controller-ref.js';
import { deepCopy } from '../common/objects.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { PODS, REPLICASETS } from '../replicaset/kinds.js';
import { API_VERSION, KIND, type SyncContext } from './context.js';
import { rolloutRecreate } from './recreate.js';
import { getRollbackTo } from './revisions.js';
import { rollback } from './rollback.js';
import { rolloutRolling } from './rolling.js';
import { asDeployment, asReplicaSet, dSpec, dStatus } from './spec.js';
import { checkPausedConditions, isScalingEvent, syncScale, syncStatusOnly, updateStatus } from './sync.js';

export const DEPLOYMENTS: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments' };

export class DeploymentController implements Controller {
  readonly name = 'deployment';
  readonly queue: WorkQueue<string>;
  private readonly dLister: Lister;
  private readonly s: SyncContext;

  constructor(
    private readonly ctx: ControllerContext,
    queue?: WorkQueue<string>,
  ) {
    this.queue = queue ?? newRateLimitingQueue<string>();
    const dInf = ctx.informers.informer(DEPLOYMENTS);
    const rsInf = ctx.informers.informer(REPLICASETS);
    const podInf = ctx.informers.informer(PODS);
    this.dLister = dInf.lister;
    this.s = {
      dClient: ctx.clientset.resource(DEPLOYMENTS),
      rsClient: ctx.clientset.resource(REPLICASETS),
      rsLister: rsInf.lister,
      podLister: podInf.lister,
      recorder: ctx.recorder('deployment-controller'),
      queue: this.queue,
      now: () => ctx.now(),
      log: (fields) => ctx.log(fields),
    };
    dInf.addEventHandler({
      onAdd: (d) => this.enqueue(d),
      onUpdate: (_o, d) => this.enqueue(d),
      onDelete: (d) => this.enqueue(objectOf(d)),
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

  private resolveControllerRef(namespace: string, ref: OwnerReference | undefined): Deployment | undefined {
    if (!ref || ref.kind !== KIND) return undefined;
    const d = this.dLister.get(namespace, ref.name ?? '');
    return d && uidOf(d) === ref.uid ? asDeployment(d) : undefined;
  }

  /** getDeploymentsForReplicaSet: deployments whose selector matches an orphan replica set. */
  private deploymentsFor(rs: KubeObject): Deployment[] {
    const labels = labelsOf(rs);
    if (Object.keys(labels).length === 0) return [];
    return this.dLister.list(namespaceOf(rs)).map(asDeployment).filter((d) => {
      try {
        const sel = labelSelectorAsSelector(dSpec(d).selector);
        return !sel.isEmpty() && sel.matches(labels);
      } catch {
        return false;
      }
    });
  }

  private addReplicaSet(rs: KubeObject): void {
    if (isBeingDeleted(rs)) return this.deleteReplicaSet(rs);
    const ref = controllerRefOf(rs);
    if (ref) {
      const d = this.resolveControllerRef(namespaceOf(rs), ref);
      if (d) this.enqueue(d);
      return;
    }
    for (const d of this.deploymentsFor(rs)) this.enqueue(d);
  }

  private updateReplicaSet(oldRS: KubeObject, curRS: KubeObject): void {
    if (resourceVersionOf(oldRS) === resourceVersionOf(curRS)) return;
    const ns = namespaceOf(curRS);
    const curRef = controllerRefOf(curRS);
    const oldRef = controllerRefOf(oldRS);
    if (oldRef && (!curRef || curRef.uid !== oldRef.uid)) {
      const d = this.resolveControllerRef(ns, oldRef);
      if (d) this.enqueue(d);
    }
    if (curRef) {
      const d = this.resolveControllerRef(ns, curRef);
      if (d) this.enqueue(d);
      return;
    }
    const labelChanged = JSON.stringify(labelsOf(oldRS)) !== JSON.stringify(labelsOf(curRS));
    if (labelChanged || oldRef) for (const d of this.deploymentsFor(curRS)) this.enqueue(d);
  }

  private deleteReplicaSet(obj: KubeObject | Tombstone): void {
    const rs = objectOf(obj);
    const d = this.resolveControllerRef(namespaceOf(rs), controllerRefOf(rs));
    if (d) this.enqueue(d);
  }

  /** A Recreate deployment waits for its old pods to be gone. */
  private deletePod(obj: KubeObject | Tombstone): void {
    const pod = objectOf(obj);
    const ns = namespaceOf(pod);
    const ref = controllerRefOf(pod);
    if (!ref || ref.kind !== 'ReplicaSet') return;
    const rs = this.s.rsLister.get(ns, ref.name ?? '');
    if (!rs || uidOf(rs) !== ref.uid) return;
    const d = this.resolveControllerRef(ns, controllerRefOf(rs));
    if (!d || dSpec(d).strategy?.type !== 'Recreate') return;
    const rss = this.s.rsLister.list(ns).filter((r) => controllerRefOf(r)?.uid === uidOf(d));
    const uids = new Set(rss.map(uidOf));
    const remaining = this.s.podLister.list(ns).filter((p) => {
      const pr = controllerRefOf(p);
      return pr !== undefined && uids.has(pr.uid ?? '');
    });
    if (remaining.length === 0) this.enqueue(d);
  }

  // ----- sync ------------------------------------------------------------------------------------

  /** syncDeployment. */
  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const cached = this.dLister.get(namespace, name);
    if (!cached) return;
    const d = asDeployment(deepCopy(cached));
    const sel = dSpec(d).selector;
    if (sel && Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0) {
      this.s.recorder.event(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((dStatus(d).observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) {
        d.status = { ...dStatus(d), observedGeneration: d.metadata?.generation };
        await updateStatus(this.s, d);
      }
      return;
    }
    const rsList = await this.getReplicaSetsForDeployment(d);
    if (isBeingDeleted(d)) return syncStatusOnly(this.s, d, rsList);
    await checkPausedConditions(this.s, d);
    if (dSpec(d).paused) return syncScale(this.s, d, rsList);
    if (getRollbackTo(d) !== undefined) return rollback(this.s, d, rsList);
    if (isScalingEvent(d, rsList)) return syncScale(this.s, d, rsList);
    if (dSpec(d).strategy?.type === 'Recreate') return rolloutRecreate(this.s, d, rsList);
    return rolloutRolling(this.s, d, rsList);
  }


  private async getReplicaSetsForDeployment(d: Deployment): Promise<ReplicaSet[]> {
    const selector = labelSelectorAsSelector(dSpec(d).selector);
    const all = this.s.rsLister.list(namespaceOf(d));
    const claimed = await claimObjects(all, {
      owner: d,
      ownerApiVersion: API_VERSION,
      ownerKind: KIND,
      match: (rs) => selector.matches(labelsOf(rs)),
      client: this.s.rsClient,
      canAdopt: recheckOwner(this.s.dClient, d, KIND),
    });
    return claimed.map(asReplicaSet);
  }
}

/** The daemon's instance uses client-go's rate-limited queue, named as Kubernetes' (metrics). */
export function newDeploymentController(ctx: ControllerContext): Controller {
  return new DeploymentController(ctx, newRateLimitingQueue({ name: 'deployment' }));
}
