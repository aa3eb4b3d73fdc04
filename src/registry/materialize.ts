// Stored bytes → what the watch cache serves: the object with metadata.resourceVersion set,
// serialized once as Kubernetes' JSON, plus the labels and fields selectors filter on. The decoded
// object is not kept: ten thousand pods as bytes are a fraction of their size as JS objects.
//
// Writes through this API server are serialized once: the store prepares the stored bytes and
// the served JSON (minus the resourceVersion only the commit assigns) from one JSON.stringify, and
// the cache entry built when the write's watch event arrives, and the write's own response, are
// both spliced from that instead of parsing the stored bytes and stringifying them again. The cache
// keeps such an object in parts (storage/cacher/json-parts.ts): its own bytes, with the
// resourceVersion and the JSON of shared FieldsV1 (the same for every pod of a template, about
// half of a pod's text) inserted, so ten thousand pods of a Deployment hold one copy of it.
import { randomBytes } from 'node:crypto';
import type { KubeObject } from '../api/schema/kind.js';
import { encodeJson } from '../machinery/codec/json.js';
import { goEscape } from '../machinery/status.js';
import { joinParts, partsPieces, type JsonParts } from '../storage/cacher/json-parts.js';
import type { CachedObject, Materialize } from '../storage/cacher/types.js';
import { metaCopyWithResourceVersion, metaOf, str, withResourceVersion } from './meta.js';
import { ownLayout, Template } from './template-chunks.js';

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
  readonly layout: Layout | undefined;
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly fields: Readonly<Record<string, string>>;
  /** Set when the watch cache built its entry from this write: the entry, at its revision. */
  served?: CachedObject;
}

type Comma = 'before' | 'after' | 'none';

/**
 * How the served JSON of a write is made at a revision. `parts` when Go's escaping changes nothing
 * (nearly every object): `base` is the stored bytes less the shared FieldsV1 JSON, and the served
 * bytes insert, in text order, the resourceVersion ('rv') and the shared bytes. `escaped`:
 * `head + resourceVersion + tail`, already escaped.
 */
type Layout = PartsLayout | { kind: 'escaped'; head: string; tail: string };
interface PartsLayout {
  kind: 'parts';
  base: Buffer;
  /** Ascending; the last insert is the trailing newline at the end of `base`. */
  offsets: number[];
  inserts: Array<Uint8Array | 'rv'>;
  comma: Comma;
  /** base + inserts, without the resourceVersion. */
  byteLength: number;
}

const NEWLINE = new Uint8Array([0x0a]);

// The resourceVersion slot is marked with a value no client can know (a control character and a
// per-process nonce), so the one occurrence of the mark in the JSON is the slot.
const MARK_VALUE = `\u0001${randomBytes(12).toString('hex')}`;
const MARK = `"resourceVersion":${JSON.stringify(MARK_VALUE)}`;

// managedFields of objects made from one template (a ReplicaSet's pods) share one frozen FieldsV1
// object (see machinery/managedfields): its JSON, hundreds of tiny objects that are often half of
// a pod's text and most of the time JSON.stringify spends on it, is made once and spliced in.
const FIELDS_MARK = `\u0002${randomBytes(12).toString('hex')}#`;
/** The JSON of a shared FieldsV1 object, as text and as bytes (whether Go's escaping leaves it be). */
interface SharedJson {
  text: string;
  bytes: Buffer;
  plain: boolean;
  /** The first object written with this FieldsV1: its template (template-chunks.ts). */
  template: Template;
}
const fieldsJson = new WeakMap<object, SharedJson>();
/** The bytes of every shared FieldsV1 JSON (a protobuf item shares them too). */
const sharedFieldsBytes = new WeakSet<Uint8Array>();

/** Whether `bytes` are a shared FieldsV1's JSON, which is also the `raw` of its protobuf FieldsV1. */
export function isSharedFieldsJson(bytes: Uint8Array): boolean {
  return sharedFieldsBytes.has(bytes);
}

/** The shared JSON of a frozen FieldsV1 (the create cache's), also found by its text afterwards. */
function sharedJsonOf(fields: object): SharedJson {
  let json = fieldsJson.get(fields);
  if (json === undefined) {
    const text = JSON.stringify(fields);
    json = fieldsByText.get(text) ?? newSharedJson(text);
    remember(text, json);
    fieldsJson.set(fields, json);
  }
  return json;
}

