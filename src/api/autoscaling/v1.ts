// autoscaling/v1 (k8s.io/api/autoscaling/v1): HorizontalPodAutoscaler (served, stored as
// autoscaling/v2: see ./conversion.ts for the annotations that carry v2's other fields) and
// Scale, the request and response body of the `/scale` subresource of the apps/v1 and core
// kinds. Field numbers are those of autoscaling/v1 generated.proto. (The v1 metric structs exist
// only inside the conversion annotations; no served type refers to them.)
import { ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.autoscaling.v1.';

export const CrossVersionObjectReference = struct(G + 'CrossVersionObjectReference', {
  kind: field(t.string, 1, { omitempty: false, required: true }),
  name: field(t.string, 2, { omitempty: false, required: true }),
  apiVersion: field(t.string, 3),
});

export const HorizontalPodAutoscalerSpec = struct(G + 'HorizontalPodAutoscalerSpec', {
  scaleTargetRef: field(CrossVersionObjectReference, 1, { omitempty: false, required: true }),
  minReplicas: field(t.int32, 2, { pointer: true }),
  maxReplicas: field(t.int32, 3, { omitempty: false, required: true }),
  targetCPUUtilizationPercentage: field(t.int32, 4, { pointer: true }),
});

export const HorizontalPodAutoscalerStatus = struct(G + 'HorizontalPodAutoscalerStatus', {
  observedGeneration: field(t.int64, 1, { pointer: true }),
  lastScaleTime: field(t.time, 2, { pointer: true }),
  currentReplicas: field(t.int32, 3, { omitempty: false, required: true }),
  desiredReplicas: field(t.int32, 4, { omitempty: false, required: true }),
  currentCPUUtilizationPercentage: field(t.int32, 5, { pointer: true }),
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

export const ScaleSpec = struct(G + 'ScaleSpec', {
  replicas: field(t.int32, 1),
});

/** `selector` is the label selector in query-string form (`app=web`). */
export const ScaleStatus = struct(G + 'ScaleStatus', {
  replicas: field(t.int32, 1, { omitempty: false, required: true }),
  selector: field(t.string, 2),
});

export const Scale = struct(G + 'Scale', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(ScaleSpec, 2),
  status: field(ScaleStatus, 3),
});
