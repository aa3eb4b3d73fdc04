// The downward API: which pod fields (fieldRef) and container resources (resourceFieldRef) an
// environment variable or a downwardAPI volume file may expose, and in which units.
import { parseQuantity } from '../../api/meta/quantity.js';
import type { ObjectFieldSelector, ResourceFieldSelector } from '../../api/types.js';
import { child, str } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { qualifiedName } from './name-errors.js';
import { quantityString } from './resource-names.js';

export const validVolumeDownwardAPIFieldPaths = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
export const validEnvDownwardAPIFieldPaths = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs',
];
const validContainerResourceFieldPaths = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const downwardAPIFieldLabels = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs',
  'status.podIP', 'status.podIPs', 'spec.host',
]);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']` → path and subscript. */
function splitSubscript(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return [s.slice(0, at), s.slice(at + 2)];
}

export function validateObjectFieldSelector(fs: ObjectFieldSelector, expressions: string[], path: string): FieldError[] {
  const apiVersion = str(fs.apiVersion);
  const fieldPath = str(fs.fieldPath);
  if (apiVersion === '') return [fieldError.required(child(path, 'apiVersion'))];
  if (fieldPath === '') return [fieldError.required(child(path, 'fieldPath'))];
  let internal = fieldPath;
  let convErr: string | undefined;
  if (apiVersion !== 'v1') convErr = `unsupported pod version: ${apiVersion}`;
  else {
    const sub = splitSubscript(fieldPath);
    if (sub) {
      if (sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') convErr = `field label does not support subscript: ${fieldPath}`;
    } else if (!downwardAPIFieldLabels.has(fieldPath)) convErr = `field label not supported: ${fieldPath}`;
    else if (fieldPath === 'spec.host') internal = 'spec.nodeName';
  }
  if (convErr) return [fieldError.invalid(child(path, 'fieldPath'), fieldPath, `error converting fieldPath: ${convErr}`)];
  const sub = splitSubscript(internal);
  if (sub) {
    if (sub[0] === 'metadata.annotations') return qualifiedName(sub[1].toLowerCase(), path);
    if (sub[0] === 'metadata.labels') return qualifiedName(sub[1], path);
    return [fieldError.invalid(path, sub[0], 'does not support subscript')];
  }
  if (!expressions.includes(internal)) return [fieldError.notSupported(child(path, 'fieldPath'), internal, expressions)];
  return [];
}

const cpuDivisors = new Set(['1m', '1']);
const byteDivisors = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);

function validateContainerResourceDivisor(resource: string, divisor: unknown, path: string): FieldError[] {
  if (divisor === undefined || divisor === null) return [];
  const q = parseQuantity(String(divisor));
  if (!q || q.isZero()) return [];
  const d = quantityString(divisor);
  const errs: FieldError[] = [];
  const p = child(path, 'divisor');
  if ((resource === 'limits.cpu' || resource === 'requests.cpu') && !cpuDivisors.has(d)) {
    errs.push(fieldError.invalid(p, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
  } else if ((resource === 'limits.memory' || resource === 'requests.memory') && !byteDivisors.has(d)) {
    errs.push(fieldError.invalid(p, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource"));
  } else if ((resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') && !byteDivisors.has(d)) {
    errs.push(fieldError.invalid(p, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource"));
  }
  if ((resource.startsWith('requests.hugepages-') || resource.startsWith('limits.hugepages-')) && !byteDivisors.has(d)) {
    errs.push(fieldError.invalid(p, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource"));
  }
  return errs;
}

export function validateContainerResourceFieldSelector(fs: ResourceFieldSelector, path: string, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = str(fs.resource);
  if (volume && str(fs.containerName) === '') errs.push(fieldError.required(child(path, 'containerName')));
  else if (resource === '') errs.push(fieldError.required(child(path, 'resource')));
  else if (!validContainerResourceFieldPaths.includes(resource) && !resource.startsWith('requests.hugepages-') && !resource.startsWith('limits.hugepages-')) {
    errs.push(fieldError.notSupported(child(path, 'resource'), resource, validContainerResourceFieldPaths));
  }
  errs.push(...validateContainerResourceDivisor(resource, fs.divisor, path));
  return errs;
}
