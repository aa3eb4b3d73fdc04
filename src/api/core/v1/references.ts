// core/v1 small reference types shared by many kinds (k8s.io/api/core/v1). Field numbers are
// those of k8s.io/api core/v1 generated.proto.
import { field, struct, t } from '../../schema/dsl.js';

/** A reference to any object (Event.involvedObject, Binding.target, ...). */
export const ObjectReference = struct(
  'io.k8s.api.core.v1.ObjectReference',
  {
    kind: field(t.string, 1),
    namespace: field(t.string, 2),
    name: field(t.string, 3),
    uid: field(t.string, 4),
    apiVersion: field(t.string, 5),
    resourceVersion: field(t.string, 6),
    fieldPath: field(t.string, 7),
  },
  { structType: 'atomic' },
);

/** A reference to an object by name in the same namespace. */
export const LocalObjectReference = struct(
  'io.k8s.api.core.v1.LocalObjectReference',
  {
    name: field(t.string, 1, { default: '' }),
  },
  { structType: 'atomic' },
);

/** A reference to a typed object in the same namespace. */
export const TypedLocalObjectReference = struct(
  'io.k8s.api.core.v1.TypedLocalObjectReference',
  {
    // `json:"apiGroup"` without omitempty: Go writes `"apiGroup": null` when unset.
    apiGroup: field(t.string, 1, { pointer: true, omitempty: false }),
    kind: field(t.string, 2, { omitempty: false, required: true }),
    name: field(t.string, 3, { omitempty: false, required: true }),
  },
  { structType: 'atomic' },
);

/** A reference to a typed object, possibly in another namespace. */
export const TypedObjectReference = struct('io.k8s.api.core.v1.TypedObjectReference', {
  // `json:"apiGroup"` without omitempty, like TypedLocalObjectReference.
  apiGroup: field(t.string, 1, { pointer: true, omitempty: false }),
  kind: field(t.string, 2, { omitempty: false, required: true }),
  name: field(t.string, 3, { omitempty: false, required: true }),
  namespace: field(t.string, 4, { pointer: true }),
});

/** A reference to a Secret, possibly in another namespace. */
export const SecretReference = struct(
  'io.k8s.api.core.v1.SecretReference',
  {
    name: field(t.string, 1),
    namespace: field(t.string, 2),
  },
  { structType: 'atomic' },
);
