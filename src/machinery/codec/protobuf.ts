// application/vnd.kubernetes.protobuf, derived from the schema.
//
// Encoding reproduces Go's gogo-generated marshalers byte for byte: fields in ascending tag order;
// non-pointer strings/ints/bools always written (zero values included), pointer ones only when
// set; non-pointer structs always written (possibly as an empty message), pointer ones when set;
// repeated fields element by element (proto2: never packed); maps as key/value entries sorted by
// key; Time = {seconds = 1, nanos = 2} (nanos 0; the zero Time an empty message); MicroTime keeps
// nanos; Quantity = {string = 1}; IntOrString = {type = 1, intVal = 2, strVal = 3}; Duration =
// {int64 nanoseconds = 1}; FieldsV1 / RawExtension = {raw bytes = 1} (the JSON text); Go structs
// embedded inline are a nested message at the embedding field's number.
//
// Decoding is the inverse, straight into canonical form (Go's JSON rules applied to the decoded Go
// value). Unknown fields are skipped (Kubernetes cannot report them for protobuf); packed repeated
// scalars are accepted.
//
// Objects travel in the envelope: magic `k8s\0` + runtime.Unknown {typeMeta = 1 {apiVersion = 1,
// kind = 2}, raw = 2, contentEncoding = 3, contentType = 4}.
//
// Each struct compiles once into specialised encode/decode functions (generated code).
import type { Field, StructType, Type } from '../../api/schema/dsl.js';
import { canonicalQuantity, QuantityError } from '../../api/meta/quantity.js';
import { StatusError } from '../status.js';
import {
  DecodeFailure,
  kindOf,
  MAX_BODY_BYTES,
  MAX_DEPTH,
  structShortName,
  summarizeBody,
  toBadRequest,
} from './common.js';
import { parseJson } from './json.js';
import { zeroValue } from './normalize.js';
import { formatDuration, formatRfc3339, formatRfc3339Micro, parseDuration, parseRfc3339, ZERO_TIME_UNIX } from './time.js';
import {
  protoError,
  readBase64,
  readBool,
  readBytes,
  readDouble,
  readInt32,
  readInt64,
  reader,
  readLenEnd,
  readString,
  readTag,
  readVarint,
  readVarintBig,
  skipField,
  Writer,
  type Reader,
} from './wire.js';

/** The protobuf envelope's magic prefix: `k8s\0`. */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

type EncFn = (w: Writer, o: unknown) => void;
type DecFn = (r: Reader, end: number, d: number, tm: TypeMeta | undefined) => Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Runtime helpers for generated code.
// ---------------------------------------------------------------------------------------------

function encodeError(message: string): never {
  throw StatusError.internal(`protobuf encoding: ${message}`);
}

function timeSeconds(v: string): number {
  const t = parseRfc3339(v);
  if (t === undefined) encodeError(`invalid time ${JSON.stringify(v)}`);
  return t.seconds;
}

function writeTime(w: Writer, v: unknown): void {
  if (typeof v !== 'string') return; // zero Time: empty message
  const s = timeSeconds(v);
  if (s === ZERO_TIME_UNIX) return;
  w.byte(0x08);
  w.int64(s);
  w.byte(0x10);
  w.byte(0);
}

function writeMicroTime(w: Writer, v: unknown): void {
  if (typeof v !== 'string') return;
  const t = parseRfc3339(v, 6) ?? parseRfc3339(v);
  if (t === undefined) encodeError(`invalid micro time ${JSON.stringify(v)}`);
  if (t.seconds === ZERO_TIME_UNIX && t.nanos === 0) return;
  w.byte(0x08);
  w.int64(t.seconds);
  w.byte(0x10);
  w.int64(t.nanos);
}

