// Validation of a custom resource against its compiled schema, as kube-openapi's SchemaValidator
// does it for apiextensions-apiserver: per schema node the type, the composition keywords
// (allOf/anyOf/oneOf/not), string, format, number, array, enum and object checks, in that order.
// Names are kube-openapi's (`spec.list[0].name`); messages.ts turns them into field errors.
import type { FieldError } from '../validation/field-errors.js';
import type { SchemaNode } from './compile.js';
import { goFloat } from './go-format.js';
import { openAPIError as E } from './messages.js';
import { deepEqual } from './values.js';

type JSONKind = 'null' | 'string' | 'boolean' | 'integer' | 'number' | 'array' | 'object';

function kindOf(v: unknown): JSONKind {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return Array.isArray(v) ? 'array' : 'object';
}

/** The format name kube-openapi reports for a non-string value whose schema has a format. */
const goFormatOf: Record<JSONKind, string> = { null: '', string: '', boolean: '', integer: 'int64', number: 'float64', array: '', object: '' };

/** Appends to `out` every error of `data` against `node`, naming fields from `path`. Returns
 * kube-openapi's MatchCount of the validation (how many checks applied), which picks the failure
 * reported for anyOf/oneOf: one per applicable validator, plus what the nested validators count. */
export function validateNode(node: SchemaNode, data: unknown, path: string, out: FieldError[], old?: Old): number {
  return old === undefined ? validateNodeCorrelated(node, data, path, out, undefined) : ratcheted(node, data, path, out, old);
}

function validateNodeCorrelated(node: SchemaNode, data: unknown, path: string, out: FieldError[], old: Old | undefined): number {
  const s = node.schema;
  const kind = kindOf(data);
  if (kind === 'null') {
    let count = 1;
    if (node.types.length > 0 && !node.types.includes('null') && s.nullable !== true) {
      out.push(E.invalidType(path, node.types.join(','), 'null'));
      count = 0;
    }
    if (s.enum && s.enum.length > 0) out.push(E.enum(path, data, s.enum));
    return count;
  }
  let count = 1;
  if (node.types.length > 0 || node.format) count += checkType(node, kind, path, out) ? 2 : 1;
  count += 2;
  if (node.allOf.length > 0 || node.anyOf.length > 0 || node.oneOf.length > 0 || node.not) count += checkComposition(node, data, path, out, old);
  if (kind === 'string') {
    checkString(node, data as string, path, out);
    count++;
    if (node.format) {
      if (!node.format.check(data as string)) out.push(E.invalidType(path, node.format.name, data as string));
      count++;
    }
  } else if (kind === 'integer' || kind === 'number') {
    checkNumber(node, data as number, kind === 'integer', path, out);
    count += 2;
  } else if (kind === 'array') {
    count += checkArray(node, data as unknown[], path, out, old) + 2;
  }
  if (s.enum && s.enum.length > 0 && !s.enum.some((e) => deepEqual(e, data))) out.push(E.enum(path, data, s.enum));
  count++;
  if (kind === 'object') count += checkObject(node, data as Record<string, unknown>, path, out, old) + 1;
  return count;
}

/** The type check; false when it failed. */
function checkType(node: SchemaNode, kind: JSONKind, path: string, out: FieldError[]): boolean {
  const types = node.types;
  // An integer is a number too; kube-openapi accepts int64 values where "number" is asked for.
  const fits = types.includes(kind) || (kind === 'integer' && types.includes('number'));
  if (kind !== 'string' && kind !== 'array' && node.format && !fits) {
    out.push(E.invalidType(path, node.format.name, goFormatOf[kind]));
    return false;
  }
  if (!types.includes('number') && !types.includes('integer') && node.format && (kind === 'string' || kind === 'array')) return true;
  if (fits) return true;
  out.push(E.invalidType(path, types.join(','), kind));
  return false;
}

