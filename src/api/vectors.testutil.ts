// Test helpers that check schema declarations against the golden vectors of a real
// kube-apiserver (../shared/testdata): a walker that reports JSON keys a schema does not declare,
// an emulation of Go's JSON encoder driven by the declared pointer/omitempty facts, and a small
// protobuf decoder driven by the declared field numbers. Independent of the real codecs on
// purpose: they check the declarations, not the codecs.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Field, StructType, Type } from './schema/dsl.js';
import { TESTDATA } from '../../test/support/vectors.js';

export { TESTDATA };

export function readJson(...path: string[]): Record<string, unknown> {
  return JSON.parse(readFileSync(join(TESTDATA, ...path), 'utf8')) as Record<string, unknown>;
}

export function readBytes(...path: string[]): Uint8Array {
  return new Uint8Array(readFileSync(join(TESTDATA, ...path)));
}

export function listDir(...path: string[]): string[] {
  return readdirSync(join(TESTDATA, ...path)).sort();
}

/** The body of a `<case>.txt` dump (status line, headers, blank line, body). */
export function dumpBody(...path: string[]): { status: number; body: string } {
  const text = readFileSync(join(TESTDATA, ...path), 'utf8');
  const m = /\r?\n\r?\n/.exec(text);
  const status = Number(/^HTTP (\d+)/.exec(text)?.[1] ?? 0);
  return { status, body: m ? text.slice(m.index + m[0].length) : '' };
}

