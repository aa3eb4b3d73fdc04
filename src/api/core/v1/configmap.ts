// core/v1 ConfigMap. Field numbers are those of k8s.io/api core/v1 generated.proto.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../../schema/dsl.js';

/** data holds UTF-8 strings, binaryData anything else (base64 in JSON); their keys may not overlap. */
export const ConfigMap = struct('io.k8s.api.core.v1.ConfigMap', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  immutable: field(t.bool, 4, { pointer: true }),
  data: field(mapOf(t.string), 2),
  binaryData: field(mapOf(t.bytes), 3),
});

export const ConfigMapList = struct('io.k8s.api.core.v1.ConfigMapList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ConfigMap), 2, { omitempty: false, required: true }),
});
