// core/v1 PersistentVolumeClaim (StatefulSet volumeClaimTemplates embed it): the object, its list
// and its status. The spec (PersistentVolumeClaimSpec) is declared in ./volume.ts, where the
// ephemeral volume's claim template uses it too.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../../schema/dsl.js';
import { PersistentVolumeAccessMode, PersistentVolumeClaimSpec } from './volume.js';

const req = { omitempty: false, required: true } as const;

export const PersistentVolumeClaimPhase = ['Bound', 'Lost', 'Pending'] as const;

export const PersistentVolumeClaimCondition = struct('io.k8s.api.core.v1.PersistentVolumeClaimCondition', {
  type: field(t.string, 1, req),
  status: field(t.string, 2, req),
  lastProbeTime: field(t.time, 3),
  lastTransitionTime: field(t.time, 4),
  reason: field(t.string, 5),
  message: field(t.string, 6),
});

export const ModifyVolumeStatus = struct('io.k8s.api.core.v1.ModifyVolumeStatus', {
  targetVolumeAttributesClassName: field(t.string, 1),
  status: field(t.string, 2, { ...req, enum: ['InProgress', 'Infeasible', 'Pending'] }),
});

export const PersistentVolumeClaimStatus = struct('io.k8s.api.core.v1.PersistentVolumeClaimStatus', {
  phase: field(t.string, 1, { enum: PersistentVolumeClaimPhase }),
  accessModes: field(listOf(t.string), 2, { listType: 'atomic', enum: PersistentVolumeAccessMode }),
  capacity: field(mapOf(t.quantity), 3),
  conditions: field(listOf(PersistentVolumeClaimCondition), 4, {
    patchStrategy: 'merge',
    patchMergeKey: 'type',
    listType: 'map',
    listMapKeys: ['type'],
  }),
  allocatedResources: field(mapOf(t.quantity), 5),
  // Tag 6 (resizeStatus) is reserved.
  allocatedResourceStatuses: field(mapOf(t.string), 7, { mapType: 'granular' }),
  currentVolumeAttributesClassName: field(t.string, 8, { pointer: true }),
  modifyVolumeStatus: field(ModifyVolumeStatus, 9, { pointer: true }),
});

export const PersistentVolumeClaim = struct('io.k8s.api.core.v1.PersistentVolumeClaim', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(PersistentVolumeClaimSpec, 2),
  status: field(PersistentVolumeClaimStatus, 3),
});

export const PersistentVolumeClaimList = struct('io.k8s.api.core.v1.PersistentVolumeClaimList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(PersistentVolumeClaim), 2, req),
});
