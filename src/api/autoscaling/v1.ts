// autoscaling/v1 Scale: the request and response body of every `/scale` subresource
// (deployments, replicasets, statefulsets, replicationcontrollers). Not stored. Field numbers are
// those of k8s.io/api autoscaling/v1 generated.proto. (HorizontalPodAutoscaler is not declared yet.)
import { ObjectMeta } from '../meta/v1.js';
import { field, struct, t, typeMetaFields } from '../schema/dsl.js';

export const ScaleSpec = struct('io.k8s.api.autoscaling.v1.ScaleSpec', {
  replicas: field(t.int32, 1),
});

/** `selector` is the label selector in query-string form (`app=web`). */
export const ScaleStatus = struct('io.k8s.api.autoscaling.v1.ScaleStatus', {
  replicas: field(t.int32, 1, { omitempty: false, required: true }),
  selector: field(t.string, 2),
});

export const Scale = struct('io.k8s.api.autoscaling.v1.Scale', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(ScaleSpec, 2),
  status: field(ScaleStatus, 3),
});