function quantityString(v: unknown): string {
  if (v === undefined || v === null) return '0';
  try {
    return canonicalQuantity(typeof v === 'string' ? v.trim() : String(v));
  } catch (e) {
    return encodeError(`invalid quantity ${JSON.stringify(v)}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function writeQuantity(w: Writer, v: unknown): void {
  w.byte(0x0a);
  w.string(quantityString(v));
}

function writeIntOrString(w: Writer, v: unknown): void {
  if (typeof v === 'string') {
    w.byte(0x08);
    w.byte(1);
    w.byte(0x10);
    w.byte(0);
    w.byte(0x1a);
    w.string(v);
  } else {
    w.byte(0x08);
    w.byte(0);
    w.byte(0x10);
    w.int64(typeof v === 'number' ? v | 0 : 0);
    w.byte(0x1a);
    w.byte(0);
  }
}

function writeDuration(w: Writer, v: unknown): void {
  let ns = 0n;
  if (typeof v === 'string') {
    try {
      ns = parseDuration(v);
    } catch (e) {
      encodeError(e instanceof Error ? e.message : String(e));
    }
  }
  w.byte(0x08);
  w.bigVarint(BigInt.asUintN(64, ns));
}

/**
 * The raw JSON text a RawExtension / FieldsV1 object was decoded from (protobuf only), so that an
 * unchanged object re-encodes to the same bytes even when the writer formatted it differently
 * (Go keeps a RawExtension's bytes as the client sent them, whitespace included).
 */
const rawText = new WeakMap<object, string>();

function writeRaw(w: Writer, v: unknown): void {
  if (v === undefined || v === null) return;
  w.byte(0x0a);
  const s = JSON.stringify(v);
  if (typeof v === 'object') {
    const original = rawText.get(v);
    if (original !== undefined && original !== s) {
      // Written differently: reuse the original bytes if the value is unchanged.
      let same = false;
      try {
        same = JSON.stringify(JSON.parse(original)) === s;
      } catch {
        same = false;
      }
      if (same) {
        w.string(original);
        return;
      }
    }
  }
  w.string(s);
}

function sortedKeys(m: Record<string, unknown>): string[] {
  const ks = Object.keys(m);
  for (let i = 1; i < ks.length; i++)
    if (ks[i - 1]! > ks[i]!) {
      ks.sort();
      break;
    }
  return ks;
}

function deep(): never {
  return protoError(`proto: message nesting deeper than ${MAX_DEPTH} levels`);
}

function readTime(r: Reader, end: number): string | null {
  if (r.pos === end) return null;
  let seconds = 0;
  while (r.pos < end) {
    const t = readTag(r, end, 'Timestamp');
    if (t === 0x08) seconds = readInt64(r, end);
    else if (t === 0x10) readInt32(r, end);
    else otherField(r, t, end, TIMESTAMP_FIELDS, 'Timestamp');
  }
  if (seconds === ZERO_TIME_UNIX) return null;
  const s = formatRfc3339(seconds);
  if (s === undefined) protoError(`proto: Timestamp: seconds ${seconds} out of range`);
  return s;
}

function readMicroTime(r: Reader, end: number): string | null {
  if (r.pos === end) return null;
  let seconds = 0;
  let nanos = 0;
  while (r.pos < end) {
    const t = readTag(r, end, 'Timestamp');
    if (t === 0x08) seconds = readInt64(r, end);
    else if (t === 0x10) nanos = readInt32(r, end);
    else otherField(r, t, end, TIMESTAMP_FIELDS, 'Timestamp');
  }
  // time.Unix normalizes nanos outside [0, 1e9).
  if (nanos < 0 || nanos >= 1e9) {
    const carry = Math.floor(nanos / 1e9);
    seconds += carry;
    nanos -= carry * 1e9;
  }
  if (seconds === ZERO_TIME_UNIX && nanos === 0) return null;
  const s = formatRfc3339Micro(seconds, nanos);
  if (s === undefined) protoError(`proto: Timestamp: seconds ${seconds} out of range`);
  return s;
}

const TIMESTAMP_FIELDS = ['', 'Seconds', 'Nanos'];

function readQuantity(r: Reader, end: number): string {
  let s = '';
  let set = false;
  while (r.pos < end) {
    const t = readTag(r, end, 'Quantity');
    if (t === 0x0a) {
      s = readString(r, end);
      set = true;
    } else otherField(r, t, end, ['', 'String_'], 'Quantity');
  }
  if (!set) return '0';
  try {
    return canonicalQuantity(s);
  } catch (e) {
    return protoError(e instanceof QuantityError ? e.message : String(e));
  }
}

function readIntOrString(r: Reader, end: number): string | number {
  let type = 0;
  let intVal = 0;
  let strVal = '';
  while (r.pos < end) {
    const t = readTag(r, end, 'IntOrString');
    if (t === 0x08) type = readInt64(r, end);
    else if (t === 0x10) intVal = readInt32(r, end);
    else if (t === 0x1a) strVal = readString(r, end);
    else otherField(r, t, end, ['', 'Type', 'IntVal', 'StrVal'], 'IntOrString');
  }
  if (type === 0) return intVal;
  if (type === 1) return strVal;
  return protoError('impossible IntOrString.Type');
}

function readDuration(r: Reader, end: number): string {
  let ns = 0n;
  while (r.pos < end) {
    const t = readTag(r, end, 'Duration');
    if (t === 0x08) ns = BigInt.asIntN(64, readVarintBig(r, end));
    else otherField(r, t, end, ['', 'Duration'], 'Duration');
  }
  return formatDuration(ns);
}

/** FieldsV1 / RawExtension: the raw JSON, parsed; null when absent. */
function readRaw(r: Reader, end: number): unknown {
  let raw: Uint8Array | undefined;
  while (r.pos < end) {
    const t = readTag(r, end, 'RawExtension');
    if (t === 0x0a) raw = readBytes(r, end);
    else otherField(r, t, end, ['', 'Raw'], 'RawExtension');
  }
  if (raw === undefined || raw.length === 0) return null;
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (e) {
    return protoError(`raw extension is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof value === 'object' && value !== null) rawText.set(value, text);
  return value;
}

/** A field that no case matched: skipped when unknown, an error when known with another wire type. */
function otherField(r: Reader, t: number, end: number, names: readonly string[] | Record<number, string>, message: string): void {
  const num = Math.floor(t / 8);
  const wt = t & 7;
  const name = (names as Record<number, string>)[num];
  if (name !== undefined && name !== '') protoError(`proto: wrong wireType = ${wt} for field ${name}`);
  if (wt === 3 || wt === 4) protoError(`proto: ${message}: illegal wireType ${wt}`);
  skipField(r, wt, end);
}

function putKey(m: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(m, k, { value: v, enumerable: true, writable: true, configurable: true });
  else m[k] = v;
}

/** Map keys in canonical (sorted) order; the wire normally has them sorted already. */
function sortMap<T>(m: Record<string, T>): Record<string, T> {
  const ks = Object.keys(m);
  let sorted = true;
  for (let i = 1; i < ks.length; i++)
    if (ks[i - 1]! > ks[i]!) {
      sorted = false;
      break;
    }
  if (sorted) return m;
  ks.sort();
  const out: Record<string, T> = {};
  for (const k of ks) putKey(out, k, m[k]);
  return out;
}

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});

