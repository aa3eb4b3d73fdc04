// The EndpointSlice mirroring controller (kube-controller-manager's
// pkg/controller/endpointslicemirroring): Endpoints that users manage themselves (their Service has
// no selector) are mirrored into EndpointSlices managed by endpointslicemirroring-controller.k8s.io,
// so that slice readers (kube-proxy, kubectl describe) see them. Endpoints labelled
// endpointslice.kubernetes.io/skip-mirror=true (the API server's own `kubernetes` Endpoints) and
// leader-election locks are not mirrored; the mirrored slices of an Endpoints object that stops
// qualifying are deleted.
import { annotationsOf, isBeingDeleted, labelsOf } from '../../api/meta/object.js';
import type { EndpointSlice, Endpoints, Service } from '../../api/types.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { isNamespaceTerminating, isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, Tombstone, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { EndpointSliceTracker, portMapKey } from '../common/endpointslices.js';
import { semanticEqual } from '../common/objects.js';
import { durationOption, intOption } from '../common/options.js';
import { ENDPOINTS, ENDPOINTSLICES, LEADER_ELECTION_ANNOTATION, MANAGED_BY_LABEL, SERVICES, SERVICE_NAME_LABEL, SKIP_MIRROR_LABEL, serviceSelector } from '../common/services.js';
import { MIRRORING_CONTROLLER_NAME, desiredGroups, mirroredSlice } from './slices.js';

