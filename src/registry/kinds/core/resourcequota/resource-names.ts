// What a ResourceQuota may name (pkg/apis/core/helper): the standard quota resources and scopes,
// and which scopes apply to which resources. Used by the quota's validation.
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { validateResourceName } from '../../../podspec/resource-names.js';

const standardQuotaResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);

/** helper.IsStandardQuotaResourceName (hugepages-<size> and requests.hugepages-<size> included). */
export function isStandardQuotaResourceName(name: string): boolean {
  return standardQuotaResources.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
}

export const STANDARD_QUOTA_SCOPES: ReadonlySet<string> = new Set([
  'Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity', 'VolumeAttributesClass',
]);

const podCountAndCompute = new Set(['pods', 'cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);

/** helper.IsResourceQuotaScopeValidForResource. */
export function isScopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return podCountAndCompute.has(resource);
    case 'BestEffort':
      return resource === 'pods';
    case 'VolumeAttributesClass':
      return resource === 'persistentvolumeclaims' || resource === 'requests.storage';
    default:
      return true;
  }
}

/** ValidateResourceQuotaResourceName. */
export function validateQuotaResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) errs.push(fieldError.invalid(path, name, 'must be a standard resource for quota'));
  return errs;
}
