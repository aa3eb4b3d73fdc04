// The EndpointSlice controller (kube-controller-manager's pkg/controller/endpointslice): for every
// Service with a selector, EndpointSlices (labelled kubernetes.io/service-name and managed-by
// endpointslice-controller.k8s.io, owned by the Service) listing the selected pods with their
// ready/serving/terminating conditions, written by the reconciler. Pod changes reach a Service
// after --endpointslice-updates-batch-period; slice changes not made by this controller (per the
// tracker) queue their Service again so a slice edited or deleted by someone else is put back.
import { isBeingDeleted, labelsOf } from '../../api/meta/object.js';
import type { EndpointSlice, Pod, Service } from '../../api/types.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, Tombstone, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { durationOption, intOption } from '../common/options.js';
import {
  ENDPOINTSLICES, MANAGED_BY_LABEL, NODES_REF, PODS_REF, SERVICES, SERVICE_NAME_LABEL, TriggerTimeTracker, podServiceKeys, selectedPods,
  serviceSelector, servicesToUpdateOnPodChange,
} from '../common/services.js';
import { CONTROLLER_NAME } from './endpoints.js';
import { EndpointSliceReconciler } from './reconciler.js';
import { EndpointSliceTracker } from '../common/endpointslices.js';

export class EndpointSliceController implements Controller {
  readonly name = 'endpointslice';
  readonly queue: WorkQueue<string>;
  readonly reconciler: EndpointSliceReconciler;
  private readonly services: Lister;
  private readonly pods: Lister;
  private readonly slices: Lister;
  private readonly recorder: EventRecorder;
  private readonly tracker = new EndpointSliceTracker();
  private readonly triggerTimes = new TriggerTimeTracker();
  private readonly batchPeriodMs: number;
  /** Keys whose last sync found the slice cache behind this controller's writes: any slice event of theirs syncs them again. */
  private readonly waitingForCache = new Set<string>();

  constructor(private readonly ctx: ControllerContext) {
    this.queue = newRateLimitingQueue<string>({ name: 'endpoint_slice' });
    this.batchPeriodMs = durationOption(ctx.options, 'endpointsliceUpdatesBatchPeriod', 0);
    const svcInformer = ctx.informers.informer(SERVICES);
    const podInformer = ctx.informers.informer(PODS_REF);
    const sliceInformer = ctx.informers.informer(ENDPOINTSLICES);
    const nodeInformer = ctx.informers.informer(NODES_REF);
    this.services = svcInformer.lister;
    this.pods = podInformer.lister;
    this.slices = sliceInformer.lister;
    this.recorder = ctx.recorder('endpoint-slice-controller');
    this.reconciler = new EndpointSliceReconciler(ctx.clientset.resource(ENDPOINTSLICES), nodeInformer.lister, intOption(ctx.options, 'maxEndpointsPerSlice', 100), this.tracker, CONTROLLER_NAME);
    svcInformer.addEventHandler({
      onAdd: (s) => this.queue.add(keyOf(s)),
      onUpdate: (_o, s) => this.queue.add(keyOf(s)),
      onDelete: (s) => {
        const key = keyOf(s);
        this.triggerTimes.delete(key);
        this.tracker.deleteService(key);
        this.queue.add(key);
      },
    });
    podInformer.addEventHandler({
      onAdd: (p) => this.enqueueAll(podServiceKeys(this.services, p)),
      onUpdate: (o, p) => this.enqueueAll(servicesToUpdateOnPodChange(this.services, o as Pod, p as Pod)),
      onDelete: (p) => this.enqueueAll(podServiceKeys(this.services, objectOf(p))),
    });
    sliceInformer.addEventHandler({
      onAdd: (s) => this.onSliceChange(s as EndpointSlice, undefined),
      onUpdate: (o, s) => this.onSliceChange(s as EndpointSlice, o as EndpointSlice),
      onDelete: (s) => this.onSliceDelete(objectOf(s as KubeObject | Tombstone) as EndpointSlice),
    });
  }

  private enqueueAll(keys: string[]): void {
    for (const k of keys) this.queue.addAfter(k, this.batchPeriodMs);
  }

  private managed(s: EndpointSlice): boolean {
    return labelsOf(s)[MANAGED_BY_LABEL] === CONTROLLER_NAME;
  }

  private queueSliceService(s: EndpointSlice): void {
    const svc = labelsOf(s)[SERVICE_NAME_LABEL];
    if (svc) this.queue.addAfter(`${s.metadata?.namespace}/${svc}`, this.batchPeriodMs);
  }

  /** The cache caught up with a write this controller waits for: sync now rather than after the error back-off. */
  private cacheCaughtUp(s: EndpointSlice): void {
    const key = `${s.metadata?.namespace}/${labelsOf(s)[SERVICE_NAME_LABEL] ?? ''}`;
    if (this.waitingForCache.delete(key)) this.queue.add(key);
  }

  private onSliceChange(cur: EndpointSlice, old: EndpointSlice | undefined): void {
    this.cacheCaughtUp(cur);
    // A slice that left or joined this controller's management, or changed service, syncs both Services.
    if (old && (this.managed(old) !== this.managed(cur) || labelsOf(old)[SERVICE_NAME_LABEL] !== labelsOf(cur)[SERVICE_NAME_LABEL])) {
      this.queueSliceService(old);
      this.queueSliceService(cur);
      return;
    }
    if (this.managed(cur) && this.tracker.shouldSync(cur)) this.queueSliceService(cur);
  }

  private onSliceDelete(s: EndpointSlice): void {
    this.cacheCaughtUp(s);
    if (this.managed(s) && !this.tracker.handleDeletion(s)) this.queueSliceService(s);
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    await runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), (key, err) =>
      this.ctx.log({ controller: this.name, msg: 'Error syncing endpoint slices for service, retrying', key, err: (err as Error)?.message ?? String(err) }),
    );
  }

  /** syncService. */
  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const svc = this.services.get(namespace, name) as Service | undefined;
    if (!svc) {
      // Its slices go with it (garbage collector, through their owner reference).
      this.triggerTimes.delete(key);
      this.tracker.deleteService(key);
      return;
    }
    if (svc.spec?.type === 'ExternalName') return;
    if (serviceSelector(svc) === undefined) return; // slices of a Service without selector are written by others (mirroring)
    const pods = selectedPods(this.pods, svc);
    const existing = (this.slices.list(namespace, (l) => l[SERVICE_NAME_LABEL] === name && l[MANAGED_BY_LABEL] === CONTROLLER_NAME) as EndpointSlice[]).filter((s) => !isBeingDeleted(s));
    if (this.tracker.staleSlices(key, existing)) {
      this.waitingForCache.add(key);
      throw new Error(`EndpointSlice informer cache is out of date for Service ${key}`);
    }
    const triggerTime = this.triggerTimes.compute(key, svc, pods);
    try {
      await this.reconciler.reconcile(svc, pods, existing, triggerTime);
    } catch (e) {
      this.recorder.event(svc as KubeObject, 'Warning', 'FailedToUpdateEndpointSlices', `Error updating Endpoint Slices for Service ${namespace}/${name}: ${(e as Error).message}`);
      throw e;
    }
  }
}

export const newEndpointSliceController = (ctx: ControllerContext): EndpointSliceController => new EndpointSliceController(ctx);
