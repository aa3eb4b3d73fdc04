// Go's types and values as go-cmp sees them, for JSON values: a small model of Go types (strings,
// integers, booleans, quantities, pointers, slices, maps, structs, and values typed only by their
// JSON), which values are nil or zero, when two leaves are equal, and how strings and map keys
// are quoted.
import { parseQuantity } from '../../../api/meta/quantity.js';
import { isObj, type Obj } from '../../../machinery/validation/common.js';

/** A Go type, as far as go-cmp's output depends on it ('any': typed by the JSON value it holds). */
export type GoType =
  | { k: 'str' }
  | { k: 'int' }
  | { k: 'bool' }
  | { k: 'qty' }
  | { k: 'ptr'; e: GoType }
  | { k: 'slice'; name: string; e: GoType }
  | { k: 'map'; name: string; stringerKeys: boolean; e: GoType }
  | { k: 'struct'; name: string; fields: GoField[] }
  | { k: 'any'; name?: string };

/** A Go struct field: its Go name, its JSON name and its type. */
export interface GoField {
  go: string;
  json?: string;
  t: GoType;
  /** Embedded struct: its fields live in the parent's JSON object. */
  embed?: boolean;
  /** Where the value comes from when it is not parent[json] (internal fields moved from elsewhere). */
  get?: (parent: Obj) => unknown;
}

export const S: GoType = { k: 'str' };
export const I: GoType = { k: 'int' };
export const B: GoType = { k: 'bool' };
export const Q: GoType = { k: 'qty' };
export const ANY: GoType = { k: 'any' };
/** A value modelled from its JSON, printed under Kubernetes' type name. */
export const anyNamed = (name: string): GoType => ({ k: 'any', name });
export const ptr = (e: GoType): GoType => ({ k: 'ptr', e });
export const slice = (name: string, e: GoType): GoType => ({ k: 'slice', name, e });
export const struct = (name: string, fields: GoField[]): GoType => ({ k: 'struct', name, fields });
export const f = (go: string, json: string, t: GoType): GoField => ({ go, json, t });

export const isNil = (v: unknown) => v === undefined || v === null;

/** The JSON of a struct field (embedded structs share their parent's object). */
export function fieldValue(parent: unknown, fd: GoField): unknown {
  const p = isObj(parent) ? parent : {};
  if (fd.get) return fd.get(p);
  if (fd.embed) return p;
  return p[fd.json!];
}

/** The concrete type of a generic value. */
export function resolve(t: GoType, v: unknown): GoType {
  if (t.k !== 'any') return t;
  if (typeof v === 'string') return S;
  if (typeof v === 'number') return I;
  if (typeof v === 'boolean') return B;
  if (Array.isArray(v)) return slice('[]interface {}', ANY);
  if (isObj(v)) {
    const name = t.name ?? 'core.Object';
    return struct(name, Object.keys(v).filter((k) => !k.startsWith('__')).map((k) => f(k.charAt(0).toUpperCase() + k.slice(1), k, ANY)));
  }
  return S;
}

/** Go's nil for pointers, slices and maps (JSON: absent or null; empty lists and maps count as nil too). */
export function isNilOf(t: GoType, v: unknown): boolean {
  if (isNil(v)) return true;
  if (t.k === 'slice') return Array.isArray(v) && v.length === 0;
  if (t.k === 'map') return isObj(v) && Object.keys(v).length === 0;
  return false;
}

export function isZeroValue(t: GoType, v: unknown): boolean {
  const rt = resolve(t, v);
  switch (rt.k) {
    case 'str':
      return isNil(v) || v === '';
    case 'int':
      return isNil(v) || v === 0;
    case 'bool':
      return isNil(v) || v === false;
    case 'qty':
      return isNil(v);
    case 'ptr':
    case 'slice':
    case 'map':
      return isNilOf(rt, v);
    case 'struct':
      return rt.fields.every((fd) => isZeroValue(fd.t, fieldValue(v, fd)));
    default:
      return isNil(v);
  }
}

export function leafEqual(t: GoType, x: unknown, y: unknown): boolean {
  if (t.k === 'qty') {
    if (isNil(x) || isNil(y)) return isNil(x) && isNil(y);
    const a = parseQuantity(String(x));
    const b = parseQuantity(String(y));
    return a && b ? a.equals(b) : x === y;
  }
  if (t.k === 'str') return (isNil(x) ? '' : x) === (isNil(y) ? '' : y);
  if (t.k === 'int') return (isNil(x) ? 0 : x) === (isNil(y) ? 0 : y);
  if (t.k === 'bool') return (x === true) === (y === true);
  return x === y;
}

/** Go's strconv.Quote-like quoting go-cmp uses (raw backquotes when it reads better). */
export function formatGoString(s: string): string {
  const qs = JSON.stringify(s).replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => `\\u${h}`);
  if (qs.length === s.length + 2) return qs;
  if (!/[`\n]/.test(s) && [...s].every((c) => c === '\t' || /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(c))) return `\`${s}\``;
  return qs;
}

export function mapKey(t: GoType, k: string): string {
  return t.k === 'map' && t.stringerKeys ? `s${formatGoString(k)}` : formatGoString(k);
}
