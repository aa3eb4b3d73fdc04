// The horizontal pod autoscaler (kube-controller-manager's pkg/controller/podautoscaler), every
// --horizontal-pod-autoscaler-sync-period per HPA: reads the target's scale subresource (any kind
// that serves one, custom resources included, found through discovery), computes a replica count
// per metric — Resource and ContainerResource metrics from metrics.k8s.io; Pods, Object and External
// metrics need a custom or external metrics API, which kubelite does not serve, and say so in the
// ScalingActive condition — takes the highest, stabilizes and rate-limits it (rate.ts), writes the
// scale and the HPA's status (currentMetrics, replicas, conditions AbleToScale / ScalingActive /
// ScalingLimited) with Kubernetes' reasons, messages and events.
import { groupOfApiVersion, metadataOf, namespaceOf } from '../../api/meta/object.js';
import { parseQuantity, Quantity } from '../../api/meta/quantity.js';
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerStatus, MetricSpec, MetricStatus, Pod } from '../../api/types.js';

type HorizontalPodAutoscalerCondition = NonNullable<NonNullable<HorizontalPodAutoscalerStatus['conditions']>[number]>;
import { keyOf, splitKey } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import { DeferredDiscoveryRESTMapper } from '../../client/rest-mapper.js';
import { discoveryOf } from '../../client/static-discovery.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { parseDuration } from '../../machinery/codec/time.js';
import { parseLabelSelector } from '../../machinery/selectors/index.js';
import { rfc3339, timeMs } from '../common/time.js';
import { limitByPolicies, limitLegacy, stabilize, stabilizeLegacy, type Limited, type ScaleEvent, type Timestamped } from './rate.js';
import { ReplicaCalcError, resourceReplicas, type PodMetric } from './replicas.js';

