// normalize(): any decoded JSON value → kubelite's canonical form of a schema type.
//
// The canonical form is what Go's encoding/json would write for the value after reading it into
// the Go struct: keys in schema (Go struct) order; omitempty zero values left out; non-omitempty
// zero values written as Go writes them ("", 0, false, null for nil slices/maps/pointers, {} for
// structs with every field empty); non-pointer structs always present (omitempty never omits a
// struct, nor a Time, Quantity, IntOrString, Duration or RawExtension); map keys sorted;
// quantities, times and durations canonical; unknown fields pruned. JSON.stringify of the result
// gives Kubernetes' bytes (after `goEscape`).
//
// Each struct is compiled once into a specialised function (generated code: monomorphic property
// accesses, no per-call reflection). The functions never recurse deeper than MAX_DEPTH and throw
// only DecodeFailure (turned into a BadRequest StatusError by the public entry points).
import type { Field, StructType, Type } from '../../api/schema/dsl.js';
import { canonicalQuantity, ErrFormatWrong, QuantityError } from '../../api/meta/quantity.js';
import { StatusError } from '../status.js';
import {
  DecodeFailure,
  expectedName,
  goFieldPath,
  goTypeName,
  jsonKind,
  MAX_DEPTH,
  SEG_FIELD,
  SEG_INDEX,
  SEG_KEY,
  structShortName,
  toBadRequest,
  userPath,
} from './common.js';
import { canonicalDuration, canonicalMicroTime, canonicalTime, DurationError, timeParseError } from './time.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** Mutable state of one normalize run. */
export interface NormalizeContext {
  /** Record unknown fields (Warn/Strict) or drop them silently (Ignore). */
  collect: boolean;
  /** Unknown fields found, as marker paths (see common.ts). */
  unknown: string[];
  /** Count the keys of every object visited (to detect duplicate keys in the source text). */
  count: boolean;
  keys: number;
  /** Depth-check subtrees the schema does not describe (raw extensions, unknown fields). */
  checkDepth: boolean;
}

export function newContext(validation: FieldValidation, count = false, checkDepth = true): NormalizeContext {
  return { collect: validation !== 'Ignore', unknown: [], count, keys: 0, checkDepth };
}

type NormFn = (o: unknown, c: NormalizeContext, p: string, d: number) => unknown;

// ---------------------------------------------------------------------------------------------
// Runtime helpers called by the generated code.
// ---------------------------------------------------------------------------------------------

function typeError(v: unknown, p: string, goType: string, sname: string, expected: string, valueText?: string): never {
  const what = valueText === undefined ? jsonKind(v) : `number ${valueText}`;
  const field = goFieldPath(p);
  const goMessage =
    sname !== '' && field !== ''
      ? `json: cannot unmarshal ${what} into Go struct field ${sname}.${field} of type ${goType}`
      : `json: cannot unmarshal ${what} into Go value of type ${goType}`;
  throw new DecodeFailure(goMessage, {
    reason: 'FieldValueInvalid',
    message: valueText === undefined ? `expected ${expected}, got ${jsonKind(v)}` : `expected ${expected}, got ${valueText}`,
    field: userPath(p),
  });
}

function fail(p: string, goMessage: string, message: string): never {
  throw new DecodeFailure(goMessage, { reason: 'FieldValueInvalid', message, field: userPath(p) });
}

/** Counts keys and checks depth of a subtree the schema does not describe. */
function walkRaw(v: unknown, c: NormalizeContext, p: string, d: number): void {
  if (typeof v !== 'object' || v === null) return;
  if (d > MAX_DEPTH) deep(p);
  // A frozen subtree is the server's own (the FieldsV1 that the pods of one template share, see
  // machinery/managedfields), never parsed from a request: no keys to count, and only as deep as
  // the schema it was made from — canonicalizing every create would otherwise walk all of it.
  if (!c.count && Object.isFrozen(v)) return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      if (typeof e === 'object' && e !== null) walkRaw(e, c, p, d + 1);
    }
    return;
  }
  let n = 0;
  for (const k in v) {
    n++;
    const e = (v as Record<string, unknown>)[k];
    if (typeof e === 'object' && e !== null) walkRaw(e, c, p, d + 1);
  }
  c.keys += n;
}