function checkString(node: SchemaNode, v: string, path: string, out: FieldError[]): void {
  const s = node.schema;
  // kube-openapi counts runes and stops at the first failing string check.
  if (s.maxLength !== undefined || s.minLength !== undefined) {
    let runes = 0;
    for (const _ of v) runes++;
    if (s.maxLength !== undefined && runes > s.maxLength) return void out.push(E.tooLong(path, s.maxLength));
    if (s.minLength !== undefined && runes < s.minLength) return void out.push(E.tooShort(path, v, s.minLength));
  }
  const re = node.pattern;
  if (re === undefined) return;
  if (typeof re === 'string') out.push(E.pattern(path, v, `${s.pattern}, but pattern is invalid: ${re}`));
  else if (!re.test(v)) out.push(E.pattern(path, v, s.pattern!));
}

function checkNumber(node: SchemaNode, v: number, int: boolean, path: string, out: FieldError[]): void {
  const s = node.schema;
  // For int64 values kube-openapi compares against the bound truncated to int64 and prints it so.
  const show = (b: number): string => (int ? String(Math.trunc(b)) : goFloat(b));
  if (s.multipleOf !== undefined) {
    const f = s.multipleOf;
    if (int && Math.trunc(f) !== 0) {
      if (v % Math.trunc(f) !== 0) out.push(E.multipleOf(path, v, String(Math.trunc(f))));
    } else if (f <= 0) {
      out.push(E.multipleOfMustBePositive(path, goFloat(f)));
    } else {
      const mult = f < 1 ? (1 / f) * v : v / f;
      if (!Number.isInteger(mult)) out.push(E.multipleOf(path, v, goFloat(f)));
    }
  }
  if (s.minimum !== undefined) {
    const b = int ? Math.trunc(s.minimum) : s.minimum;
    if (s.exclusiveMinimum ? v <= b : v < b) out.push(E.minimum(path, v, show(s.minimum), s.exclusiveMinimum === true));
  }
  if (s.maximum !== undefined) {
    const b = int ? Math.trunc(s.maximum) : s.maximum;
    if (s.exclusiveMaximum ? v >= b : v > b) out.push(E.maximum(path, v, show(s.maximum), s.exclusiveMaximum === true));
  }
}

/** Array checks; returns the items' MatchCount. */
function checkArray(node: SchemaNode, v: unknown[], path: string, out: FieldError[], old: Old | undefined): number {
  const s = node.schema;
  let count = 0;
  if (node.items) for (let i = 0; i < v.length; i++) count += validateNode(node.items, v[i], `${path}[${i}]`, out, old && oldItem(node, v[i], old.value));
  if (s.minItems !== undefined && v.length < s.minItems) out.push(E.tooFewItems(path, v.length, s.minItems));
  if (s.maxItems !== undefined && v.length > s.maxItems) out.push(E.tooManyItems(path, v.length, s.maxItems));
  if (s.uniqueItems === true) {
    outer: for (let i = 1; i < v.length; i++) {
      for (let j = 0; j < i; j++) {
        if (deepEqual(v[i], v[j])) {
          out.push(E.duplicateItems(path));
          break outer;
        }
      }
    }
  }
  return count;
}

/** Object checks; returns the properties' MatchCount. */
function checkObject(node: SchemaNode, v: Record<string, unknown>, path: string, out: FieldError[], old: Old | undefined): number {
  const s = node.schema;
  let count = 0;
  const keys = Object.keys(v);
  if (s.minProperties !== undefined && keys.length < s.minProperties) out.push(E.tooFewProperties(path, keys.length, s.minProperties));
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) out.push(E.tooManyProperties(path, keys.length, s.maxProperties));
  const props = node.properties;
  if (node.additional === false) {
    for (const k of keys) if (!props?.has(k)) out.push(E.forbiddenProperty(path, k));
  } else if (typeof node.additional === 'object') {
    for (const k of keys) if (!props?.has(k)) count += validateNode(node.additional, v[k], `${path}.${k}`, out, old && oldKey(old.value, k, false));
  }
  if (props) {
    for (const [name, child] of props) {
      if (name in v) count += validateNode(child, v[name], path === '' ? name : `${path}.${name}`, out, old && oldKey(old.value, name, path === ''));
    }
  }
  for (const k of node.required) if (!(k in v)) out.push(E.required(`${path}.${k}`));
  return count;
}

