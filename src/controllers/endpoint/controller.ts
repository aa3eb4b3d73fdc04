// The endpoints controller (kube-controller-manager's pkg/controller/endpoint): keeps one Endpoints
// object per Service that has a selector, named as the Service, listing the selected pods' addresses
// (ready and not ready, or all as ready with publishNotReadyAddresses) with the Service's ports
// resolved per pod. Endpoints of deleted Services are deleted; Endpoints of Services without a
// selector are the user's and never touched. Pod changes reach a Service after
// --endpoint-updates-batch-period, so a burst of them costs one write.
import { annotationsOf, labelsOf, nameOf, namespaceOf, resourceVersionOf } from '../../api/meta/object.js';
import type { EndpointAddress, EndpointPort, EndpointSubset, Endpoints, Pod, Service } from '../../api/types.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { isNamespaceTerminating, isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, Tombstone, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { deepCopy, semanticEqual } from '../common/objects.js';
import { durationOption } from '../common/options.js';
import { isPodReady } from '../common/pods.js';
import {
  ENDPOINTS, HEADLESS_LABEL, LAST_CHANGE_TRIGGER_TIME, LEADER_ELECTION_ANNOTATION, PODS_REF, SERVICES,
  TriggerTimeTracker, findPort, isServiceIPSet, podServiceKeys, rfc3339Nano, selectedPods, serviceSelector,
  servicesToUpdateOnPodChange, shouldPodBeInEndpoints, shouldSetHostname,
} from '../common/services.js';
import { OVER_CAPACITY_ANNOTATION, capacityAnnotationSetCorrectly, podToEndpointAddress, repackSubsets, truncateSubsets } from './subsets.js';

