// meta.k8s.io/v1 (k8s.io/apimachinery/pkg/apis/meta/v1): object and list metadata and the other
// machinery types shared by every kind. Field numbers are those of apimachinery's generated.proto.
import { field, listOf, mapOf, struct, t } from '../schema/dsl.js';

export const OwnerReference = struct(
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
  {
    apiVersion: field(t.string, 5, { omitempty: false, required: true }),
    kind: field(t.string, 1, { omitempty: false, required: true }),
    name: field(t.string, 3, { omitempty: false, required: true }),
    uid: field(t.string, 4, { omitempty: false, required: true }),
    controller: field(t.bool, 6, { pointer: true }),
    blockOwnerDeletion: field(t.bool, 7, { pointer: true }),
  },
  { structType: 'atomic' },
);

export const ManagedFieldsEntry = struct('io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry', {
  manager: field(t.string, 1),
  operation: field(t.string, 2),
  apiVersion: field(t.string, 3),
  time: field(t.time, 4, { pointer: true }),
  fieldsType: field(t.string, 6),
  fieldsV1: field(t.fieldsV1, 7, { pointer: true }),
  subresource: field(t.string, 8),
});

export const ObjectMeta = struct('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', {
  name: field(t.string, 1),
  generateName: field(t.string, 2),
  namespace: field(t.string, 3),
  selfLink: field(t.string, 4),
  uid: field(t.string, 5),
  resourceVersion: field(t.string, 6),
  generation: field(t.int64, 7),
  // A non-pointer metav1.Time: Go's JSON encoder writes `null` when it is zero, despite omitempty.
  creationTimestamp: field(t.time, 8),
  deletionTimestamp: field(t.time, 9, { pointer: true }),
  deletionGracePeriodSeconds: field(t.int64, 10, { pointer: true }),
  labels: field(mapOf(t.string), 11),
  annotations: field(mapOf(t.string), 12),
  ownerReferences: field(listOf(OwnerReference), 13, {
    patchStrategy: 'merge',
    patchMergeKey: 'uid',
    listType: 'map',
    listMapKeys: ['uid'],
  }),
  finalizers: field(listOf(t.string), 14, { patchStrategy: 'merge', listType: 'set' }),
  managedFields: field(listOf(ManagedFieldsEntry), 17, { listType: 'atomic' }),
});

export const ListMeta = struct('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', {
  selfLink: field(t.string, 1),
  resourceVersion: field(t.string, 2),
  continue: field(t.string, 3),
  remainingItemCount: field(t.int64, 4, { pointer: true }),
});

export const LabelSelectorRequirement = struct('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement', {
  key: field(t.string, 1, { omitempty: false, required: true, patchStrategy: 'merge', patchMergeKey: 'key' }),
  operator: field(t.string, 2, { omitempty: false, required: true }),
  values: field(listOf(t.string), 3, { listType: 'atomic' }),
});

export const LabelSelector = struct(
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
  {
    matchLabels: field(mapOf(t.string), 1),
    matchExpressions: field(listOf(LabelSelectorRequirement), 2, { listType: 'atomic' }),
  },
  { structType: 'atomic' },
);