// An object read back and updated (a pod scheduled, its status set) has its FieldsV1 decoded anew,
// not the create cache's frozen object: found by its text, its objects keep sharing the JSON and
// the template of the objects created with it. A text is shared from its second sighting on (a
// kubelet's FieldsV1 names its pod's IP: seen once, it stays inline). Bounded: emptied when full.
const fieldsByText = new Map<string, SharedJson | null>();
const MAX_FIELDS_BY_TEXT = 4096;
/** Smaller FieldsV1 (a Lease's, a ConfigMap's) are not worth a lookup. */
const MIN_SHARED_FIELDS_TEXT = 256;

function newSharedJson(text: string): SharedJson {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text, 0);
  sharedFieldsBytes.add(bytes);
  return { text, bytes, plain: goEscape(text) === text, template: new Template() };
}

function remember(text: string, json: SharedJson | null): void {
  if (fieldsByText.size >= MAX_FIELDS_BY_TEXT) fieldsByText.clear();
  fieldsByText.set(text, json);
}

/** The shared JSON of a managedFields entry's FieldsV1, when it is worth sharing. */
function sharedFieldsOf(fields: unknown): SharedJson | undefined {
  if (typeof fields !== 'object' || fields === null) return undefined;
  if (Object.isFrozen(fields)) return sharedJsonOf(fields);
  const text = JSON.stringify(fields);
  if (text.length < MIN_SHARED_FIELDS_TEXT) return undefined;
  const known = fieldsByText.get(text);
  if (known !== undefined && known !== null) return known;
  if (known === undefined) {
    remember(text, null);
    return undefined;
  }
  const json = newSharedJson(text);
  remember(text, json);
  return json;
}

/**
 * JSON.stringify of `obj` with a copy of its metadata whose resourceVersion is MARK_VALUE and where
 * each shared FieldsV1 (the create cache's frozen ones, and others found by their text) is left as
 * a mark; `shared[i]` replaces the i-th mark.
 */
function stringifyMarked(obj: KubeObject, meta: Record<string, unknown>): { text: string; shared: SharedJson[] } {
  const shared: SharedJson[] = [];
  const marked = metaCopyWithResourceVersion(meta, MARK_VALUE, (k, v) => (k === 'managedFields' && Array.isArray(v) ? markShared(v, shared) : v));
  return { text: stringifyWithMetadata(obj, marked), shared };
}

/** managedFields entries with each shared FieldsV1 replaced by a mark (the list itself when none is shared). */
function markShared(entries: unknown[], shared: SharedJson[]): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const json = sharedFieldsOf(typeof e === 'object' && e !== null ? (e as { fieldsV1?: unknown }).fieldsV1 : undefined);
    if (json === undefined) continue;
    out ??= entries.slice();
    shared.push(json);
    out[i] = { ...(e as object), fieldsV1: `${FIELDS_MARK}${shared.length - 1}` };
  }
  return out ?? entries;
}

/**
 * JSON.stringify of `obj` as if its metadata were `metadata`: swapped in for the call rather than
 * copying the object around it (the key keeps its place, so the text is the same).
 */
function stringifyWithMetadata(obj: KubeObject, metadata: Record<string, unknown>): string {
  if (Object.isFrozen(obj)) return JSON.stringify({ ...obj, metadata });
  const own = obj.metadata;
  obj.metadata = metadata;
  try {
    return JSON.stringify(obj);
  } finally {
    obj.metadata = own;
  }
}

/** A shared FieldsV1 mark as JSON.stringify writes it (its control character escaped). */
function fieldsMark(i: number): string {
  return JSON.stringify(`${FIELDS_MARK}${i}`);
}

/** `text` with the shared FieldsV1 marks replaced by their JSON. */
function spliceShared(text: string, shared: readonly SharedJson[]): string {
  shared.forEach((json, i) => {
    const mark = fieldsMark(i);
    const at = text.indexOf(mark);
    text = `${text.slice(0, at)}${json.text}${text.slice(at + mark.length)}`;
  });
  return text;
}

