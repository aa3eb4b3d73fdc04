// core/v1 scheduling constraints: node/pod (anti-)affinity, tolerations, topology spread.
import { LabelSelector } from '../../meta/v1.js';
import { field, listOf, struct, t } from '../../schema/dsl.js';

const req = { omitempty: false, required: true } as const;

export const NodeSelectorOperator = ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'] as const;
export const TaintEffect = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'] as const;
export const TolerationOperator = ['Equal', 'Exists'] as const;
export const UnsatisfiableConstraintAction = ['DoNotSchedule', 'ScheduleAnyway'] as const;
export const NodeInclusionPolicy = ['Honor', 'Ignore'] as const;

export const NodeSelectorRequirement = struct('io.k8s.api.core.v1.NodeSelectorRequirement', {
  key: field(t.string, 1, req),
  operator: field(t.string, 2, { ...req, enum: NodeSelectorOperator }),
  values: field(listOf(t.string), 3, { listType: 'atomic' }),
});

export const NodeSelectorTerm = struct(
  'io.k8s.api.core.v1.NodeSelectorTerm',
  {
    matchExpressions: field(listOf(NodeSelectorRequirement), 1, { listType: 'atomic' }),
    matchFields: field(listOf(NodeSelectorRequirement), 2, { listType: 'atomic' }),
  },
  { structType: 'atomic' },
);

export const NodeSelector = struct(
  'io.k8s.api.core.v1.NodeSelector',
  {
    nodeSelectorTerms: field(listOf(NodeSelectorTerm), 1, { ...req, listType: 'atomic' }),
  },
  { structType: 'atomic' },
);

/** A topology constraint of a StorageClass's allowedTopologies (labels of nodes). */
export const TopologySelectorLabelRequirement = struct('io.k8s.api.core.v1.TopologySelectorLabelRequirement', {
  key: field(t.string, 1, req),
  values: field(listOf(t.string), 2, { ...req, listType: 'atomic' }),
});

export const TopologySelectorTerm = struct(
  'io.k8s.api.core.v1.TopologySelectorTerm',
  { matchLabelExpressions: field(listOf(TopologySelectorLabelRequirement), 1, { listType: 'atomic' }) },
  { structType: 'atomic' },
);

export const PreferredSchedulingTerm = struct('io.k8s.api.core.v1.PreferredSchedulingTerm', {
  weight: field(t.int32, 1, req),
  preference: field(NodeSelectorTerm, 2, req),
});

export const NodeAffinity = struct('io.k8s.api.core.v1.NodeAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: field(NodeSelector, 1, { pointer: true }),
  preferredDuringSchedulingIgnoredDuringExecution: field(listOf(PreferredSchedulingTerm), 2, { listType: 'atomic' }),
});

export const PodAffinityTerm = struct('io.k8s.api.core.v1.PodAffinityTerm', {
  labelSelector: field(LabelSelector, 1, { pointer: true }),
  namespaces: field(listOf(t.string), 2, { listType: 'atomic' }),
  topologyKey: field(t.string, 3, req),
  namespaceSelector: field(LabelSelector, 4, { pointer: true }),
  matchLabelKeys: field(listOf(t.string), 5, { listType: 'atomic' }),
  mismatchLabelKeys: field(listOf(t.string), 6, { listType: 'atomic' }),
});

export const WeightedPodAffinityTerm = struct('io.k8s.api.core.v1.WeightedPodAffinityTerm', {
  weight: field(t.int32, 1, req),
  podAffinityTerm: field(PodAffinityTerm, 2, req),
});

export const PodAffinity = struct('io.k8s.api.core.v1.PodAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: field(listOf(PodAffinityTerm), 1, { listType: 'atomic' }),
  preferredDuringSchedulingIgnoredDuringExecution: field(listOf(WeightedPodAffinityTerm), 2, { listType: 'atomic' }),
});

export const PodAntiAffinity = struct('io.k8s.api.core.v1.PodAntiAffinity', {
  requiredDuringSchedulingIgnoredDuringExecution: field(listOf(PodAffinityTerm), 1, { listType: 'atomic' }),
  preferredDuringSchedulingIgnoredDuringExecution: field(listOf(WeightedPodAffinityTerm), 2, { listType: 'atomic' }),
});

export const Affinity = struct('io.k8s.api.core.v1.Affinity', {
  nodeAffinity: field(NodeAffinity, 1, { pointer: true }),
  podAffinity: field(PodAffinity, 2, { pointer: true }),
  podAntiAffinity: field(PodAntiAffinity, 3, { pointer: true }),
});

export const Toleration = struct('io.k8s.api.core.v1.Toleration', {
  key: field(t.string, 1),
  operator: field(t.string, 2, { enum: TolerationOperator }),
  value: field(t.string, 3),
  effect: field(t.string, 4, { enum: TaintEffect }),
  tolerationSeconds: field(t.int64, 5, { pointer: true }),
});

export const TopologySpreadConstraint = struct('io.k8s.api.core.v1.TopologySpreadConstraint', {
  maxSkew: field(t.int32, 1, req),
  topologyKey: field(t.string, 2, req),
  whenUnsatisfiable: field(t.string, 3, { ...req, enum: UnsatisfiableConstraintAction }),
  labelSelector: field(LabelSelector, 4, { pointer: true }),
  minDomains: field(t.int32, 5, { pointer: true }),
  nodeAffinityPolicy: field(t.string, 6, { pointer: true, enum: NodeInclusionPolicy }),
  nodeTaintsPolicy: field(t.string, 7, { pointer: true, enum: NodeInclusionPolicy }),
  matchLabelKeys: field(listOf(t.string), 8, { listType: 'atomic' }),
});
