// autoscaling/v2 (k8s.io/api/autoscaling/v2): HorizontalPodAutoscaler, the storage version (the
// hub autoscaling/v1 converts to, see ./conversion.ts). Field numbers are those of autoscaling/v2
// generated.proto; fields in Go struct order (MetricSpec's containerResource, field 7, sits
// before external, field 5, as in Go).
import { LabelSelector, ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.autoscaling.v2.';

export const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'] as const;

export const CrossVersionObjectReference = struct(G + 'CrossVersionObjectReference', {
  kind: field(t.string, 1, { omitempty: false, required: true }),
  name: field(t.string, 2, { omitempty: false, required: true }),
  apiVersion: field(t.string, 3),
});

export const MetricIdentifier = struct(G + 'MetricIdentifier', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  selector: field(LabelSelector, 2, { pointer: true }),
});

export const MetricTarget = struct(G + 'MetricTarget', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  value: field(t.quantity, 2, { pointer: true }),
  averageValue: field(t.quantity, 3, { pointer: true }),
  averageUtilization: field(t.int32, 4, { pointer: true }),
});

export const ObjectMetricSource = struct(G + 'ObjectMetricSource', {
  describedObject: field(CrossVersionObjectReference, 1, { omitempty: false, required: true }),
  target: field(MetricTarget, 2, { omitempty: false, required: true }),
  metric: field(MetricIdentifier, 3, { omitempty: false, required: true }),
});

export const PodsMetricSource = struct(G + 'PodsMetricSource', {
  metric: field(MetricIdentifier, 1, { omitempty: false, required: true }),
  target: field(MetricTarget, 2, { omitempty: false, required: true }),
});

export const ResourceMetricSource = struct(G + 'ResourceMetricSource', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  target: field(MetricTarget, 2, { omitempty: false, required: true }),
});

export const ContainerResourceMetricSource = struct(G + 'ContainerResourceMetricSource', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  target: field(MetricTarget, 2, { omitempty: false, required: true }),
  container: field(t.string, 3, { omitempty: false, required: true }),
});

export const ExternalMetricSource = struct(G + 'ExternalMetricSource', {
  metric: field(MetricIdentifier, 1, { omitempty: false, required: true }),
  target: field(MetricTarget, 2, { omitempty: false, required: true }),
});

export const MetricSpec = struct(G + 'MetricSpec', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  object: field(ObjectMetricSource, 2, { pointer: true }),
  pods: field(PodsMetricSource, 3, { pointer: true }),
  resource: field(ResourceMetricSource, 4, { pointer: true }),
  containerResource: field(ContainerResourceMetricSource, 7, { pointer: true }),
  external: field(ExternalMetricSource, 5, { pointer: true }),
});

export const HPAScalingPolicy = struct(G + 'HPAScalingPolicy', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  value: field(t.int32, 2, { omitempty: false, required: true }),
  periodSeconds: field(t.int32, 3, { omitempty: false, required: true }),
});

export const HPAScalingRules = struct(G + 'HPAScalingRules', {
  stabilizationWindowSeconds: field(t.int32, 3, { pointer: true }),
  selectPolicy: field(t.string, 1, { pointer: true }),
  policies: field(listOf(HPAScalingPolicy), 2, { listType: 'atomic' }),
  /** HPAConfigurableTolerance (alpha in 1.33, off): dropped on writes unless already set. */
  tolerance: field(t.quantity, 4, { pointer: true }),
});

export const HorizontalPodAutoscalerBehavior = struct(G + 'HorizontalPodAutoscalerBehavior', {
  scaleUp: field(HPAScalingRules, 1, { pointer: true }),
  scaleDown: field(HPAScalingRules, 2, { pointer: true }),
});

export const HorizontalPodAutoscalerSpec = struct(G + 'HorizontalPodAutoscalerSpec', {
  scaleTargetRef: field(CrossVersionObjectReference, 1, { omitempty: false, required: true }),
  minReplicas: field(t.int32, 2, { pointer: true }),
  maxReplicas: field(t.int32, 3, { omitempty: false, required: true }),
  metrics: field(listOf(MetricSpec), 4, { listType: 'atomic' }),
  behavior: field(HorizontalPodAutoscalerBehavior, 5, { pointer: true }),
});

export const MetricValueStatus = struct(G + 'MetricValueStatus', {
  value: field(t.quantity, 1, { pointer: true }),
  averageValue: field(t.quantity, 2, { pointer: true }),
  averageUtilization: field(t.int32, 3, { pointer: true }),
});

export const ObjectMetricStatus = struct(G + 'ObjectMetricStatus', {
  metric: field(MetricIdentifier, 1, { omitempty: false, required: true }),
  current: field(MetricValueStatus, 2, { omitempty: false, required: true }),
  describedObject: field(CrossVersionObjectReference, 3, { omitempty: false, required: true }),
});

export const PodsMetricStatus = struct(G + 'PodsMetricStatus', {
  metric: field(MetricIdentifier, 1, { omitempty: false, required: true }),
  current: field(MetricValueStatus, 2, { omitempty: false, required: true }),
});

export const ResourceMetricStatus = struct(G + 'ResourceMetricStatus', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  current: field(MetricValueStatus, 2, { omitempty: false, required: true }),
});

export const ContainerResourceMetricStatus = struct(G + 'ContainerResourceMetricStatus', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  current: field(MetricValueStatus, 2, { omitempty: false, required: true }),
  container: field(t.string, 3, { omitempty: false, required: true }),
});

export const ExternalMetricStatus = struct(G + 'ExternalMetricStatus', {
  metric: field(MetricIdentifier, 1, { omitempty: false, required: true }),
  current: field(MetricValueStatus, 2, { omitempty: false, required: true }),
});

export const MetricStatus = struct(G + 'MetricStatus', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  object: field(ObjectMetricStatus, 2, { pointer: true }),
  pods: field(PodsMetricStatus, 3, { pointer: true }),
  resource: field(ResourceMetricStatus, 4, { pointer: true }),
  containerResource: field(ContainerResourceMetricStatus, 7, { pointer: true }),
  external: field(ExternalMetricStatus, 5, { pointer: true }),
});

export const HorizontalPodAutoscalerCondition = struct(G + 'HorizontalPodAutoscalerCondition', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  status: field(t.string, 2, { omitempty: false, required: true }),
  lastTransitionTime: field(t.time, 3),
  reason: field(t.string, 4),
  message: field(t.string, 5),
});

export const HorizontalPodAutoscalerStatus = struct(G + 'HorizontalPodAutoscalerStatus', {
  observedGeneration: field(t.int64, 1, { pointer: true }),
  lastScaleTime: field(t.time, 2, { pointer: true }),
  currentReplicas: field(t.int32, 3),
  desiredReplicas: field(t.int32, 4, { omitempty: false, required: true }),
  // `json:"currentMetrics"` without omitempty: Kubernetes writes null when there are none.
  currentMetrics: field(listOf(MetricStatus), 5, { omitempty: false, listType: 'atomic' }),
  conditions: field(listOf(HorizontalPodAutoscalerCondition), 6, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }),
});

export const HorizontalPodAutoscaler = struct(G + 'HorizontalPodAutoscaler', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(HorizontalPodAutoscalerSpec, 2),
  status: field(HorizontalPodAutoscalerStatus, 3),
});

export const HorizontalPodAutoscalerList = struct(G + 'HorizontalPodAutoscalerList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(HorizontalPodAutoscaler), 2, { omitempty: false, required: true }),
});