function deep(p: string): never {
  fail(p, `json: exceeded max depth ${MAX_DEPTH} at ${userPath(p) || '.'}`, `nesting deeper than ${MAX_DEPTH} levels`);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const B64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Validates standard base64 as Go's decoder does (\r and \n ignored) and returns it canonical. */
function base64(s: string, p: string, _sname: string): string {
  let t = s;
  if (t.includes('\n') || t.includes('\r')) t = t.replace(/[\r\n]/g, '');
  if (!BASE64.test(t)) {
    let i = 0;
    while (i < t.length && B64_ALPHABET.includes(t[i]!)) i++;
    if (i === t.length) i = t.length - (t.length % 4 === 0 ? 0 : t.length % 4);
    fail(p, `illegal base64 data at input byte ${i}`, `invalid base64 data at byte ${i}`);
  }
  // Canonical unless the unused bits of the last quantum are set (Go accepts and drops them).
  if (t.endsWith('==')) {
    if ((B64_ALPHABET.indexOf(t[t.length - 3]!) & 0xf) !== 0) return Buffer.from(t, 'base64').toString('base64');
  } else if (t.endsWith('=')) {
    if ((B64_ALPHABET.indexOf(t[t.length - 2]!) & 0x3) !== 0) return Buffer.from(t, 'base64').toString('base64');
  }
  return t;
}

function time(s: string, p: string): string | null {
  const t = canonicalTime(s);
  if (t === undefined) fail(p, timeParseError(s), `invalid RFC 3339 time ${JSON.stringify(s)}`);
  return t;
}

function microTime(s: string, p: string): string | null {
  const t = canonicalMicroTime(s);
  if (t === undefined) fail(p, timeParseError(s, true), `invalid RFC 3339 micro time ${JSON.stringify(s)}`);
  return t;
}

/**
 * A Time/MicroTime/Duration given as something other than a string or null. Their UnmarshalJSON
 * decodes a Go string; the decoder adds the field's context to that error as to its own.
 */
function notString(v: unknown, p: string, sname: string): never {
  typeError(v, p, 'string', sname, 'string');
}

function quantityString(s: string, p: string): string {
  // Quantity.UnmarshalJSON trims spaces.
  const trimmed = s.trim();
  try {
    return canonicalQuantity(trimmed);
  } catch (e) {
    const message = e instanceof QuantityError ? e.message : String(e);
    return fail(p, message, `invalid quantity ${JSON.stringify(s)}: ${message}`);
  }
}

function quantityOther(v: unknown, p: string): string {
  if (typeof v === 'number' && Number.isFinite(v)) return quantityString(String(v), p);
  return fail(p, ErrFormatWrong, `expected quantity, got ${jsonKind(v)}`);
}

/**
 * IntOrString's UnmarshalJSON decodes a non-string into its int32; Kubernetes' decoder (a fork of
 * encoding/json sharing its UnmarshalTypeError) adds the struct and field path to that error.
 */
function intOrStringError(v: unknown, p: string, sname: string): never {
  if (typeof v === 'number') typeError(v, p, 'int32', sname, 'int32 or string', String(v));
  typeError(v, p, 'int32', sname, 'integer or string');
}

function duration(v: unknown, p: string, sname: string): string {
  if (typeof v !== 'string') notString(v, p, sname);
  try {
    return canonicalDuration(v);
  } catch (e) {
    const message = e instanceof DurationError ? e.message : String(e);
    return fail(p, message, message);
  }
}

function sortKeys(ks: string[]): void {
  let astral = false;
  for (const k of ks)
    if (/[\ud800-\udfff]/.test(k)) {
      astral = true;
      break;
    }
  if (!astral) ks.sort();
  // Go sorts map keys by UTF-8 bytes, which differs from UTF-16 order for astral characters.
  else ks.sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
}

function defineKey(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function isEmptyObject(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

function unknownField(c: NormalizeContext, p: string, k: string, v: unknown, d: number): void {
  const path = p + SEG_FIELD + k;
  if (c.collect) c.unknown.push(path);
  if (c.count || c.checkDepth) walkRaw(v, c, path, d + 1);
}

function checkObject(v: unknown, p: string, goType: string, sname: string): void {
  if (typeof v !== 'object' || Array.isArray(v)) typeError(v, p, goType, sname, 'object');
}

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});

const H = {
  typeError,
  fail,
  walkRaw,
  deep,
  base64,
  time,
  microTime,
  notString,
  quantityString,
  quantityOther,
  intOrStringError,
  duration,
  sortKeys,
  defineKey,
  isEmptyObject,
  unknownField,
  checkObject,
  EMPTY,
  MAX_DEPTH,
};

// ---------------------------------------------------------------------------------------------
// Code generation.
// ---------------------------------------------------------------------------------------------

const structCache = new WeakMap<StructType, NormFn>();
const listCache = new WeakMap<Type, NormFn>();
const mapCache = new WeakMap<Type, NormFn>();

class Gen {
  readonly deps: unknown[] = [];
  readonly pending: Array<() => void> = [];
  dep(x: unknown): string {
    let i = this.deps.indexOf(x);
    if (i < 0) {
      i = this.deps.length;
      this.deps.push(x);
    }
    return `D[${i}]`;
  }
  /** A slot for a function compiled after this one (allows recursive schemas). */
  lazy(make: () => NormFn): string {
    const i = this.deps.length;
    this.deps.push(undefined);
    this.pending.push(() => {
      this.deps[i] = make();
    });
    return `D[${i}]`;
  }
}

function prop(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function lit(s: string): string {
  return JSON.stringify(s);
}

/**
 * Code normalizing `v` (a list element or map value: null means the Go zero value) into `v`.
 * `pe` is the path expression, `sname` the Go struct name for error context.
 */
function elementCode(t: Type, g: Gen, pe: string, sname: string, d: string): string {
  const gt = lit(goTypeName(t));
  const ex = lit(expectedName(t));
  const sn = lit(sname);
  switch (t.kind) {
    case 'struct': {
      const fn = g.lazy(() => compileStruct(t));
      return `if (v !== null) H.checkObject(v, ${pe}, ${gt}, ${sn}); v = ${fn}(v, c, ${pe}, ${d});`;
    }
    case 'list': {
      const fn = g.lazy(() => compileList(t, sname));
      return `if (Array.isArray(v)) v = ${fn}(v, c, ${pe}, ${d}); else if (v !== null) H.typeError(v, ${pe}, ${gt}, ${sn}, ${ex});`;
    }
    case 'map': {
      const fn = g.lazy(() => compileMap(t, sname));
      return `if (v !== null) { H.checkObject(v, ${pe}, ${gt}, ${sn}); v = ${fn}(v, c, ${pe}, ${d}); }`;
    }
    case 'scalar':
      switch (t.name) {
        case 'string':
          return `if (typeof v !== 'string') { if (v === null) v = ''; else H.typeError(v, ${pe}, ${gt}, ${sn}, ${ex}); }`;
        case 'bool':
          return `if (typeof v !== 'boolean') { if (v === null) v = false; else H.typeError(v, ${pe}, ${gt}, ${sn}, ${ex}); }`;
        case 'int32':
          return `if (typeof v === 'number') { if ((v | 0) !== v) H.typeError(v, ${pe}, ${gt}, ${sn}, 'int32', String(v)); } else if (v === null) v = 0; else H.typeError(v, ${pe}, ${gt}, ${sn}, ${ex});`;
        case 'int64':
          return `if (typeof v === 'number') { if (!Number.isInteger(v) || v > 9223372036854775807 || v < -9223372036854775808) H.typeError(v, ${pe}, ${gt}, ${sn}, 'int64', String(v)); } else if (v === null) v = 0; else H.typeError(v, ${pe}, ${gt}, ${sn}, ${ex});`;
        case 'double':
          return `if (typeof v === 'number') { if (!Number.isFinite(v)) H.typeError(v, ${pe}, ${gt}, ${sn}, ${ex}, String(v)); } else if (v === null) v = 0; else H.typeError(v, ${pe}, ${gt}, ${sn}, ${ex});`;
        case 'bytes':
          return `if (typeof v === 'string') v = H.base64(v, ${pe}, ${sn}); else if (v !== null) H.typeError(v, ${pe}, ${gt}, ${sn}, ${ex});`;
        case 'time':
          return `if (typeof v === 'string') v = H.time(v, ${pe}); else if (v !== null) H.notString(v, ${pe}, ${sn});`;
        case 'microTime':
          return `if (typeof v === 'string') v = H.microTime(v, ${pe}); else if (v !== null) H.notString(v, ${pe}, ${sn});`;
        case 'duration':
          return `v = v === null ? '0s' : H.duration(v, ${pe}, ${sn});`;
        case 'quantity':
          return `if (typeof v === 'string') v = H.quantityString(v, ${pe}); else if (v === null) v = '0'; else v = H.quantityOther(v, ${pe});`;
        case 'intOrString':
          return `if (typeof v !== 'string') { if (v === null) v = 0; else if (typeof v !== 'number' || (v | 0) !== v) H.intOrStringError(v, ${pe}, ${sn}); }`;
        case 'fieldsV1':
        case 'rawExtension':
          return `if (c.count || c.checkDepth) H.walkRaw(v, c, ${pe}, ${d});`;
      }
  }
}

/** Whether elementCode for `t` can leave `v` unchanged for valid input (no copy needed). */
function compileList(t: Type & { kind: 'list' }, sname: string): NormFn {
  let cached = listCache.get(t);
  if (cached) return cached;
  const g = new Gen();
  const body = elementCode(t.of, g, `p + ${lit(SEG_INDEX)} + i`, sname, 'd + 1');
  const src = `return function normList(a, c, p, d) {
  if (d > H.MAX_DEPTH) H.deep(p);
  const n = a.length;
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    let v = a[i];
    if (v === undefined) v = null;
    ${body}
    out[i] = v;
  }
  return out;
}`;
  cached = new Function('H', 'D', src)(H, g.deps) as NormFn;
  listCache.set(t, cached);
  for (const f of g.pending) f();
  return cached;
}

function compileMap(t: Type & { kind: 'map' }, sname: string): NormFn {
  let cached = mapCache.get(t);
  if (cached) return cached;
  const g = new Gen();
  const body = elementCode(t.of, g, `p + ${lit(SEG_KEY)} + k`, sname, 'd + 1');
  const src = `return function normMap(m, c, p, d) {
  if (d > H.MAX_DEPTH) H.deep(p);
  const ks = Object.keys(m);
  const n = ks.length;
  if (c.count) c.keys += n;
  for (let i = 1; i < n; i++) if (ks[i - 1] > ks[i]) { H.sortKeys(ks); break; }
  const out = {};
  for (let i = 0; i < n; i++) {
    const k = ks[i];
    let v = m[k];
    if (v === undefined) v = null;
    ${body}
    if (k === '__proto__') H.defineKey(out, k, v); else out[k] = v;
  }
  return out;
}`;
  cached = new Function('H', 'D', src)(H, g.deps) as NormFn;
  mapCache.set(t, cached);
  for (const f of g.pending) f();
  return cached;
}

/**
 * Code for one struct field: reads `o<prop>` into `v` and sets `r<prop>` per Go's rules.
 * Pointers: nil (absent or null) is left out with omitempty and written as null without it.
 */
function fieldCode(key: string, f: Field, g: Gen, sname: string): string {
  const t = f.type;
  const pr = prop(key);
  const pe = `p + ${lit(SEG_FIELD + key)}`;
  const gt = lit(goTypeName(t));
  const ex = lit(expectedName(t));
  const sn = lit(sname);
  const omit = f.omitempty;
  const ptr = f.pointer;
  const head = `v = o${pr};\n`;
  const te = `H.typeError(v, ${pe}, ${gt}, ${sn}, ${ex})`;
  const nilPtr = omit ? '' : ` else r${pr} = null;`;
  // `present`: statements for a non-null v.
  const pointer = (present: string): string => head + `if (v != null) { ${present} }${nilPtr}`;
  switch (t.kind) {
    case 'struct': {
      const fn = g.lazy(() => compileStruct(t));
      if (ptr) return pointer(`H.checkObject(v, ${pe}, ${gt}, ${sn}); r${pr} = ${fn}(v, c, ${pe}, d + 1);`);
      return head + `if (v != null) H.checkObject(v, ${pe}, ${gt}, ${sn}); r${pr} = ${fn}(v, c, ${pe}, d + 1);`;
    }
    case 'list': {
      const fn = g.lazy(() => compileList(t, sname));
      if (ptr) return pointer(`if (!Array.isArray(v)) ${te}; r${pr} = ${fn}(v, c, ${pe}, d + 1);`);
      if (omit) return head + `if (Array.isArray(v)) { if (v.length !== 0) r${pr} = ${fn}(v, c, ${pe}, d + 1); } else if (v != null) ${te};`;
      return head + `if (Array.isArray(v)) r${pr} = ${fn}(v, c, ${pe}, d + 1); else if (v == null) r${pr} = null; else ${te};`;
    }
    case 'map': {
      const fn = g.lazy(() => compileMap(t, sname));
      const check = `if (typeof v !== 'object' || Array.isArray(v)) ${te};`;
      if (ptr) return pointer(`${check} r${pr} = ${fn}(v, c, ${pe}, d + 1);`);
      if (omit) return head + `if (v != null) { ${check} if (!H.isEmptyObject(v)) r${pr} = ${fn}(v, c, ${pe}, d + 1); }`;
      return head + `if (v != null) { ${check} r${pr} = ${fn}(v, c, ${pe}, d + 1); } else r${pr} = null;`;
    }
    case 'scalar':
      break;
  }
  const simple = (test: string, zero: string, extra = ''): string => {
    if (ptr) return pointer(`if (!(${test})) ${te}; ${extra} r${pr} = v;`);
    if (omit) return head + `if (${test}) { ${extra} if (v !== ${zero}) r${pr} = v; } else if (v != null) ${te};`;
    return head + `if (${test}) { ${extra} r${pr} = v; } else if (v == null) r${pr} = ${zero}; else ${te};`;
  };
  switch (t.name) {
    case 'string':
      return simple(`typeof v === 'string'`, `''`);
    case 'bool':
      return simple(`typeof v === 'boolean'`, 'false');
    case 'int32':
      return simple(`typeof v === 'number'`, '0', `if ((v | 0) !== v) H.typeError(v, ${pe}, ${gt}, ${sn}, 'int32', String(v));`);
    case 'int64':
      return simple(
        `typeof v === 'number'`,
        '0',
        `if (!Number.isInteger(v) || v > 9223372036854775807 || v < -9223372036854775808) H.typeError(v, ${pe}, ${gt}, ${sn}, 'int64', String(v));`,
      );
    case 'double':
      return simple(`typeof v === 'number'`, '0', `if (!Number.isFinite(v)) H.typeError(v, ${pe}, ${gt}, ${sn}, ${ex}, String(v));`);
    case 'bytes':
      // A []byte is a slice: omitempty drops it when empty; otherwise nil is null.
      if (ptr) return pointer(`if (typeof v !== 'string') ${te}; r${pr} = H.base64(v, ${pe}, ${sn});`);
      if (omit) return head + `if (typeof v === 'string') { if (v !== '') r${pr} = H.base64(v, ${pe}, ${sn}); } else if (v != null) ${te};`;
      return head + `if (typeof v === 'string') r${pr} = H.base64(v, ${pe}, ${sn}); else if (v == null) r${pr} = null; else ${te};`;
    case 'time':
    case 'microTime': {
      const conv = t.name === 'time' ? 'H.time' : 'H.microTime';
      // A struct: never omitted unless a pointer. A pointer to the zero time is taken as nil.
      if (ptr) return head + `if (typeof v === 'string') v = ${conv}(v, ${pe}); else if (v != null) H.notString(v, ${pe}, ${sn});\nif (v != null) r${pr} = v;${nilPtr}`;
      return head + `if (typeof v === 'string') r${pr} = ${conv}(v, ${pe}); else if (v == null) r${pr} = null; else H.notString(v, ${pe}, ${sn});`;
    }
    case 'duration':
      if (ptr) return pointer(`r${pr} = H.duration(v, ${pe}, ${sn});`);
      return head + `r${pr} = v == null ? '0s' : H.duration(v, ${pe}, ${sn});`;
    case 'quantity':
      if (ptr) return pointer(`r${pr} = typeof v === 'string' ? H.quantityString(v, ${pe}) : H.quantityOther(v, ${pe});`);
      return head + `if (typeof v === 'string') r${pr} = H.quantityString(v, ${pe}); else if (v == null) r${pr} = '0'; else r${pr} = H.quantityOther(v, ${pe});`;
    case 'intOrString': {
      const ok = `typeof v === 'string' || (typeof v === 'number' && (v | 0) === v)`;
      if (ptr) return pointer(`if (!(${ok})) H.intOrStringError(v, ${pe}, ${sn}); r${pr} = v;`);
      return head + `if (v == null) r${pr} = 0; else { if (!(${ok})) H.intOrStringError(v, ${pe}, ${sn}); r${pr} = v; }`;
    }
    case 'fieldsV1':
    case 'rawExtension':
      if (ptr) return pointer(`if (c.count || c.checkDepth) H.walkRaw(v, c, ${pe}, d + 1); r${pr} = v;`);
      return head + `if (v != null) { if (c.count || c.checkDepth) H.walkRaw(v, c, ${pe}, d + 1); r${pr} = v; } else r${pr} = null;`;
  }
}

function compileStruct(s: StructType): NormFn {
  let cached = structCache.get(s);
  if (cached) return cached;
  const g = new Gen();
  const sname = structShortName(s);
  const known: Record<string, 1> = Object.create(null);
  const parts: string[] = [];
  for (const [key, f] of Object.entries(s.fields)) {
    known[key] = 1;
    parts.push(fieldCode(key, f, g, sname));
  }
  const K = g.dep(known);
  const src = `return function norm_${sname.replace(/[^A-Za-z0-9_]/g, '_')}(o, c, p, d) {
  if (o == null) o = H.EMPTY;
  if (d > H.MAX_DEPTH) H.deep(p);
  const K = ${K};
  let n = 0;${s.open ? '\n  let kept = false;' : ''}
  for (const k in o) { n++; if (K[k] !== 1) ${s.open ? 'kept = true' : 'H.unknownField(c, p, k, o[k], d)'}; }
  c.keys += n;
  const r = {};
  let v;
  ${parts.join('\n  ')}
  ${s.open ? 'if (kept) for (const k in o) if (K[k] !== 1) { H.walkRaw(o[k], c, p, d + 1); if (k === \'__proto__\') H.defineKey(r, k, o[k]); else r[k] = o[k]; }' : ''}
  return r;
}`;
  cached = new Function('H', 'D', src)(H, g.deps) as NormFn;
  structCache.set(s, cached);
  for (const f of g.pending) f();
  return cached;
}

/** The compiled normalizer of a struct (exposed for the other codecs). */
export function structNormalizer(s: StructType): NormFn {
  return compileStruct(s);
}

// ---------------------------------------------------------------------------------------------
// Public API.
// ---------------------------------------------------------------------------------------------

export interface NormalizeOptions {
  /** What to do with unknown fields: Ignore drops them; Warn/Strict also report them. Default Warn. */
  fieldValidation?: FieldValidation;
}

export interface NormalizeResult<T = Record<string, unknown>> {
  object: T;
  /** Unknown fields, as paths (`.spec.foo`, `.spec.containers[0].bar`), in visit order. */
  unknownFields: string[];
}

/**
 * Any decoded JSON value → canonical form of `type` (a new object; the input is not modified,
 * but subtrees of raw extensions and FieldsV1 are shared with it). Idempotent. Throws a
 * BadRequest StatusError (causes[0].field names the path) on a wrongly typed value; with
 * fieldValidation Strict, also on unknown fields.
 */
export function normalize<T = Record<string, unknown>>(
  value: unknown,
  type: StructType,
  opts: NormalizeOptions = {},
): NormalizeResult<T> {
  const validation = opts.fieldValidation ?? 'Warn';
  const c = newContext(validation, false, true);
  let object: unknown;
  try {
    if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value)))
      typeError(value, '', structGoNameOf(type), '', 'object');
    object = compileStruct(type)(value, c, '', 1);
  } catch (e) {
    throw toBadRequest(e);
  }
  const unknownFields = c.unknown.map(userPath);
  if (validation === 'Strict' && unknownFields.length > 0)
    throw StatusError.badRequest(
      'strict decoding error: ' + unknownFields.map((f) => `unknown field ${JSON.stringify(f.slice(1))}`).join(', '),
    );
  return { object: object as T, unknownFields };
}

/** Canonical form of a value already known to be valid (no reporting); throws StatusError if not. */
export function canonicalize<T = Record<string, unknown>>(value: unknown, type: StructType): T {
  return normalize<T>(value, type, { fieldValidation: 'Ignore' }).object;
}

/** The canonical zero value of a struct (Go's zero struct as JSON). */
export function zeroValue<T = Record<string, unknown>>(type: StructType): T {
  return compileStruct(type)(null, newContext('Ignore', false, false), '', 1) as T;
}

function structGoNameOf(s: StructType): string {
  return goTypeName(s);
}