const RT = {
  writeTime,
  writeMicroTime,
  writeQuantity,
  writeIntOrString,
  writeDuration,
  writeRaw,
  quantityString,
  sortedKeys,
  deep,
  readTime,
  readMicroTime,
  readQuantity,
  readIntOrString,
  readDuration,
  readRaw,
  otherField,
  skipField,
  putKey,
  sortMap,
  readVarint,
  EMPTY,
  MAX_DEPTH,
};

// ---------------------------------------------------------------------------------------------
// Code generation.
// ---------------------------------------------------------------------------------------------

class Gen {
  /** The decoders it generates skip ObjectMeta.managedFields (DecodeOptions.skipManagedFields). */
  constructor(readonly skipManagedFields = false) {}
  readonly deps: unknown[] = [];
  readonly pending: Array<() => void> = [];
  hints = 0;
  uids = 0;
  uid(): number {
    return this.uids++;
  }
  dep(x: unknown): string {
    const i = this.deps.length;
    this.deps.push(x);
    return `D[${i}]`;
  }
  lazy(make: () => unknown): string {
    const i = this.deps.length;
    this.deps.push(undefined);
    this.pending.push(() => {
      this.deps[i] = make();
    });
    return `D[${i}]`;
  }
  hint(): string {
    return `HI[${this.hints++}]`;
  }
}

const WT_VARINT = 0;
const WT_FIXED64 = 1;
const WT_LEN = 2;

function wireType(t: Type): number {
  if (t.kind !== 'scalar') return WT_LEN;
  switch (t.name) {
    case 'bool':
    case 'int32':
    case 'int64':
      return WT_VARINT;
    case 'double':
      return WT_FIXED64;
    default:
      return WT_LEN;
  }
}

