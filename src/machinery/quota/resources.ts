// ResourceList arithmetic of Kubernetes' quota package (k8s.io/apiserver/pkg/quota/v1): usage and
// limits as maps from resource name to Quantity.
import { parseQuantity, Quantity } from '../../api/meta/quantity.js';

export type ResourceList = Map<string, Quantity>;

/** A ResourceList of an object's JSON map (unparsable quantities are left out: validation refuses them). */
export function resourceList(json: Record<string, unknown> | null | undefined): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of Object.entries(json ?? {})) {
    const q = typeof v === 'string' ? parseQuantity(v) : typeof v === 'number' ? parseQuantity(String(v)) : undefined;
    if (q) out.set(k, q);
  }
  return out;
}

/** The JSON map of a ResourceList, keys sorted. */
export function toJson(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...list.keys()].sort()) out[k] = list.get(k)!.toString();
  return out;
}

export const one = (): Quantity => Quantity.fromValue(1);
export const zero = (): Quantity => Quantity.fromValue(0);

export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) out.set(k, out.has(k) ? out.get(k)!.add(v) : v);
  return out;
}

/** a - b over the keys of both. */
export function subtract(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) out.set(k, (out.get(k) ?? zero()).sub(v));
  return out;
}

/** SubtractWithNonNegativeResult: a - b, floored at zero. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out = subtract(a, b);
  for (const [k, v] of out) if (v.sign() < 0) out.set(k, zero());
  return out;
}

/** The larger of each resource. */
export function max(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) if (!out.has(k) || v.cmp(out.get(k)!) > 0) out.set(k, v);
  return out;
}

/** Only the named resources. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const n of names) if (list.has(n)) out.set(n, list.get(n)!);
  return out;
}

/** LessThanOrEqual: whether every resource of `a` limited in `b` is within it, and those that are not. */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { allowed: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [k, v] of a) {
    const limit = b.get(k);
    if (limit && v.cmp(limit) > 0) exceeded.push(k);
  }
  return { allowed: exceeded.length === 0, exceeded };
}

export const isZero = (list: ResourceList): boolean => [...list.values()].every((q) => q.isZero());
export const negatives = (list: ResourceList): string[] => [...list].filter(([, q]) => q.sign() < 0).map(([k]) => k);

export function equal(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (!b.has(k) || !b.get(k)!.equals(v)) return false;
  return true;
}

/** `name=value,...` sorted by name (the quota admission's messages). */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()].sort().map((k) => `${k}=${list.get(k)!.toString()}`).join(',');
}
