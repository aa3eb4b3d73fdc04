// JSON objects as CEL values, typed by the structural schema when there is one (Kubernetes'
// pkg/cel/common/values.go and apiextensions' schema/cel/values.go): integer → int, number →
// double, date-time → timestamp, duration → duration, byte → bytes, int-or-string as given, and
// lists of x-kubernetes-list-type set/map compared without regard to order.
import { celList, celMap, parse, plan, isCelError, isCelList, isCelMap, isCelUint, type CelList, type CelMap } from '@bufbuild/cel';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { stdCall, stdEnv } from './std.js';
import { isOpaque } from './library/opaque.js';
import { escapeName } from './escaping.js';

/** Lists whose equality ignores order (x-kubernetes-list-type set or map). */
const unorderedLists = new WeakSet<object>();

function itemsSchema(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  return s && !Array.isArray(s.items) ? (s.items as JSONSchemaProps | undefined) : undefined;
}

function base64ToBytes(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'base64'));
}

/** A JSON value as a CEL value; `schema` types scalars where JSON alone cannot (ints, timestamps, ...). */
export function toCelValue(v: unknown, schema?: JSONSchemaProps): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'number':
      if (schema?.type === 'number') return v;
      if (Number.isInteger(v)) return BigInt(v);
      return v;
    case 'bigint':
      return v;
    case 'string': {
      if (schema?.type === 'string' && !schema['x-kubernetes-int-or-string']) {
        const f = schema.format;
        if (f === 'date-time' || f === 'datetime') return converted('timestamp', v);
        if (f === 'date') return converted('timestamp', `${v}T00:00:00Z`);
        if (f === 'duration') return converted('duration', v);
        if (f === 'byte') return base64ToBytes(v);
      }
      return v;
    }
    case 'object': {
      // Already a CEL value (a list, map, uint, bytes or message the caller built).
      if (isCelList(v) || isCelMap(v) || isCelUint(v) || v instanceof Uint8Array || !isPlainJson(v)) return v;
      if (Array.isArray(v)) {
        const item = itemsSchema(schema);
        const list = celList(v.map((x) => toCelValue(x, item)) as never);
        const lt = schema?.['x-kubernetes-list-type'];
        if (lt === 'set' || lt === 'map') unorderedLists.add(list);
        return list;
      }
      const entries = new Map<string, unknown>();
      const props = schema?.properties;
      const additional = typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x === undefined) continue;
        const prop = props?.[k];
        // Declared properties are read by their escaped names; unescapable ones are not visible.
        const name = prop ? escapeName(k) : k;
        if (name === undefined) continue;
        entries.set(name, toCelValue(x, prop ?? additional));
      }
      return celMap(entries as never);
    }
  }
  return v;
}

function isPlainJson(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return Array.isArray(v) || proto === Object.prototype || proto === null;
}

// timestamp()/duration() build protobuf messages, which needs @bufbuild/cel's evaluation
// context: convert through small planned programs rather than calling the functions bare.
const converters: Record<string, (b: Record<string, unknown>) => unknown> = {
  timestamp: plan(stdEnv, parse('timestamp(s)')) as never,
  duration: plan(stdEnv, parse('duration(s)')) as never,
};

function converted(name: string, s: string): unknown {
  const r = converters[name]!({ s });
  return r === undefined || isCelError(r) ? s : r;
}

/** A CEL result as JSON (what messageExpression and callers read). */
export function fromCelValue(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (isCelUint(v)) return Number(v.value);
  if (isCelList(v)) return Array.from(v as CelList, fromCelValue);
  if (isCelMap(v)) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v as CelMap) o[String(isCelUint(k) ? k.value : k)] = fromCelValue(x);
    return o;
  }
  return v;
}

function stdEquals(a: unknown, b: unknown): boolean {
  return stdCall('_==_', undefined, [a, b]) === true;
}

/** CEL equality with Kubernetes' rule that set and map lists compare as unordered collections. */
export function celEquals(a: unknown, b: unknown): boolean {
  if (isCelList(a) && isCelList(b)) {
    const la = a as CelList;
    const lb = b as CelList;
    if (la.size !== lb.size) return false;
    const xs = Array.from(la);
    const ys = Array.from(lb);
    if (unorderedLists.has(la) || unorderedLists.has(lb)) {
      const used = new Array<boolean>(ys.length).fill(false);
      return xs.every((x) => {
        const i = ys.findIndex((y, j) => !used[j] && celEquals(x, y));
        if (i < 0) return false;
        used[i] = true;
        return true;
      });
    }
    return xs.every((x, i) => celEquals(x, ys[i]));
  }
  if (isCelMap(a) && isCelMap(b)) {
    const ma = a as CelMap;
    const mb = b as CelMap;
    if (ma.size !== mb.size) return false;
    for (const [k, x] of ma) {
      if (!mb.has(k)) return false;
      if (!celEquals(x, mb.get(k))) return false;
    }
    return true;
  }
  if (isOpaque(a) || isOpaque(b)) return isOpaque(a) && isOpaque(b) && a.equals(b);
  return stdEquals(a, b);
}

/** Ordering of comparable values (<0, 0, >0), as CEL's `<` defines it. */
export function compareValues(a: unknown, b: unknown): number {
  if (stdCall('_<_', undefined, [a, b]) === true) return -1;
  if (stdCall('_>_', undefined, [a, b]) === true) return 1;
  if (stdCall('_==_', undefined, [a, b]) === true) return 0;
  throw new Error('no such overload');
}
