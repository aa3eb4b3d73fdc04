// The declarations against the protobuf bytes a v1.26.1 kube-apiserver wrote (Pod.pb): a small
// schema-driven decoder (written here, independent of the codec) reads every field by its
// declared number, including Go's inline embeddings, and the result, passed through the Go-JSON
// emulation, must equal the JSON the server sent for the same object (Pod.pb.json). A wrong tag,
// type, embedding or pointer fact shows up as an unknown field or a difference.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Field, StructType, Type } from '../../schema/dsl.js';
import { Pod, PodSpec } from './pod.js';
import { Probe } from './probe.js';
import { goJson, readVector, vectors } from './test-helpers.js';

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

function decodePodPb(pod: StructType): { decoded: Record<string, unknown>; errors: string[] } {
  const raw = new Uint8Array(readFileSync(new URL('Pod.pb', vectors)));
  assert.deepEqual([...raw.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
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
  assert.ok(object);
  const errors: string[] = [];
  const decoded = { kind: typeMeta.kind, apiVersion: typeMeta.apiVersion, ...decodeStruct(pod, object, errors, '$') };
  return { decoded, errors };
}

test('Pod.pb decodes with the declared field numbers into exactly Pod.pb.json', () => {
  const { decoded, errors } = decodePodPb(Pod);
  assert.deepEqual(errors, []);
  assert.deepEqual(goJson(Pod, decoded), readVector('Pod.pb.json'));
});

/** Pod with one field of PodSpec or Probe replaced (a copy, not a registered struct). */
function podWith(change: { spec?: Record<string, unknown>; probe?: Record<string, unknown> }): StructType {
  const probe = { ...Probe, fields: { ...Probe.fields, ...change.probe } } as StructType;
  const containerType = PodSpec.fields.containers.type.of;
  const container = {
    ...containerType,
    fields: {
      ...containerType.fields,
      livenessProbe: { ...containerType.fields.livenessProbe, type: probe },
      readinessProbe: { ...containerType.fields.readinessProbe, type: probe },
      startupProbe: { ...containerType.fields.startupProbe, type: probe },
    },
  } as StructType;
  const specFields = {
    ...PodSpec.fields,
    containers: { ...PodSpec.fields.containers, type: { kind: 'list', of: container } },
    ...change.spec,
  };
  return { ...Pod, fields: { ...Pod.fields, spec: { ...Pod.fields.spec, type: { ...PodSpec, fields: specFields } } } } as StructType;
}

test('the protobuf check fails on a wrong field number', () => {
  const { errors } = decodePodPb(podWith({ spec: { containers: { ...PodSpec.fields.containers, tag: 99 } } }));
  assert.ok(errors.some((e) => e.includes('field number 2 is not declared in io.k8s.api.core.v1.PodSpec')), errors.join('\n'));
});

test('the protobuf check fails on a wrong pointer fact', () => {
  // initialDelaySeconds is a non-pointer int32: Go writes 0 on the wire but omits it in JSON.
  const pod = podWith({ probe: { initialDelaySeconds: { ...Probe.fields.initialDelaySeconds, pointer: true } } });
  const { decoded, errors } = decodePodPb(pod);
  assert.deepEqual(errors, []);
  assert.notDeepEqual(goJson(pod, decoded), readVector('Pod.pb.json'));
});