/**
 * Serializes `obj` (canonical, storage version; its metadata.resourceVersion is ignored) for a
 * write to `key`: the bytes to store, and how the served JSON is made around the resourceVersion.
 */
export function prepareWrite(key: string, obj: KubeObject, fieldsOf: FieldsOf): PreparedWrite {
  const m = metaOf(obj);
  const { text, shared } = stringifyMarked(obj, m);
  const written = (stored: Buffer, layout: Layout | undefined): PreparedWrite => ({
    key,
    stored,
    layout,
    namespace: str(m.namespace),
    name: str(m.name),
    labels: { ...labelsOf(m) },
    fields: fieldsOf(obj),
    served: undefined,
  });
  const at = text.indexOf(MARK);
  if (at === -1 || text.indexOf(MARK, at + 1) !== -1) {
    const { resourceVersion: _rv, ...rest } = m;
    return written(Buffer.from(stringifyWithMetadata(obj, rest)), undefined);
  }
  const end = at + MARK.length;
  // Stored without the slot and the comma that separated it from its neighbour.
  const comma: Comma = text.charCodeAt(at - 1) === 0x2c ? 'before' : text.charCodeAt(end) === 0x2c ? 'after' : 'none';
  const cuts: Array<{ from: number; to: number; insert: SharedJson | 'rv' }> = [
    { from: comma === 'before' ? at - 1 : at, to: comma === 'after' ? end + 1 : end, insert: 'rv' },
  ];
  shared.forEach((json, i) => {
    const mark = fieldsMark(i);
    const from = text.indexOf(mark);
    cuts.push({ from, to: from + mark.length, insert: json });
  });
  // Go's escaping (<, >, & and the like in strings) changes nearly no object; for one it does,
  // the served JSON is the escaped text around the slot.
  if (goEscape(text) !== text || shared.some((j) => !j.plain)) {
    const full = spliceShared(text, shared);
    const fat = full.indexOf(MARK);
    const fend = fat + MARK.length;
    const storedText = comma === 'before' ? full.slice(0, fat - 1) + full.slice(fend) : comma === 'after' ? full.slice(0, fat) + full.slice(fend + 1) : full.slice(0, fat) + full.slice(fend);
    return written(Buffer.from(storedText), {
      kind: 'escaped',
      head: goEscape(`${full.slice(0, fat)}"resourceVersion":"`),
      tail: `${goEscape(`"${full.slice(fend)}`)}\n`,
    });
  }
  cuts.sort((a, b) => a.from - b.from);
  // base: the text less the cuts, as UTF-8 (the cuts are ASCII).
  let cutChars = 0;
  for (const c of cuts) cutChars += c.to - c.from;
  const ascii = Buffer.byteLength(text) === text.length;
  // From Node's pool: a step towards the bytes the object keeps (ownLayout copies them out).
  const base = Buffer.allocUnsafe((ascii ? text.length : Buffer.byteLength(text)) - cutChars);
  const offsets: number[] = [];
  const inserts: Array<Uint8Array | 'rv'> = [];
  let storedLength = base.length;
  let pos = 0;
  let last = 0;
  for (const c of cuts) {
    pos += ascii ? base.write(text.slice(last, c.from), pos, 'latin1') : base.write(text.slice(last, c.from), pos);
    offsets.push(pos);
    inserts.push(c.insert === 'rv' ? 'rv' : c.insert.bytes);
    if (c.insert !== 'rv') storedLength += c.insert.bytes.length;
    last = c.to;
  }
  if (ascii) base.write(text.slice(last), pos, 'latin1');
  else base.write(text.slice(last), pos);
  // Stored: the base with the shared JSON put back (no resourceVersion).
  const stored = Buffer.allocUnsafeSlow(storedLength);
  let from = 0;
  let to = 0;
  inserts.forEach((insert, i) => {
    if (insert === 'rv') return;
    to += base.copy(stored, to, from, offsets[i]);
    from = offsets[i]!;
    stored.set(insert, to);
    to += insert.length;
  });
  base.copy(stored, to, from);
  // Objects that share a FieldsV1 come from one template: the rest of their bytes is mostly the
  // template's too, and the cache keeps only what differs.
  const layout = ownLayout(shared.length > 0 ? shared[0]!.template : undefined, base, offsets, inserts);
  layout.offsets.push(layout.base.length);
  layout.inserts.push(NEWLINE);
  return written(stored, { kind: 'parts', ...layout, comma, byteLength: storedLength + 1 });
}

