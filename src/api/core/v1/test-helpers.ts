// Test support for the core/v1 declarations: declaration checks, an emulation of Go's JSON
// encoder driven by the pointer/omitempty facts, and access to the golden vectors (the JSON walker
// is ../../vectors.testutil.ts's). Used by *.test.ts here; not imported by product code.
import { readFileSync } from 'node:fs';
import type { Field, StructType, Type } from '../../schema/dsl.js';
import { canonicalQuantity } from '../../meta/quantity.js';
import { TESTDATA } from '../../../../test/support/vectors.js';
import { pathToFileURL } from 'node:url';

export const vectors = pathToFileURL(`${TESTDATA}/objects/`);
export const readVector = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(name, vectors), 'utf8')) as Record<string, unknown>;

/** Structural errors of one struct's declaration (tags, list metadata). */
export function declarationErrors(s: StructType): string[] {
  const errors: string[] = [];
  const direct = new Map<number, string>();
  const embedded = new Map<string, Map<number, string>>();
  for (const [key, f] of Object.entries(s.fields)) {
    const where = `${s.name}.${key}`;
    const group = f.embedded ? (embedded.get(`${f.embedded.tag}`) ?? new Map<number, string>()) : direct;
    if (f.embedded) embedded.set(`${f.embedded.tag}`, group);
    if (f.tag !== 0 && group.has(f.tag)) errors.push(`${where}: tag ${f.tag} also used by ${group.get(f.tag)}`);
    group.set(f.tag, key);
    const elem = f.type.kind === 'list' ? f.type.of : undefined;
    // (meta/v1 LabelSelectorRequirement.key carries patch tags on a string, as in Go: only lists count.)
    if (f.patchMergeKey !== undefined && f.type.kind === 'list') {
      if (elem?.kind !== 'struct') errors.push(`${where}: patchMergeKey on a list that is not of structs`);
      else if (!(f.patchMergeKey in elem.fields)) errors.push(`${where}: patchMergeKey ${f.patchMergeKey} is not a field of ${elem.name}`);
      if (!f.patchStrategy?.includes('merge')) errors.push(`${where}: patchMergeKey without a merge patchStrategy`);
    }
    if (f.listType === 'map') {
      if (elem?.kind !== 'struct' || !f.listMapKeys?.length) errors.push(`${where}: listType=map needs struct elements and listMapKeys`);
      else for (const k of f.listMapKeys) if (!(k in elem.fields)) errors.push(`${where}: listMapKey ${k} is not a field of ${elem.name}`);
    }
    if (f.listType !== undefined && f.type.kind !== 'list') errors.push(`${where}: listType on a non-list`);
    if (f.mapType !== undefined && f.type.kind !== 'map') errors.push(`${where}: mapType on a non-map`);
  }
  for (const tag of embedded.keys()) if (direct.has(Number(tag))) errors.push(`${s.name}: embedded tag ${tag} is also a field's`);
  return errors;
}

/**
 * What Go's JSON encoder makes of a value decoded into the Go type: non-pointer structs always
 * written, zero non-pointer scalars dropped under omitempty and written otherwise, nil pointers
 * and slices `null` without omitempty, zero Time `null`, zero Quantity "0", quantities canonical.
 * Unknown keys are kept (so a comparison still sees them).
 */
export function goJson(type: Type, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  switch (type.kind) {
    case 'list':
      return Array.isArray(value) ? value.map((v) => goJson(type.of, v)) : value;
    case 'map':
      return typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, goJson(type.of, v)])) : value;
    case 'scalar':
      return type.name === 'quantity' && typeof value === 'string' ? canonicalQuantity(value) : value;
    case 'struct': {
      const src = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(src)) if (!(k in type.fields)) out[k] = v;
      for (const [key, f] of Object.entries(type.fields)) {
        if (f.tag === 0 && (key === 'kind' || key === 'apiVersion')) {
          if (src[key] !== undefined) out[key] = src[key];
          continue;
        }
        const r = goJsonField(f, src[key]);
        if (r !== undefined) out[key] = r;
      }
      return out;
    }
  }
}

