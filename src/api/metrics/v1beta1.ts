// metrics.k8s.io/v1beta1 (k8s.io/metrics/pkg/apis/metrics/v1beta1): NodeMetrics and PodMetrics,
// the resource usage `kubectl top` reads. Field numbers are those of its generated.proto.
import { ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.metrics.pkg.apis.metrics.v1beta1.';

export const NodeMetrics = struct(G + 'NodeMetrics', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  timestamp: field(t.time, 2, { omitempty: false, required: true }),
  window: field(t.duration, 3, { omitempty: false, required: true }),
  usage: field(mapOf(t.quantity), 4, { omitempty: false, required: true }),
});

export const NodeMetricsList = struct(G + 'NodeMetricsList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(NodeMetrics), 2, { omitempty: false, required: true }),
});

export const ContainerMetrics = struct(G + 'ContainerMetrics', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  usage: field(mapOf(t.quantity), 2, { omitempty: false, required: true }),
});

export const PodMetrics = struct(G + 'PodMetrics', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  timestamp: field(t.time, 2, { omitempty: false, required: true }),
  window: field(t.duration, 3, { omitempty: false, required: true }),
  containers: field(listOf(ContainerMetrics), 4, { omitempty: false, required: true }),
});

export const PodMetricsList = struct(G + 'PodMetricsList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(PodMetrics), 2, { omitempty: false, required: true }),
});
