// core/v1 Namespace. Field numbers are those of k8s.io/api core/v1 generated.proto.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../../schema/dsl.js';

/** `kubernetes` is the finalizer the namespace controller removes once the namespace is empty. */
export const NamespaceSpec = struct('io.k8s.api.core.v1.NamespaceSpec', {
  finalizers: field(listOf(t.string), 1, { listType: 'atomic' }),
});

/** Set by the namespace controller while deleting (NamespaceContentRemaining, ...). */
export const NamespaceCondition = struct('io.k8s.api.core.v1.NamespaceCondition', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  status: field(t.string, 2, { omitempty: false, required: true }),
  lastTransitionTime: field(t.time, 4),
  reason: field(t.string, 5),
  message: field(t.string, 6),
});

export const NamespaceStatus = struct('io.k8s.api.core.v1.NamespaceStatus', {
  phase: field(t.string, 1, { enum: ['Active', 'Terminating'] }),
  conditions: field(listOf(NamespaceCondition), 2, {
    patchStrategy: 'merge',
    patchMergeKey: 'type',
    listType: 'map',
    listMapKeys: ['type'],
  }),
});

export const Namespace = struct('io.k8s.api.core.v1.Namespace', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(NamespaceSpec, 2),
  status: field(NamespaceStatus, 3),
});

export const NamespaceList = struct('io.k8s.api.core.v1.NamespaceList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Namespace), 2, { omitempty: false, required: true }),
});
