// Which resource names are native or extended (pkg/apis/core/helper), shared by the pod spec's
// validation (registry/podspec) and the quota evaluators (machinery/quota).
import { isQualifiedName } from './names.js';

/** helper.IsNativeResource: unprefixed or in the kubernetes.io domain. */
export const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');

/** helper.IsExtendedResourceName: a fully qualified, non-native name that is not a quota "requests." name. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}
