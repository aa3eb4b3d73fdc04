// core/v1 ServiceAccount. Field numbers are those of k8s.io/api core/v1 generated.proto.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../../schema/dsl.js';
import { LocalObjectReference, ObjectReference } from './references.js';

export const ServiceAccount = struct('io.k8s.api.core.v1.ServiceAccount', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  secrets: field(listOf(ObjectReference), 2, {
    patchStrategy: 'merge',
    patchMergeKey: 'name',
    listType: 'map',
    listMapKeys: ['name'],
  }),
  imagePullSecrets: field(listOf(LocalObjectReference), 3, { listType: 'atomic' }),
  automountServiceAccountToken: field(t.bool, 4, { pointer: true }),
});

export const ServiceAccountList = struct('io.k8s.api.core.v1.ServiceAccountList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ServiceAccount), 2, { omitempty: false, required: true }),
});
