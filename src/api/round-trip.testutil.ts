// Test support for the workload kinds (apps, extensions, batch, coordination.k8s.io): reading the
// golden vectors, a schema walker over protobuf (the JSON one is ../vectors.testutil.ts's), Go's
// JSON view of a value, and the hub-and-spoke round trip. Used by the *.test.ts files beside each group; not a test itself.
import { readFileSync } from 'node:fs';
import { canonicalQuantity } from './meta/quantity.js';
import type { Field, StructType, Type } from './schema/dsl.js';
import type { KindVersion, KubeObject } from './schema/kind.js';
import type { WorkloadFeatures } from './features.js';
import { clone, isObj, type Obj } from './go-json.js';
import { TESTDATA } from '../../test/support/vectors.js';

export const VECTORS = `${TESTDATA}/objects/`;

export function readVector(name: string): KubeObject {
  return JSON.parse(readFileSync(VECTORS + name, 'utf8')) as KubeObject;
}

export function readVectorBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(VECTORS + name));
}

// ---- Go's JSON view ----

function isZero(v: unknown): boolean {
  if (v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObj(v)) return Object.keys(v).length === 0;
  return false;
}

/**
 * What Go's encoding/json writes for `value` decoded into `type`: nulls and absent pointers
 * dropped, zero values of omitempty non-pointer fields dropped, zero values of fields without
 * omitempty and non-pointer structs filled in. Two values with the same normal form are the same
 * Go value (up to nil-vs-empty maps and lists). Undeclared keys are kept as they are.
 */
export function goNormalize(type: Type, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  switch (type.kind) {
    case 'list':
      return Array.isArray(value) ? value.map((v) => goNormalize(type.of, v) ?? null) : value;
    case 'map': {
      if (!isObj(value)) return value;
      const out: Obj = {};
      for (const [k, v] of Object.entries(value)) out[k] = type.of.kind === 'scalar' ? v : goNormalize(type.of, v);
      return out;
    }
    case 'scalar':
      return value;
    case 'struct': {
      if (!isObj(value)) return value;
      const out: Obj = {};
      for (const [k, f] of Object.entries(type.fields)) {
        const v = normalizeField(f, value[k]);
        if (v !== undefined) out[k] = v;
      }
      for (const [k, v] of Object.entries(value)) if (!(k in type.fields) && v !== null) out[k] = v;
      return out;
    }
  }
}

function normalizeField(f: Field, raw: unknown): unknown {
  const v = goNormalize(f.type, raw);
  if (f.pointer) return v;
  if (f.type.kind === 'struct') return v ?? goNormalize(f.type, {});
  if (v === undefined || (f.omitempty && isZero(v))) {
    if (f.omitempty || f.type.kind !== 'scalar') return undefined;
    const zero: Record<string, unknown> = { string: '', bool: false, int32: 0, int64: 0, double: 0, quantity: '0' };
    return zero[f.type.name];
  }
  return v;
}

/**
 * `value` with every quantity in canonical form, as Kubernetes writes quantities it decoded (a
 * codec effect, not defaulting: `1.5` → `1500m`, `1.5Gi` → `1536Mi`).
 */
export function canonicalQuantities(type: Type, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case 'list':
      return Array.isArray(value) ? value.map((v) => canonicalQuantities(type.of, v)) : value;
    case 'map':
      return isObj(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canonicalQuantities(type.of, v)])) : value;
    case 'struct':
      return isObj(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, type.fields[k] ? canonicalQuantities(type.fields[k]!.type, v) : v]))
        : value;
    case 'scalar':
      return type.name === 'quantity' && typeof value === 'string' ? canonicalQuantity(value) : value;
  }
}

// ---- protobuf walker ----

interface WireField {
  tag: number;
  wire: number;
  bytes?: Uint8Array;
  varint?: bigint;
}

function readVarint(buf: Uint8Array, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const b = buf[pos++];
    if (b === undefined) throw new Error('truncated varint');
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [result, pos];
    shift += 7n;
  }
}

