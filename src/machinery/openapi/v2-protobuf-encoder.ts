// The machinery under the openapi.v2 message specs of v2-protobuf.ts: an encoder writing proto3
// fields the way gnostic's compiled Go structs marshal (zero values left out, sub-messages present
// whenever their key holds an object, fields in field-number order), and the spec of a message as
// a list of (JSON key, field number, kind) that the encoder walks.
import { Writer } from '../codec/wire.js';
import { goYamlV3 } from './go-yaml-v3.js';

export type Obj = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Field kinds and message specs.
// ---------------------------------------------------------------------------------------------

export const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LEN = 2;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class Encoder {
  readonly w = new Writer(1024 * 1024);

  constructor(private readonly onUnknown?: (path: string, key: string) => void) {}

  tag(field: number, wire: number): void {
    this.w.uvarint(field * 8 + wire);
  }

  /** A length-delimited sub-message. */
  msg(field: number, body: () => void): void {
    this.tag(field, WIRE_LEN);
    const start = this.w.fork(1);
    body();
    this.w.join(start, 1);
  }

  str(field: number, v: unknown): void {
    if (typeof v !== 'string' || v === '') return;
    this.tag(field, WIRE_LEN);
    this.w.string(v);
  }

  /** Repeated string: every element is written, even empty ones. */
  strs(field: number, v: unknown): void {
    const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
    for (const s of list) {
      if (typeof s !== 'string') continue;
      this.tag(field, WIRE_LEN);
      this.w.string(s);
    }
  }

  bool(field: number, v: unknown): void {
    if (v !== true) return;
    this.tag(field, WIRE_VARINT);
    this.w.byte(1);
  }

  i64(field: number, v: unknown): void {
    if (typeof v !== 'number' || !Number.isFinite(v) || v === 0) return;
    this.tag(field, WIRE_VARINT);
    this.w.int64(Math.trunc(v));
  }

  f64(field: number, v: unknown): void {
    if (typeof v !== 'number' || Object.is(v, 0)) return;
    this.tag(field, WIRE_FIXED64);
    this.w.double(v);
  }

  /** `Any { yaml = 2 }` (its google.protobuf.Any `value` stays unset, as gnostic leaves it). */
  any(field: number, v: unknown): void {
    this.msg(field, () => this.str(2, goYamlV3(v)));
  }

  anys(field: number, v: unknown): void {
    if (!Array.isArray(v)) return;
    for (const item of v) this.any(field, item);
  }

  /** `repeated NamedAny vendor_extension`: the object's `x-` keys in order. */
  vendor(field: number, o: Obj): void {
    for (const [k, v] of Object.entries(o)) {
      if (!k.startsWith('x-') || v === undefined) continue;
      this.msg(field, () => {
        this.str(1, k);
        this.any(2, v);
      });
    }
  }

  unknown(path: string, key: string): void {
    this.onUnknown?.(path, key);
  }

  /** Encodes `o` by a spec (fields in field-number order), reporting keys the spec lacks. */
  fields(spec: Spec, o: Obj, path: string): void {
    for (const [key, field, kind] of spec.fields) {
      if (kind === 'vendor') {
        this.vendor(field, o);
        continue;
      }
      const v = o[key];
      if (v === undefined) continue;
      switch (kind) {
        case 'str':
          this.str(field, v);
          break;
        case 'strs':
          this.strs(field, v);
          break;
        case 'bool':
          this.bool(field, v);
          break;
        case 'i64':
          this.i64(field, v);
          break;
        case 'f64':
          this.f64(field, v);
          break;
        case 'any':
          this.any(field, v);
          break;
        case 'anys':
          this.anys(field, v);
          break;
        default:
          kind(this, field, v, `${path}.${key}`);
      }
    }
    for (const k of Object.keys(o)) {
      if (spec.keys.has(k)) continue;
      if (k.startsWith('x-') && spec.keys.has('x-')) continue;
      this.unknown(path, k);
    }
  }
}

export type Custom = (e: Encoder, field: number, v: unknown, path: string) => void;
export type Kind = 'str' | 'strs' | 'bool' | 'i64' | 'f64' | 'any' | 'anys' | 'vendor' | Custom;
export interface Spec {
  fields: ReadonlyArray<readonly [key: string, field: number, kind: Kind]>;
  keys: ReadonlySet<string>;
}

export function spec(fields: ReadonlyArray<readonly [string, number, Kind]>): Spec {
  return { fields: [...fields].sort((a, b) => a[1] - b[1]), keys: new Set(fields.map((f) => f[0])) };
}

/** A sub-message encoded by a spec (gnostic creates it whenever the key holds an object). */
export function sub(s: () => Spec): Custom {
  return (e, field, v, path) => {
    if (!isObj(v)) return;
    e.msg(field, () => e.fields(s(), v, path));
  };
}

/** A repeated sub-message. */
export function subs(s: () => Spec): Custom {
  return (e, field, v, path) => {
    if (!Array.isArray(v)) return;
    v.forEach((item, i) => {
      if (isObj(item)) e.msg(field, () => e.fields(s(), item, `${path}[${i}]`));
    });
  };
}

/** A map message: `repeated Named<T> additional_properties = 1` with `name = 1, value = 2`. */
export function namedMap(value: Custom): Custom {
  return (e, field, v, path) => {
    if (!isObj(v)) return;
    e.msg(field, () => {
      for (const [k, item] of Object.entries(v)) {
        if (item === undefined) continue;
        e.msg(1, () => {
          e.str(1, k);
          value(e, 2, item, `${path}.${k}`);
        });
      }
    });
  };
}
