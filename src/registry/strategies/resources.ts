// Resource names and quantities as Kubernetes validates them (pkg/apis/core/helper and the
// resource parts of pkg/apis/core/validation), with v1.26's messages.
import { parseQuantity, type Quantity } from '../../api/meta/quantity.js';
import { child, index, key, obj, objs, sortedKeys, str, type Obj } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { rawError } from '../../machinery/validation/go-syntax.js';
import { isDNS1123Label, isQualifiedName } from '../../machinery/validation/names.js';

export const isHugePageResourceName = (name: string): boolean => name.startsWith('hugepages-');
/** helper.IsNativeResource: unprefixed or in the kubernetes.io domain. */
export const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
/** helper.IsExtendedResourceName: a fully qualified, non-native name that is not a quota "requests." name. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}
export const isOvercommitAllowed = (name: string): boolean => isNativeResource(name) && !isHugePageResourceName(name);

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);
const standardResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const integerResources = new Set([
  'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);
export const isStandardResourceName = (name: string): boolean => standardResources.has(name) || isHugePageResourceName(name);
export const isStandardContainerResourceName = (name: string): boolean => standardContainerResources.has(name) || isHugePageResourceName(name);
export const isIntegerResourceName = (name: string): boolean => integerResources.has(name) || isExtendedResourceName(name);

/** A quantity's canonical string (Quantity.String()), or the text itself when it does not parse. */
export function quantityString(v: unknown): string {
  const q = typeof v === 'string' ? parseQuantity(v) : typeof v === 'number' ? parseQuantity(String(v)) : undefined;
  return q ? q.toString() : String(v ?? '');
}

export function toQuantity(v: unknown): Quantity | undefined {
  if (typeof v === 'string') return parseQuantity(v);
  if (typeof v === 'number') return parseQuantity(String(v));
  return undefined;
}

/** %#v of a resource.Quantity value (what "must be an integer" errors print). */
function goQuantity(q: Quantity): string {
  const s = q.toString();
  let value = q.unscaled;
  let scale = q.exponent;
  if (scale > 0) {
    value *= 10n ** BigInt(scale);
    scale = 0;
  }
  return `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${JSON.stringify(s)}, Format:${JSON.stringify(q.format)}}`;
}

/** ValidateResourceQuantityValue: non-negative, and whole for integer resources. */
export function validateResourceQuantityValue(resource: string, value: unknown, path: string): FieldError[] {
  const q = toQuantity(value);
  if (!q) return [];
  const errs: FieldError[] = [];
  if (q.sign() < 0) errs.push(fieldError.invalid(path, q.toString(), 'must be greater than or equal to 0'));
  if (isIntegerResourceName(resource)) {
    // Quantity.MilliValue() rounds up (away from zero); the value must be a whole number of units at milli precision.
    if (q.scaledValueBig(-3) % 1000n !== 0n) errs.push(rawError('FieldValueInvalid', path, goQuantity(q), 'must be an integer'));
  }
  return errs;
}

/** validateResourceName: a qualified name, and a standard one when unprefixed. */
export function validateResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) return [fieldError.invalid(path, name, 'must be a standard resource type or fully qualified')];
  return [];
}

/** validateContainerResourceName. */
export function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!isStandardContainerResourceName(name)) return [...errs, fieldError.invalid(path, name, 'must be a standard resource for containers')];
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    return [...errs, fieldError.invalid(path, name, "doesn't follow extended resource name standard")];
  }
  return errs;
}

/** The page size of a hugepages-<size> resource. */
function hugePageSize(name: string): Quantity | undefined {
  const q = parseQuantity(name.slice('hugepages-'.length));
  return q && q.sign() > 0 ? q : undefined;
}

function hugePageValueError(name: string, value: Quantity): string | undefined {
  const size = hugePageSize(name);
  if (!size) return undefined;
  // value / size must be a positive integer (0 is allowed too, as Kubernetes' IsHugePageResourceValueDivisible).
  const e = Math.min(value.exponent, size.exponent);
  const v = value.unscaled * 10n ** BigInt(value.exponent - e);
  const s = size.unscaled * 10n ** BigInt(size.exponent - e);
  if (v % s === 0n) return undefined;
  return `${value.toString()} is not positive integer multiple of ${name}`;
}