export function parseMessage(buf: Uint8Array): WireField[] {
  const out: WireField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, p] = readVarint(buf, pos);
    pos = p;
    const tag = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [v, q] = readVarint(buf, pos);
      out.push({ tag, wire, varint: v });
      pos = q;
    } else if (wire === 2) {
      const [len, q] = readVarint(buf, pos);
      out.push({ tag, wire, bytes: buf.subarray(q, q + Number(len)) });
      pos = q + Number(len);
    } else if (wire === 1) {
      out.push({ tag, wire });
      pos += 8;
    } else if (wire === 5) {
      out.push({ tag, wire });
      pos += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return out;
}

/** The object message inside a `k8s\0` + runtime.Unknown envelope. */
export function unwrapEnvelope(buf: Uint8Array): Uint8Array {
  if (buf[0] !== 0x6b || buf[1] !== 0x38 || buf[2] !== 0x73 || buf[3] !== 0) throw new Error('no k8s protobuf magic');
  const raw = parseMessage(buf.subarray(4)).find((f) => f.tag === 2);
  if (!raw?.bytes) throw new Error('envelope without raw');
  return raw.bytes;
}

const varintScalars = new Set(['bool', 'int32', 'int64']);

/**
 * Checks a protobuf message against a struct: every field number on the wire is declared (with a
 * compatible wire type), and every non-pointer singular field that Go always writes is on the
 * wire. `only` limits the reported problems to structs whose name passes it.
 */
export function protoProblems(type: StructType, buf: Uint8Array, only: (s: StructType) => boolean, path = '$'): string[] {
  const problems: string[] = [];
  const report = (msg: string) => {
    if (only(type)) problems.push(msg);
  };
  const wire = parseMessage(buf);
  const direct = new Map<number, [string, Field]>();
  const embedded = new Map<number, Map<number, [string, Field]>>();
  for (const [k, f] of Object.entries(type.fields)) {
    if (f.tag === 0) continue;
    if (f.embedded) {
      const group = embedded.get(f.embedded.tag) ?? new Map<number, [string, Field]>();
      embedded.set(f.embedded.tag, group);
      group.set(f.tag, [k, f]);
    } else direct.set(f.tag, [k, f]);
  }
  const seen = new Set<number>();
  for (const wf of wire) {
    seen.add(wf.tag);
    const group = embedded.get(wf.tag);
    if (group) {
      if (!wf.bytes) report(`${path}: embedded message ${wf.tag} of ${type.name} is not length-delimited`);
      else problems.push(...fieldsProblems(type, group, parseMessage(wf.bytes), only, path));
      continue;
    }
    const entry = direct.get(wf.tag);
    if (!entry) {
      report(`${path}: field number ${wf.tag} is not declared in ${type.name}`);
      continue;
    }
    problems.push(...valueProblems(type, entry[0], entry[1], wf, only, path));
  }
  for (const [tag, [k, f]] of direct) if (mustBeWritten(f) && !seen.has(tag)) report(`${path}.${k}: non-pointer field ${tag} of ${type.name} missing on the wire (pointer?)`);
  return problems;
}

function fieldsProblems(type: StructType, group: Map<number, [string, Field]>, wire: WireField[], only: (s: StructType) => boolean, path: string): string[] {
  const problems: string[] = [];
  for (const wf of wire) {
    const entry = group.get(wf.tag);
    if (!entry) {
      if (only(type)) problems.push(`${path}: embedded field number ${wf.tag} is not declared in ${type.name}`);
      continue;
    }
    problems.push(...valueProblems(type, entry[0], entry[1], wf, only, path));
  }
  return problems;
}

function mustBeWritten(f: Field): boolean {
  return !f.pointer && f.type.kind !== 'list' && f.type.kind !== 'map';
}

