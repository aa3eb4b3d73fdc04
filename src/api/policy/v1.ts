// policy/v1 (k8s.io/api/policy/v1): PodDisruptionBudget (stored, with a status subresource) and
// Eviction, the body POSTed to pods/<name>/eviction (kubectl drain; not stored). Field numbers
// are those of policy/v1 generated.proto. No server-side defaults.
import { Condition, DeleteOptions, LabelSelector, ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.policy.v1.';

/** The values of spec.unhealthyPodEvictionPolicy. */
export const UNHEALTHY_POD_EVICTION_POLICIES = ['IfHealthyBudget', 'AlwaysAllow'] as const;

export const PodDisruptionBudgetSpec = struct(G + 'PodDisruptionBudgetSpec', {
  minAvailable: field(t.intOrString, 1, { pointer: true }),
  selector: field(LabelSelector, 2, { pointer: true, patchStrategy: 'replace' }),
  maxUnavailable: field(t.intOrString, 3, { pointer: true }),
  unhealthyPodEvictionPolicy: field(t.string, 4, { pointer: true, enum: UNHEALTHY_POD_EVICTION_POLICIES }),
});

export const PodDisruptionBudgetStatus = struct(G + 'PodDisruptionBudgetStatus', {
  observedGeneration: field(t.int64, 1),
  disruptedPods: field(mapOf(t.time), 2),
  disruptionsAllowed: field(t.int32, 3, { omitempty: false, required: true }),
  currentHealthy: field(t.int32, 4, { omitempty: false, required: true }),
  desiredHealthy: field(t.int32, 5, { omitempty: false, required: true }),
  expectedPods: field(t.int32, 6, { omitempty: false, required: true }),
  conditions: field(listOf(Condition), 7, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }),
});

export const PodDisruptionBudget = struct(G + 'PodDisruptionBudget', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(PodDisruptionBudgetSpec, 2),
  status: field(PodDisruptionBudgetStatus, 3),
});

export const PodDisruptionBudgetList = struct(G + 'PodDisruptionBudgetList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(PodDisruptionBudget), 2, { omitempty: false, required: true }),
});

/** metadata names the pod to evict; deleteOptions are applied to its deletion. */
export const Eviction = struct(G + 'Eviction', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  deleteOptions: field(DeleteOptions, 2, { pointer: true }),
});
