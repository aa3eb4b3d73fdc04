// The disruption controller (kube-controller-manager's pkg/controller/disruption): keeps each
// PodDisruptionBudget's status — the healthy pods it selects, how many it wants healthy, how many
// pods its controllers expect and so how many disruptions it allows — which the pods/eviction
// subresource spends. Evictions the API server recorded in status.disruptedPods are kept until the
// pod shows its deletion or DeletionTimeout passes (a recheck is queued for then). A budget that
// cannot be computed allows no disruption (SyncFailed). Its second job: a DisruptionTarget=True pod
// condition that was not followed by the pod's deletion within two minutes is reset to False.
import { isBeingDeleted, labelsOf, nameOf, namespaceOf } from '../../api/meta/object.js';
import type { LabelSelector, Pod, PodCondition, PodDisruptionBudget } from '../../api/types.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import { DeferredDiscoveryRESTMapper } from '../../client/rest-mapper.js';
import { discoveryOf } from '../../client/static-discovery.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, Tombstone, WorkQueue } from '../../client/types.js';
import { sleep } from '../../client/wait.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { labelSelectorAsSelector } from '../../machinery/selectors/index.js';
import { rfc3339, timeMs } from '../common/time.js';
import { countHealthyPods, desiredStatus, failSafeStatus, pendingDisruptions } from './budget-status.js';
import { ExpectedPodCounter } from './expected-pods.js';

export const PODS = { group: '', version: 'v1', resource: 'pods' };
export const PDBS = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };
const RCS = { group: '', version: 'v1', resource: 'replicationcontrollers' };
const RSS = { group: 'apps', version: 'v1', resource: 'replicasets' };
const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' };
const STATEFULSETS = { group: 'apps', version: 'v1', resource: 'statefulsets' };

/** A DisruptionTarget condition not followed by a delete within this long is stale. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60_000;
/** The shared RESTMapper of kube-controller-manager forgets discovery every 30 s. */
const DISCOVERY_RESET_MS = 30_000;
/** The reason the kubelet gives its own DisruptionTarget conditions: never stale. */
const TERMINATION_BY_KUBELET = 'TerminationByKubelet';

export interface DisruptionControllerOptions {
  stalePodDisruptionTimeoutMs?: number;
}

export class DisruptionController implements Controller {
  readonly name = 'disruption';
  readonly queue: WorkQueue<string>;
  readonly stalePodQueue: WorkQueue<string>;
  readonly mapper: DeferredDiscoveryRESTMapper;
  private readonly pdbLister: Lister;
  private readonly podLister: Lister;
  private readonly pdbClient: ResourceClient;
  private readonly podClient: ResourceClient;
  private readonly recorder: EventRecorder;
  private readonly counter: ExpectedPodCounter;
  private readonly staleTimeoutMs: number;

