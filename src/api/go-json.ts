// Small helpers for defaulting and converting objects as plain JSON, with Go's view of absence:
// a nil pointer, a missing key and an explicit `null` are the same thing.
import type { KubeObject } from './schema/kind.js';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Go's nil/zero test for the fields defaulting looks at: absent, null, or "" (for string enums). */
export function unset(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/** Go's nil: absent or null. */
export function isNil(v: unknown): v is undefined | null {
  return v === undefined || v === null;
}

/** Go's `if x == nil { x = v }` on obj[key]. */
export function orDefault(obj: Obj, key: string, value: unknown): void {
  if (isNil(obj[key])) obj[key] = value;
}

/** obj[key] as an object, created when missing or null (Go's non-pointer struct, or `x = &T{}`). */
export function child(obj: Obj, key: string): Obj {
  const v = obj[key];
  if (isObj(v)) return v;
  const created: Obj = {};
  obj[key] = created;
  return created;
}

/** The objects of the list at obj[key] (non-objects skipped). */
export function objects(obj: Obj, key: string): Obj[] {
  const v = obj[key];
  return Array.isArray(v) ? v.filter(isObj) : [];
}

/** A deep copy of a JSON value (conversions must not mutate their input). */
export function clone<T extends KubeObject>(obj: T): T {
  return structuredClone(obj);
}

/** Sets metadata.annotations[key] (creating the map). */
export function setAnnotation(obj: Obj, key: string, value: string): void {
  child(child(obj, 'metadata'), 'annotations')[key] = value;
}

/** Removes metadata.annotations[key]; an emptied map is removed too (Go omits an empty map). */
export function removeAnnotation(obj: Obj, key: string): void {
  const meta = obj.metadata;
  if (!isObj(meta) || !isObj(meta.annotations)) return;
  delete meta.annotations[key];
  if (Object.keys(meta.annotations).length === 0) delete meta.annotations;
}

/**
 * The beta versions' defaulting of a controller's selector and labels from its pod template's
 * labels: when the template has labels, a missing spec.selector becomes `{matchLabels: <them>}` and
 * empty metadata.labels become a copy of them.
 */
export function defaultSelectorAndLabelsFromTemplate(obj: Obj, spec: Obj): void {
  const template = spec.template;
  const labels = isObj(template) && isObj(template.metadata) ? template.metadata.labels : undefined;
  if (!isObj(labels)) return;
  if (spec.selector === undefined || spec.selector === null) spec.selector = { matchLabels: { ...labels } };
  const meta = child(obj, 'metadata');
  if (!isObj(meta.labels) || Object.keys(meta.labels).length === 0) {
    if (Object.keys(labels).length > 0) meta.labels = { ...labels };
  }
}

/** Parses a decimal int64 kept in an annotation (Go's strconv.ParseInt(s, 10, 64)). */
export function parseInt64(value: string, what: string): number {
  if (!/^[+-]?\d+$/.test(value)) throw new Error(`failed to parse ${what}=${JSON.stringify(value)} as int64`);
  return Number(value);
}