/** Every JSON value in a body: the whole body, or one per line (watch streams). */
export function jsonValues(body: string): unknown[] {
  const trimmed = body.trim();
  if (trimmed === '') return [];
  try {
    return [JSON.parse(trimmed)];
  } catch {
    return trimmed.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown);
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Finds the schema of an embedded object (RawExtension) by its apiVersion and kind. */
export type Resolver = (apiVersion: string, kind: string) => StructType | undefined;

export interface WalkResult {
  /** Keys not declared, values of the wrong JSON type. Empty when the schema covers the value. */
  problems: string[];
  /** Embedded objects (`apiVersion/kind`) the resolver did not know, so not walked. */
  unresolved: string[];
  /** Number of struct values walked. */
  structs: number;
}

/** Walks `value` against `type`, recursively (into embedded objects the resolver knows). */
export function walk(type: Type, value: unknown, resolve: Resolver = () => undefined, path = '$'): WalkResult {
  const r: WalkResult = { problems: [], unresolved: [], structs: 0 };
  walkInto(type, value, resolve, path, r);
  return r;
}

/** The problems `walk` finds in a JSON value (undeclared keys, ill-typed scalars), as `path: problem` lines. */
export function undeclared(type: Type, value: unknown): string[] {
  return walk(type, value).problems;
}

/** Every struct reachable from the roots. */
export function reachableStructs(...roots: StructType[]): Map<string, StructType> {
  const seen = new Map<string, StructType>();
  const visit = (type: Type): void => {
    if (type.kind === 'list' || type.kind === 'map') return visit(type.of);
    if (type.kind !== 'struct' || seen.has(type.name)) return;
    seen.set(type.name, type);
    for (const f of Object.values(type.fields)) visit(f.type);
  };
  roots.forEach(visit);
  return seen;
}

function walkInto(type: Type, value: unknown, resolve: Resolver, path: string, r: WalkResult): void {
  if (value === null) return; // Go accepts null for every field.
  switch (type.kind) {
    case 'struct': {
      if (!isObj(value)) return void r.problems.push(`${path}: expected an object (${type.name})`);
      r.structs++;
      for (const [k, v] of Object.entries(value)) {
        const f = type.fields[k];
        if (!f) r.problems.push(`${path}.${k}: not a field of ${type.name}`);
        else walkInto(f.type, v, resolve, `${path}.${k}`, r);
      }
      return;
    }
    case 'list':
      if (!Array.isArray(value)) return void r.problems.push(`${path}: expected an array`);
      value.forEach((v, i) => walkInto(type.of, v, resolve, `${path}[${i}]`, r));
      return;
    case 'map':
      if (!isObj(value)) return void r.problems.push(`${path}: expected an object (map)`);
      for (const [k, v] of Object.entries(value)) walkInto(type.of, v, resolve, `${path}[${JSON.stringify(k)}]`, r);
      return;
    case 'scalar': {
      const bad = (what: string) => r.problems.push(`${path}: expected ${what} (${type.name}), got ${JSON.stringify(value)}`);
      switch (type.name) {
        case 'string':
        case 'time':
        case 'microTime':
        case 'duration':
        case 'bytes':
          if (typeof value !== 'string') bad('a string');
          return;
        case 'quantity':
        case 'intOrString':
          if (typeof value !== 'string' && typeof value !== 'number') bad('a string or number');
          return;
        case 'bool':
          if (typeof value !== 'boolean') bad('a boolean');
          return;
        case 'int32':
        case 'int64':
          if (typeof value !== 'number' || !Number.isInteger(value)) bad('an integer');
          return;
        case 'double':
          if (typeof value !== 'number') bad('a number');
          return;
        case 'fieldsV1':
          if (!isObj(value)) bad('an object');
          return;
        case 'rawExtension': {
          if (!isObj(value) || typeof value.kind !== 'string' || typeof value.apiVersion !== 'string') return;
          const s = resolve(value.apiVersion, value.kind);
          if (s) walkInto(s, value, resolve, path, r);
          else r.unresolved.push(`${value.apiVersion}/${value.kind}`);
          return;
        }
      }
    }
  }
}

// --- Go's encoding/json, as the declared facts describe it ----------------------------------

const OMIT = Symbol('omit');

/**
 * What Go's JSON encoder writes for a value of `type` decoded from `value` (JSON-shaped):
 * declared fields in declaration order, undeclared keys dropped, zero values written or omitted
 * per the field's pointer/omitempty facts (see the header of schema/dsl.ts).
 */
export function goEncode(type: StructType, value: unknown): Obj {
  return encodeStruct(type, isObj(value) ? value : {});
}

function encodeStruct(type: StructType, value: Obj): Obj {
  const out: Obj = {};
  for (const [k, f] of Object.entries(type.fields)) {
    const v = encodeField(f, value[k]);
    if (v !== OMIT) out[k] = v;
  }
  return out;
}

function encodeField(f: Field, v: unknown): unknown {
  const type = f.type;
  if (v === undefined || v === null) {
    if (f.pointer) return f.omitempty ? OMIT : null;
    if (type.kind === 'list' || type.kind === 'map') return f.omitempty ? OMIT : null;
    if (type.kind === 'struct') return encodeStruct(type, {});
    switch (type.name) {
      case 'string':
        return f.omitempty ? OMIT : '';
      case 'bool':
        return f.omitempty ? OMIT : false;
      case 'int32':
      case 'int64':
      case 'double':
        return f.omitempty ? OMIT : 0;
      case 'bytes':
        return f.omitempty ? OMIT : null;
      // Go structs with their own MarshalJSON: never omitted.
      case 'quantity':
        return '0';
      case 'intOrString':
        return 0;
      case 'duration':
        return '0s';
      default: // time, microTime, fieldsV1, rawExtension: null when zero
        return null;
    }
  }
  if (!f.pointer && f.omitempty) {
    if (type.kind === 'scalar' && (v === '' || v === 0 || v === false) && ['string', 'bool', 'int32', 'int64', 'double', 'bytes'].includes(type.name))
      return OMIT;
    if (type.kind === 'list' && Array.isArray(v) && v.length === 0) return OMIT;
    if (type.kind === 'map' && isObj(v) && Object.keys(v).length === 0) return OMIT;
  }
  return encodeValue(type, v);
}

function encodeValue(type: Type, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (type.kind) {
    case 'struct':
      return encodeStruct(type, isObj(v) ? v : {});
    case 'list':
      return Array.isArray(v) ? v.map((e) => encodeValue(type.of, e)) : v;
    case 'map':
      return isObj(v) ? Object.fromEntries(Object.entries(v).map(([k, e]) => [k, encodeValue(type.of, e)])) : v;
    case 'scalar':
      return v;
  }
}

// --- protobuf, as the declared field numbers describe it ------------------------------------

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}
  get done(): boolean {
    return this.pos >= this.buf.length;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('protobuf: truncated varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  bytes(): Uint8Array {
    const n = Number(this.varint());
    if (this.pos + n > this.buf.length) throw new Error('protobuf: truncated bytes');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  fixed(n: number): Uint8Array {
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`protobuf: unsupported wire type ${wire}`);
  }
}