export const HPAS = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
const PODS = { group: '', version: 'v1', resource: 'pods' };
const POD_METRICS = { group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods', namespaced: true, kind: 'PodMetrics' };

export interface HpaOptions {
  syncPeriodMs: number;
  downscaleStabilizationMs: number;
  upscaleForbiddenMs: number;
  tolerance: number;
  cpuInitializationMs: number;
  initialReadinessDelayMs: number;
}

function optionsOf(o: Readonly<Record<string, unknown>>): HpaOptions {
  const num = (k: string, d: number): number => (typeof o[k] === 'number' ? (o[k] as number) : d);
  const FIVE_MIN = 300_000;
  // the seed's --horizontal-pod-autoscaler-downscale-delay is the older name of the downscale stabilization
  const stabilization = num('horizontalPodAutoscalerDownscaleStabilization', FIVE_MIN);
  return {
    syncPeriodMs: num('horizontalPodAutoscalerSyncPeriod', 15_000),
    downscaleStabilizationMs: stabilization !== FIVE_MIN ? stabilization : num('horizontalPodAutoscalerDownscaleDelay', FIVE_MIN),
    upscaleForbiddenMs: num('horizontalPodAutoscalerUpscaleDelay', 180_000),
    tolerance: num('horizontalPodAutoscalerTolerance', 0.1),
    cpuInitializationMs: num('horizontalPodAutoscalerCpuInitializationPeriod', FIVE_MIN),
    initialReadinessDelayMs: num('horizontalPodAutoscalerInitialReadinessDelay', 30_000),
  };
}

class MetricError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

interface Scale {
  replicas: number;
  selector: string;
  obj: KubeObject;
  client: ResourceClient;
}

const NO_CUSTOM_METRICS = 'no custom metrics API (custom.metrics.k8s.io) registered';
const NO_EXTERNAL_METRICS = 'no external metrics API (external.metrics.k8s.io) registered';

export class HorizontalController implements Controller {
  readonly name = 'horizontalpodautoscaling';
  readonly opts: HpaOptions;
  readonly queue: WorkQueue<string>;
  readonly mapper: DeferredDiscoveryRESTMapper;
  private readonly hpaLister: Lister;
  private readonly podLister: Lister;
  private readonly hpaClient: ResourceClient;
  private readonly recorder: EventRecorder;
  private readonly recommendations = new Map<string, Timestamped[]>();
  private readonly upEvents = new Map<string, ScaleEvent[]>();
  private readonly downEvents = new Map<string, ScaleEvent[]>();

  constructor(private readonly ctx: ControllerContext) {
    this.opts = optionsOf(ctx.options);
    this.queue = newRateLimitingQueue<string>({ name: 'horizontalpodautoscaler' });
    this.mapper = new DeferredDiscoveryRESTMapper(discoveryOf(ctx.clientset));
    const hpas = ctx.informers.informer(HPAS);
    this.hpaLister = hpas.lister;
    this.podLister = ctx.informers.informer(PODS).lister;
    this.hpaClient = ctx.clientset.resource(HPAS);
    this.recorder = ctx.recorder('horizontal-pod-autoscaler');
    hpas.addEventHandler({
      onAdd: (h) => this.queue.add(keyOf(h)),
      onUpdate: (o, h) => {
        if (JSON.stringify(o.spec) !== JSON.stringify(h.spec)) this.queue.add(keyOf(h));
      },
      onDelete: (h) => {
        const key = keyOf(h as KubeObject);
        this.recommendations.delete(key);
        this.upEvents.delete(key);
        this.downEvents.delete(key);
      },
    });
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    return runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), (key, err) => this.ctx.log({ controller: this.name, msg: 'sync failed', key, err: (err as Error).message }));
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const cached = this.hpaLister.get(namespace, name) as HorizontalPodAutoscaler | undefined;
    if (!cached) return;
    try {
      await this.reconcile(key, structuredClone(cached));
    } finally {
      // every HPA is looked at again each sync period, as the controller's resync queue does
      if (this.hpaLister.get(namespace, name)) this.queue.addAfter(key, this.opts.syncPeriodMs);
    }
  }

  private setCondition(hpa: HorizontalPodAutoscaler, type: string, status: 'True' | 'False', reason: string, message: string): void {
    const st = (hpa.status ??= { desiredReplicas: 0 });
    const conditions: HorizontalPodAutoscalerCondition[] = (st.conditions ?? []).filter((c): c is HorizontalPodAutoscalerCondition => c != null);
    const existing = conditions.find((c) => c.type === type);
    const now = rfc3339(this.ctx.now());
    if (!existing) conditions.push({ type, status, reason, message, lastTransitionTime: now });
    else {
      if (existing.status !== status) existing.lastTransitionTime = now;
      Object.assign(existing, { status, reason, message });
    }
    st.conditions = conditions;
  }

  /** The target's scale, through the scale subresource of whatever kind it is. */
  private async getScale(hpa: HorizontalPodAutoscaler): Promise<Scale> {
    const ref = hpa.spec?.scaleTargetRef;
    const mapping = await this.mapper.restMapping(groupOfApiVersion(ref?.apiVersion ?? ''), ref?.kind ?? '');
    const client = this.ctx.clientset.resource({ ...mapping.resource, namespaced: mapping.namespaced, kind: mapping.kind });
    const obj = await client.get(namespaceOf(hpa), ref?.name ?? '', { subresource: 'scale' });
    const spec = (obj.spec ?? {}) as { replicas?: number };
    const status = (obj.status ?? {}) as { selector?: string };
    return { replicas: spec.replicas ?? 0, selector: status.selector ?? '', obj, client };
  }

  private async podMetrics(namespace: string, selector: string, resource: string, container: string): Promise<Map<string, PodMetric>> {
    let list;
    try {
      list = await this.ctx.clientset.resource(POD_METRICS).list(namespace, { labelSelector: selector });
    } catch (err) {
      throw new ReplicaCalcError(`unable to get metrics for resource ${resource}: unable to fetch metrics from resource metrics API: ${(err as Error).message}`);
    }
    if (list.items.length === 0) throw new ReplicaCalcError(`unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`);
    const out = new Map<string, PodMetric>();
    for (const m of list.items as { metadata?: { name?: string }; timestamp?: string; window?: string; containers?: { name?: string; usage?: Record<string, string> }[] }[]) {
      let sum = 0;
      let incomplete = (m.containers ?? []).length === 0;
      for (const c of m.containers ?? []) {
        if (container !== '' && c.name !== container) continue;
        const q = typeof c.usage?.[resource] === 'string' ? parseQuantity(c.usage[resource]) : undefined;
        if (!q) {
          incomplete = true;
          break;
        }
        sum += q.milliValue();
      }
      if (incomplete) continue;
      let windowMs = 0;
      try {
        windowMs = Number(parseDuration(m.window ?? '0s') / 1_000_000n);
      } catch {
        windowMs = 0;
      }
      out.set(m.metadata?.name ?? '', { value: sum, timestamp: timeMs(m.timestamp), windowMs });
    }
    return out;
  }

  /** One metric's proposal, its status, and a name for the messages. */
  private async metricProposal(hpa: HorizontalPodAutoscaler, spec: MetricSpec, current: number, selector: string, pods: Pod[]): Promise<{ replicas: number; status: MetricStatus; name: string }> {
    const calc = { tolerance: this.opts.tolerance, cpuInitializationMs: this.opts.cpuInitializationMs, initialReadinessDelayMs: this.opts.initialReadinessDelayMs, now: this.ctx.now() };
    if (spec.type === 'Resource' || spec.type === 'ContainerResource') {
      const source = spec.type === 'Resource' ? spec.resource : spec.containerResource;
      const resource = source?.name ?? '';
      const container = spec.type === 'ContainerResource' ? (spec.containerResource?.container ?? '') : '';
      const label = spec.type === 'Resource' ? `${resource} resource` : `${resource} container resource`;
      const reason = spec.type === 'Resource' ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric';
      const target = source?.target;
      const averageValue = typeof target?.averageValue === 'string' ? parseQuantity(target.averageValue) : undefined;
      try {
        const metrics = await this.podMetrics(namespaceOf(hpa), selector, resource, container);
        if (averageValue) {
          const p = resourceReplicas(current, { average: averageValue.milliValue() }, resource, container, pods, metrics, calc);
          const status = { name: resource, ...(container ? { container } : {}), current: { averageValue: Quantity.fromMilli(p.average).toString() } };
          return { replicas: p.replicas, status: spec.type === 'Resource' ? { type: 'Resource', resource: status } : { type: 'ContainerResource', containerResource: { ...status, container } }, name: label };
        }
        if (typeof target?.averageUtilization !== 'number') throw new ReplicaCalcError('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
        const p = resourceReplicas(current, { utilization: target.averageUtilization }, resource, container, pods, metrics, calc);
        const status = { name: resource, current: { averageUtilization: p.utilization, averageValue: Quantity.fromMilli(p.average).toString() } };
        return {
          replicas: p.replicas,
          status: spec.type === 'Resource' ? { type: 'Resource', resource: status } : { type: 'ContainerResource', containerResource: { ...status, container } },
          name: `${label} utilization (percentage of request)`,
        };
      } catch (err) {
        if (!(err instanceof ReplicaCalcError)) throw err;
        throw new MetricError(reason, `failed to get ${resource} ${averageValue ? 'usage' : 'utilization'}: ${err.message}`);
      }
    }
    if (spec.type === 'Pods') throw new MetricError('FailedGetPodsMetric', `unable to get metric ${spec.pods?.metric?.name ?? ''}: unable to fetch metrics from custom metrics API: ${NO_CUSTOM_METRICS}`);
    if (spec.type === 'Object') throw new MetricError('FailedGetObjectMetric', `unable to get metric ${spec.object?.metric?.name ?? ''}: ${spec.object?.describedObject?.kind ?? ''} on ${namespaceOf(hpa)} ${spec.object?.describedObject?.name ?? ''}/unable to fetch metrics from custom metrics API: ${NO_CUSTOM_METRICS}`);
    if (spec.type === 'External') throw new MetricError('FailedGetExternalMetric', `unable to get external metric ${namespaceOf(hpa)}/${spec.external?.metric?.name ?? ''}: unable to fetch metrics from external metrics API: ${NO_EXTERNAL_METRICS}`);
    throw new MetricError('InvalidMetricSourceType', `unknown metric source type "${spec.type ?? ''}"`);
  }

  /** computeReplicasForMetrics: the highest proposal; -1 when the metrics cannot be trusted to act on. */
  private async replicasForMetrics(hpa: HorizontalPodAutoscaler, scale: Scale): Promise<{ replicas: number; name: string; statuses: MetricStatus[]; error?: Error }> {
    if (scale.selector === '') {
      this.recorder.event(hpa as KubeObject, 'Warning', 'SelectorRequired', 'selector is required');
      this.setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', "the HPA target's scale is missing a selector");
      return { replicas: -1, name: '', statuses: [], error: new Error('selector is required') };
    }
    try {
      parseLabelSelector(scale.selector);
    } catch (err) {
      this.setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', `couldn't convert selector into a corresponding internal selector object: ${(err as Error).message}`);
      return { replicas: -1, name: '', statuses: [], error: err as Error };
    }
    const sel = parseLabelSelector(scale.selector);
    const pods = (this.podLister.list(namespaceOf(hpa)) as Pod[]).filter((p) => sel.matches(p.metadata?.labels ?? {}));
    const specs = (hpa.spec?.metrics ?? []).filter((m): m is MetricSpec => m != null);
    const statuses: MetricStatus[] = [];
    let replicas = 0;
    let name = '';
    let invalid = 0;
    let first: MetricError | undefined;
    for (const spec of specs) {
      try {
        const p = await this.metricProposal(hpa, spec, scale.replicas, scale.selector, pods);
        statuses.push(p.status);
        if (replicas === 0 || p.replicas > replicas) {
          replicas = p.replicas;
          name = p.name;
        }
      } catch (err) {
        if (!(err instanceof MetricError)) throw err;
        this.recorder.event(hpa as KubeObject, 'Warning', err.reason, err.message);
        statuses.push({ type: '' });
        if (invalid === 0) first = err;
        invalid++;
      }
    }
    const error = first ? new Error(`invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${first.message}`) : undefined;
    if (invalid >= specs.length || (invalid > 0 && replicas < scale.replicas)) {
      if (first) this.setCondition(hpa, 'ScalingActive', 'False', first.reason, `the HPA was unable to compute the replica count: ${first.message}`);
      return { replicas: -1, name: '', statuses, ...(error ? { error } : {}) };
    }
    this.setCondition(hpa, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${name}`);
    return { replicas, name, statuses, ...(error ? { error } : {}) };
  }

  /** normalizeDesiredReplicas / WithBehaviors: stabilization, then the rate rules; conditions say which applied. */
  private normalize(hpa: HorizontalPodAutoscaler, key: string, current: number, desired: number, min: number): number {
    const now = this.ctx.now();
    const history = this.recommendations.get(key) ?? [];
    this.recommendations.set(key, history);
    const max = hpa.spec?.maxReplicas ?? 0;
    let stabilized: number;
    let limited: Limited;
    const behavior = hpa.spec?.behavior;
    if (behavior) {
      const scaleUp = behavior.scaleUp ?? {};
      const scaleDown = behavior.scaleDown ?? {};
      const downWindowS = scaleDown.stabilizationWindowSeconds ?? this.opts.downscaleStabilizationMs / 1000;
      const s = stabilize(history, desired, current, scaleUp.stabilizationWindowSeconds ?? 0, downWindowS, now);
      stabilized = s.replicas;
      if (stabilized !== desired) this.setCondition(hpa, 'AbleToScale', 'True', s.reason, s.message);
      else this.setCondition(hpa, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
      limited = limitByPolicies({ current, desired: stabilized, min, max, scaleUp, scaleDown, upEvents: this.upEvents.get(key) ?? [], downEvents: this.downEvents.get(key) ?? [], now });
    } else {
      stabilized = stabilizeLegacy(history, desired, this.opts.downscaleStabilizationMs, now);
      if (stabilized !== desired) this.setCondition(hpa, 'AbleToScale', 'True', 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation');
      else this.setCondition(hpa, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
      limited = limitLegacy(current, stabilized, min, max);
      // the seed's --horizontal-pod-autoscaler-upscale-delay: no upscale that soon after the last scale, as older Kubernetes
      const last = timeMs(hpa.status?.lastScaleTime);
      if (limited.replicas > current && last !== 0 && now < last + this.opts.upscaleForbiddenMs) {
        this.setCondition(hpa, 'AbleToScale', 'False', 'BackoffUpscale', 'the time since the previous scale is still within the upscale forbidden window');
        limited = { replicas: current, reason: limited.reason, message: limited.message };
      }
    }
    this.setCondition(hpa, 'ScalingLimited', limited.replicas === stabilized ? 'False' : 'True', limited.reason, limited.message);
    return limited.replicas;
  }

  private recordScaleEvent(hpa: HorizontalPodAutoscaler, key: string, from: number, to: number): void {
    if (!hpa.spec?.behavior) return;
    const now = this.ctx.now();
    const longest = Math.max(0, ...[...(hpa.spec.behavior.scaleUp?.policies ?? []), ...(hpa.spec.behavior.scaleDown?.policies ?? [])].map((p) => p?.periodSeconds ?? 0)) * 1000;
    const keep = (events: ScaleEvent[]) => events.filter((e) => e.at > now - longest);
    if (to > from) this.upEvents.set(key, [...keep(this.upEvents.get(key) ?? []), { change: to - from, at: now }]);
    else this.downEvents.set(key, [...keep(this.downEvents.get(key) ?? []), { change: from - to, at: now }]);
  }

  private async writeStatus(original: string, hpa: HorizontalPodAutoscaler): Promise<void> {
    if (JSON.stringify(hpa.status) === original) return;
    try {
      await this.hpaClient.update(namespaceOf(hpa), hpa as KubeObject, { subresource: 'status' });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** reconcileAutoscaler. */
  async reconcile(key: string, hpa: HorizontalPodAutoscaler): Promise<void> {
    const original = JSON.stringify(hpa.status);
    const ref = hpa.spec?.scaleTargetRef;
    const reference = `${ref?.kind ?? ''}/${namespaceOf(hpa)}/${ref?.name ?? ''}`;
    let scale: Scale;
    try {
      scale = await this.getScale(hpa);
    } catch (err) {
      const message = (err as Error).message;
      this.recorder.event(hpa as KubeObject, 'Warning', 'FailedGetScale', message);
      this.setCondition(hpa, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${message}`);
      await this.writeStatus(original, hpa);
      throw new Error(`failed to query scale subresource for ${reference}: ${message}`);
    }
    this.setCondition(hpa, 'AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale");
    const current = scale.replicas;
    const min = hpa.spec?.minReplicas ?? 1;
    const max = hpa.spec?.maxReplicas ?? 0;
    let desired = 0;
    let reason = '';
    let rescale = true;
    let statuses: MetricStatus[] = [];
    let metricError: Error | undefined;
    if (current === 0 && min !== 0) {
      rescale = false;
      this.setCondition(hpa, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
    } else if (current > max) {
      reason = 'Current number of replicas above Spec.MaxReplicas';
      desired = max;
    } else if (current < min) {
      reason = 'Current number of replicas below Spec.MinReplicas';
      desired = min;
    } else {
      const m = await this.replicasForMetrics(hpa, scale);
      statuses = m.statuses;
      metricError = m.error;
      if (m.replicas === -1) {
        this.setStatus(hpa, current, hpa.status?.desiredReplicas ?? 0, statuses, false);
        await this.writeStatus(original, hpa);
        if (m.error) this.recorder.event(hpa as KubeObject, 'Warning', 'FailedComputeMetricsReplicas', m.error.message);
        throw new Error(`failed to compute desired number of replicas based on listed metrics for ${reference}: ${m.error?.message ?? ''}`);
      }
      desired = m.replicas;
      if (desired > current) reason = `${m.name} above target`;
      if (desired < current) reason = 'All metrics below target';
      desired = this.normalize(hpa, key, current, desired, min);
      rescale = desired !== current;
    }
    if (rescale) {
      try {
        await scale.client.update(namespaceOf(hpa), { ...scale.obj, spec: { ...(scale.obj.spec as object), replicas: desired } }, { subresource: 'scale' });
      } catch (err) {
        const message = (err as Error).message;
        this.recorder.event(hpa as KubeObject, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${reason}; error: ${message}`);
        this.setCondition(hpa, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${message}`);
        this.setStatus(hpa, current, hpa.status?.desiredReplicas ?? 0, statuses, false);
        await this.writeStatus(original, hpa);
        throw new Error(`failed to rescale ${reference}: ${message}`);
      }
      this.setCondition(hpa, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`);
      this.recorder.event(hpa as KubeObject, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${reason}`);
      this.recordScaleEvent(hpa, key, current, desired);
    } else {
      desired = current;
    }
    this.setStatus(hpa, current, desired, statuses, rescale);
    await this.writeStatus(original, hpa);
    if (metricError) throw metricError;
  }

  private setStatus(hpa: HorizontalPodAutoscaler, current: number, desired: number, metrics: MetricStatus[], rescaled: boolean): void {
    const st = (hpa.status ??= { desiredReplicas: 0 });
    st.currentReplicas = current;
    st.desiredReplicas = desired;
    st.observedGeneration = metadataOf(hpa).generation ?? undefined;
    if (rescaled) st.lastScaleTime = rfc3339(this.ctx.now());
    const valid = metrics.filter((m) => m.type !== '');
    if (valid.length > 0) st.currentMetrics = valid;
    else delete st.currentMetrics;
  }
}