/** One branch of a composition: its errors and MatchCount. */
function branch(node: SchemaNode, data: unknown, path: string, old: Old | undefined): { errs: FieldError[]; count: number } {
  const errs: FieldError[] = [];
  const count = validateNode(node, data, path, errs, old);
  return { errs, count };
}

/** allOf/anyOf/oneOf/not as kube-openapi's schemaPropsValidator; returns the MatchCount it merges. */
function checkComposition(node: SchemaNode, data: unknown, path: string, out: FieldError[], old: Old | undefined): number {
  let count = 0;
  if (node.anyOf.length > 0) {
    let best: { errs: FieldError[]; count: number } | undefined;
    let success: number | undefined;
    for (const alt of node.anyOf) {
      const r = branch(alt, data, path, old);
      if (r.errs.length === 0) {
        success = r.count;
        break;
      }
      // The failure that matched most is reported (the first of equals).
      if (best === undefined || r.count > best.count) best = r;
    }
    if (success !== undefined) count += success;
    else {
      out.push(E.composite(`${JSON.stringify(path)} must validate at least one schema (anyOf)`), ...best!.errs);
      count += best!.count;
    }
  }
  if (node.oneOf.length > 0) {
    let valid = 0;
    let best: { errs: FieldError[]; count: number } | undefined;
    let first: number | undefined;
    for (const alt of node.oneOf) {
      const r = branch(alt, data, path, old);
      if (r.errs.length === 0) {
        valid++;
        best = undefined;
        first ??= r.count;
      } else if (valid === 0 && (best === undefined || r.count > best.count)) best = r;
    }
    if (valid !== 1) {
      out.push(E.composite(`${JSON.stringify(path)} must validate one and only one schema (oneOf). ${valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`}`));
      if (best) {
        out.push(...best.errs);
        count += best.count;
      }
    } else count += first!;
  }
  if (node.allOf.length > 0) {
    let valid = 0;
    for (const alt of node.allOf) {
      const r = branch(alt, data, path, old);
      if (r.errs.length === 0) valid++;
      out.push(...r.errs);
      count += r.count;
    }
    if (valid !== node.allOf.length) out.push(E.composite(`${JSON.stringify(path)} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
  }
  if (node.not && branch(node.not, data, path, old).errs.length === 0) out.push(E.composite(`${JSON.stringify(path)} must not validate the schema (not)`));
  return count;
}

/** The old value a new value correlates with (ratcheting, GA in Kubernetes 1.33). */
export interface Old {
  value: unknown;
}

/** Kubernetes' CorrelatedObject.Key: the old field of the same name when old and new both have it;
 * at the root, apiVersion and kind never ratchet. */
function oldKey(old: unknown, k: string, atRoot: boolean): Old | undefined {
  if (atRoot && (k === 'apiVersion' || k === 'kind')) return undefined;
  if (typeof old !== 'object' || old === null || Array.isArray(old) || !(k in old)) return undefined;
  return { value: (old as Record<string, unknown>)[k] };
}

/** CorrelatedObject.Index: only items of list-type map correlate, with the old item of the same keys. */
function oldItem(node: SchemaNode, item: unknown, old: unknown): Old | undefined {
  if (node.schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(old) || typeof item !== 'object' || item === null) return undefined;
  const keys = node.schema['x-kubernetes-list-map-keys'] ?? [];
  const it = item as Record<string, unknown>;
  for (const o of old) {
    if (typeof o !== 'object' || o === null) continue;
    const oo = o as Record<string, unknown>;
    if (keys.every((k) => deepEqual(oo[k], it[k]))) return { value: o };
  }
  return undefined;
}

/** Validation with ratcheting: errors of a value that equals its old value are dropped (Kubernetes
 * turns them into warnings), so that objects stored before a schema got stricter stay updatable. */
function ratcheted(node: SchemaNode, data: unknown, path: string, out: FieldError[], old: Old): number {
  const errs: FieldError[] = [];
  const count = validateNodeCorrelated(node, data, path, errs, old);
  if (errs.length > 0 && deepEqual(data, old.value)) return count;
  for (const e of errs) out.push(e);
  return count;
}
