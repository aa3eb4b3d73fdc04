// Stored bytes → what the watch cache serves: the object with metadata.resourceVersion set,
// serialized once as Kubernetes' JSON, plus the labels and fields selectors filter on. The decoded
// object is not kept: ten thousand pods as bytes are a fraction of their size as JS objects.
//
// Writes through this API server are serialized once: the store prepares the stored bytes and
// the served JSON (minus the resourceVersion only the commit assigns) from one JSON.stringify, and
// the cache entry built when the write's watch event arrives, and the write's own response, are
// both spliced from that instead of parsing the stored bytes and stringifying them again.
import { randomBytes } from 'node:crypto';
import type { KubeObject } from '../api/schema/kind.js';
import { encodeJson } from '../machinery/codec/json.js';
import { goEscape } from '../machinery/status.js';
import type { CachedObject, Materialize } from '../storage/cacher/types.js';
import { metaOf, str, withResourceVersion } from './meta.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Decodes a stored value and stamps it with its revision. */
export function decodeStored(value: Uint8Array, modRevision: number): KubeObject {
  const obj = JSON.parse(decoder.decode(value)) as KubeObject;
  obj.metadata = withResourceVersion(metaOf(obj), String(modRevision));
  return obj;
}

/** Selectable fields of an object (metadata.name and metadata.namespace at least). */
export type FieldsOf = (obj: KubeObject) => Record<string, string>;

export const metadataFields: FieldsOf = (obj) => {
  const m = metaOf(obj);
  return { 'metadata.name': str(m.name), 'metadata.namespace': str(m.namespace) };
};

function labelsOf(m: Record<string, unknown>): Record<string, string> {
  return (typeof m.labels === 'object' && m.labels !== null ? m.labels : {}) as Record<string, string>;
}

export function cachedFromObject(key: string, obj: KubeObject, revision: number, fieldsOf: FieldsOf): CachedObject {
  const m = metaOf(obj);
  return {
    key,
    namespace: str(m.namespace),
    name: str(m.name),
    revision,
    json: encoder.encode(encodeJson(obj)),
    labels: labelsOf(m),
    fields: fieldsOf(obj),
  };
}

/** One write's serialization, made once by the store before the write. */
export interface PreparedWrite {
  readonly key: string;
  /** What storage receives: compact JSON without metadata.resourceVersion. */
  readonly stored: Buffer;
  /**
   * How the served JSON (Go's escaping, trailing newline) at a revision is made from this write;
   * undefined when the object could not be split safely (then everyone decodes `stored`).
   */
  readonly splice: Splice | undefined;
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly fields: Readonly<Record<string, string>>;
  /** Set when the watch cache built its entry from this write: the served bytes at that revision. */
  served?: { revision: number; json: Uint8Array };
}

// The resourceVersion slot is marked with a value no client can know (a control character and a
// per-process nonce), so the one occurrence of the mark in the JSON is the slot.
const MARK_VALUE = `\u0001${randomBytes(12).toString('hex')}`;
const MARK = `"resourceVersion":${JSON.stringify(MARK_VALUE)}`;

// managedFields of objects made from one template (a ReplicaSet's pods) share one frozen FieldsV1
// object (see machinery/managedfields): its JSON, hundreds of tiny objects that are often half of
// a pod's text and most of the time JSON.stringify spends on it, is made once and spliced in.
const FIELDS_MARK = `\u0002${randomBytes(12).toString('hex')}#`;
const fieldsJson = new WeakMap<object, string>();

/** JSON.stringify of `obj` with `metadata`, reusing the text of shared (frozen) FieldsV1 objects. */
function stringifyWithSharedFields(obj: KubeObject, metadata: Record<string, unknown>): string {
  const entries = metadata.managedFields;
  if (!Array.isArray(entries)) return JSON.stringify({ ...obj, metadata });
  const shared: object[] = [];
  const marked = entries.map((e: unknown) => {
    const fields = typeof e === 'object' && e !== null ? (e as { fieldsV1?: unknown }).fieldsV1 : undefined;
    if (typeof fields !== 'object' || fields === null || !Object.isFrozen(fields)) return e;
    shared.push(fields);
    return { ...(e as object), fieldsV1: `${FIELDS_MARK}${shared.length - 1}` };
  });
  if (shared.length === 0) return JSON.stringify({ ...obj, metadata });
  let text = JSON.stringify({ ...obj, metadata: { ...metadata, managedFields: marked } });
  shared.forEach((fields, i) => {
    let json = fieldsJson.get(fields);
    if (json === undefined) fieldsJson.set(fields, (json = JSON.stringify(fields)));
    // The mark as JSON.stringify wrote it (its control character escaped).
    const mark = JSON.stringify(`${FIELDS_MARK}${i}`);
    const at = text.indexOf(mark);
    text = `${text.slice(0, at)}${json}${text.slice(at + mark.length)}`;
  });
  return text;
}

/**
 * Serializes `obj` (canonical, storage version; its metadata.resourceVersion is ignored) for a
 * write to `key`: the bytes to store, and the served JSON around the resourceVersion slot.
 */
