// node.k8s.io/v1 (k8s.io/api/node/v1): RuntimeClass. Field numbers are those of node/v1
// generated.proto.
import { Toleration } from '../core/v1/affinity.js';
import { ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.node.v1.';

export const Overhead = struct(G + 'Overhead', {
  podFixed: field(mapOf(t.quantity), 1),
});

export const Scheduling = struct(G + 'Scheduling', {
  nodeSelector: field(mapOf(t.string), 1, { mapType: 'atomic' }),
  tolerations: field(listOf(Toleration), 2, { listType: 'atomic' }),
});

export const RuntimeClass = struct(G + 'RuntimeClass', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  handler: field(t.string, 2, { omitempty: false, required: true }),
  overhead: field(Overhead, 3, { pointer: true }),
  scheduling: field(Scheduling, 4, { pointer: true }),
});

export const RuntimeClassList = struct(G + 'RuntimeClassList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(RuntimeClass), 2, { omitempty: false, required: true }),
});
