// The building blocks every kind's validation uses: field paths, Go-style reads of JSON values,
// labels and annotations, label selectors (validation and matching), non-negative and immutable
// fields, and apimachinery's semantic equality. structs.ts reads a struct, pointer or list of
// structs as its schema type (api/types.ts); its fields are then read with the readers here.
import { fieldError, type FieldError } from './field-errors.js';
import { goLabelSelector, goStringMap, rawError } from './go-syntax.js';
import { byteLength, isQualifiedName, isValidLabelValue } from './names.js';

export type Obj = Record<string, unknown>;

// ---- paths (field.Path.Child / Index / Key as strings) ----

// Called for most fields of every object validated: fixed parameters, no rest array or closure.
export function child(path: string, a: string, b?: string, c?: string, d?: string): string {
  let p = path === '' ? a : `${path}.${a}`;
  if (b !== undefined) p = `${p}.${b}`;
  if (c !== undefined) p = `${p}.${c}`;
  if (d !== undefined) p = `${p}.${d}`;
  return p;
}export const index = (path: string, i: number): string => `${path}[${i}]`;
export const key = (path: string, k: string): string => `${path}[${k}]`;

// ---- reading JSON as Go would see it ----

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A struct field: the object, or an empty one (Go's zero struct) when absent. */
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
/** A pointer-to-struct field: the object, or undefined (nil). */
export const optObj = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const optStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
export const optNum = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
export const bool = (v: unknown): boolean => v === true;
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/**
 * A list of structs: the list itself when every element is an object (nearly always: it is only
 * read), else a copy with Go's zero struct for the others.
 */
export function objs(v: unknown): Obj[] {
  if (!Array.isArray(v)) return [];
  for (let i = 0; i < v.length; i++) if (!isObj(v[i])) return v.map(obj);
  return v as Obj[];
}
/** A list of strings: the list itself when every element is a string, else a copy with "" for the others. */
export function strs(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return v.map(str);
  return v as string[];
}
/**
 * An object's keys in sorted order. Keys usually come sorted already (canonical objects are):
 * then they are not sorted again, which saves V8's sort its scratch copy.
 */
export function sortedKeys(o: object): string[] {
  const ks = Object.keys(o);
  for (let i = 1; i < ks.length; i++) {
    if (ks[i - 1]! > ks[i]!) {
      ks.sort();
      break;
    }
  }
  return ks;
}
/** A map[string]string: its entries in Go's (sorted, for determinism) key order. */
export function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObj(v)) for (const k of sortedKeys(v)) out[k] = str(v[k]);
  return out;
}
export const hasKeys = (v: unknown): boolean => isObj(v) && Object.keys(v).length > 0;
export const nonEmpty = (v: unknown): boolean => Array.isArray(v) && v.length > 0;

// ---- numbers ----

export const IsNegativeErrorMsg = 'must be greater than or equal to 0';
export const FieldImmutableErrorMsg = 'field is immutable';

/** ValidateNonnegativeField. */
export function validateNonnegativeField(value: number, path: string): FieldError[] {
  return value < 0 ? [fieldError.invalid(path, value, IsNegativeErrorMsg)] : [];
}

// ---- labels and annotations (apimachinery meta/v1/validation, api/validation) ----

/** ValidateLabelName: a qualified name. */
export function validateLabelName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
}

/** ValidateLabels: every key a qualified name, every value a label value (keys in sorted order). */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(stringMap(labels))) {
    errs.push(...validateLabelName(k, path));
    for (const msg of isValidLabelValue(v)) errs.push(fieldError.invalid(path, v, msg));
  }
  return errs;
}

export const TotalAnnotationSizeLimitB = 256 * 1024;

/** ValidateAnnotations: keys are case-insensitive qualified names; keys and values total at most 256 KiB. */
export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const map = stringMap(annotations);
  let total = 0;
  for (const [k, v] of Object.entries(map)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(fieldError.invalid(path, k, msg));
    total += byteLength(k) + byteLength(v);
  }
  if (total > TotalAnnotationSizeLimitB) errs.push(fieldError.tooLong(path, TotalAnnotationSizeLimitB));
  return errs;
}

// ---- label selectors ----

