// Shared by the codecs: limits, field paths, Go type names for error messages, decode failures.
import type { StructType, Type } from '../../api/schema/dsl.js';
import { StatusError, type StatusCause } from '../status.js';

/** Maximum nesting depth of any decoded body (objects + arrays). */
export const MAX_DEPTH = 100;
/** Maximum size of a request body (kube-apiserver's limit, 3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

// Paths are built while decoding as strings of segments, each introduced by a marker character,
// so that both Kubernetes' strict-decoding path ("spec.containers[0].env") and Go's
// UnmarshalTypeError field path (struct fields only: "spec.containers.env") can be derived when
// (rarely) one is needed.
/** Marker of a struct field segment. */
export const SEG_FIELD = '\u0001';
/** Marker of a map key segment. */
export const SEG_KEY = '\u0002';
/** Marker of a list index segment. */
export const SEG_INDEX = '\u0003';

/** `.spec.containers[0].name` */
export function userPath(p: string): string {
  if (p === '') return '';
  return p.replace(/\u0003(\d+)/g, '[$1]').replace(/[\u0001\u0002]/g, '.');
}

/** Kubernetes' strict-decoding path: `spec.containers[0].name` (no leading dot). */
export function strictPath(p: string): string {
  const u = userPath(p);
  return u.startsWith('.') ? u.slice(1) : u;
}

/** Go's UnmarshalTypeError field path: the struct field names only, dot-joined. */
export function goFieldPath(p: string): string {
  const out: string[] = [];
  let i = 0;
  while (i < p.length) {
    const m = p[i];
    let j = i + 1;
    while (j < p.length && p[j] !== SEG_FIELD && p[j] !== SEG_KEY && p[j] !== SEG_INDEX) j++;
    if (m === SEG_FIELD) out.push(p.slice(i + 1, j));
    i = j;
  }
  return out.join('.');
}

/** `io.k8s.api.core.v1.PodSpec` → `PodSpec`. */
export function structShortName(s: StructType): string {
  const i = s.name.lastIndexOf('.');
  return i < 0 ? s.name : s.name.slice(i + 1);
}

/** `io.k8s.api.core.v1.PodSpec` → `v1.PodSpec` (Go's reflect type string). */
export function structGoName(s: StructType): string {
  const parts = s.name.split('.');
  return parts.length >= 2 ? parts.slice(-2).join('.') : s.name;
}

/** Go's type string of a schema type, as encoding/json names it in errors. */
export function goTypeName(t: Type): string {
  switch (t.kind) {
    case 'struct':
      return structGoName(t);
    case 'list':
      return '[]' + goTypeName(t.of);
    case 'map':
      return 'map[string]' + goTypeName(t.of);
    case 'scalar':
      switch (t.name) {
        case 'string':
        case 'bool':
        case 'int32':
        case 'int64':
          return t.name;
        case 'double':
          return 'float64';
        case 'bytes':
          return '[]uint8';
        case 'time':
          return 'v1.Time';
        case 'microTime':
          return 'v1.MicroTime';
        case 'duration':
          return 'v1.Duration';
        case 'quantity':
          return 'resource.Quantity';
        case 'intOrString':
          return 'intstr.IntOrString';
        case 'fieldsV1':
          return 'v1.FieldsV1';
        case 'rawExtension':
          return 'runtime.RawExtension';
      }
  }
}

/** A short human name of a schema type for `causes` ("expected integer, got string"). */
export function expectedName(t: Type): string {
  switch (t.kind) {
    case 'struct':
    case 'map':
      return 'object';
    case 'list':
      return 'array';
    case 'scalar':
      switch (t.name) {
        case 'int32':
        case 'int64':
          return 'integer';
        case 'double':
          return 'number';
        case 'bool':
          return 'boolean';
        case 'intOrString':
          return 'integer or string';
        case 'fieldsV1':
        case 'rawExtension':
          return 'any';
        case 'bytes':
          return 'base64 string';
        case 'quantity':
          return 'quantity';
        default:
          return 'string';
      }
  }
}

/** encoding/json's name of a JSON value's kind. */
export function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

/**
 * A decoding failure: `goMessage` is the text Kubernetes' decoder would give (without the
 * "X in version "v" cannot be handled as a Y:" prefix the API server adds), `cause` the field and
 * a short explanation.
 */
export class DecodeFailure extends Error {
  constructor(
    readonly goMessage: string,
    readonly statusCause: StatusCause,
  ) {
    super(goMessage);
    this.name = 'DecodeFailure';
  }
}

/** Turns anything thrown while decoding into a BadRequest StatusError (never rethrows). */
export function toBadRequest(e: unknown, prefix = ''): StatusError {
  if (e instanceof StatusError) return e;
  if (e instanceof DecodeFailure) return StatusError.badRequest(prefix + e.goMessage, { causes: [e.statusCause], cause: e });
  if (e instanceof RangeError) {
    // Stack exhaustion or an allocation limit on a pathological body.
    return StatusError.badRequest(prefix + 'the request body is too deeply nested or too large', { cause: e });
  }
  const message = e instanceof Error ? e.message : String(e);
  return StatusError.badRequest(prefix + message, { cause: e });
}

/** `summarizeData` of Kubernetes' transformDecodeError: the first 30 bytes (hex unless JSON). */
export function summarizeBody(data: Uint8Array | string, max = 30): string {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.length === 0) return '<empty>';
  const head = bytes.subarray(0, max);
  const more = bytes.length > max ? ' ...' : '';
  if (bytes[0] === 0x7b /* { */) return Buffer.from(head).toString('utf8') + more;
  return Buffer.from(head).toString('hex') + more;
}

/** The Kind (last segment of the struct name) that Kubernetes names in decode errors. */
export function kindOf(s: StructType): string {
  return structShortName(s);
}

export function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}