export class EndpointSliceMirroringController implements Controller {
  readonly name = 'endpointslicemirroring';
  readonly queue: WorkQueue<string>;
  private readonly services: Lister;
  private readonly endpoints: Lister;
  private readonly slices: Lister;
  private readonly client: ResourceClient;
  private readonly recorder: EventRecorder;
  private readonly tracker = new EndpointSliceTracker();
  private readonly batchPeriodMs: number;
  /** Keys whose last sync found the slice cache behind this controller's writes: any slice event of theirs syncs them again. */
  private readonly waitingForCache = new Set<string>();
  private readonly maxPerSubset: number;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = newRateLimitingQueue<string>({ name: 'endpoint_slice_mirroring' });
    this.batchPeriodMs = durationOption(ctx.options, 'mirroringEndpointsliceUpdatesBatchPeriod', 0);
    this.maxPerSubset = intOption(ctx.options, 'mirroringMaxEndpointsPerSubset', 1000);
    const svcInformer = ctx.informers.informer(SERVICES);
    const epInformer = ctx.informers.informer(ENDPOINTS);
    const sliceInformer = ctx.informers.informer(ENDPOINTSLICES);
    this.services = svcInformer.lister;
    this.endpoints = epInformer.lister;
    this.slices = sliceInformer.lister;
    this.client = ctx.clientset.resource(ENDPOINTSLICES);
    this.recorder = ctx.recorder('endpoint-slice-mirroring-controller');
    const enqueue = (o: KubeObject | Tombstone) => this.queue.addAfter(keyOf(o), this.batchPeriodMs);
    svcInformer.addEventHandler({ onAdd: enqueue, onUpdate: (_o, s) => enqueue(s), onDelete: enqueue });
    epInformer.addEventHandler({ onAdd: enqueue, onUpdate: (_o, e) => enqueue(e), onDelete: enqueue });
    sliceInformer.addEventHandler({
      onAdd: (s) => this.onSlice(s as EndpointSlice),
      onUpdate: (o, s) => {
        if (this.managed(o as EndpointSlice) !== this.managed(s as EndpointSlice)) this.queueFor(s as EndpointSlice);
        else this.onSlice(s as EndpointSlice);
      },
      onDelete: (s) => {
        const slice = objectOf(s as KubeObject | Tombstone) as EndpointSlice;
        this.cacheCaughtUp(slice);
        if (this.managed(slice) && !this.tracker.handleDeletion(slice)) this.queueFor(slice);
      },
    });
  }

  private managed(s: EndpointSlice): boolean {
    return labelsOf(s)[MANAGED_BY_LABEL] === MIRRORING_CONTROLLER_NAME;
  }

  private queueFor(s: EndpointSlice): void {
    const name = labelsOf(s)[SERVICE_NAME_LABEL];
    if (name) this.queue.addAfter(`${s.metadata?.namespace}/${name}`, this.batchPeriodMs);
  }

  /** The cache caught up with a write this controller waits for: sync now rather than after the error back-off. */
  private cacheCaughtUp(s: EndpointSlice): void {
    const key = `${s.metadata?.namespace}/${labelsOf(s)[SERVICE_NAME_LABEL] ?? ''}`;
    if (this.waitingForCache.delete(key)) this.queue.add(key);
  }

  private onSlice(s: EndpointSlice): void {
    this.cacheCaughtUp(s);
    if (this.managed(s) && this.tracker.shouldSync(s)) this.queueFor(s);
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    await runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), (key, err) =>
      this.ctx.log({ controller: this.name, msg: 'error mirroring endpoints, retrying', key, err: (err as Error)?.message ?? String(err) }),
    );
  }

  private mirrored(namespace: string, name: string): EndpointSlice[] {
    return this.slices.list(namespace, (l) => l[SERVICE_NAME_LABEL] === name && l[MANAGED_BY_LABEL] === MIRRORING_CONTROLLER_NAME) as EndpointSlice[];
  }

  /** syncEndpoints. */
  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const svc = this.services.get(namespace, name) as Service | undefined;
    const endpoints = this.endpoints.get(namespace, name) as Endpoints | undefined;
    if (!svc) this.tracker.deleteService(key);
    const mirror = svc !== undefined && serviceSelector(svc) === undefined && endpoints !== undefined && this.shouldMirror(endpoints);
    const existing = this.mirrored(namespace, name);
    if (!mirror) {
      for (const s of existing) await this.deleteSlice(s);
      return;
    }
    const current = existing.filter((s) => !isBeingDeleted(s));
    if (this.tracker.staleSlices(key, current)) {
      this.waitingForCache.add(key);
      throw new Error(`EndpointSlice informer cache is out of date for Endpoints ${key}`);
    }
    await this.reconcile(endpoints, current);
  }

  /** shouldMirror: not marked skip-mirror, not a leader-election lock. */
  private shouldMirror(ep: Endpoints): boolean {
    return labelsOf(ep)[SKIP_MIRROR_LABEL] !== 'true' && !(LEADER_ELECTION_ANNOTATION in annotationsOf(ep));
  }

  private async reconcile(endpoints: Endpoints, existing: EndpointSlice[]): Promise<void> {
    const { groups, invalid, overMax } = desiredGroups(endpoints, this.maxPerSubset);
    if (invalid > 0) this.recorder.event(endpoints as KubeObject, 'Warning', 'InvalidIPAddress', `Skipped ${invalid} invalid IP addresses when mirroring to EndpointSlices`);
    if (overMax > 0) {
      this.recorder.event(endpoints as KubeObject, 'Warning', 'TooManyAddressesToMirror', `A max of ${this.maxPerSubset} addresses can be mirrored to EndpointSlices per Endpoints subset. ${overMax} addresses were skipped`);
    }
    const existingByKey = new Map<string, EndpointSlice[]>();
    for (const s of existing) {
      const k = `${s.addressType}-${portMapKey(s.ports)}`;
      existingByKey.set(k, [...(existingByKey.get(k) ?? []), s]);
    }
    const toDelete: EndpointSlice[] = [];
    for (const [k, slices] of existingByKey) if (!groups.has(k)) toDelete.push(...slices);
    const ns = endpoints.metadata!.namespace!;
    for (const [k, group] of groups) {
      const all = [...group.endpoints.values()];
      const have = existingByKey.get(k) ?? [];
      for (let i = 0; i * this.maxPerSubset < all.length; i++) {
        const want = mirroredSlice(endpoints, group, all.slice(i * this.maxPerSubset, (i + 1) * this.maxPerSubset));
        const cur = have[i];
        if (!cur) {
          try {
            this.tracker.update((await this.client.create(ns, want as KubeObject)) as EndpointSlice);
          } catch (e) {
            if (isNamespaceTerminating(e)) return;
            throw e;
          }
          continue;
        }
        const sameMeta = semanticEqual(labelsOf(cur), want.metadata!.labels) && semanticEqual(annotationsOf(cur), want.metadata!.annotations);
        if (sameMeta && semanticEqual(cur.endpoints, want.endpoints) && semanticEqual(cur.ports, want.ports)) continue;
        const updated: EndpointSlice = { ...want, metadata: { ...cur.metadata, labels: want.metadata!.labels, annotations: want.metadata!.annotations, ownerReferences: want.metadata!.ownerReferences } };
        this.tracker.update((await this.client.update(ns, updated as KubeObject)) as EndpointSlice);
      }
      toDelete.push(...have.slice(Math.ceil(all.length / this.maxPerSubset)));
    }
    for (const s of toDelete) await this.deleteSlice(s);
  }

  private async deleteSlice(s: EndpointSlice): Promise<void> {
    try {
      await this.client.delete(s.metadata!.namespace!, s.metadata!.name!);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    this.tracker.expectDeletion(s);
  }
}

export const newEndpointSliceMirroringController = (ctx: ControllerContext): EndpointSliceMirroringController => new EndpointSliceMirroringController(ctx);
