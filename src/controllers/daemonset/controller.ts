// The DaemonSet controller (Kubernetes' pkg/controller/daemon): one daemon pod per eligible node,
// created bound to its node (spec.nodeName, and the metadata.name node affinity current
// Kubernetes uses), removed from nodes that no longer qualify; RollingUpdate within
// maxUnavailable (OnDelete leaves old pods alone); templateGeneration and ControllerRevisions
// (controller-revision-hash) tell updated pods; status counts desired/current/ready/available/
// updated/misscheduled pods per node.
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, Tombstone, WorkQueue } from '../../client/types.js';
import { controllerRefOf, isBeingDeleted, labelsOf, nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { ControllerRevision, DaemonSet, DaemonSetStatus, Node, Pod } from '../../api/types.js';
import { claimObjects, newControllerRef, recheckOwner } from '../common/controller-ref.js';
import { isConflict, isNamespaceTerminating, isNotFound } from '../../client/errors.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { isPodAvailable, isPodReady } from '../common/pods.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { Backoff } from './backoff.js';
import { Expectations } from './expectations.js';
import { cleanupHistory, constructHistory, isPodUpdated, templateGeneration, TEMPLATE_GENERATION_LABEL, UNIQUE_LABEL } from './history.js';
import { daemonPodSpec, nodeShouldRunDaemonPod, replaceNodeNameAffinity, targetNodeName } from './placement.js';
import { planRollingUpdate, planSurge } from './rolling.js';
import { byCreationAndPhase } from './pod-order.js';
import { asPod } from '../replicaset/spec.js';
import { allowsSurge, asControllerRevision, asDaemonSet, asNode, matcher, scaledValue, specOf } from './spec.js';

export const BURST_REPLICAS = 250;
const DS = { group: 'apps', version: 'v1', resource: 'daemonsets' };
const PODS = { group: '', version: 'v1', resource: 'pods' };
const NODES = { group: '', version: 'v1', resource: 'nodes' };
const REVISIONS = { group: 'apps', version: 'v1', resource: 'controllerrevisions' };

export class DaemonSetController implements Controller {
  readonly name = 'daemonset';
  readonly queue: WorkQueue<string>;
  readonly expectations: Expectations;
  readonly failedPodsBackoff = new Backoff(1000, 15 * 60_000);
  private readonly dsLister: Lister;
  private readonly podLister: Lister;
  private readonly nodeLister: Lister;
  private readonly revLister: Lister;
  private readonly recorder: EventRecorder;
  private readonly dsClient: ResourceClient;
  private readonly podClient: ResourceClient;
  private readonly revClient: ResourceClient;

  constructor(
    private readonly ctx: ControllerContext,
    opts: { newQueue?: () => WorkQueue<string> } = {},
  ) {
    this.queue = (opts.newQueue ?? (() => newRateLimitingQueue<string>({ name: 'daemonset' })))();
    this.expectations = new Expectations(() => ctx.now());
    this.recorder = ctx.recorder('daemonset-controller');
    this.dsClient = ctx.clientset.resource(DS);
    this.podClient = ctx.clientset.resource(PODS);
    this.revClient = ctx.clientset.resource(REVISIONS);
    const dsInf = ctx.informers.informer(DS);
    const podInf = ctx.informers.informer(PODS);
    const nodeInf = ctx.informers.informer(NODES);
    const revInf = ctx.informers.informer(REVISIONS);
    this.dsLister = dsInf.lister;
    this.podLister = podInf.lister;
    this.nodeLister = nodeInf.lister;
    this.revLister = revInf.lister;
    dsInf.addEventHandler({ onAdd: (o) => this.enqueue(o), onUpdate: (_a, o) => this.enqueue(o), onDelete: (o) => this.enqueue(objectOf(o)) });
    podInf.addEventHandler({
      onAdd: (p) => this.podChanged(p, 'add'),
      onUpdate: (old, p) => {
        const oldRef = controllerRefOf(old);
        const newRef = controllerRefOf(p);
        if (oldRef && oldRef.uid !== newRef?.uid) this.podChanged(old, 'update');
        this.podChanged(p, !isBeingDeleted(old) && isBeingDeleted(p) ? 'deleting' : 'update');
      },
      onDelete: (p) => this.podChanged(p, 'delete'),
    });
    const allDs = () => this.dsLister.list().forEach((ds) => this.enqueue(ds));
    nodeInf.addEventHandler({
      onAdd: allDs,
      onUpdate: (a, b) => {
        const same = JSON.stringify([labelsOf(a), asNode(a).spec?.taints]) === JSON.stringify([labelsOf(b), asNode(b).spec?.taints]);
        if (!same) allDs();
      },
      onDelete: allDs,
    });
  }

  private enqueue(ds: KubeObject): void {
    this.queue.add(keyOf(ds));
  }

  private podChanged(obj: KubeObject | Tombstone, type: 'add' | 'update' | 'deleting' | 'delete'): void {
    const pod = objectOf(obj);
    const ref = controllerRefOf(pod);
    if (ref) {
      if (ref.kind !== 'DaemonSet') return;
      const ds = this.dsLister.get(namespaceOf(pod), ref.name ?? '');
      if (!ds || uidOf(ds) !== ref.uid) return;
      // a graceful deletion counts as observed when the deletionTimestamp appears, as in Kubernetes
      if (type === 'deleting' || (type === 'delete' && !isBeingDeleted(pod)) || (type === 'add' && isBeingDeleted(pod))) this.expectations.observe(keyOf(ds), 0, 1);
      else if (type === 'add') this.expectations.observe(keyOf(ds), 1, 0);
      this.enqueue(ds);
      return;
    }
    if (type === 'delete') return;
    // an orphan: the DaemonSets that would adopt it
    for (const ds of this.dsLister.list(namespaceOf(pod))) {
      const m = matcher(asDaemonSet(ds));
      if (m && m(labelsOf(pod))) this.enqueue(ds);
    }
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    await runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), (key, err) => this.ctx.log({ controller: this.name, msg: 'error syncing daemon set', key, err: String(err) }));
  }

  async sync(key: string): Promise<void> {
    this.failedPodsBackoff.gc(this.ctx.now());
    const [ns, name] = splitKey(key);
    const cached = this.dsLister.get(ns, name);
    if (!cached) {
      this.expectations.delete(key);
      return;
    }
    const ds = asDaemonSet(cached);
    const nodes = this.nodeLister.list().map(asNode);
    const sel = specOf(ds).selector;
    if (!sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0)) {
      this.recorder.event(ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.');
      return;
    }
    if (isBeingDeleted(ds)) return;
    const ref = newControllerRef(ds, 'apps/v1', 'DaemonSet');
    const revisions = await this.claimRevisions(ds);
    const { old, hash } = await constructHistory(ds, revisions, this.revClient, ref, () => this.bumpCollision(ds));
    if (!this.expectations.satisfied(key)) {
      await this.updateStatus(ds, nodes, hash, false);
      return;
    }
    await this.manage(ds, nodes, hash);
    if (this.expectations.satisfied(key) && (specOf(ds).updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
      await this.rollingUpdate(ds, nodes, hash);
    }
    await cleanupHistory(ds, old, this.podLister.list(ns).filter((p) => controllerRefOf(p)?.uid === uidOf(ds)).map(asPod), this.revClient);
    await this.updateStatus(ds, nodes, hash, true);
  }

  private async bumpCollision(ds: DaemonSet): Promise<void> {
    const fresh = asDaemonSet(await this.dsClient.get(namespaceOf(ds), nameOf(ds)));
    const st = (fresh.status ??= {});
    if ((ds.status ?? {}).collisionCount !== st.collisionCount) return;
    st.collisionCount = (st.collisionCount ?? 0) + 1;
    await this.dsClient.update(namespaceOf(ds), fresh, { subresource: 'status' });
  }

  private async claimRevisions(ds: DaemonSet): Promise<ControllerRevision[]> {
    const m = matcher(ds);
    if (!m) return [];
    const claimed = await claimObjects(this.revLister.list(namespaceOf(ds)), {
      owner: ds,
      ownerApiVersion: 'apps/v1',
      ownerKind: 'DaemonSet',
      match: (o) => m(labelsOf(o)),
      client: this.revClient,
      canAdopt: recheckOwner(this.dsClient, ds, 'DaemonSet'),
    });
    return claimed.map(asControllerRevision);
  }

  /** getNodesToDaemonPods: the claimed pods by target node (terminating ones only when asked). */
  async nodesToDaemonPods(ds: DaemonSet, includeDeletedTerminal = false): Promise<Map<string, Pod[]>> {
    const m = matcher(ds);
    const out = new Map<string, Pod[]>();
    if (!m) return out;
    // pods being deleted still hold their node (a new one comes once they are gone), except terminal ones
    const candidates = this.podLister.list(namespaceOf(ds)).map(asPod).filter((p) => {
      if (includeDeletedTerminal || !isBeingDeleted(p)) return true;
      const phase = p.status?.phase;
      return phase !== 'Succeeded' && phase !== 'Failed';
    });
    const claimed = await claimObjects(candidates, {
      owner: ds,
      ownerApiVersion: 'apps/v1',
      ownerKind: 'DaemonSet',
      match: (o) => m(labelsOf(o)),
      client: this.podClient,
      canAdopt: recheckOwner(this.dsClient, ds, 'DaemonSet'),
    });
    for (const p of claimed.map(asPod)) {
      const n = targetNodeName(p);
      if (n === undefined) continue;
      const list = out.get(n) ?? [];
      list.push(p);
      out.set(n, list);
    }
    return out;
  }

  private async manage(ds: DaemonSet, nodes: Node[], hash: string): Promise<void> {
    const byNode = await this.nodesToDaemonPods(ds);
    const spec = daemonPodSpec(ds);
    const needing: string[] = [];
    const toDelete: string[] = [];
    for (const node of nodes) {
      const [shouldRun, shouldContinue] = nodeShouldRunDaemonPod(node, ds, spec);
      const pods = byNode.get(nameOf(node));
      if (shouldRun && !pods) needing.push(nameOf(node));
      else if (shouldContinue && pods) {
        const running: Pod[] = [];
        for (const p of pods) {
          if (isBeingDeleted(p)) continue;
          const phase = p.status?.phase;
          if (phase === 'Failed') {
            // the kubelet may keep rejecting the pod: deleting it again is backed off (1 s doubling to 15 min)
            const bk = `${ds.metadata?.uid}/${nameOf(node)}`;
            const now = this.ctx.now();
            if (this.failedPodsBackoff.isInBackOffSinceUpdate(bk, now)) {
              this.queue.addAfter(keyOf(ds), this.failedPodsBackoff.get(bk));
              continue;
            }
            this.failedPodsBackoff.next(bk, now);
            this.recorder.event(ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${namespaceOf(p)}/${nameOf(p)} on node ${nameOf(node)}, will try to kill it`);
            toDelete.push(nameOf(p));
          } else if (phase === 'Succeeded') toDelete.push(nameOf(p));
          else running.push(p);
        }
        if (!allowsSurge(ds)) {
          if (running.length > 1) toDelete.push(...running.sort(byCreationAndPhase).slice(1).map(nameOf));
        } else {
          // with surge: at most the oldest new pod and the oldest old pod; the old one goes when it is
          // not ready or the new one is available
          let oldestNew: Pod | undefined;
          let oldestOld: Pod | undefined;
          for (const p of running.sort(byCreationAndPhase)) {
            if (labelsOf(p)[UNIQUE_LABEL] === hash) {
              if (!oldestNew) {
                oldestNew = p;
                continue;
              }
            } else if (!oldestOld) {
              oldestOld = p;
              continue;
            }
            toDelete.push(nameOf(p));
          }
          if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, specOf(ds).minReadySeconds ?? 0, this.ctx.now()))) toDelete.push(nameOf(oldestOld));
        }
      } else if (!shouldContinue && pods) {
        for (const p of pods) if (!isBeingDeleted(p)) toDelete.push(nameOf(p));
      }
    }
    // pods aimed at nodes that no longer exist and never scheduled
    const nodeNames = new Set(nodes.map(nameOf));
    for (const [n, pods] of byNode) {
      if (nodeNames.has(n)) continue;
      for (const p of pods) if (!p.spec?.nodeName) toDelete.push(nameOf(p));
    }
    await this.syncNodes(ds, toDelete, needing, hash);
  }

  private async syncNodes(ds: DaemonSet, toDelete: string[], needing: string[], hash: string): Promise<void> {
    const key = keyOf(ds);
    const createDiff = Math.min(needing.length, BURST_REPLICAS);
    const deleteDiff = Math.min(toDelete.length, BURST_REPLICAS);
    this.expectations.set(key, createDiff, deleteDiff);
    const errors: unknown[] = [];
    const generation = templateGeneration(ds);
    const tmpl = specOf(ds).template ?? {};
    const labels: Record<string, string> = { ...(tmpl.metadata?.labels ?? {}) };
    if (generation !== undefined) labels[TEMPLATE_GENERATION_LABEL] = String(generation);
    if (hash) labels[UNIQUE_LABEL] = hash;
    const ref = newControllerRef(ds, 'apps/v1', 'DaemonSet');
    let batch = Math.min(createDiff, 1);
    for (let pos = 0; pos < createDiff; pos += batch, batch = Math.min(2 * batch, createDiff - pos)) {
      const before = errors.length;
      await Promise.all(
        needing.slice(pos, pos + batch).map(async (nodeName) => {
          const spec = daemonPodSpec(ds);
          replaceNodeNameAffinity(spec, nodeName);
          spec.nodeName = nodeName;
          const pod: Pod = {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: {
              generateName: `${nameOf(ds)}-`,
              namespace: namespaceOf(ds),
              labels,
              ...(tmpl.metadata?.annotations ? { annotations: tmpl.metadata.annotations } : {}),
              ownerReferences: [ref],
            },
            spec,
          };
          try {
            const created = await this.podClient.create(namespaceOf(ds), pod);
            this.recorder.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${nameOf(created)}`);
          } catch (e) {
            this.expectations.observe(key, 1, 0);
            if (isNamespaceTerminating(e)) return;
            this.recorder.event(ds, 'Warning', 'FailedCreate', `Error creating: ${(e as Error).message}`);
            errors.push(e);
          }
        }),
      );
      const skipped = createDiff - (pos + batch);
      if (errors.length > before && skipped > 0) {
        this.expectations.observe(key, skipped, 0);
        break;
      }
    }
    await Promise.all(
      toDelete.slice(0, deleteDiff).map(async (podName) => {
        try {
          await this.podClient.delete(namespaceOf(ds), podName);
          this.recorder.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${podName}`);
        } catch (e) {
          this.expectations.observe(key, 0, 1);
          if (isNotFound(e)) return;
          this.recorder.event(ds, 'Warning', 'FailedDelete', `Error deleting: ${(e as Error).message}`);
          errors.push(e);
        }
      }),
    );
    if (errors.length > 0) throw errors.length === 1 ? errors[0] : new AggregateError(errors, errors.map((e) => String(e)).join('; '));
  }

  /** rollingUpdate without surge: delete old pods while fewer than maxUnavailable are unavailable. */
  private async rollingUpdate(ds: DaemonSet, nodes: Node[], hash: string): Promise<void> {
    const byNode = await this.nodesToDaemonPods(ds);
    const spec = daemonPodSpec(ds);
    let desired = 0;
    for (const node of nodes) {
      if (!nodeShouldRunDaemonPod(node, ds, spec)[0]) continue;
      desired++;
      if (!byNode.has(nameOf(node))) byNode.set(nameOf(node), []);
    }
    let maxUnavailable = scaledValue(specOf(ds).updateStrategy?.rollingUpdate?.maxUnavailable, desired, 1);
    const maxSurge = scaledValue(specOf(ds).updateStrategy?.rollingUpdate?.maxSurge, desired, 0);
    if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
    const now = this.ctx.now();
    if (maxSurge === 0) {
      await this.syncNodes(ds, planRollingUpdate(ds, byNode, hash, now, maxUnavailable), [], hash);
      return;
    }
    const shouldRun = (nodeName: string) => {
      const node = this.nodeLister.get('', nodeName);
      return node !== undefined && nodeShouldRunDaemonPod(asNode(node), ds, spec)[0];
    };
    const plan = planSurge(ds, byNode, hash, now, desired, maxSurge, shouldRun);
    await this.syncNodes(ds, plan.toDelete, plan.toCreate, hash);
  }

  private async updateStatus(ds: DaemonSet, nodes: Node[], hash: string, updateObservedGen: boolean): Promise<void> {
    const byNode = await this.nodesToDaemonPods(ds);
    const spec = daemonPodSpec(ds);
    const generation = templateGeneration(ds);
    const now = this.ctx.now();
    const minReady = specOf(ds).minReadySeconds ?? 0;
    let desired = 0,
      current = 0,
      misscheduled = 0,
      ready = 0,
      updated = 0,
      available = 0;
    for (const node of nodes) {
      const [shouldRun] = nodeShouldRunDaemonPod(node, ds, spec);
      const pods = byNode.get(nameOf(node)) ?? [];
      if (shouldRun) {
        desired++;
        if (pods.length === 0) continue;
        current++;
        const pod = [...pods].sort(byCreationAndPhase)[0]!;
        if (isPodReady(pod)) {
          ready++;
          if (isPodAvailable(pod, minReady, now)) available++;
        }
        if (isPodUpdated(pod, hash, generation)) updated++;
      } else if (pods.length > 0) misscheduled++;
    }
    const next = {
      desiredNumberScheduled: desired,
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      numberReady: ready,
      updatedNumberScheduled: updated,
      numberAvailable: available,
      numberUnavailable: desired - available,
    };
    const st = ds.status ?? {};
    const gen = Number(ds.metadata?.generation ?? 0);
    const same = (Object.keys(next) as (keyof typeof next)[]).every((k) => (st[k] ?? 0) === next[k]) && Number(st.observedGeneration ?? 0) >= gen;
    if (minReady > 0 && ready !== available) this.queue.addAfter(keyOf(ds), minReady * 1000);
    if (same) return;
    let toUpdate = structuredClone(ds);
    for (let i = 0; ; i++) {
      const status: DaemonSetStatus = { ...(toUpdate.status ?? {}), ...next };
      if (updateObservedGen) status.observedGeneration = gen;
      // numberUnavailable is omitted when 0, as Kubernetes' omitempty
      if (status.numberUnavailable === 0) delete status.numberUnavailable;
      toUpdate.status = status;
      try {
        await this.dsClient.update(namespaceOf(ds), toUpdate, { subresource: 'status' });
        return;
      } catch (e) {
        if (i >= 1 || !isConflict(e)) throw e;
        toUpdate = asDaemonSet(await this.dsClient.get(namespaceOf(ds), nameOf(ds)));
      }
    }
  }
}
