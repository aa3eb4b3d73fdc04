// The go-cmp diff Kubernetes appends to a refused claim update: cmp.Diff(old, new) of the internal
// core.PersistentVolumeClaimSpec (after the allowed changes were copied over), rendered by the
// same go-cmp model pods use (podspec/diff).
import type { Obj } from '../../../../machinery/validation/common.js';
import { anyNamed, f, ptr, Q, S, slice, struct, type GoType } from '../../../podspec/diff/go-types.js';
import { cmpDiff } from '../../../podspec/diff/report-diff.js';

const resourceList: GoType = { k: 'map', name: 'core.ResourceList', stringerKeys: true, e: Q };

const claimSpec = struct('core.PersistentVolumeClaimSpec', [
  f('AccessModes', 'accessModes', slice('[]core.PersistentVolumeAccessMode', S)),
  f('Selector', 'selector', ptr(anyNamed('v1.LabelSelector'))),
  f('Resources', 'resources', struct('core.VolumeResourceRequirements', [f('Limits', 'limits', resourceList), f('Requests', 'requests', resourceList)])),
  f('VolumeName', 'volumeName', S),
  f('StorageClassName', 'storageClassName', ptr(S)),
  f('VolumeMode', 'volumeMode', ptr(S)),
  f('DataSource', 'dataSource', ptr(anyNamed('core.TypedLocalObjectReference'))),
  f('DataSourceRef', 'dataSourceRef', ptr(anyNamed('core.TypedObjectReference'))),
  f('VolumeAttributesClassName', 'volumeAttributesClassName', ptr(S)),
]);

/** cmp.Diff(oldSpec, newSpec) of two claim specs as Kubernetes' internal type. */
export function claimSpecDiff(oldSpec: Obj, newSpec: Obj): string {
  return cmpDiff(claimSpec, oldSpec, newSpec);
}
