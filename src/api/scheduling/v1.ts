// scheduling.k8s.io/v1 (k8s.io/api/scheduling/v1): PriorityClass. Field numbers are those of
// scheduling/v1 generated.proto.
import { ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.scheduling.v1.';

export const PriorityClass = struct(G + 'PriorityClass', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  value: field(t.int32, 2, { omitempty: false, required: true }),
  globalDefault: field(t.bool, 3),
  description: field(t.string, 4),
  preemptionPolicy: field(t.string, 5, { pointer: true }),
});

export const PriorityClassList = struct(G + 'PriorityClassList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(PriorityClass), 2, { omitempty: false, required: true }),
});
