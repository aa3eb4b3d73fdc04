// core/v1 selectors of a value from elsewhere (a pod field, a container resource, a key of a
// ConfigMap, Secret or env file): used by env vars and by downward API / projected volumes.
import { field, inline, struct, t } from '../../schema/dsl.js';
import { LocalObjectReference } from './references.js';

/** A field of the pod (downward API), by path in an API version. */
export const ObjectFieldSelector = struct(
  'io.k8s.api.core.v1.ObjectFieldSelector',
  {
    apiVersion: field(t.string, 1),
    fieldPath: field(t.string, 2, { omitempty: false, required: true }),
  },
  { structType: 'atomic' },
);

/** A container's resource limit or request (downward API), in units of `divisor`. */
export const ResourceFieldSelector = struct(
  'io.k8s.api.core.v1.ResourceFieldSelector',
  {
    containerName: field(t.string, 1),
    resource: field(t.string, 2, { omitempty: false, required: true }),
    // A non-pointer Quantity: Go writes it always ("0" when unset), in JSON and protobuf.
    divisor: field(t.quantity, 3),
  },
  { structType: 'atomic' },
);

/** One key of a ConfigMap. */
export const ConfigMapKeySelector = struct(
  'io.k8s.api.core.v1.ConfigMapKeySelector',
  {
    ...inline(LocalObjectReference, 1, 'localObjectReference'),
    key: field(t.string, 2, { omitempty: false, required: true }),
    optional: field(t.bool, 3, { pointer: true }),
  },
  { structType: 'atomic' },
);

/** One key of a Secret. */
export const SecretKeySelector = struct(
  'io.k8s.api.core.v1.SecretKeySelector',
  {
    ...inline(LocalObjectReference, 1, 'localObjectReference'),
    key: field(t.string, 2, { omitempty: false, required: true }),
    optional: field(t.bool, 3, { pointer: true }),
  },
  { structType: 'atomic' },
);

/** One key of an env file in a volume (EnvFiles, v1.34). */
export const FileKeySelector = struct(
  'io.k8s.api.core.v1.FileKeySelector',
  {
    volumeName: field(t.string, 1, { omitempty: false, required: true }),
    path: field(t.string, 2, { omitempty: false, required: true }),
    key: field(t.string, 3, { omitempty: false, required: true }),
    optional: field(t.bool, 4, { pointer: true, default: false }),
  },
  { structType: 'atomic' },
);