function keyBytes(num: number, wt: number): number[] {
  let n = num * 8 + wt;
  const out: number[] = [];
  while (n >= 128) {
    out.push((n & 127) | 128);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

function emitKey(num: number, wt: number): string {
  const b = keyBytes(num, wt);
  if (b.length === 1) return `w.byte(${b[0]});`;
  if (b.length === 2) return `w.tag2(${b[0]}, ${b[1]});`;
  return b.map((x) => `w.byte(${x});`).join(' ');
}

function keyValue(num: number, wt: number): number {
  return num * 8 + wt;
}

function isMessageLike(t: Type): boolean {
  if (t.kind === 'struct' || t.kind === 'list' || t.kind === 'map') return true;
  switch (t.name) {
    case 'time':
    case 'microTime':
    case 'quantity':
    case 'intOrString':
    case 'duration':
    case 'fieldsV1':
    case 'rawExtension':
      return true;
    default:
      return false;
  }
}

/**
 * Statements writing the payload (after the key) of one value `x` of type `t` (`x` may be
 * null/undefined: the zero value). For message-like types this includes the length prefix.
 */
function encPayload(t: Type, x: string, g: Gen): string {
  const u = g.uid();
  const wrap = (inner: string): string => {
    const h = g.hint();
    return `{ const s${u} = w.fork(${h}); ${inner} ${h} = w.join(s${u}, ${h}); }`;
  };
  switch (t.kind) {
    case 'struct': {
      const fn = g.lazy(() => compileEncoder(t));
      return wrap(`${fn}(w, ${x} ?? RT.EMPTY);`);
    }
    case 'list':
      // A nested list is a message wrapping `repeated items = 1` (as Kubernetes' named slices).
      return wrap(
        `const a${u} = ${x}; if (Array.isArray(a${u})) for (let j${u} = 0; j${u} < a${u}.length; j${u}++) { ${emitKey(1, wireType(t.of))} ${encPayload(t.of, `a${u}[j${u}]`, g)} }`,
      );
    case 'map':
      return wrap(`const m${u} = ${x}; if (m${u} != null) { ${encMapEntries(t, `m${u}`, 1, g)} }`);
    case 'scalar':
      switch (t.name) {
        case 'string':
          return `w.string(typeof ${x} === 'string' ? ${x} : '');`;
        case 'bool':
          return `w.byte(${x} === true ? 1 : 0);`;
        case 'int32':
          return `w.int64(typeof ${x} === 'number' ? ${x} | 0 : 0);`;
        case 'int64':
          return `w.int64(typeof ${x} === 'number' ? ${x} : 0);`;
        case 'double':
          return `w.double(typeof ${x} === 'number' ? ${x} : 0);`;
        case 'bytes':
          return `w.base64(typeof ${x} === 'string' ? ${x} : '');`;
        case 'time':
          return wrap(`RT.writeTime(w, ${x});`);
        case 'microTime':
          return wrap(`RT.writeMicroTime(w, ${x});`);
        case 'quantity':
          return wrap(`RT.writeQuantity(w, ${x});`);
        case 'intOrString':
          return wrap(`RT.writeIntOrString(w, ${x});`);
        case 'duration':
          return wrap(`RT.writeDuration(w, ${x});`);
        case 'fieldsV1':
        case 'rawExtension':
          return wrap(`RT.writeRaw(w, ${x});`);
      }
  }
}

/** Map entries of map `m` at field `num`, sorted by key. */
function encMapEntries(t: Type & { kind: 'map' }, m: string, num: number, g: Gen): string {
  const u = g.uid();
  const vt = t.of;
  const vwt = wireType(vt);
  const x = `x${u}`;
  let value: string;
  if (vt.kind === 'scalar' && vt.name === 'bytes') value = `if (typeof ${x} === 'string') { ${emitKey(2, WT_LEN)} w.base64(${x}); }`;
  else value = `${emitKey(2, vwt)} ${encPayload(vt, x, g)}`;
  const h = g.hint();
  return `const ks${u} = RT.sortedKeys(${m}); for (let j${u} = 0; j${u} < ks${u}.length; j${u}++) { const k${u} = ks${u}[j${u}]; const ${x} = ${m}[k${u}]; ${emitKey(num, WT_LEN)} const s${u} = w.fork(${h}); w.byte(10); w.string(k${u}); ${value} ${h} = w.join(s${u}, ${h}); }`;
}

/** Statements writing one field (key + payload) per Go's marshaler rules. */
function encField(key: string, f: Field, num: number, g: Gen): string {
  const t = f.type;
  const v = `o${prop(key)}`;
  const k = emitKey(num, wireType(t.kind === 'list' ? t.of : t));
  if (t.kind === 'list') {
    const u = g.uid();
    return `v = ${v}; if (Array.isArray(v)) for (let i${u} = 0; i${u} < v.length; i${u}++) { const e${u} = v[i${u}]; ${k} ${encPayload(t.of, `e${u}`, g)} }`;
  }
  if (t.kind === 'map') return `v = ${v}; if (v != null && typeof v === 'object') { ${encMapEntries(t, 'v', num, g)} }`;
  if (t.kind === 'scalar' && t.name === 'bytes') return `v = ${v}; if (typeof v === 'string') { ${k} w.base64(v); }`;
  if (f.pointer) return `v = ${v}; if (v != null) { ${k} ${encPayload(t, 'v', g)} }`;
  return `v = ${v}; ${k} ${encPayload(t, 'v', g)}`;
}

function prop(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

interface Slot {
  key: string;
  field: Field;
}

/** The wire layout of a struct: direct fields and embedded groups, by ascending number. */
function layout(s: StructType): Layout {
  return layoutSlots(Object.entries(s.fields).map(([key, field]) => ({ key, field })));
}

type Layout = Array<{ num: number; field?: Slot; group?: Slot[] }>;

function layoutSlots(slots: readonly Slot[]): Layout {
  const out: Layout = [];
  const groups = new Map<number, Slot[]>();
  for (const { key, field } of slots) {
    if (field.embedded) {
      let g = groups.get(field.embedded.tag);
      if (!g) {
        groups.set(field.embedded.tag, (g = []));
        out.push({ num: field.embedded.tag, group: g });
      }
      g.push({ key, field });
    } else if (field.tag > 0) out.push({ num: field.tag, field: { key, field } });
  }
  return out.sort((a, b) => a.num - b.num);
}

/** The layout inside an embedded group: its slots one embedding level down (a struct it embedded in turn is a group again). */
function innerLayout(group: readonly Slot[]): Layout {
  return layoutSlots(group.map(({ key, field }) => ({ key, field: { ...field, embedded: field.embedded!.then } })));
}

const encCache = new WeakMap<StructType, EncFn>();

function compileEncoder(s: StructType): EncFn {
  let cached = encCache.get(s);
  if (cached) return cached;
  const g = new Gen();
  const parts: string[] = [];
  const encItems = (items: Layout): string[] =>
    items.map((item) => {
      if (item.field) return encField(item.field.key, item.field.field, item.num, g);
      const h = g.hint();
      const inner = encItems(innerLayout(item.group!)).join('\n    ');
      return `${emitKey(item.num, WT_LEN)} { const s = w.fork(${h});\n    ${inner}\n    ${h} = w.join(s, ${h}); }`;
    });
  parts.push(...encItems(layout(s)));
  const src = `return function enc_${structShortName(s).replace(/\W/g, '_')}(w, o) {
  let v;
  ${parts.join('\n  ')}
}`;
  const hints = new Uint8Array(g.hints).fill(1);
  cached = new Function('RT', 'D', 'HI', src)(RT, g.deps, hints) as EncFn;
  encCache.set(s, cached);
  for (const p of g.pending) p();
  return cached;
}

// Decoding ----------------------------------------------------------------------------------

/** Expression decoding one value of type t (whose key was just read) from r, bounded by `end`. */
function decPayload(t: Type, g: Gen): string {
  switch (t.kind) {
    case 'struct': {
      const fn = g.lazy(() => compileDecoder(t, g.skipManagedFields));
      return `${fn}(r, readLenEnd(r, end), d + 1, undefined)`;
    }
    case 'list': {
      const fn = g.lazy(() => compileWrapperDecoder(t, g.skipManagedFields));
      return `${fn}(r, readLenEnd(r, end), d + 1)`;
    }
    case 'map': {
      const fn = g.lazy(() => compileMapWrapperDecoder(t, g.skipManagedFields));
      return `${fn}(r, readLenEnd(r, end), d + 1)`;
    }
    case 'scalar':
      switch (t.name) {
        case 'string':
          return `readString(r, end)`;
        case 'bool':
          return `readBool(r, end)`;
        case 'int32':
          return `readInt32(r, end)`;
        case 'int64':
          return `readInt64(r, end)`;
        case 'double':
          return `readDouble(r, end)`;
        case 'bytes':
          return `readBase64(r, end)`;
        case 'time':
          return `RT.readTime(r, readLenEnd(r, end))`;
        case 'microTime':
          return `RT.readMicroTime(r, readLenEnd(r, end))`;
        case 'quantity':
          return `RT.readQuantity(r, readLenEnd(r, end))`;
        case 'intOrString':
          return `RT.readIntOrString(r, readLenEnd(r, end))`;
        case 'duration':
          return `RT.readDuration(r, readLenEnd(r, end))`;
        case 'fieldsV1':
        case 'rawExtension':
          return `RT.readRaw(r, readLenEnd(r, end))`;
      }
  }
}

/** The canonical zero value expression of a list element / map value. */
function zeroExpr(t: Type, g: Gen): string {
  switch (t.kind) {
    case 'struct': {
      const z = g.dep(() => zeroValue(t));
      return `${z}()`;
    }
    case 'list':
    case 'map':
      return 'null';
    case 'scalar':
      switch (t.name) {
        case 'string':
          return `''`;
        case 'bool':
          return 'false';
        case 'int32':
        case 'int64':
        case 'double':
        case 'intOrString':
          return '0';
        case 'quantity':
          return `'0'`;
        case 'duration':
          return `'0s'`;
        default:
          return 'null';
      }
  }
}

function isPackable(t: Type): boolean {
  return t.kind === 'scalar' && (t.name === 'bool' || t.name === 'int32' || t.name === 'int64' || t.name === 'double');
}

/** switch cases reading field `num` of type t into local `loc`. */
function decCases(num: number, f: Field, loc: string, g: Gen): string {
  const t = f.type;
  if (t.kind === 'list') {
    const et = t.of;
    const key = keyValue(num, wireType(et));
    let cases = `case ${key}: (${loc} ??= []).push(${decPayload(et, g)}); break;`;
    if (isPackable(et))
      cases += ` case ${keyValue(num, WT_LEN)}: { const pe = readLenEnd(r, end); const a = (${loc} ??= []); while (r.pos < pe) a.push(${decPayload(et, g).replace('(r, end)', '(r, pe)')}); } break;`;
    return cases;
  }
  if (t.kind === 'map') {
    const vt = t.of;
    const vkey = keyValue(2, wireType(vt));
    const zero = zeroExpr(vt, g);
    return `case ${keyValue(num, WT_LEN)}: { const me = readLenEnd(r, end); let k = '', x; { const end = me; while (r.pos < end) { const t2 = readTag(r, end, 'MapEntry'); if (t2 === 10) k = readString(r, end); else if (t2 === ${vkey}) x = ${decPayload(vt, g)}; else RT.otherField(r, t2, end, ['', 'Key', 'Value'], 'MapEntry'); } } RT.putKey(${loc} ??= {}, k, x === undefined ? ${zero} : x); } break;`;
  }
  return `case ${keyValue(num, wireType(t))}: ${loc} = ${decPayload(t, g)}; break;`;
}

/** Statement setting o<key> from local `loc` per Go's JSON rules (loc undefined = absent on the wire). */
function buildField(key: string, f: Field, loc: string, g: Gen): string {
  const t = f.type;
  const o = `o${prop(key)}`;
  const omit = f.omitempty;
  const nil = omit ? '' : ` else ${o} = null;`;
  if (t.kind === 'list' || t.kind === 'map') {
    if (t.kind === 'map') return `if (${loc} !== undefined) ${o} = RT.sortMap(${loc});${omit ? '' : ` else ${o} = null;`}`;
    return `if (${loc} !== undefined) ${o} = ${loc};${omit ? '' : ` else ${o} = null;`}`;
  }
  if (t.kind === 'struct') {
    if (f.pointer) return `if (${loc} !== undefined) ${o} = ${loc};${nil}`;
    const z = g.dep(() => zeroValue(t));
    return `${o} = ${loc} !== undefined ? ${loc} : ${z}();`;
  }
  const scalar = (zero: string): string => {
    if (f.pointer) return `if (${loc} !== undefined) ${o} = ${loc};${nil}`;
    if (omit) return `if (${loc} !== undefined && ${loc} !== ${zero}) ${o} = ${loc};`;
    return `${o} = ${loc} !== undefined ? ${loc} : ${zero};`;
  };
  switch (t.name) {
    case 'string':
      return scalar(`''`);
    case 'bool':
      return scalar('false');
    case 'int32':
    case 'int64':
    case 'double':
      return scalar('0');
    case 'bytes':
      if (omit) return `if (${loc} !== undefined && ${loc} !== '') ${o} = ${loc};`;
      return `${o} = ${loc} !== undefined ? ${loc} : null;`;
    case 'time':
    case 'microTime':
    case 'fieldsV1':
    case 'rawExtension':
      if (f.pointer) return `if (${loc} != null) ${o} = ${loc};${nil}`;
      return `${o} = ${loc} !== undefined ? ${loc} : null;`;
    case 'quantity':
      if (f.pointer) return `if (${loc} !== undefined) ${o} = ${loc};${nil}`;
      return `${o} = ${loc} !== undefined ? ${loc} : '0';`;
    case 'intOrString':
      if (f.pointer) return `if (${loc} !== undefined) ${o} = ${loc};${nil}`;
      return `${o} = ${loc} !== undefined ? ${loc} : 0;`;
    case 'duration':
      if (f.pointer) return `if (${loc} !== undefined) ${o} = ${loc};${nil}`;
      return `${o} = ${loc} !== undefined ? ${loc} : '0s';`;
  }
}

const DEC_PARAMS = [
  'RT',
  'D',
  'readTag',
  'readLenEnd',
  'readString',
  'readBool',
  'readInt32',
  'readInt64',
  'readDouble',
  'readBase64',
] as const;
const DEC_ARGS = [readTag, readLenEnd, readString, readBool, readInt32, readInt64, readDouble, readBase64];

function makeDecoder<T>(src: string, g: Gen): T {
  return new Function(...DEC_PARAMS, src)(RT, g.deps, ...DEC_ARGS) as T;
}

/** The decoders by variant: [whole objects, without ObjectMeta.managedFields]. */
const decCaches = [new WeakMap<StructType, DecFn>(), new WeakMap<StructType, DecFn>()] as const;

/** ObjectMeta's managedFields, the one field a skipping decoder steps over. */
function isManagedFields(s: StructType, key: string): boolean {
  return key === 'managedFields' && structShortName(s) === 'ObjectMeta';
}

function compileDecoder(s: StructType, skipManagedFields = false): DecFn {
  const decCache = decCaches[skipManagedFields ? 1 : 0];
  let cached = decCache.get(s);
  if (cached) return cached;
  const g = new Gen(skipManagedFields);
  const sname = structShortName(s);
  const locals = new Map<string, string>();
  let n = 0;
  for (const key of Object.keys(s.fields)) locals.set(key, `f${n++}`);
  const cases: string[] = [];
  const names: Record<number, string> = {};
  const goName = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);
  // The cases of one message's fields into `names` (Go field names by number); an embedded group reads its nested message with the same locals.
  const decItems = (items: Layout, into: Record<number, string>): string[] =>
    items.map((item) => {
      if (item.field) {
        into[item.num] = goName(item.field.key);
        // Skipped unread (the bytes of every entry's FieldsV1 JSON are never parsed); absent from the result.
        if (skipManagedFields && isManagedFields(s, item.field.key)) return `case ${keyValue(item.num, WT_LEN)}: RT.skipField(r, ${WT_LEN}, end); break;`;
        return decCases(item.num, item.field.field, locals.get(item.field.key)!, g);
      }
      const group = item.group!;
      into[item.num] = goName(group[0]!.field.embedded!.name);
      const innerNames: Record<number, string> = {};
      const inner = decItems(innerLayout(group), innerNames);
      const innerStruct = group[0]!.field.embedded!.struct.split('.').pop()!;
      return `case ${keyValue(item.num, WT_LEN)}: { const ge = readLenEnd(r, end); { const end = ge; while (r.pos < end) { const t = readTag(r, end, ${JSON.stringify(innerStruct)}); switch (t) { ${inner.join(' ')} default: RT.otherField(r, t, end, ${g.dep(innerNames)}, ${JSON.stringify(innerStruct)}); } } } } break;`;
    });
  cases.push(...decItems(layout(s), names));
  const build: string[] = [];
  for (const [key, f] of Object.entries(s.fields)) {
    const loc = locals.get(key)!;
    if (f.tag === 0 && !f.embedded && (key === 'kind' || key === 'apiVersion'))
      build.push(`${loc} = tm !== undefined ? tm.${key} : undefined;`);
    build.push(buildField(key, f, loc, g));
  }
  const src = `return function dec_${sname.replace(/\W/g, '_')}(r, end, d, tm) {
  if (d > RT.MAX_DEPTH) RT.deep();
  ${locals.size > 0 ? `let ${[...locals.values()].join(', ')};` : '' /* a struct without fields (a CRD's subresources.status) */}
  while (r.pos < end) {
    const t = readTag(r, end, ${JSON.stringify(sname)});
    switch (t) {
      ${cases.join('\n      ')}
      default: RT.otherField(r, t, end, ${g.dep(names)}, ${JSON.stringify(sname)});
    }
  }
  const o = {};
  ${build.join('\n  ')}
  return o;
}`;
  cached = makeDecoder<DecFn>(src, g);
  decCache.set(s, cached);
  for (const p of g.pending) p();
  return cached;
}

type WrapFn = (r: Reader, end: number, d: number) => unknown;
const wrapCaches = [new WeakMap<Type, WrapFn>(), new WeakMap<Type, WrapFn>()] as const;

/** A nested list: message {repeated items = 1}. */
function compileWrapperDecoder(t: Type & { kind: 'list' }, skipManagedFields: boolean): WrapFn {
  const wrapCache = wrapCaches[skipManagedFields ? 1 : 0];
  let cached = wrapCache.get(t);
  if (cached) return cached;
  const g = new Gen(skipManagedFields);
  const field = { type: t, tag: 1, pointer: false, omitempty: true } as Field;
  const src = `return function decList(r, end, d) {
  if (d > RT.MAX_DEPTH) RT.deep();
  let f0;
  while (r.pos < end) {
    const t = readTag(r, end, 'Items');
    switch (t) {
      ${decCases(1, field, 'f0', g)}
      default: RT.otherField(r, t, end, ['', 'Items'], 'Items');
    }
  }
  return f0 === undefined ? null : f0;
}`;
  cached = makeDecoder<WrapFn>(src, g);
  wrapCache.set(t, cached);
  for (const p of g.pending) p();
  return cached;
}

/** A map nested in a list or map: message {map entries = 1}. */
function compileMapWrapperDecoder(t: Type & { kind: 'map' }, skipManagedFields: boolean): WrapFn {
  const wrapCache = wrapCaches[skipManagedFields ? 1 : 0];
  let cached = wrapCache.get(t);
  if (cached) return cached;
  const g = new Gen(skipManagedFields);
  const field = { type: t, tag: 1, pointer: false, omitempty: true } as Field;
  const src = `return function decMap(r, end, d) {
  if (d > RT.MAX_DEPTH) RT.deep();
  let f0;
  while (r.pos < end) {
    const t = readTag(r, end, 'Map');
    switch (t) {
      ${decCases(1, field, 'f0', g)}
      default: RT.otherField(r, t, end, ['', 'Items'], 'Map');
    }
  }
  return f0 === undefined ? null : RT.sortMap(f0);
}`;
  cached = makeDecoder<WrapFn>(src, g);
  wrapCache.set(t, cached);
  for (const p of g.pending) p();
  return cached;
}

// ---------------------------------------------------------------------------------------------
// Public API.
// ---------------------------------------------------------------------------------------------

let shared: Writer | undefined;
let busy = false;

function withWriter<T>(fn: (w: Writer) => T): T {
  if (busy || shared === undefined) {
    if (shared === undefined && !busy) shared = new Writer();
    else return fn(new Writer(4096));
  }
  busy = true;
  try {
    shared.reset();
    return fn(shared);
  } finally {
    busy = false;
    if (shared.buf.length > 16 * 1024 * 1024) shared = new Writer();
  }
}

/** Encodes the bare message of `obj` (canonical form of `type`), without the envelope. */
export function encodeMessage(obj: unknown, type: StructType): Buffer {
  const enc = compileEncoder(type);
  return withWriter((w) => {
    enc(w, obj ?? EMPTY);
    return w.finish();
  });
}

/** Writes the `k8s\0` + runtime.Unknown envelope around the message of `obj`. */
function writeEnvelope(w: Writer, obj: unknown, type: StructType, tm: TypeMeta): void {
  w.byte(0x6b);
  w.byte(0x38);
  w.byte(0x73);
  w.byte(0x00);
  w.byte(0x0a);
  let s = w.fork(1);
  w.byte(0x0a);
  w.string(tm.apiVersion);
  w.byte(0x12);
  w.string(tm.kind);
  w.join(s, 1);
  w.byte(0x12);
  s = w.fork(envelopeHint);
  compileEncoder(type)(w, obj ?? EMPTY);
  envelopeHint = w.join(s, envelopeHint);
  w.byte(0x1a);
  w.byte(0);
  w.byte(0x22);
  w.byte(0);
}
let envelopeHint = 2;

function typeMetaOf(obj: unknown, tm?: Partial<TypeMeta>): TypeMeta {
  const o = (typeof obj === 'object' && obj !== null ? obj : {}) as Record<string, unknown>;
  return {
    apiVersion: tm?.apiVersion ?? (typeof o.apiVersion === 'string' ? o.apiVersion : ''),
    kind: tm?.kind ?? (typeof o.kind === 'string' ? o.kind : ''),
  };
}

/**
 * Encodes an object as a Kubernetes protobuf body: the `k8s\0` envelope with typeMeta (from
 * `typeMeta`, else the object's apiVersion/kind) and the message.
 */
export function encodeProtobuf(obj: unknown, type: StructType, typeMeta?: Partial<TypeMeta>): Buffer {
  const tm = typeMetaOf(obj, typeMeta);
  return withWriter((w) => {
    writeEnvelope(w, obj, type, tm);
    return w.finish();
  });
}

export interface Envelope {
  typeMeta: TypeMeta;
  /** The serialized object. */
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

function magicError(): StatusError {
  return StatusError.badRequest(
    `provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_MAGIC].join(' ')}]`,
  );
}

/** Parses the envelope (throws a BadRequest StatusError on a wrong prefix or malformed envelope). */
export function readEnvelope(bytes: Uint8Array, maxBytes = MAX_BODY_BYTES): Envelope {
  if (bytes.byteLength > maxBytes) throw StatusError.requestEntityTooLarge(maxBytes);
  if (bytes.length < 4 || bytes[0] !== 0x6b || bytes[1] !== 0x38 || bytes[2] !== 0x73 || bytes[3] !== 0x00)
    throw magicError();
  try {
    const r = reader(bytes);
    r.pos = 4;
    const end = bytes.length;
    const env: Envelope = { typeMeta: { apiVersion: '', kind: '' }, raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
    while (r.pos < end) {
      const t = readTag(r, end, 'Unknown');
      switch (t) {
        case 0x0a: {
          const e = readLenEnd(r, end);
          while (r.pos < e) {
            const t2 = readTag(r, e, 'TypeMeta');
            if (t2 === 0x0a) env.typeMeta.apiVersion = readString(r, e);
            else if (t2 === 0x12) env.typeMeta.kind = readString(r, e);
            else otherField(r, t2, e, ['', 'APIVersion', 'Kind'], 'TypeMeta');
          }
          break;
        }
        case 0x12:
          env.raw = readBytes(r, end);
          break;
        case 0x1a:
          env.contentEncoding = readString(r, end);
          break;
        case 0x22:
          env.contentType = readString(r, end);
          break;
        default:
          otherField(r, t, end, ['', 'TypeMeta', 'Raw', 'ContentEncoding', 'ContentType'], 'Unknown');
      }
    }
    return env;
  } catch (e) {
    throw toBadRequest(
      e,
      `the object provided is unrecognized (must be of type ${'Unknown'}): `,
    );
  }
}

/** How to decode: what of the message a reader does not want. */
export interface ProtobufDecodeOptions {
  /**
   * Leave out metadata.managedFields (of the object and of every object it holds), skipped on the
   * wire unparsed: for clients that drop them anyway (informers' caches), a tenth of their decoding.
   */
  skipManagedFields?: boolean;
}

/** Decodes a bare message (no envelope) into canonical form. `typeMeta` fills kind/apiVersion. */
export function decodeMessage<T = Record<string, unknown>>(bytes: Uint8Array, type: StructType, typeMeta?: TypeMeta, opts: ProtobufDecodeOptions = {}): T {
  try {
    const r = reader(bytes);
    return compileDecoder(type, opts.skipManagedFields === true)(r, bytes.length, 1, typeMeta) as T;
  } catch (e) {
    throw toBadRequest(e, typeMeta ? prefixFor(typeMeta, type) : `the object provided is unrecognized (must be of type ${kindOf(type)}): `);
  }
}

function prefixFor(tm: TypeMeta, type: StructType): string {
  const slash = tm.apiVersion.lastIndexOf('/');
  const version = slash < 0 ? tm.apiVersion : tm.apiVersion.slice(slash + 1);
  return `${tm.kind || kindOf(type)} in version ${JSON.stringify(version)} cannot be handled as a ${kindOf(type)}: `;
}

export interface ProtobufDecodeResult<T> {
  object: T;
  typeMeta: TypeMeta;
}

/**
 * Decodes a Kubernetes protobuf body (envelope + message) into canonical form. `type` is the
 * schema, or a function choosing it from the envelope's typeMeta (undefined → 400). The object's
 * kind/apiVersion come from the envelope. Throws a BadRequest StatusError (413 over the limit).
 */
export function decodeProtobuf<T = Record<string, unknown>>(
  bytes: Uint8Array,
  type: StructType | ((tm: TypeMeta) => StructType | undefined),
  opts: { maxBytes?: number } & ProtobufDecodeOptions = {},
): ProtobufDecodeResult<T> {
  const env = readEnvelope(bytes, opts.maxBytes);
  const st = typeof type === 'function' ? type(env.typeMeta) : type;
  if (st === undefined)
    throw StatusError.badRequest(
      `no kind ${JSON.stringify(env.typeMeta.kind)} is registered for version ${JSON.stringify(env.typeMeta.apiVersion)}`,
    );
  if (env.contentEncoding !== '')
    throw StatusError.badRequest(prefixFor(env.typeMeta, st) + `unsupported content encoding ${JSON.stringify(env.contentEncoding)}`);
  return { object: decodeMessage<T>(env.raw, st, env.typeMeta, opts), typeMeta: env.typeMeta };
}

/** Whether bytes start with the protobuf magic. */
export function isProtobuf(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0x00;
}

/** The summary Kubernetes puts in "unrecognized" errors, for callers building their own. */
export function summarize(bytes: Uint8Array): string {
  return summarizeBody(bytes);
}

// Exposed for the watch codec.
export { compileEncoder as protobufEncoder, writeEnvelope as writeProtobufEnvelope, typeMetaOf };
export type { DecodeFailure };
