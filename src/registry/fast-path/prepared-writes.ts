// Writes through this API server are serialized once: the store prepares the stored bytes and
// the served JSON (minus the resourceVersion only the commit assigns) from one JSON.stringify, and
// the cache entry built when the write's watch event arrives, and the write's own response, are
// both spliced from that instead of parsing the stored bytes and stringifying them again. The cache
// keeps such an object in parts (storage/cacher/json-parts.ts): its own bytes, with the
// resourceVersion and the JSON of shared FieldsV1 (the same for every pod of a template, about
// half of a pod's text) inserted, so ten thousand pods of a Deployment hold one copy of it.
// The bytes are those of the plain path (../materialize.ts): decoding the stored bytes and
// encoding them as served.
import { randomBytes } from 'node:crypto';
import type { KubeObject } from '../../api/schema/kind.js';
import { goEscape } from '../../machinery/status.js';
import { joinParts, partsPieces, type JsonParts } from '../../storage/cacher/json-parts.js';
import type { CachedObject, Materialize } from '../../storage/cacher/types.js';
import { cachedFromObject, decodeStored, metadataLabels, type FieldsOf } from '../materialize.js';
import { metaCopyWithResourceVersion, metaOf, str } from '../meta.js';
import { JsonShape, MAX_SLOTS } from './json-shape.js';
import { ownLayout, Template } from './template-chunks.js';
import { TemplatePieces, type Hole } from './template-pieces.js';

const encoder = new TextEncoder();

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
  /** How many objects were written with it, up to SHAPE_FROM. */
  writes: number;
  /**
   * What its objects are compared with, from the SHAPE_FROM-th on, the last one written from
   * first. More than one: one FieldsV1 names the fields of several templates (Deployments whose
   * pods set the same fields to other values, in other numbers).
   */
  shapes: ShapedTemplate[] | undefined;
}

/**
 * The shape of a template's objects (json-shape.ts) and its text cut around the holes
 * (template-pieces.ts): an object that matches is written without JSON.stringify.
 */
interface ShapedTemplate {
  readonly shape: JsonShape;
  /** undefined while the text cannot be cut (Go's escaping would change it, a mark is missing). */
  pieces: TemplatePieces | undefined;
  comma: Comma;
  /** The number of shared FieldsV1 marks in the text: every object of the shape has as many. */
  readonly sharedCount: number;
  /** How many times leaves were made variable (bounded: objects that vary everywhere are no template's). */
  learned: number;
}