/** The resource names and their quantities of a ResourceList, keys sorted (Go maps have no order; tests need one). */
export function resourceEntries(list: unknown): [string, unknown][] {
  const o = obj(list);
  return sortedKeys(o).map((k) => [k, o[k]]);
}

export type ResourceNameValidator = (name: string, path: string) => FieldError[];

/**
 * validateResourceRequirements with v1.26's messages: names and quantities of limits and requests,
 * requests ≤ limits (= for resources that cannot be overcommitted), hugepages need cpu or memory,
 * claims refer to the pod's resource claims.
 */
export function validateResourceRequirements(
  requirements: unknown,
  nameFn: ResourceNameValidator,
  podClaimNames: Set<string>,
  path: string,
): FieldError[] {
  const r = obj(requirements);
  const errs: FieldError[] = [];
  const limPath = child(path, 'limits');
  const reqPath = child(path, 'requests');
  let limCpuMem = false;
  let reqCpuMem = false;
  let limHuge = false;
  let reqHuge = false;
  const limits = obj(r.limits);
  for (const [name, value] of resourceEntries(r.limits)) {
    const p = key(limPath, name);
    errs.push(...nameFn(name, p));
    errs.push(...validateResourceQuantityValue(name, value, p));
    const q = toQuantity(value);
    if (isHugePageResourceName(name)) {
      limHuge = true;
      const msg = q ? hugePageValueError(name, q) : undefined;
      if (msg) errs.push(fieldError.invalid(p, q!.toString(), msg));
    }
    if (name === 'cpu' || name === 'memory') limCpuMem = true;
  }
  for (const [name, value] of resourceEntries(r.requests)) {
    const p = key(reqPath, name);
    errs.push(...nameFn(name, p));
    errs.push(...validateResourceQuantityValue(name, value, p));
    const q = toQuantity(value);
    const lim = Object.prototype.hasOwnProperty.call(limits, name) ? toQuantity(limits[name]) : undefined;
    if (q && lim) {
      const cmp = q.cmp(lim);
      if (cmp !== 0 && !isOvercommitAllowed(name)) errs.push(fieldError.invalid(reqPath, q.toString(), `must be equal to ${name} limit`));
      else if (cmp > 0) errs.push(fieldError.invalid(reqPath, q.toString(), `must be less than or equal to ${name} limit`));
    } else if (!Object.prototype.hasOwnProperty.call(limits, name) && !isOvercommitAllowed(name)) {
      errs.push(fieldError.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePageResourceName(name)) {
      reqHuge = true;
      const msg = q ? hugePageValueError(name, q) : undefined;
      if (msg) errs.push(fieldError.invalid(p, q!.toString(), msg));
    }
    if (name === 'cpu' || name === 'memory') reqCpuMem = true;
  }
  if (!limCpuMem && !reqCpuMem && (reqHuge || limHuge)) errs.push(fieldError.forbidden(path, 'HugePages require cpu or memory'));
  errs.push(...validateResourceClaimNames(r.claims, podClaimNames, child(path, 'claims')));
  return errs;
}

/** validateResourceClaimNames: each claim refers to an entry of pod.spec.resourceClaims, once. */
function validateResourceClaimNames(claims: unknown, podClaimNames: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objs(claims).forEach((claim: Obj, i) => {
    const name = str(claim.name);
    const request = str(claim.request);
    const p = index(path, i);
    if (name === '') {
      errs.push(fieldError.required(p));
      return;
    }
    if (names.has(name)) {
      errs.push(fieldError.duplicate(p, name));
    } else {
      let k = name;
      if (request !== '') {
        errs.push(...isDNS1123Label(request).map((msg) => fieldError.invalid(child(p, 'request'), request, msg)));
        k += `/${request}`;
      }
      if (names.has(k)) errs.push(fieldError.duplicate(p, k));
      else if (request === '') for (const n of names) if (n.includes('/') && n.slice(0, n.indexOf('/')) === name) errs.push(fieldError.duplicate(p, name));
      names.add(k);
    }
    if (!podClaimNames.has(name)) {
      const sorted = [...podClaimNames].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${sorted.length === 0 ? ' which is empty' : `: ${sorted.join(', ')}`}`;
      errs.push({ ...fieldError.notFound(p, name), detail });
    }
  });
  return errs;
}