/** Raw fields of one message: number → occurrences (wire type and payload). */
export function protoFields(buf: Uint8Array): Map<number, Array<{ wire: number; data: Uint8Array | bigint }>> {
  const r = new Reader(buf);
  const out = new Map<number, Array<{ wire: number; data: Uint8Array | bigint }>>();
  while (!r.done) {
    const key = r.varint();
    const num = Number(key >> 3n);
    const wire = Number(key & 7n);
    let data: Uint8Array | bigint;
    if (wire === 0) data = r.varint();
    else if (wire === 2) data = r.bytes();
    else if (wire === 1) data = r.fixed(8);
    else if (wire === 5) data = r.fixed(4);
    else throw new Error(`protobuf: unsupported wire type ${wire}`);
    const list = out.get(num) ?? [];
    list.push({ wire, data });
    out.set(num, list);
  }
  return out;
}

const text = new TextDecoder('utf-8', { fatal: true });

/** `k8s\0` + runtime.Unknown{typeMeta{apiVersion=1, kind=2}=1, raw=2}: the object's bytes and type. */
export function unwrapEnvelope(buf: Uint8Array): { apiVersion: string; kind: string; raw: Uint8Array } {
  const magic = [0x6b, 0x38, 0x73, 0x00];
  if (!magic.every((b, i) => buf[i] === b)) throw new Error('protobuf: missing k8s\\0 magic');
  const unknown = protoFields(buf.subarray(4));
  const typeMeta = protoFields(unknown.get(1)?.[0]?.data as Uint8Array);
  const str = (m: Map<number, Array<{ data: Uint8Array | bigint }>>, n: number) => text.decode(m.get(n)?.[0]?.data as Uint8Array);
  return { apiVersion: str(typeMeta, 1), kind: str(typeMeta, 2), raw: unknown.get(2)?.[0]?.data as Uint8Array };
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

function rfc3339(seconds: number, micros?: number): string {
  const d = new Date(seconds * 1000);
  const base = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return micros === undefined ? `${base}Z` : `${base}.${pad(micros, 6)}Z`;
}

/**
 * Decodes a protobuf message of `type` into the JSON shape (fields by JSON name; zero values as
 * Go's protobuf decoder leaves them). Field numbers the schema does not declare, and wire types
 * that contradict the declared type, are reported in `problems`.
 */
export function decodeProto(type: StructType, buf: Uint8Array, problems: string[] = [], path = '$'): Obj {
  const out: Obj = {};
  const byTag = new Map<number, [string, Field]>();
  const embedded = new Map<number, Array<[string, Field]>>();
  for (const [k, f] of Object.entries(type.fields)) {
    if (f.embedded) {
      const group = embedded.get(f.embedded.tag) ?? [];
      group.push([k, f]);
      embedded.set(f.embedded.tag, group);
    } else if (f.tag > 0) byTag.set(f.tag, [k, f]);
  }
  for (const [num, occurrences] of protoFields(buf)) {
    const group = embedded.get(num);
    if (group) {
      for (const o of occurrences) {
        const inner = new Map(group.map(([k, f]) => [f.tag, [k, f] as [string, Field]]));
        const fakeType: StructType = {
          kind: 'struct',
          name: `${type.name}(embedded ${num})`,
          fields: Object.fromEntries([...inner.values()].map(([k, f]) => [k, { ...f, embedded: undefined }])),
        };
        Object.assign(out, decodeProto(fakeType, o.data as Uint8Array, problems, path));
      }
      continue;
    }
    const entry = byTag.get(num);
    if (!entry) {
      problems.push(`${path}: field number ${num} is not declared in ${type.name}`);
      continue;
    }
    const [key, f] = entry;
    for (const o of occurrences) {
      const p = `${path}.${key}`;
      if (f.type.kind === 'list') {
        const list = (out[key] ??= []) as unknown[];
        const elem = f.type.of;
        if (o.wire === 2 && elem.kind === 'scalar' && ['bool', 'int32', 'int64'].includes(elem.name)) {
          const r = new Reader(o.data as Uint8Array); // packed
          while (!r.done) list.push(decodeScalarVarint(elem.name, r.varint()));
        } else list.push(decodeValue(elem, o, problems, `${p}[${list.length}]`));
      } else if (f.type.kind === 'map') {
        const map = (out[key] ??= {}) as Obj;
        if (o.wire !== 2) {
          problems.push(`${p}: map entry with wire type ${o.wire}`);
          continue;
        }
        const e = protoFields(o.data as Uint8Array);
        const k = e.get(1)?.[0];
        const v = e.get(2)?.[0];
        const mk = k ? text.decode(k.data as Uint8Array) : '';
        map[mk] = v ? decodeValue(f.type.of, v, problems, `${p}[${JSON.stringify(mk)}]`) : zeroOf(f.type.of);
      } else out[key] = decodeValue(f.type, o, problems, p);
    }
  }
  return out;
}

function zeroOf(type: Type): unknown {
  if (type.kind === 'scalar' && type.name === 'string') return '';
  if (type.kind === 'scalar' && type.name === 'bytes') return '';
  if (type.kind === 'struct') return {};
  return null;
}

function decodeScalarVarint(name: string, v: bigint): unknown {
  if (name === 'bool') return v !== 0n;
  if (name === 'int32') return Number(BigInt.asIntN(32, v));
  return Number(BigInt.asIntN(64, v));
}

function decodeValue(type: Type, o: { wire: number; data: Uint8Array | bigint }, problems: string[], path: string): unknown {
  const wrongWire = (want: number) => {
    problems.push(`${path}: wire type ${o.wire}, expected ${want} for ${type.kind === 'scalar' ? type.name : type.kind}`);
    return null;
  };
  if (type.kind === 'struct') return o.wire === 2 ? decodeProto(type, o.data as Uint8Array, problems, path) : wrongWire(2);
  if (type.kind !== 'scalar') return wrongWire(-1);
  switch (type.name) {
    case 'bool':
    case 'int32':
    case 'int64':
      return o.wire === 0 ? decodeScalarVarint(type.name, o.data as bigint) : wrongWire(0);
    case 'double':
      return o.wire === 1 ? new DataView((o.data as Uint8Array).slice().buffer).getFloat64(0, true) : wrongWire(1);
    case 'string':
      return o.wire === 2 ? text.decode(o.data as Uint8Array) : wrongWire(2);
    case 'bytes':
      return o.wire === 2 ? Buffer.from(o.data as Uint8Array).toString('base64') : wrongWire(2);
  }
  if (o.wire !== 2) return wrongWire(2);
  const m = protoFields(o.data as Uint8Array);
  const first = (n: number) => m.get(n)?.[0]?.data;
  switch (type.name) {
    case 'time': {
      const s = first(1);
      return s === undefined ? null : rfc3339(Number(BigInt.asIntN(64, s as bigint)));
    }
    case 'microTime': {
      const s = first(1);
      const nanos = first(2);
      if (s === undefined && nanos === undefined) return null;
      return rfc3339(Number(BigInt.asIntN(64, (s as bigint | undefined) ?? 0n)), Math.floor(Number((nanos as bigint | undefined) ?? 0n) / 1000));
    }
    case 'quantity': {
      const s = first(1);
      return s === undefined ? '0' : text.decode(s as Uint8Array);
    }
    case 'intOrString': {
      const kind = Number((first(1) as bigint | undefined) ?? 0n);
      if (kind === 1) return text.decode((first(3) as Uint8Array | undefined) ?? new Uint8Array());
      return Number(BigInt.asIntN(32, (first(2) as bigint | undefined) ?? 0n));
    }
    case 'fieldsV1': {
      const raw = first(1) as Uint8Array | undefined;
      return raw === undefined ? null : (JSON.parse(text.decode(raw)) as unknown);
    }
    case 'rawExtension': {
      const raw = first(1) as Uint8Array | undefined;
      return raw === undefined ? null : { $raw: raw };
    }
    default:
      problems.push(`${path}: cannot decode scalar ${type.name}`);
      return null;
  }
}
