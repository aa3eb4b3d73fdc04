// Resource requirements (limits, requests, claims) of a container, of the pod (pod-level
// resources and overhead), and the pod's resource claims the containers' claims refer to.
import { parseQuantity, type Quantity } from '../../api/meta/quantity.js';
import type { PodResourceClaim, PodSpec, ResourceClaim, ResourceRequirements } from '../../api/types.js';
import { child, index, key, obj, optStr, str } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { goString, goStruct, rawError } from '../../machinery/validation/go-syntax.js';
import { isDNS1123Label, nameIsDNSSubdomain } from '../../machinery/validation/names.js';
import { optStruct, struct, structs } from '../../machinery/validation/structs.js';
import { dns1123Label } from './name-errors.js';
import { isHugePageResourceName, isOvercommitAllowed, quantityString, resourceEntries, toQuantity, validateResourceName, validateResourceQuantityValue } from './resource-names.js';

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
export type ResourceNameValidator = (name: string, path: string) => FieldError[];

/**
 * validateResourceRequirements with v1.26's messages: names and quantities of limits and requests,
 * requests ≤ limits (= for resources that cannot be overcommitted), hugepages need cpu or memory,
 * claims refer to the pod's resource claims.
 */
export function validateResourceRequirements(
  requirements: ResourceRequirements | null | undefined,
  nameFn: ResourceNameValidator,
  podClaimNames: Set<string>,
  path: string,
): FieldError[] {
  const r = struct(requirements);
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
function validateResourceClaimNames(claims: readonly ResourceClaim[] | null | undefined, podClaimNames: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  structs(claims).forEach((claim, i) => {
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

export function validatePodResourceClaims(claims: readonly PodResourceClaim[] | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  structs(claims).forEach((c, i) => {
    const p = index(path, i);
    const name = str(c.name);
    if (name === '') errs.push(fieldError.required(child(p, 'name')));
    else if (names.has(name)) errs.push(fieldError.duplicate(child(p, 'name'), name));
    else {
      errs.push(...dns1123Label(name, child(p, 'name')));
      names.add(name);
    }
    const rcn = optStr(c.resourceClaimName);
    const rctn = optStr(c.resourceClaimTemplateName);
    const text = goStruct('core.PodResourceClaim', [
      ['Name', goString(name)],
      ['ResourceClaimName', rcn === undefined ? '(*string)(nil)' : '(*string)(0xc000000000)'],
      ['ResourceClaimTemplateName', rctn === undefined ? '(*string)(nil)' : '(*string)(0xc000000000)'],
    ]);
    if (rcn !== undefined && rctn !== undefined) errs.push(rawError('FieldValueInvalid', p, text, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (rcn === undefined && rctn === undefined) errs.push(rawError('FieldValueInvalid', p, text, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    if (rcn !== undefined) for (const msg of nameIsDNSSubdomain(rcn, false)) errs.push(fieldError.invalid(child(p, 'resourceClaimName'), rcn, msg));
    if (rctn !== undefined) for (const msg of nameIsDNSSubdomain(rctn, false)) errs.push(fieldError.invalid(child(p, 'resourceClaimTemplateName'), rctn, msg));
  });
  return errs;
}

const supportedPodLevelResources = ['cpu', 'hugepages-*', 'memory'];

export function validatePodResources(spec: PodSpec, claims: Set<string>, path: string): FieldError[] {
  const res = optStruct(spec.resources);
  if (!res) return [];
  const errs: FieldError[] = [];
  if (res.claims !== undefined && res.claims !== null) errs.push(fieldError.forbidden(child(path, 'claims'), 'claims cannot be set for Resources at pod-level'));
  const podResourceName = (name: string, p: string): FieldError[] => {
    const e = validateResourceName(name, p);
    if (e.length > 0) return e;
    if (name !== 'cpu' && name !== 'memory' && !name.startsWith('hugepages-')) return [fieldError.notSupported(p, name, supportedPodLevelResources)];
    return [];
  };
  errs.push(...validateResourceRequirements({ limits: res.limits, requests: res.requests }, podResourceName, claims, path));
  // Individual container limits must not exceed pod-level limits.
  const podLimits = obj(res.limits);
  structs(spec.containers).forEach((c, i) => {
    for (const [name, value] of resourceEntries(struct(c.resources).limits)) {
      if (!Object.prototype.hasOwnProperty.call(podLimits, name)) continue;
      const cq = parseQuantity(String(value));
      const pq = parseQuantity(String(podLimits[name]));
      if (cq && pq && cq.cmp(pq) > 0) {
        errs.push(fieldError.invalid(child(key(index(child(path, 'containers'), i), name), 'limits'), quantityString(value), `must be less than or equal to pod limits of ${quantityString(podLimits[name])}`));
      }
    }
  });
  return errs;
}
