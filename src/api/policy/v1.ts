// policy/v1 Eviction: the body POSTed to pods/<name>/eviction (kubectl drain). Not stored.
// Field numbers are those of k8s.io/api policy/v1 generated.proto. (PodDisruptionBudget is not
// declared yet.)
import { DeleteOptions, ObjectMeta } from '../meta/v1.js';
import { field, struct, typeMetaFields } from '../schema/dsl.js';

/** metadata names the pod to evict; deleteOptions are applied to its deletion. */
export const Eviction = struct('io.k8s.api.policy.v1.Eviction', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  deleteOptions: field(DeleteOptions, 2, { pointer: true }),
});
