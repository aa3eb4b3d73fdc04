// The fast path's one door. Writes serialized once (the stored bytes and the served JSON from one
// JSON.stringify, objects of one template held against their template), create bodies decoded
// once per template, protobuf list items and watch event bytes kept for whoever asks next: what
// makes thousands of creates a second. Nothing outside this folder imports anything in it but
// this file.
//
// It changes nothing but speed: turned off (KUBELITE_FAST_PATH=off, or the API server's
// `fastPath: false`), the plain path serves every byte (each create body decoded, each write
// stored as JSON.stringify and read back into the watch cache by decoding it, each response and
// list item encoded from the object), and the responses are the same bytes. The tests of the
// registry and the API server run both ways.
import type { KubeObject } from '../../api/schema/kind.js';
import { partsOf, type JsonParts } from '../../storage/cacher/json-parts.js';
import type { CachedObject, Materialize } from '../../storage/cacher/types.js';
import { plainMaterializer, type FieldsOf } from '../materialize.js';
import { metaOf } from '../meta.js';
import { CreateBodies, cutBody, type DecodedBody } from './create-bodies.js';
import { materializer, prepareWrite, RecentWrites, rememberServed, type PreparedWrite as Prepared } from './prepared-writes.js';
import { keptProtobufItem } from './protobuf-items.js';
import { RecentEncodings } from './recent-encodings.js';

export { servedJsonOf } from './prepared-writes.js';
export type { DecodedBody } from './create-bodies.js';

/** Whether servers use the fast path unless told otherwise: KUBELITE_FAST_PATH=off turns it off (read once, at start). */
export const FAST_PATH_BY_DEFAULT = process.env['KUBELITE_FAST_PATH'] !== 'off';

/** A write as the store commits it: the bytes storage receives (compact JSON, no metadata.resourceVersion). */
export interface PreparedWrite {
  readonly key: string;
  readonly stored: Buffer;
}

/** The writes of one resource, as its store makes them and its watch cache reads them back. */
export interface ResourceWrites {
  /** The watch cache's materialize for the resource. */
  readonly materialize: Materialize;
  /** The bytes of a write of `obj` (storage version, canonical) to `key`. */
  prepare(key: string, obj: KubeObject): PreparedWrite;
  /** `w` is about to be written: the watch cache may take the object's bytes from it. */
  expect(w: PreparedWrite): void;
  /** `w` was not written. */
  failed(w: PreparedWrite): void;
  /** `w` was committed at `revision`, and `obj` is what the store answers with. */
  committed(obj: KubeObject, w: PreparedWrite, revision: number): void;
  /**
   * For a create: a key equal for objects that differ in identity only (name, uid, timestamps),
   * when the object came from a remembered create body; the field manager then reuses the fields
   * it found for the first.
   */
  createKeyOf(obj: KubeObject): string | undefined;
}

/** The bytes of a watch event in one encoding, made by `encode` unless another watcher made them. */
export interface EventEncodings {
  get(event: object, key: string, encode: () => Uint8Array): Uint8Array;
}

/** The protobuf list item of a cached object, made by `encode` (message bytes without kind and apiVersion). */
export type ProtobufItems = (o: CachedObject, encode: (o: CachedObject) => Buffer) => JsonParts;

export interface FastPath {
  readonly enabled: boolean;
  resourceWrites(fieldsOf: FieldsOf): ResourceWrites;
  /**
   * The object of a create request's JSON body: `decode` decodes the body, `finish` turns what it
   * decoded into the object to create (kind checked, defaulted, converted). `scope` is what else
   * decides the decoding (kind, version, field validation).
   */
  createFromBody(scope: string, bytes: Buffer, decode: () => DecodedBody, finish: (decoded: DecodedBody) => KubeObject): KubeObject;
  readonly protobufItem: ProtobufItems;
  readonly eventEncodings: EventEncodings;
}

/** Larger bodies (a ConfigMap's data) are not templates: not worth keeping. */
const MAX_REMEMBERED_BODY = 16 * 1024;
/** Watch events whose bytes are kept per encoding (recent-encodings.ts). */
const RECENT_EVENTS = 2048;

/** Objects created from a remembered body, and the body's key (see createKeyOf). */
const createKeys = new WeakMap<KubeObject, string>();

function fastWrites(fieldsOf: FieldsOf): ResourceWrites {
  const recent = new RecentWrites();
  return {
    materialize: materializer(fieldsOf, recent),
    prepare: (key, obj) => prepareWrite(key, obj, fieldsOf),
    expect: (w) => recent.add(w as Prepared),
    failed: (w) => recent.drop(w as Prepared),
    committed: (obj, w, revision) => rememberServed(obj, w as Prepared, revision),
    createKeyOf: (obj) => createKeys.get(obj),
  };
}

function fastPathOn(): FastPath {
  const createBodies = new CreateBodies();
  return {
    enabled: true,
    resourceWrites: fastWrites,
    createFromBody(scope, bytes, decode, finish) {
      const cut = bytes.length <= MAX_REMEMBERED_BODY ? cutBody(scope, bytes) : undefined;
      let decoded = cut === undefined ? undefined : createBodies.recall(cut);
      const known = decoded !== undefined;
      decoded ??= decode();
      const kept = known || (cut !== undefined && createBodies.remember(cut, bytes, decoded));
      const object = finish(decoded);
      if (kept) createKeys.set(object, cut!.key);
      return object;
    },
    protobufItem: keptProtobufItem,
    eventEncodings: new RecentEncodings(RECENT_EVENTS),
  };
}

function plainWrites(fieldsOf: FieldsOf): ResourceWrites {
  return {
    materialize: plainMaterializer(fieldsOf),
    prepare(key, obj) {
      // Stored without a resourceVersion: the revision of the write is the version.
      const { resourceVersion: _rv, ...rest } = metaOf(obj);
      return { key, stored: Buffer.from(JSON.stringify({ ...obj, metadata: rest })) };
    },
    expect: () => {},
    failed: () => {},
    committed: () => {},
    createKeyOf: () => undefined,
  };
}

const FAST_PATH_OFF: FastPath = {
  enabled: false,
  resourceWrites: plainWrites,
  createFromBody: (_scope, _bytes, decode, finish) => finish(decode()),
  protobufItem: (o, encode) => partsOf(encode(o), [], []),
  eventEncodings: { get: (_event, _key, encode) => encode() },
};

/** The fast path of one API server's registry (`enabled` false: the plain path). */
export function fastPath(enabled = FAST_PATH_BY_DEFAULT): FastPath {
  return enabled ? fastPathOn() : FAST_PATH_OFF;
}