  constructor(
    private readonly ctx: ControllerContext,
    opts: DisruptionControllerOptions = {},
  ) {
    this.queue = newRateLimitingQueue<string>({ name: 'disruption' });
    this.stalePodQueue = newRateLimitingQueue<string>({ name: 'stale_pod_disruption' });
    this.staleTimeoutMs = opts.stalePodDisruptionTimeoutMs ?? STALE_POD_DISRUPTION_TIMEOUT_MS;
    this.mapper = new DeferredDiscoveryRESTMapper(discoveryOf(ctx.clientset));
    const pdbInformer = ctx.informers.informer(PDBS);
    const podInformer = ctx.informers.informer(PODS);
    this.pdbLister = pdbInformer.lister;
    this.podLister = podInformer.lister;
    this.pdbClient = ctx.clientset.resource(PDBS);
    this.podClient = ctx.clientset.resource(PODS);
    this.recorder = ctx.recorder('controllermanager');
    this.counter = new ExpectedPodCounter(
      {
        replicationControllers: ctx.informers.informer(RCS).lister,
        replicaSets: ctx.informers.informer(RSS).lister,
        deployments: ctx.informers.informer(DEPLOYMENTS).lister,
        statefulSets: ctx.informers.informer(STATEFULSETS).lister,
      },
      ctx.clientset,
      this.mapper,
    );
    pdbInformer.addEventHandler({
      onAdd: (pdb) => this.enqueue(pdb),
      onUpdate: (_old, pdb) => this.enqueue(pdb),
      onDelete: (pdb) => this.enqueue(objectOf(pdb)),
    });
    podInformer.addEventHandler({
      onAdd: (pod) => this.podChanged(pod),
      onUpdate: (_old, pod) => this.podChanged(pod),
      onDelete: (pod) => this.podDeleted(pod),
    });
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    const onError = (what: string) => (key: string, err: unknown) => this.ctx.log({ controller: this.name, msg: what, key, err: err instanceof Error ? err.message : String(err) });
    return Promise.all([
      runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), onError('sync failed')),
      runSyncWorkers(this.stalePodQueue, 1, signal, (key) => this.syncStalePodDisruption(key), onError('failed to clear the DisruptionTarget condition')),
      this.resetDiscoveryPeriodically(signal),
    ]).then(() => undefined);
  }

  private async resetDiscoveryPeriodically(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await sleep(DISCOVERY_RESET_MS, signal);
      this.mapper.reset();
    }
  }

  private enqueue(pdb: KubeObject): void {
    this.queue.add(keyOf(pdb));
  }

  private podChanged(pod: KubeObject): void {
    const pdb = this.budgetForPod(pod as Pod);
    if (pdb) this.enqueue(pdb);
    const stale = this.staleDisruptionCondition(pod as Pod);
    if (stale !== undefined) this.stalePodQueue.addAfter(keyOf(pod), stale);
  }

  private podDeleted(obj: KubeObject | Tombstone): void {
    const pdb = this.budgetForPod(objectOf(obj) as Pod);
    if (pdb) this.enqueue(pdb);
  }

  /**
   * getPdbForPod: the budgets of the pod's namespace selecting it (an empty selector selects no
   * pod here); with several, the first is chosen and the pod gets a warning.
   */
  budgetForPod(pod: Pod): PodDisruptionBudget | undefined {
    const labels = labelsOf(pod);
    const matching: PodDisruptionBudget[] = [];
    for (const pdb of this.pdbLister.list(namespaceOf(pod)) as PodDisruptionBudget[]) {
      let selector;
      try {
        selector = labelSelectorAsSelector(pdb.spec?.selector);
      } catch {
        continue;
      }
      if (selector.isEmpty() || !selector.matches(labels)) continue;
      matching.push(pdb);
    }
    if (matching.length === 0) return undefined;
    if (matching.length > 1) {
      const chosen = nameOf(matching[0]!);
      this.recorder.event(pod, 'Warning', 'MultiplePodDisruptionBudgets', `Pod ${JSON.stringify(namespaceOf(pod))}/${JSON.stringify(nameOf(pod))} matches multiple PodDisruptionBudgets.  Chose ${JSON.stringify(chosen)} arbitrarily.`);
    }
    return matching[0];
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const pdb = this.pdbLister.get(namespace, name) as PodDisruptionBudget | undefined;
    if (!pdb) return;
    try {
      await this.trySync(pdb);
    } catch (err) {
      // a conflict is retried as it is; any other failure leaves the budget allowing nothing
      if (isConflict(err)) throw err;
      const reason = err instanceof Error ? err : new Error(String(err));
      this.ctx.log({ controller: this.name, msg: 'failed to sync PDB', key, err: reason.message });
      await this.writeStatus({ ...pdb, status: failSafeStatus(pdb, reason, this.ctx.now()) });
    }
  }

  private async trySync(pdb: PodDisruptionBudget): Promise<void> {
    let pods: Pod[];
    try {
      const selector = labelSelectorAsSelector(pdb.spec?.selector);
      pods = this.podLister.list(namespaceOf(pdb), (labels) => selector.matches(labels)) as Pod[];
    } catch (err) {
      this.recorder.event(pdb, 'Warning', 'NoPods', `Failed to get pods: ${(err as Error).message}`);
      throw err;
    }
    if (pods.length === 0) this.recorder.event(pdb, 'Normal', 'NoPods', 'No matching pods found');
    let expected;
    try {
      expected = await this.counter.count(pdb, pods);
    } catch (err) {
      this.recorder.event(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${(err as Error).message}`);
      throw err;
    }
    if (expected.unmanagedPods.length > 0) {
      this.recorder.event(
        pdb,
        'Warning',
        'UnmanagedPods',
        `Pods selected by this PodDisruptionBudget (selector: ${formatSelector(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      );
    }
    const now = this.ctx.now();
    const disrupted = pendingDisruptions(pods, pdb, now);
    for (const pod of disrupted.notDeleted) {
      // Kubernetes names the budget's namespace twice here
      this.recorder.event(pod, 'Warning', 'NotDeleted', `Pod was expected by PDB ${namespaceOf(pdb)}/${namespaceOf(pdb)} to be deleted but it wasn't`);
    }
    const currentHealthy = countHealthyPods(pods, disrupted.pods, now);
    const status = desiredStatus(pdb, { currentHealthy, desiredHealthy: expected.desiredHealthy, expectedPods: expected.expectedCount, disruptedPods: disrupted.pods }, now);
    if (status) await this.writeStatus({ ...pdb, status });
    if (disrupted.recheckAtMs !== undefined) this.queue.addAfter(keyOf(pdb), Math.max(0, disrupted.recheckAtMs - now));
  }

  private async writeStatus(pdb: PodDisruptionBudget): Promise<void> {
    await this.pdbClient.update(namespaceOf(pdb), pdb as KubeObject, { subresource: 'status' });
  }

  /**
   * nonTerminatingPodHasStaleDisruptionCondition: how long until the pod's DisruptionTarget
   * condition is stale (0: now), or undefined when it has none that can become stale.
   */
  staleDisruptionCondition(pod: Pod): number | undefined {
    if (isBeingDeleted(pod)) return undefined;
    const cond = (pod.status?.conditions ?? []).find((c) => c?.type === 'DisruptionTarget');
    const phase = pod.status?.phase;
    if (!cond || cond.status !== 'True' || cond.reason === TERMINATION_BY_KUBELET || phase === 'Succeeded' || phase === 'Failed') return undefined;
    return Math.max(0, this.staleTimeoutMs - (this.ctx.now() - timeMs(cond.lastTransitionTime)));
  }

  async syncStalePodDisruption(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const pod = this.podLister.get(namespace, name) as Pod | undefined;
    if (!pod) return;
    const wait = this.staleDisruptionCondition(pod);
    if (wait === undefined) return;
    if (wait > 0) {
      this.stalePodQueue.addAfter(key, wait);
      return;
    }
    const next = structuredClone(pod);
    const conditions = (next.status!.conditions ?? []).map((c): PodCondition => (c?.type === 'DisruptionTarget' ? { type: 'DisruptionTarget', status: 'False', lastTransitionTime: rfc3339(this.ctx.now()) } : c));
    next.status!.conditions = conditions;
    try {
      await this.podClient.update(namespace, next as KubeObject, { subresource: 'status' });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

/** A *metav1.LabelSelector as Go's %v prints it (its generated String()), to name it in an event. */
export function formatSelector(selector: LabelSelector | null | undefined): string {
  if (!selector) return 'nil';
  const labels = selector.matchLabels ?? {};
  const keys = Object.keys(labels).sort();
  const matchLabels = `map[string]string{${keys.map((k) => `${k}: ${labels[k]},`).join('')}}`;
  const exprs = (selector.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e?.key ?? ''},Operator:${e?.operator ?? ''},Values:[${(e?.values ?? []).join(' ')}],},`);
  return `&LabelSelector{MatchLabels:${matchLabels},MatchExpressions:[]LabelSelectorRequirement{${exprs.join('')}},}`;
}