/** A shape costs ~1.5 times its text: made for templates with this many objects. */
const SHAPE_FROM = 3;
const MAX_SHAPES = 4;
const MAX_LEARNED = 8;

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
  return { text, bytes, plain: goEscape(text) === text, template: new Template(), writes: 0, shapes: undefined };
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
function markedMeta(meta: Record<string, unknown>, shared: SharedJson[]): Record<string, unknown> {
  return metaCopyWithResourceVersion(meta, MARK_VALUE, (k, v) => (k === 'managedFields' && Array.isArray(v) ? markShared(v, shared) : v));
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
 * `f` of `obj` as if its metadata were `metadata`: swapped in for the call rather than copying the
 * object around it (the key keeps its place, so JSON.stringify writes the same text).
 */
function withMetadata<T>(obj: KubeObject, metadata: Record<string, unknown>, f: (obj: KubeObject) => T): T {
  if (Object.isFrozen(obj)) return f({ ...obj, metadata });
  const own = obj.metadata;
  obj.metadata = metadata;
  try {
    return f(obj);
  } finally {
    obj.metadata = own;
  }
}

function stringifyWithMetadata(obj: KubeObject, metadata: Record<string, unknown>): string {
  return withMetadata(obj, metadata, JSON.stringify);
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
  const shared: SharedJson[] = [];
  const marked = markedMeta(m, shared);
  const written = (stored: Buffer, layout: Layout | undefined): PreparedWrite => ({
    key,
    stored,
    layout,
    namespace: str(m.namespace),
    name: str(m.name),
    labels: { ...metadataLabels(m) },
    fields: fieldsOf(obj),
    served: undefined,
  });
  const fromShape = shared.length > 0 && shared.every((j) => j.plain) ? withMetadata(obj, marked, (o) => writeFromShape(shared, o)) : undefined;
  if (fromShape !== undefined) return written(fromShape.stored, fromShape);
  const text = stringifyWithMetadata(obj, marked);
  const at = text.indexOf(MARK);
  if (at === -1 || text.indexOf(MARK, at + 1) !== -1) {
    const { resourceVersion: _rv, ...rest } = m;
    return written(Buffer.from(stringifyWithMetadata(obj, rest)), undefined);
  }
  const slot = slotCut(text, at);
  const comma = slot.comma;
  const cuts: Array<{ from: number; to: number; insert: SharedJson | 'rv' }> = [{ from: slot.from, to: slot.to, insert: 'rv' }];
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
  if (shared.length > 0) learnShape(shared, obj, marked, text);
  return written(stored, { kind: 'parts', ...layout, comma, byteLength: storedLength + 1 });
}

/**
 * The write of `obj` (with its marked metadata) from a shape of its template, when it matches one
 * and its leaves need no escaping; the shape it matched goes first for the next object.
 */
function writeFromShape(shared: readonly SharedJson[], obj: KubeObject): (PartsLayout & { stored: Buffer }) | undefined {
  const shapes = shared[0]!.shapes;
  if (shapes === undefined) return undefined;
  for (let i = 0; i < shapes.length; i++) {
    const shaped = shapes[i]!;
    if (shaped.pieces === undefined || shaped.sharedCount !== shared.length) continue;
    const values = shaped.shape.match(obj);
    if (values === undefined) continue;
    const w = shaped.pieces.write(values, sharedInserts(shared));
    if (w === undefined) return undefined;
    if (i > 0) shapes.unshift(...shapes.splice(i, 1));
    w.offsets.push(w.base.length);
    w.inserts.push(NEWLINE);
    return { kind: 'parts', base: w.base, offsets: w.offsets, inserts: w.inserts, comma: shaped.comma, byteLength: w.stored.length + 1, stored: w.stored };
  }
  return undefined;
}

/**
 * The resourceVersion slot at `at` (where MARK is in `text`) as the stored bytes leave it out:
 * with the comma that separated it from its neighbour.
 */
function slotCut(text: string, at: number): { from: number; to: number; comma: Comma } {
  const end = at + MARK.length;
  const comma: Comma = text.charCodeAt(at - 1) === 0x2c ? 'before' : text.charCodeAt(end) === 0x2c ? 'after' : 'none';
  return { from: comma === 'before' ? at - 1 : at, to: comma === 'after' ? end + 1 : end, comma };
}

/** The inserts of a shaped template's holes: the resourceVersion slot, then each shared FieldsV1. */
function sharedInserts(shared: readonly SharedJson[]): Array<Uint8Array | 'rv'> {
  const inserts: Array<Uint8Array | 'rv'> = ['rv'];
  for (const j of shared) inserts.push(j.bytes);
  return inserts;
}

/**
 * After an object of a template took the general path: the leaves in which it differs from a shape
 * of the same structure become variable, or, when no shape has its structure, it becomes one (the
 * first from the template's SHAPE_FROM-th object on).
 */
function learnShape(shared: readonly SharedJson[], obj: KubeObject, marked: Record<string, unknown>, text: string): void {
  const first = shared[0]!;
  if (first.shapes === undefined && ++first.writes < SHAPE_FROM) return;
  const shapes = (first.shapes ??= []);
  for (const shaped of shapes) {
    if (shaped.sharedCount !== shared.length) continue;
    const differing = withMetadata(obj, marked, (o) => shaped.shape.differingLeaves(o));
    if (differing === undefined) continue;
    if (differing.length === 0 || shaped.learned >= MAX_LEARNED || shaped.shape.slotCount + differing.length > MAX_SLOTS) return;
    shaped.shape.addSlots(differing);
    shaped.learned++;
    cutShape(shaped);
    return;
  }
  if (shapes.length >= MAX_SHAPES) return;
  const made: ShapedTemplate = { shape: new JsonShape(text), pieces: undefined, comma: 'none', sharedCount: shared.length, learned: 0 };
  cutShape(made);
  shapes.unshift(made);
}

// A variable leaf's place in a shape's text: a value no client can know, as the resourceVersion's.
const SLOT_MARK = `\u0003${randomBytes(12).toString('hex')}#`;

/** Cuts the shape's text around the resourceVersion slot, the shared FieldsV1 and the variable leaves. */
function cutShape(shaped: ShapedTemplate): void {
  shaped.pieces = undefined;
  const text = shaped.shape.textWithMarkers((slot) => `${SLOT_MARK}${slot}`);
  if (goEscape(text) !== text) return;
  const at = text.indexOf(MARK);
  if (at === -1 || text.indexOf(MARK, at + 1) !== -1) return;
  const slot = slotCut(text, at);
  shaped.comma = slot.comma;
  const cuts: Array<{ from: number; to: number; hole: Hole }> = [{ from: slot.from, to: slot.to, hole: -1 }];
  const find = (mark: string, hole: Hole): boolean => {
    const from = text.indexOf(mark);
    if (from === -1 || text.indexOf(mark, from + 1) !== -1) return false;
    cuts.push({ from, to: from + mark.length, hole });
    return true;
  };
  for (let i = 0; i < shaped.sharedCount; i++) if (!find(fieldsMark(i), -2 - i)) return;
  for (let slot = 0; slot < shaped.shape.slotCount; slot++) if (!find(JSON.stringify(`${SLOT_MARK}${slot}`), slot)) return;
  cuts.sort((a, b) => a.from - b.from);
  const pieces: string[] = [];
  let last = 0;
  for (const c of cuts) {
    pieces.push(text.slice(last, c.from));
    last = c.to;
  }
  pieces.push(text.slice(last));
  shaped.pieces = new TemplatePieces(pieces, cuts.map((c) => c.hole));
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

/** The watch cache's materialize for a resource whose writes are prepared here and kept in `recent`. */
export function materializer(fieldsOf: FieldsOf, recent: RecentWrites): Materialize {
  return (key, value, modRevision) => {
    const w = recent.take(key, value);
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