function valueProblems(owner: StructType, key: string, f: Field, wf: WireField, only: (s: StructType) => boolean, path: string): string[] {
  const at = `${path}.${key}`;
  const elem = f.type.kind === 'list' ? f.type.of : f.type;
  const bad = (msg: string) => (only(owner) ? [`${at}: ${msg}`] : []);
  if (f.type.kind === 'map') return wf.wire === 2 ? [] : bad('map entry not length-delimited');
  if (elem.kind === 'struct') {
    if (!wf.bytes) return bad(`wire type ${wf.wire} for message ${elem.name}`);
    return protoProblems(elem, wf.bytes, only, at);
  }
  if (elem.kind !== 'scalar') return bad('unexpected type');
  if (varintScalars.has(elem.name)) {
    // A packed repeated varint is length-delimited.
    if (wf.wire === 0 || (f.type.kind === 'list' && wf.wire === 2)) return [];
    return bad(`wire type ${wf.wire} for ${elem.name}`);
  }
  if (elem.name === 'double') return wf.wire === 1 ? [] : bad(`wire type ${wf.wire} for double`);
  return wf.wire === 2 ? [] : bad(`wire type ${wf.wire} for ${elem.name}`);
}

// ---- round trips ----

/** The KindVersions of one kind: the storage one first. */
export function versionsOf(kinds: readonly KindVersion[], group: string | null, kind: string): KindVersion[] {
  const all = kinds.filter((k) => k.kind === kind && (group === null || k.group === group));
  return [...all.filter((k) => k.storage), ...all.filter((k) => !k.storage)];
}

export const apiVersionOf = (k: KindVersion): string => (k.group ? `${k.group}/${k.version}` : k.version);

export function toHub(k: KindVersion, obj: KubeObject): KubeObject {
  return k.toHub ? k.toHub(obj) : clone(obj);
}

export function fromHub(k: KindVersion, obj: KubeObject): KubeObject {
  return k.fromHub ? k.fromHub(obj) : clone(obj);
}

/** `obj` as it reads in version `k` after defaulting there (the object "created" in k). */
export function inVersion(k: KindVersion, hubObj: KubeObject, features?: WorkloadFeatures): KubeObject {
  const out = fromHub(k, hubObj);
  applyDefaults(k, out, features);
  return out;
}

export function applyDefaults(k: KindVersion, obj: KubeObject, features?: WorkloadFeatures): void {
  if (!k.defaults) return;
  (k.defaults as (o: KubeObject, f?: WorkloadFeatures) => void)(obj, features);
}

/** Deep-frozen copy: any mutation of a conversion's input then throws (strict mode). */
export function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/**
 * The all-pairs round trip of a kind. For every version v, the stored object read in v and
 * defaulted there (the object "created in v"); converted v → hub → w → hub → v for every version
 * w, where each stop at the hub applies the storage version's defaults (as decoding from storage
 * does) and the end applies v's, it must have the same Go JSON form as before. Returns the failures.
 */
export function roundTripFailures(versions: readonly KindVersion[], hubObject: KubeObject, label: string, features?: WorkloadFeatures): string[] {
  const failures: string[] = [];
  const hub = versions.find((k) => k.storage)!;
  const stored = (obj: KubeObject): KubeObject => {
    applyDefaults(hub, obj, features);
    return obj;
  };
  for (const v of versions) {
    const created = inVersion(v, stored(clone(hubObject)), features);
    if (created.apiVersion !== apiVersionOf(v)) failures.push(`${label}: read in ${apiVersionOf(v)} has apiVersion ${String(created.apiVersion)}`);
    const expected = JSON.stringify(goNormalize(v.type, created));
    for (const w of versions) {
      const inHub = stored(toHub(v, created));
      if (inHub.apiVersion !== apiVersionOf(hub)) failures.push(`${label}: ${apiVersionOf(v)} → hub has apiVersion ${String(inHub.apiVersion)}`);
      const inW = fromHub(w, inHub);
      if (inW.apiVersion !== apiVersionOf(w)) failures.push(`${label}: hub → ${apiVersionOf(w)} has apiVersion ${String(inW.apiVersion)}`);
      const back = inVersion(v, stored(toHub(w, inW)), features);
      const actual = JSON.stringify(goNormalize(v.type, back));
      if (actual !== expected) failures.push(`${label}: ${apiVersionOf(v)} → ${apiVersionOf(w)} → ${apiVersionOf(v)} differs:\n  ${actual}\n  ${expected}`);
    }
  }
  return failures;
}
