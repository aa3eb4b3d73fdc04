// The StatefulSet controller (kube-controller-manager's pkg/controller/statefulset): informers on
// sets, pods, claims and revisions feed a queue of sets; a sync claims the set's pods (by
// selector and by name) and revisions, computes the revisions, runs one round of
// StatefulSetControl, writes the status when it changed (completing a rolling update once every
// pod is updated and ready) and trims the revision history.
import { controllerRefOf, isBeingDeleted, labelsOf, nameOf, namespaceOf, resourceVersionOf, uidOf } from '../../api/meta/object.js';
import type { ControllerRevision, OwnerReference, Pod, StatefulSet, StatefulSetStatus } from '../../api/types.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, KubeObject, Lister, ResourceClient, Tombstone, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { labelSelectorAsSelector } from '../../machinery/selectors/index.js';
import { claimCandidates, claimObjects, recheckOwner } from '../common/controller-ref.js';
import { isPodReady } from '../common/pods.js';
import { StatefulSetControl } from './control.js';
import { sortRevisions, statefulSetRevisions, truncateHistory, type Revisions } from './history.js';
import { isMemberOf, podRevision } from './identity.js';
import { StatefulPodControl } from './pod-control.js';

export const STATEFULSETS = { group: 'apps', version: 'v1', resource: 'statefulsets' };
export const PODS = { group: '', version: 'v1', resource: 'pods' };
export const CLAIMS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
export const REVISIONS = { group: 'apps', version: 'v1', resource: 'controllerrevisions' };

const asSet = (o: KubeObject): StatefulSet => o as StatefulSet;