/** The resourceVersion's bytes where the slot was (on V8's heap: small and held per object). */
function rvBytes(revision: number, comma: Comma): Uint8Array {
  const rv = comma === 'before' ? `,"resourceVersion":"${revision}"` : comma === 'after' ? `"resourceVersion":"${revision}",` : `"resourceVersion":"${revision}"`;
  const out = new Uint8Array(rv.length);
  for (let i = 0; i < rv.length; i++) out[i] = rv.charCodeAt(i);
  return out;
}

/**
 * A cached object held in parts (it is its own JsonParts: one object less per cached object);
 * `json` joins them when asked. The offsets are the layout's, shared by every revision.
 */
class PartsObject implements CachedObject, JsonParts {
  readonly inserts: Uint8Array[];
  readonly offsets: readonly number[];
  readonly base: Uint8Array;
  readonly byteLength: number;

  constructor(
    readonly key: string,
    readonly namespace: string,
    readonly name: string,
    readonly revision: number,
    readonly labels: Readonly<Record<string, string>>,
    readonly fields: Readonly<Record<string, string>>,
    l: PartsLayout,
  ) {
    const rv = rvBytes(revision, l.comma);
    this.inserts = l.inserts.map((b) => (b === 'rv' ? rv : b));
    this.offsets = l.offsets;
    this.base = l.base;
    this.byteLength = l.byteLength + rv.byteLength;
  }

  get parts(): JsonParts {
    return this;
  }

  get json(): Uint8Array {
    return joinParts(this);
  }
}

/** The served JSON of a prepared write committed at `revision`, as consecutive pieces (views, not copies). */
export function servedPieces(w: PreparedWrite, revision: number): Uint8Array[] | undefined {
  const l = w.layout;
  if (l === undefined) return undefined;
  const served = w.served?.revision === revision ? w.served : undefined;
  if (served?.parts !== undefined) return partsPieces(served.parts);
  if (served !== undefined) return [served.json];
  if (l.kind === 'escaped') return [encoder.encode(`${l.head}${revision}${l.tail}`)];
  return partsPieces(new PartsObject(w.key, w.namespace, w.name, revision, w.labels, w.fields, l));
}

/**
 * The prepared writes of one resource whose watch events the cache has not seen yet, by key (the
 * newest per key; bounded: a write that is never seen only costs the slow path).
 */
export class RecentWrites {
  private readonly byKey = new Map<string, PreparedWrite>();

  constructor(private readonly max = 4096) {}

  add(w: PreparedWrite): void {
    if (w.layout === undefined) return;
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
  if (write.layout !== undefined) servedOf.set(obj, { write, revision, metadata: obj.metadata });
}

/**
 * The served JSON of an object a write returned, if the store recorded it (and its metadata is
 * untouched), as consecutive pieces: the response writes them one after another.
 */
export function servedJsonOf(obj: KubeObject): Uint8Array[] | undefined {
  const e = servedOf.get(obj);
  if (e === undefined || e.metadata !== obj.metadata || (obj.metadata as Record<string, unknown>).resourceVersion !== String(e.revision)) return undefined;
  return servedPieces(e.write, e.revision);
}

export function materializer(fieldsOf: FieldsOf, recent?: RecentWrites): Materialize {
  return (key, value, modRevision) => {
    const w = recent?.take(key, value);
    const l = w?.layout;
    if (w !== undefined && l !== undefined) {
      const served: CachedObject =
        l.kind === 'parts'
          ? new PartsObject(key, w.namespace, w.name, modRevision, w.labels, w.fields, l)
          : { key, namespace: w.namespace, name: w.name, revision: modRevision, json: encoder.encode(`${l.head}${modRevision}${l.tail}`), labels: w.labels, fields: w.fields };
      w.served = served;
      return served;
    }
    return cachedFromObject(key, decodeStored(value, modRevision), modRevision, fieldsOf);
  };
}