const selectorOps = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** ValidateLabelSelector (metav1): matchLabels as labels, each expression's operator, key and values. */
export function validateLabelSelector(selector: unknown, path: string, allowInvalidLabelValue = false): FieldError[] {
  if (!isObj(selector)) return [];
  const errs = validateLabels(selector.matchLabels, child(path, 'matchLabels'));
  objs(selector.matchExpressions).forEach((expr, i) => {
    const p = index(child(path, 'matchExpressions'), i);
    const values = strs(expr.values);
    const op = str(expr.operator);
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0) errs.push(fieldError.required(child(p, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length > 0) errs.push(fieldError.forbidden(child(p, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push(fieldError.invalid(child(p, 'operator'), op, 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(str(expr.key), child(p, 'key')));
    if (!allowInvalidLabelValue) {
      values.forEach((v, j) => {
        for (const msg of isValidLabelValue(v)) errs.push(fieldError.invalid(index(child(p, 'values'), j), v, msg));
      });
    }
  });
  return errs;
}

/**
 * metav1.LabelSelectorAsSelector: undefined when the selector cannot be converted (a bad operator,
 * key or value, In/NotIn without values, Exists/DoesNotExist with values). `nothing` for a nil
 * selector (matches nothing), `everything` for an empty one.
 */
export type CompiledSelector = { kind: 'nothing' } | { kind: 'everything' } | { kind: 'requirements'; match: (labels: Record<string, string>) => boolean };

export function labelSelectorAsSelector(selector: unknown): CompiledSelector | undefined {
  if (!isObj(selector)) return { kind: 'nothing' };
  const matchLabels = stringMap(selector.matchLabels);
  const exprs = objs(selector.matchExpressions);
  if (Object.keys(matchLabels).length + exprs.length === 0) return { kind: 'everything' };
  const tests: ((labels: Record<string, string>) => boolean)[] = [];
  for (const [k, v] of Object.entries(matchLabels)) {
    if (isQualifiedName(k).length > 0 || isValidLabelValue(v).length > 0) return undefined;
    tests.push((l) => Object.prototype.hasOwnProperty.call(l, k) && l[k] === v);
  }
  for (const e of exprs) {
    const k = str(e.key);
    const op = str(e.operator);
    const values = strs(e.values);
    if (!selectorOps.includes(op) || isQualifiedName(k).length > 0) return undefined;
    if ((op === 'In' || op === 'NotIn') && values.length === 0) return undefined;
    if ((op === 'Exists' || op === 'DoesNotExist') && values.length > 0) return undefined;
    if (values.some((v) => isValidLabelValue(v).length > 0)) return undefined;
    const has = (l: Record<string, string>) => Object.prototype.hasOwnProperty.call(l, k);
    if (op === 'In') tests.push((l) => has(l) && values.includes(l[k]!));
    else if (op === 'NotIn') tests.push((l) => !has(l) || !values.includes(l[k]!));
    else if (op === 'Exists') tests.push(has);
    else tests.push((l) => !has(l));
  }
  return { kind: 'requirements', match: (labels) => tests.every((t) => t(labels)) };
}

/** selector.Matches(labels) for a compiled selector. */
export function selectorMatches(sel: CompiledSelector, labels: Record<string, string>): boolean {
  if (sel.kind === 'nothing') return false;
  if (sel.kind === 'everything') return true;
  return sel.match(labels);
}

/** selector.Empty(): only the selector of an empty (non-nil) LabelSelector. */
export const selectorEmpty = (sel: CompiledSelector): boolean => sel.kind === 'everything';

// ---- equality and immutability ----

/** Go's zero value as JSON may carry it: absent, null, "", 0, false, [] or {}. */
export function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObj(v)) return Object.keys(v).length === 0;
  return false;
}

/**
 * apiequality.Semantic.DeepEqual over JSON: nil and empty slices/maps are equal, and (since JSON
 * cannot tell a field's absence from its zero value) so are an absent field and its zero value.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isZero(a) && isZero(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** ValidateImmutableField for values that print plainly (strings, numbers, bools; nil as "null"). */
export function validateImmutableField(newVal: unknown, oldVal: unknown, path: string): FieldError[] {
  return semanticEqual(newVal, oldVal) ? [] : [fieldError.invalid(path, newVal ?? null, FieldImmutableErrorMsg)];
}

/** ValidateImmutableField for a label selector (printed as v1.LabelSelector{...}). */
export function validateImmutableSelector(newSel: unknown, oldSel: unknown, path: string): FieldError[] {
  if (semanticEqual(newSel, oldSel)) return [];
  const text = isObj(newSel) ? goLabelSelector(newSel) : '"null"';
  return [rawError('FieldValueInvalid', path, text, FieldImmutableErrorMsg)];
}

/** An Invalid error whose value is a map[string]string as JSON holds it (nil when absent, as Go prints it). */
export function invalidStringMap(path: string, value: unknown, detail: string): FieldError {
  return rawError('FieldValueInvalid', path, goStringMap(isObj(value) ? stringMap(value) : undefined), detail);
}