export class StatefulSetController implements Controller {
  readonly name = 'statefulset';
  readonly queue: WorkQueue<string>;
  private readonly setLister: Lister;
  private readonly podLister: Lister;
  private readonly revisionLister: Lister;
  private readonly setClient: ResourceClient;
  private readonly podClient: ResourceClient;
  private readonly revisionClient: ResourceClient;
  private readonly control: StatefulSetControl;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = newRateLimitingQueue<string>({ name: 'statefulset' });
    const sets = ctx.informers.informer(STATEFULSETS);
    const pods = ctx.informers.informer(PODS);
    const claims = ctx.informers.informer(CLAIMS);
    const revisions = ctx.informers.informer(REVISIONS);
    this.setLister = sets.lister;
    this.podLister = pods.lister;
    this.revisionLister = revisions.lister;
    this.setClient = ctx.clientset.resource(STATEFULSETS);
    this.podClient = ctx.clientset.resource(PODS);
    this.revisionClient = ctx.clientset.resource(REVISIONS);
    const recorder = ctx.recorder('statefulset-controller');
    const podControl = new StatefulPodControl(this.podClient, ctx.clientset.resource(CLAIMS), claims.lister, recorder);
    const gates = (ctx.options.featureGates ?? {}) as Record<string, boolean>;
    this.control = new StatefulSetControl(podControl, recorder, { maxUnavailable: gates.MaxUnavailableStatefulSet === true, now: () => ctx.now() });
    sets.addEventHandler({
      onAdd: (s) => this.enqueue(s),
      onUpdate: (_old, s) => this.enqueue(s),
      onDelete: (s) => this.enqueue(objectOf(s)),
    });
    pods.addEventHandler({
      onAdd: (p) => this.addPod(p as Pod),
      onUpdate: (o, p) => this.updatePod(o as Pod, p as Pod),
      onDelete: (p) => this.deletePod(p),
    });
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    return runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), (key, err) =>
      this.ctx.log({ controller: this.name, msg: 'sync failed', key, err: err instanceof Error ? err.message : String(err) }),
    );
  }

  private enqueue(set: KubeObject): void {
    this.queue.add(keyOf(set));
  }

  /** The set a pod's controllerRef names, when it exists with that uid. */
  private resolve(namespace: string, ref: OwnerReference | undefined): StatefulSet | undefined {
    if (!ref || ref.kind !== 'StatefulSet') return undefined;
    const set = this.setLister.get(namespace, ref.name ?? '');
    return set && uidOf(set) === ref.uid ? asSet(set) : undefined;
  }

  /** getStatefulSetsForPod: the sets whose selector matches an orphan. */
  private setsSelecting(pod: Pod): StatefulSet[] {
    const labels = labelsOf(pod);
    if (Object.keys(labels).length === 0) return [];
    return (this.setLister.list(namespaceOf(pod)) as StatefulSet[]).filter((set) => {
      try {
        const sel = labelSelectorAsSelector(set.spec?.selector);
        return !sel.isEmpty() && sel.matches(labels);
      } catch {
        return false;
      }
    });
  }

  private addPod(pod: Pod): void {
    if (isBeingDeleted(pod)) return this.deletePod(pod);
    const ref = controllerRefOf(pod);
    if (ref) {
      const set = this.resolve(namespaceOf(pod), ref);
      if (set) this.enqueue(set);
      return;
    }
    for (const set of this.setsSelecting(pod)) this.enqueue(set);
  }

  private updatePod(old: Pod, cur: Pod): void {
    if (resourceVersionOf(old) === resourceVersionOf(cur)) return;
    const labelsChanged = JSON.stringify(labelsOf(old)) !== JSON.stringify(labelsOf(cur));
    const curRef = controllerRefOf(cur);
    const oldRef = controllerRefOf(old);
    if (oldRef && (!curRef || curRef.uid !== oldRef.uid)) {
      const previous = this.resolve(namespaceOf(old), oldRef);
      if (previous) this.enqueue(previous);
    }
    if (curRef) {
      const set = this.resolve(namespaceOf(cur), curRef);
      if (!set) return;
      this.enqueue(set);
      // a pod that just became ready is available after minReadySeconds: look again then
      const minReady = set.spec?.minReadySeconds ?? 0;
      if (!isPodReady(old) && isPodReady(cur) && minReady > 0) this.queue.addAfter(keyOf(set), minReady * 1000);
      return;
    }
    if (labelsChanged || oldRef) for (const set of this.setsSelecting(cur)) this.enqueue(set);
  }

  private deletePod(obj: KubeObject | Tombstone): void {
    const pod = objectOf(obj) as Pod;
    const set = this.resolve(namespaceOf(pod), controllerRefOf(pod));
    if (set) this.enqueue(set);
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const cached = this.setLister.get(namespace, name);
    if (!cached) return;
    const set = structuredClone(asSet(cached));
    let matches: (labels: Record<string, string>) => boolean;
    try {
      const sel = labelSelectorAsSelector(set.spec?.selector);
      matches = (l) => sel.matches(l);
    } catch (err) {
      // a selector the API would have refused: nothing can be done until the set changes
      this.ctx.log({ controller: this.name, msg: 'invalid selector', key, err: (err as Error).message });
      return;
    }
    const canAdopt = recheckOwner(this.setClient, set as KubeObject, 'StatefulSet');
    const claimOpts = { owner: set as KubeObject, ownerApiVersion: 'apps/v1', ownerKind: 'StatefulSet', canAdopt };
    const revisions = sortRevisions(
      (await claimObjects(claimCandidates(this.revisionLister, namespace, uidOf(set)), { ...claimOpts, match: (r) => matches(labelsOf(r)), client: this.revisionClient })) as ControllerRevision[],
    );
    const pods = (await claimObjects(claimCandidates(this.podLister, namespace, uidOf(set)), {
      ...claimOpts,
      // a pod is the set's when its labels match and its name says so
      match: (p) => matches(labelsOf(p)) && isMemberOf(set, p as Pod),
      client: this.podClient,
    })) as Pod[];

    let live: Revisions | undefined;
    let failure: unknown;
    try {
      live = await statefulSetRevisions(set, revisions, this.revisionClient);
      const { status, error } = await this.control.update(set, live, pods);
      failure = error;
      await this.writeStatus(set, status);
      const minReady = set.spec?.minReadySeconds ?? 0;
      if (error === undefined && minReady > 0 && status.readyReplicas === (set.spec?.replicas ?? 1) && status.availableReplicas !== status.readyReplicas) {
        this.queue.addAfter(key, minReady * 1000);
      }
    } catch (err) {
      failure ??= err;
    }
    const podRevisions = pods.map(podRevision);
    try {
      await truncateHistory(set, podRevisions, revisions, live, this.revisionClient);
    } catch (err) {
      failure ??= err;
    }
    if (failure !== undefined) throw failure;
  }

  /** updateStatefulSetStatus: completes a finished rolling update and writes only a changed status. */
  private async writeStatus(set: StatefulSet, status: StatefulSetStatus): Promise<void> {
    if ((set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
      status.currentReplicas = status.updatedReplicas;
      status.currentRevision = status.updateRevision;
    }
    const cur = set.status ?? {};
    const fields = ['replicas', 'currentReplicas', 'readyReplicas', 'updatedReplicas', 'currentRevision', 'availableReplicas', 'updateRevision'] as const;
    if ((status.observedGeneration ?? 0) <= (cur.observedGeneration ?? 0) && fields.every((f) => (status[f] ?? 0) === (cur[f] ?? 0))) return;
    let target = set;
    for (let attempt = 0; ; attempt++) {
      // conditions are not computed here: the set keeps whatever it has
      const next = { ...target, status: { ...status, ...(target.status?.conditions ? { conditions: target.status.conditions } : {}) } };
      try {
        await this.setClient.update(namespaceOf(set), next as KubeObject, { subresource: 'status' });
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= 4) throw err;
        target = asSet(await this.setClient.get(namespaceOf(set), nameOf(set)));
      }
    }
  }
}