function isZeroScalar(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

function goJsonField(f: Field, v: unknown): unknown {
  const t = f.type;
  const absent = v === undefined || v === null;
  if (t.kind === 'list' || t.kind === 'map') {
    if (absent) return f.omitempty ? undefined : null;
    const empty = Array.isArray(v) ? v.length === 0 : Object.keys(v as object).length === 0;
    if (empty && f.omitempty) return undefined;
    return goJson(t, v);
  }
  if (f.pointer) {
    if (absent) return f.omitempty ? undefined : null;
    return goJson(t, v);
  }
  // Non-pointer values.
  if (t.kind === 'struct') return goJson(t, absent ? {} : v);
  if (t.kind === 'scalar') {
    if (t.name === 'time' || t.name === 'microTime') return absent ? null : v;
    if (t.name === 'quantity') return absent ? '0' : goJson(t, v);
    if (t.name === 'intOrString') return absent ? 0 : v;
    if (t.name === 'fieldsV1' || t.name === 'rawExtension') return absent ? (f.omitempty ? undefined : null) : v;
    const zero = t.name === 'string' || t.name === 'bytes' || t.name === 'duration' ? '' : t.name === 'bool' ? false : 0;
    if (absent || isZeroScalar(v)) return f.omitempty ? undefined : zero;
    return v;
  }
  return v;
}

// ---- a schema-driven protobuf decoder, independent of the codec ----

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
      const b = this.buf[this.pos++];
      if (b === undefined) throw new Error('truncated varint');
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  bytes(): Uint8Array {
    const len = Number(this.varint());
    const out = this.buf.subarray(this.pos, this.pos + len);
    if (out.length !== len) throw new Error('truncated bytes');
    this.pos += len;
    return out;
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`wire type ${wire}`);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Fields of a message by number, as a list of [wire type, value reader position] pairs. */
function fieldsOf(buf: Uint8Array): Array<{ tag: number; wire: number; r: Reader; start: number }> {
  const r = new Reader(buf);
  const out: Array<{ tag: number; wire: number; r: Reader; start: number }> = [];
  while (!r.done) {
    const key = Number(r.varint());
    const start = r.pos;
    out.push({ tag: key >>> 3, wire: key & 7, r, start });
    r.skip(key & 7);
  }
  return out;
}

function at(buf: Uint8Array, start: number): Reader {
  const r = new Reader(buf);
  r.pos = start;
  return r;
}

function decodeTime(msg: Uint8Array): string | null {
  let seconds = 0n;
  for (const f of fieldsOf(msg)) if (f.tag === 1) seconds = BigInt.asIntN(64, at(msg, f.start).varint());
  if (msg.length === 0) return null;
  return new Date(Number(seconds) * 1000).toISOString().replace('.000Z', 'Z');
}

function decodeScalar(type: Type & { kind: 'scalar' }, wire: number, buf: Uint8Array, start: number, errors: string[], path: string): unknown {
  const r = at(buf, start);
  switch (type.name) {
    case 'string':
      return utf8.decode(r.bytes());
    case 'bool':
      return r.varint() !== 0n;
    case 'int32':
      return Number(BigInt.asIntN(32, r.varint()));
    case 'int64':
      return Number(BigInt.asIntN(64, r.varint()));
    case 'bytes':
      return Buffer.from(r.bytes()).toString('base64');
    case 'quantity': {
      const msg = r.bytes();
      let s = '';
      for (const f of fieldsOf(msg)) if (f.tag === 1) s = utf8.decode(at(msg, f.start).bytes());
      return s;
    }
    case 'time':
    case 'microTime':
      return decodeTime(r.bytes());
    case 'intOrString': {
      const msg = r.bytes();
      let kind = 0n;
      let intVal = 0;
      let strVal = '';
      for (const f of fieldsOf(msg)) {
        const fr = at(msg, f.start);
        if (f.tag === 1) kind = fr.varint();
        else if (f.tag === 2) intVal = Number(BigInt.asIntN(32, fr.varint()));
        else if (f.tag === 3) strVal = utf8.decode(fr.bytes());
      }
      return kind === 1n ? strVal : intVal;
    }
    case 'fieldsV1': {
      const msg = r.bytes();
      for (const f of fieldsOf(msg)) if (f.tag === 1) return JSON.parse(utf8.decode(at(msg, f.start).bytes()));
      return {};
    }
    default:
      errors.push(`${path}: cannot decode ${type.name} (wire ${wire})`);
      return undefined;
  }
}

/** Decodes one message of struct type `s`; fields from inline embeddings are read from their nested message. */
function decodeStruct(s: StructType, buf: Uint8Array, errors: string[], path: string, only?: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const byTag = new Map<number, [string, Field]>();
  const embeddedTags = new Set<number>();
  for (const [key, f] of Object.entries(s.fields)) {
    if (f.tag === 0) continue;
    if (only === undefined) {
      if (f.embedded) embeddedTags.add(f.embedded.tag);
      else byTag.set(f.tag, [key, f]);
    } else if (f.embedded?.tag === only) byTag.set(f.tag, [key, f]);
  }
  for (const { tag, wire, start } of fieldsOf(buf)) {
    if (only === undefined && embeddedTags.has(tag)) {
      Object.assign(out, decodeStruct(s, at(buf, start).bytes(), errors, path, tag));
      continue;
    }
    const entry = byTag.get(tag);
    if (!entry) {
      errors.push(`${path}: field number ${tag} is not declared in ${s.name}${only ? ` (embedded ${only})` : ''}`);
      continue;
    }
    const [key, f] = entry;
    const value = decodeValue(f.type, wire, buf, start, errors, `${path}.${key}`);
    if (f.type.kind === 'list') ((out[key] ??= []) as unknown[]).push(value);
    else if (f.type.kind === 'map') Object.assign((out[key] ??= {}) as object, value);
    else out[key] = value;
  }
  return out;
}

function decodeValue(type: Type, wire: number, buf: Uint8Array, start: number, errors: string[], path: string): unknown {
  switch (type.kind) {
    case 'struct':
      if (wire !== 2) errors.push(`${path}: message with wire type ${wire}`);
      return decodeStruct(type, at(buf, start).bytes(), errors, path);
    case 'list':
      return decodeValue(type.of, wire, buf, start, errors, path);
    case 'map': {
      const entry = at(buf, start).bytes();
      let key = '';
      let value: unknown;
      for (const f of fieldsOf(entry)) {
        if (f.tag === 1) key = utf8.decode(at(entry, f.start).bytes());
        else if (f.tag === 2) value = decodeValue(type.of, f.wire, entry, f.start, errors, `${path}[${key}]`);
      }
      return { [key]: value };
    }
    case 'scalar':
      return decodeScalar(type, wire, buf, start, errors, path);
  }
}

/**
 * Decodes a protobuf vector (k8s magic + runtime.Unknown envelope) as `type`, by the declared field
 * numbers; `errors` lists every field number the declarations do not know.
 */
export function decodeVectorPb(pod: StructType, file: string): { decoded: Record<string, unknown>; errors: string[] } {
  const raw = new Uint8Array(readFileSync(new URL(file, vectors)));
  if (raw[0] !== 0x6b || raw[1] !== 0x38 || raw[2] !== 0x73 || raw[3] !== 0x00) throw new Error(`${file}: no k8s magic`);
  // runtime.Unknown { typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3, contentType = 4 }
  const envelope = raw.subarray(4);
  let object: Uint8Array | undefined;
  const typeMeta: Record<string, string> = {};
  for (const f of fieldsOf(envelope)) {
    if (f.tag === 1) {
      const tm = at(envelope, f.start).bytes();
      for (const g of fieldsOf(tm)) typeMeta[g.tag === 1 ? 'apiVersion' : 'kind'] = utf8.decode(at(tm, g.start).bytes());
    } else if (f.tag === 2) object = at(envelope, f.start).bytes();
  }
  if (!object) throw new Error(`${file}: no raw object in the envelope`);
  const errors: string[] = [];
  const decoded = { kind: typeMeta.kind, apiVersion: typeMeta.apiVersion, ...decodeStruct(pod, object, errors, '$') };
  return { decoded, errors };
}
