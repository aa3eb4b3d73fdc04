// core/v1 Secret. Field numbers are those of k8s.io/api core/v1 generated.proto.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../../schema/dsl.js';

/**
 * data values are bytes (base64 in JSON). stringData is write-only: it is merged into data on
 * write (winning over data) and never returned. type defaults to Opaque.
 */
export const Secret = struct('io.k8s.api.core.v1.Secret', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  immutable: field(t.bool, 5, { pointer: true }),
  data: field(mapOf(t.bytes), 2),
  stringData: field(mapOf(t.string), 4),
  type: field(t.string, 3),
});

export const SecretList = struct('io.k8s.api.core.v1.SecretList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Secret), 2, { omitempty: false, required: true }),
});
