// metrics.k8s.io/v1beta1: NodeMetrics and PodMetrics, computed on each read from the pods and
// nodes (see usage.ts), never stored; get and list only, as metrics-server serves them.
import type { KindVersion } from '../schema/kind.js';
import * as v1beta1 from './v1beta1.js';

export const METRICS_GROUP = 'metrics.k8s.io';

export const metricsKinds: readonly KindVersion[] = [
  { group: METRICS_GROUP, version: 'v1beta1', kind: 'NodeMetrics', resource: 'nodes', singular: '', namespaced: false, type: v1beta1.NodeMetrics, list: v1beta1.NodeMetricsList, storage: false, computed: true },
  { group: METRICS_GROUP, version: 'v1beta1', kind: 'PodMetrics', resource: 'pods', singular: '', namespaced: true, type: v1beta1.PodMetrics, list: v1beta1.PodMetricsList, storage: false, computed: true },
];
