// Server-side defaults of core/v1 PersistentVolume and PersistentVolumeClaim
// (SetObjectDefaults_PersistentVolume / _PersistentVolumeClaim of pkg/apis/core/v1).
import type { KubeObject } from '../../schema/kind.js';
import { child, unset, type Obj } from '../../go-json.js';
import { defaultPersistentVolumeClaimSpec, defaultResourceList, defaultVolumeSources } from './defaults.js';

/** The spec part of a PV's defaults, shared with a VolumeAttachment's inline volume spec. */
export function defaultPersistentVolumeSpec(spec: Obj): void {
  defaultResourceList(spec.capacity);
  defaultVolumeSources(spec);
}

/** SetDefaults_PersistentVolume: phase Pending, reclaim policy Retain, volume mode Filesystem; and the sources' defaults. */
export function defaultPersistentVolume(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  defaultPersistentVolumeSpec(spec);
  if (unset(spec.persistentVolumeReclaimPolicy)) spec.persistentVolumeReclaimPolicy = 'Retain';
  if (spec.volumeMode === undefined || spec.volumeMode === null) spec.volumeMode = 'Filesystem';
  const status = child(obj, 'status');
  if (unset(status.phase)) status.phase = 'Pending';
}

/** SetDefaults_PersistentVolumeClaim(+Spec): phase Pending, volume mode Filesystem, resource lists rounded. */
export function defaultPersistentVolumeClaim(obj: KubeObject): void {
  defaultPersistentVolumeClaimSpec(child(obj, 'spec'));
  const status = child(obj, 'status');
  if (unset(status.phase)) status.phase = 'Pending';
  defaultResourceList(status.capacity);
  defaultResourceList(status.allocatedResources);
}
