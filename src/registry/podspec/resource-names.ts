// Resource names and quantities as Kubernetes validates them (pkg/apis/core/helper and the
// resource parts of pkg/apis/core/validation), with v1.26's messages: which names are standard,
// native, extended or whole-numbered, and a quantity's canonical text and sign.
import { parseQuantity, type Quantity } from '../../api/meta/quantity.js';
import { obj, sortedKeys } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { rawError } from '../../machinery/validation/go-syntax.js';
import { isQualifiedName } from '../../machinery/validation/names.js';
import { isExtendedResourceName, isNativeResource } from '../../machinery/validation/resource-names.js';

export { isExtendedResourceName, isNativeResource };

export const isHugePageResourceName = (name: string): boolean => name.startsWith('hugepages-');
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
/** helper.IsStandardResourceName: the quota's hugepages names (`requests.hugepages-<size>`) are standard too. */
export const isStandardResourceName = (name: string): boolean => standardResources.has(name) || isHugePageResourceName(name) || name.startsWith('requests.hugepages-');
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

const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The int64Amount ParseQuantity's fast path builds from the text (digits as written, not
 * normalized: "500m" is 500 at scale -3), or undefined where Go takes its inf.Dec path.
 */
function parsedAmount(text: string): { value: bigint; scale: number } | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(text);
  if (!m) return undefined;
  const [, sign, num = '', denom = '', suffix = ''] = m;
  let value: bigint;
  let scale: number;
  if (suffix in DECIMAL_SUFFIXES || /^[eE][+-]?\d+$/.test(suffix)) {
    value = BigInt((num + denom) || '0');
    scale = (suffix in DECIMAL_SUFFIXES ? DECIMAL_SUFFIXES[suffix]! : Number(suffix.slice(1))) - denom.length;
  } else if (suffix in BINARY_SUFFIXES && denom === '') {
    value = BigInt(num || '0') << BigInt(BINARY_SUFFIXES[suffix]!);
    scale = 0;
  } else {
    return undefined;
  }
  if (value > INT64_MAX) return undefined;
  return { value: sign === '-' ? -value : value, scale };
}

/**
 * %#v of a resource.Quantity value as validation messages print it: the amount as parsed from
 * `raw` (the text the object carries), the cached canonical string, the format.
 */
export function goQuantity(q: Quantity, raw?: unknown): string {
  const s = q.toString();
  const parsed = typeof raw === 'string' ? parsedAmount(raw.trim()) : undefined;
  let value = parsed?.value ?? q.unscaled;
  let scale = parsed?.scale ?? q.exponent;
  if (!parsed && scale > 0) {
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
    if (q.scaledValueBig(-3) % 1000n !== 0n) errs.push(rawError('FieldValueInvalid', path, goQuantity(q, value), 'must be an integer'));
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

/** The resource names and their quantities of a ResourceList, keys sorted (Go maps have no order; tests need one). */
export function resourceEntries(list: unknown): [string, unknown][] {
  const o = obj(list);
  return sortedKeys(o).map((k) => [k, o[k]]);
}