export function prepareWrite(key: string, obj: KubeObject, fieldsOf: FieldsOf): PreparedWrite {
  const m = metaOf(obj);
  const { resourceVersion: _rv, ...rest } = m;
  const text = stringifyWithSharedFields(obj, withResourceVersion(rest, MARK_VALUE));
  const common = { key, namespace: str(m.namespace), name: str(m.name), labels: { ...labelsOf(m) }, fields: fieldsOf(obj) };
  const at = text.indexOf(MARK);
  if (at === -1 || text.indexOf(MARK, at + 1) !== -1) {
    return { ...common, stored: Buffer.from(JSON.stringify({ ...obj, metadata: rest })), splice: undefined };
  }
  const end = at + MARK.length;
  // Stored without the slot and the comma that separated it from its neighbour: the UTF-8 of the
  // text with those (ASCII) bytes cut out.
  const comma = text.charCodeAt(at - 1) === 0x2c ? 'before' : text.charCodeAt(end) === 0x2c ? 'after' : 'none';
  const cutFrom = comma === 'before' ? at - 1 : at;
  const cutLength = MARK.length + (comma === 'none' ? 0 : 1);
  const full = Buffer.from(text);
  const cutAt = full.length === text.length ? cutFrom : Buffer.byteLength(text.slice(0, cutFrom));
  full.copyWithin(cutAt, cutAt + cutLength);
  const stored = full.subarray(0, full.length - cutLength);
  // Go's escaping (<, >, & and the like in strings) changes nearly no object: then the served JSON
  // is spliced from the stored bytes; otherwise from the escaped text around the slot.
  const splice: Splice =
    goEscape(text) === text
      ? { at: cutAt, comma }
      : { head: goEscape(`${text.slice(0, at)}"resourceVersion":"`), tail: `${goEscape(`"${text.slice(end)}`)}\n` };
  return { ...common, stored, splice };
}

/** The served JSON of a prepared write committed at `revision`. */
export function servedBytes(w: PreparedWrite, revision: number): Uint8Array | undefined {
  if (w.splice === undefined) return undefined;
  if (w.served?.revision === revision) return w.served.json;
  return splicedJson(w.stored, w.splice, revision);
}

/**
 * The served JSON is the stored bytes with the resourceVersion put back at byte `at` (with the
 * comma before or after it) and a newline — when Go's escaping changes nothing, as for nearly
 * every object; otherwise `head + resourceVersion + tail`, already escaped.
 */
type Splice = { at: number; comma: 'before' | 'after' | 'none' } | { head: string; tail: string };

function splicedJson(stored: Buffer, s: Splice, revision: number): Uint8Array {
  if ('head' in s) return encoder.encode(`${s.head}${revision}${s.tail}`);
  const rv = s.comma === 'before' ? `,"resourceVersion":"${revision}"` : s.comma === 'after' ? `"resourceVersion":"${revision}",` : `"resourceVersion":"${revision}"`;
  const out = Buffer.allocUnsafeSlow(stored.length + rv.length + 1);
  stored.copy(out, 0, 0, s.at);
  out.write(rv, s.at, 'latin1');
  stored.copy(out, s.at + rv.length, s.at);
  out[out.length - 1] = 0x0a;
  return out;
}

/**
 * The prepared writes of one resource whose watch events the cache has not seen yet, by key (the
 * newest per key; bounded: a write that is never seen only costs the slow path).
 */
export class RecentWrites {
  private readonly byKey = new Map<string, PreparedWrite>();

  constructor(private readonly max = 4096) {}

  add(w: PreparedWrite): void {
    if (w.splice === undefined) return;
    this.byKey.delete(w.key);
    this.byKey.set(w.key, w);
    if (this.byKey.size > this.max) this.byKey.delete(this.byKey.keys().next().value!);
  }

  /** The write failed: forget it (unless a newer one replaced it). */
  drop(w: PreparedWrite): void {
    if (this.byKey.get(w.key) === w) this.byKey.delete(w.key);
  }

  /** The prepared write of `key` whose stored bytes are exactly `value`, removed. */
  take(key: string, value: Uint8Array): PreparedWrite | undefined {
    const w = this.byKey.get(key);
    if (w === undefined || !w.stored.equals(value)) return undefined;
    this.byKey.delete(key);
    return w;
  }

  get size(): number {
    return this.byKey.size;
  }
}

/**
 * Served JSON bytes of objects the store returned from a write, for the response: valid while the
 * object is as the store returned it (the HTTP layer encodes it straight away).
 */
const servedOf = new WeakMap<object, { write: PreparedWrite; revision: number; metadata: unknown }>();

export function rememberServed(obj: KubeObject, write: PreparedWrite, revision: number): void {
  if (write.splice !== undefined) servedOf.set(obj, { write, revision, metadata: obj.metadata });
}

/** The served JSON of an object a write returned, if the store recorded it (and its metadata is untouched). */
export function servedJsonOf(obj: KubeObject): Uint8Array | undefined {
  const e = servedOf.get(obj);
  if (e === undefined || e.metadata !== obj.metadata || (obj.metadata as Record<string, unknown>).resourceVersion !== String(e.revision)) return undefined;
  return servedBytes(e.write, e.revision);
}

export function materializer(fieldsOf: FieldsOf, recent?: RecentWrites): Materialize {
  return (key, value, modRevision) => {
    const w = recent?.take(key, value);
    if (w !== undefined && w.splice !== undefined) {
      const json = splicedJson(w.stored, w.splice, modRevision);
      w.served = { revision: modRevision, json };
      return { key, namespace: w.namespace, name: w.name, revision: modRevision, json, labels: w.labels, fields: w.fields };
    }
    return cachedFromObject(key, decodeStored(value, modRevision), modRevision, fieldsOf);
  };
}
