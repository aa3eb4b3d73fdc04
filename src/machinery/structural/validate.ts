// Validation of a custom resource against its compiled schema, as kube-openapi's SchemaValidator
// does it for apiextensions-apiserver: per schema node the type, the composition keywords
// (allOf/anyOf/oneOf/not), string, format, number, array, enum and object checks, in that order.
// Names are kube-openapi's (`spec.list[0].name`); messages.ts turns them into field errors.
import type { FieldError } from '../validation/field-errors.js';
import type { SchemaNode } from './compile.js';
import { goFloat, goNumber } from './go-format.js';
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

/** Appends to `out` every error of `data` against `node`, naming fields from `path`. */
export function validateNode(node: SchemaNode, data: unknown, path: string, out: FieldError[]): void {
  const s = node.schema;
  const kind = kindOf(data);
  if (kind === 'null') {
    if (node.types.length > 0 && !node.types.includes('null') && s.nullable !== true) out.push(E.invalidType(path, node.types.join(','), 'null'));
    if (s.enum && s.enum.length > 0) out.push(E.enum(path, data, s.enum));
    return;
  }
  checkType(node, data, kind, path, out);
  if (node.allOf.length > 0 || node.anyOf.length > 0 || node.oneOf.length > 0 || node.not) checkComposition(node, data, path, out);
  if (kind === 'string') {
    checkString(node, data as string, path, out);
    if (node.format && !node.format.check(data as string)) out.push(E.invalidType(path, node.format.name, data as string));
  } else if (kind === 'integer' || kind === 'number') {
    checkNumber(node, data as number, kind === 'integer', path, out);
  } else if (kind === 'array') {
    checkArray(node, data as unknown[], path, out);
  }
  if (s.enum && s.enum.length > 0 && !s.enum.some((e) => deepEqual(e, data))) out.push(E.enum(path, data, s.enum));
  if (kind === 'object') checkObject(node, data as Record<string, unknown>, path, out);
}

function checkType(node: SchemaNode, data: unknown, kind: JSONKind, path: string, out: FieldError[]): void {
  const types = node.types;
  if (types.length === 0 && !node.format) return;
  // An integer is a number too; kube-openapi accepts int64 values where "number" is asked for.
  const fits = types.includes(kind) || (kind === 'integer' && types.includes('number'));
  if (kind !== 'string' && kind !== 'array' && node.format && !fits) {
    out.push(E.invalidType(path, node.format.name, goFormatOf[kind]));
    return;
  }
  if (!types.includes('number') && !types.includes('integer') && node.format && (kind === 'string' || kind === 'array')) return;
  if (!fits) out.push(E.invalidType(path, types.join(','), kind));
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

function checkArray(node: SchemaNode, v: unknown[], path: string, out: FieldError[]): void {
  const s = node.schema;
  if (node.items) for (let i = 0; i < v.length; i++) validateNode(node.items, v[i], `${path}[${i}]`, out);
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
}

function checkObject(node: SchemaNode, v: Record<string, unknown>, path: string, out: FieldError[]): void {
  const s = node.schema;
  const keys = Object.keys(v);
  if (s.minProperties !== undefined && keys.length < s.minProperties) out.push(E.tooFewProperties(path, keys.length, s.minProperties));
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) out.push(E.tooManyProperties(path, keys.length, s.maxProperties));
  const props = node.properties;
  if (node.additional === false) {
    for (const k of keys) if (!props?.has(k)) out.push(E.forbiddenProperty(path, k));
  } else if (typeof node.additional === 'object') {
    for (const k of keys) if (!props?.has(k)) validateNode(node.additional, v[k], `${path}.${k}`, out);
  }
  if (props) {
    for (const [name, child] of props) {
      if (name in v) validateNode(child, v[name], path === '' ? name : `${path}.${name}`, out);
    }
  }
  for (const k of node.required) if (!(k in v)) out.push(E.required(`${path}.${k}`));
}

/** The result of one branch of a composition: its errors, valid when there are none. */
function branch(node: SchemaNode, data: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  validateNode(node, data, path, errs);
  return errs;
}

function checkComposition(node: SchemaNode, data: unknown, path: string, out: FieldError[]): void {
  if (node.anyOf.length > 0) {
    let best: FieldError[] | undefined;
    let ok = false;
    for (const alt of node.anyOf) {
      const errs = branch(alt, data, path);
      if (errs.length === 0) {
        ok = true;
        break;
      }
      // kube-openapi keeps the failure that matched most; the one with fewest errors stands in for it.
      if (best === undefined || errs.length < best.length) best = errs;
    }
    if (!ok) out.push(E.composite(`${JSON.stringify(path)} must validate at least one schema (anyOf)`), ...best!);
  }
  if (node.oneOf.length > 0) {
    let valid = 0;
    let best: FieldError[] | undefined;
    for (const alt of node.oneOf) {
      const errs = branch(alt, data, path);
      if (errs.length === 0) valid++;
      else if (valid === 0 && (best === undefined || errs.length < best.length)) best = errs;
    }
    if (valid !== 1) {
      out.push(E.composite(`${JSON.stringify(path)} must validate one and only one schema (oneOf). ${valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`}`));
      if (valid === 0 && best) out.push(...best);
    }
  }
  if (node.allOf.length > 0) {
    let valid = 0;
    for (const alt of node.allOf) {
      const errs = branch(alt, data, path);
      if (errs.length === 0) valid++;
      out.push(...errs);
    }
    if (valid !== node.allOf.length) out.push(E.composite(`${JSON.stringify(path)} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
  }
  if (node.not && branch(node.not, data, path).length === 0) out.push(E.composite(`${JSON.stringify(path)} must not validate the schema (not)`));
}