export class EndpointsController implements Controller {
  readonly name = 'endpoint';
  readonly queue: WorkQueue<string>;
  private readonly services: Lister;
  private readonly pods: Lister;
  private readonly endpoints: Lister;
  private readonly client: ResourceClient;
  private readonly recorder: EventRecorder;
  private readonly triggerTimes = new TriggerTimeTracker();
  private readonly batchPeriodMs: number;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = newRateLimitingQueue<string>({ name: 'endpoint' });
    this.batchPeriodMs = durationOption(ctx.options, 'endpointUpdatesBatchPeriod', 0);
    const svcInformer = ctx.informers.informer(SERVICES);
    const podInformer = ctx.informers.informer(PODS_REF);
    const epInformer = ctx.informers.informer(ENDPOINTS);
    this.services = svcInformer.lister;
    this.pods = podInformer.lister;
    this.endpoints = epInformer.lister;
    this.client = ctx.clientset.resource(ENDPOINTS);
    this.recorder = ctx.recorder('endpoint-controller');
    svcInformer.addEventHandler({
      onAdd: (s) => this.queue.add(keyOf(s)),
      onUpdate: (_o, s) => this.queue.add(keyOf(s)),
      onDelete: (s) => this.queue.add(keyOf(s)),
    });
    podInformer.addEventHandler({
      onAdd: (p) => this.enqueueAll(podServiceKeys(this.services, p)),
      onUpdate: (o, p) => this.enqueueAll(servicesToUpdateOnPodChange(this.services, o as Pod, p as Pod)),
      onDelete: (p) => this.enqueueAll(podServiceKeys(this.services, objectOf(p))),
    });
    // A deleted Endpoints object of a Service with a selector is written again.
    epInformer.addEventHandler({ onDelete: (e) => this.onEndpointsDelete(e) });
  }

  private enqueueAll(keys: string[]): void {
    for (const k of keys) this.queue.addAfter(k, this.batchPeriodMs);
  }

  private onEndpointsDelete(obj: KubeObject | Tombstone): void {
    const ep = objectOf(obj);
    if (this.services.get(namespaceOf(ep), nameOf(ep))) this.queue.addAfter(keyOf(ep), this.batchPeriodMs);
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    this.checkLeftoverEndpoints();
    await runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), (key, err) =>
      this.ctx.log({ controller: this.name, msg: 'Error syncing endpoints, retrying', service: key, err: (err as Error)?.message ?? String(err) }),
    );
  }

  /** checkLeftoverEndpoints: every Endpoints object is looked at once, so those of Services deleted while the controller was down go. */
  checkLeftoverEndpoints(): void {
    for (const ep of this.endpoints.list()) {
      if (LEADER_ELECTION_ANNOTATION in annotationsOf(ep)) continue;
      this.queue.add(keyOf(ep));
    }
  }

  /** syncService. */
  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const svc = this.services.get(namespace, name) as Service | undefined;
    if (!svc) {
      // The Service is gone: so are its Endpoints (user-managed ones go with their Service too, as in Kubernetes).
      if (this.endpoints.get(namespace, name)) {
        try {
          await this.client.delete(namespace, name);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }
      this.triggerTimes.delete(key);
      return;
    }
    if (svc.spec?.type === 'ExternalName') return;
    if (serviceSelector(svc) === undefined) return; // user-managed Endpoints
    const pods = selectedPods(this.pods, svc);
    const triggerTime = this.triggerTimes.compute(key, svc, pods);
    const subsets = repackSubsets(this.desiredSubsets(svc, pods));

    const current = this.endpoints.get(namespace, name) as Endpoints | undefined;
    const creating = !current || resourceVersionOf(current) === '';
    if (current && !creating) {
      const compareLabels = { ...labelsOf(current) };
      delete compareLabels[HEADLESS_LABEL];
      if (
        semanticEqual(stripResourceVersions(current.subsets ?? []), subsets) &&
        semanticEqual(compareLabels, labelsOf(svc)) &&
        capacityAnnotationSetCorrectly(annotationsOf(current), current.subsets ?? [])
      ) {
        return;
      }
    }
    const next: Endpoints = current ? deepCopy(current) : { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace } };
    next.subsets = subsets;
    const annotations = { ...annotationsOf(next) };
    if (triggerTime !== 0) annotations[LAST_CHANGE_TRIGGER_TIME] = rfc3339Nano(triggerTime);
    else delete annotations[LAST_CHANGE_TRIGGER_TIME];
    if (truncateSubsets(subsets)) annotations[OVER_CAPACITY_ANNOTATION] = 'truncated';
    else delete annotations[OVER_CAPACITY_ANNOTATION];
    const labels: Record<string, string> = { ...labelsOf(svc) };
    if (!isServiceIPSet(svc)) labels[HEADLESS_LABEL] = '';
    else delete labels[HEADLESS_LABEL];
    next.metadata = { ...next.metadata, labels, annotations };
    try {
      if (creating) await this.client.create(namespace, next as KubeObject);
      else await this.client.update(namespace, next as KubeObject);
    } catch (e) {
      // Creates fail while the namespace terminates; nothing to do then.
      if (creating && isNamespaceTerminating(e)) return;
      const message = creating ? `Failed to create endpoint for service ${namespace}/${name}` : `Failed to update endpoint ${namespace}/${name}`;
      this.recorder.event(next as KubeObject, 'Warning', creating ? 'FailedToCreateEndpoint' : 'FailedToUpdateEndpoint', `${message}: ${(e as Error).message}`);
      throw e;
    }
  }

  /** One subset per pod (and port set), ready or not, before repacking. */
  private desiredSubsets(svc: Service, pods: readonly Pod[]): EndpointSubset[] {
    const tolerateUnready = svc.spec?.publishNotReadyAddresses === true;
    const subsets: EndpointSubset[] = [];
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
      const address = podToEndpointAddress(svc, pod);
      if (!address) continue;
      if (shouldSetHostname(pod, svc)) address.hostname = pod.spec!.hostname!;
      const ready = tolerateUnready || isPodReady(pod);
      const ports = svc.spec?.ports ?? [];
      if (ports.length === 0) {
        if (svc.spec?.clusterIP === 'None') subsets.push(subsetOf(address, undefined, ready));
        continue;
      }
      for (const sp of ports) {
        const port = findPort(pod, sp);
        if (port === undefined) continue;
        const ep: EndpointPort = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
        if (sp.appProtocol !== undefined) ep.appProtocol = sp.appProtocol;
        subsets.push(subsetOf(address, [ep], ready));
      }
    }
    return subsets;
  }
}

function subsetOf(address: EndpointAddress, ports: EndpointPort[] | undefined, ready: boolean): EndpointSubset {
  const s: EndpointSubset = ready ? { addresses: [address] } : { notReadyAddresses: [address] };
  if (ports) s.ports = ports;
  return s;
}

/** endpointSubsetsEqualIgnoreResourceVersion: targetRefs compared without their resourceVersion. */
function stripResourceVersions(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const strip = (as?: EndpointAddress[] | null) => as?.map((a) => (a.targetRef?.resourceVersion ? { ...a, targetRef: { ...a.targetRef, resourceVersion: undefined } } : a));
  return subsets.map((s) => ({ ...s, addresses: strip(s.addresses), notReadyAddresses: strip(s.notReadyAddresses) }));
}

export const newEndpointsController = (ctx: ControllerContext): EndpointsController => new EndpointsController(ctx);
