// Response bodies: one object, a list or a watch event, in the version the client asked for
// (converted from the storage version), in JSON, YAML or protobuf, or as a Table or
// PartialObjectMetadata(List). Lists in the storage version's JSON are assembled from the watch
// cache's bytes without decoding them; JSON Tables of lists mostly so (table-list.ts).
import { apiVersionOf, listKindOf } from '../api/kinds.js';
import { resourceVersionOf } from '../api/meta/object.js';
import { ListMeta, PartialObjectMetadata, PartialObjectMetadataList, Table } from '../api/meta/v1.js';
import type { StructType } from '../api/schema/dsl.js';
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { encodeBody, encodeMessage } from '../machinery/codec/index.js';
import { canonicalize } from '../machinery/codec/normalize.js';
import { goEscape, StatusError } from '../machinery/status.js';
import { servedJsonOf, type ProtobufItems } from '../registry/fast-path/index.js';
import { printerOf } from '../registry/kinds/index.js';
import { decodedOrFresh } from '../registry/decode-cached.js';
import type { TablePrinter } from '../registry/printers/types.js';
import { forEachRange, jsonLength, partsOf, partsPieces, partsStartWith, type CachedObject, type JsonParts } from '../storage/cacher/index.js';
import { ChunkCopier, releaseChunk, type StreamedBody } from './stream-chunks.js';
import { tableListStreamed } from './table-list.js';

export type MediaType = 'application/json' | 'application/yaml' | 'application/vnd.kubernetes.protobuf';

/** What the client asked for (Accept), after negotiation. */
export interface ResponseFormat {
  mediaType: MediaType;
  /** A meta.k8s.io transformation of the response (`as=Table` etc.); '' for the object itself. */
  as: '' | 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  /** meta.k8s.io version of the transformation (v1, or v1beta1 for old clients). */
  asVersion: 'v1' | 'v1beta1';
  pretty?: boolean;
}

export interface Body {
  contentType: string;
  /** Pieces: the body is their concatenation (written one after another, never joined). */
  body: Uint8Array | string | readonly Uint8Array[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The storage-version object in the served version `kv` (kind and apiVersion set). */
export function toServed(hub: KubeObject, kv: KindVersion): KubeObject {
  const obj = kv.fromHub ? kv.fromHub(hub) : hub;
  if (obj.kind !== kv.kind || obj.apiVersion !== apiVersionOf(kv)) {
    return canonicalize<KubeObject>({ ...obj, kind: kv.kind, apiVersion: apiVersionOf(kv) }, kv.type);
  }
  return obj;
}

const CODEC = { 'application/json': 'json', 'application/yaml': 'yaml', 'application/vnd.kubernetes.protobuf': 'protobuf' } as const;

function encodeAs(obj: KubeObject, type: StructType, fmt: ResponseFormat): Body {
  // Go's encoder, indented: HTML-safe escapes (<, >, &) as in compact output.
  if (fmt.mediaType === 'application/json' && fmt.pretty) return { contentType: fmt.mediaType, body: `${goEscape(JSON.stringify(obj, null, 2))}\n` };
  return { contentType: fmt.mediaType, body: encodeBody(CODEC[fmt.mediaType], obj, type) };
}

function metaApiVersion(fmt: ResponseFormat): string {
  return `meta.k8s.io/${fmt.asVersion}`;
}

/** PartialObjectMetadata of an object: only its TypeMeta and ObjectMeta. */
export function partial(obj: KubeObject, fmt: ResponseFormat): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: metaApiVersion(fmt), metadata: obj.metadata };
}

export interface TableOptions {
  /** includeObject=None|Metadata|Object (default Metadata). */
  includeObject: 'None' | 'Metadata' | 'Object';
  now: number;
}

function tableRow(obj: KubeObject, printer: TablePrinter, kv: KindVersion, fmt: ResponseFormat, opts: TableOptions): KubeObject {
  const row: KubeObject = { cells: printer.cells(obj, opts.now) };
  const conditions = printer.conditions?.(obj);
  if (conditions) row.conditions = conditions;
  if (opts.includeObject === 'Metadata') row.object = partial(obj, fmt);
  else if (opts.includeObject === 'Object') row.object = toServed(obj, kv);
  // Go's RawExtension is a struct, never omitted: an empty one is written as null.
  else row.object = null;
  return row;
}

/** A meta.k8s.io Table of storage-version objects, for the served kind `kv`. */
export function buildTable(objects: readonly KubeObject[], kv: KindVersion, listMeta: KubeObject, fmt: ResponseFormat, opts: TableOptions): KubeObject {
  if (fmt.mediaType === 'application/vnd.kubernetes.protobuf') {
    throw StatusError.notAcceptable('only the following media types are accepted: application/json, application/yaml', { rawJson: true });
  }
  const printer = printerOf(kv);
  return {
    kind: 'Table',
    apiVersion: metaApiVersion(fmt),
    metadata: listMeta,
    columnDefinitions: printer.columns,
    rows: objects.map((o) => tableRow(o, printer, kv, fmt, opts)),
  };
}

/**
 * Whether the client asked for an object exactly as the API server keeps its JSON: plain compact
 * JSON of the storage version, no meta.k8s.io transformation.
 */
function wantsStoredJson(kv: KindVersion, fmt: ResponseFormat): boolean {
  return fmt.as === '' && fmt.mediaType === 'application/json' && !fmt.pretty && kv.storage;
}

/** One object (storage version) as the client asked for it. */
export function encodeObject(hub: KubeObject, kv: KindVersion, fmt: ResponseFormat, table?: TableOptions): Body {
  if (fmt.as === 'Table') {
    const t = buildTable([hub], kv, { resourceVersion: resourceVersionOf(hub) }, fmt, table ?? { includeObject: 'Metadata', now: Date.now() });
    return encodeAs(t, Table, fmt);
  }
  if (fmt.as === 'PartialObjectMetadata') return encodeAs(partial(hub, fmt), PartialObjectMetadata, fmt);
  if (fmt.as === 'PartialObjectMetadataList') {
    throw StatusError.notAcceptable('only the following media types are accepted: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', { rawJson: true });
  }
  if (wantsStoredJson(kv, fmt)) {
    // The object a write just stored: its JSON was made once, before the write.
    const served = servedJsonOf(hub);
    if (served !== undefined) return { contentType: fmt.mediaType, body: served };
  }
  return encodeAs(toServed(hub, kv), kv.type, fmt);
}

/**
 * One object of the watch cache (a GET): its served JSON as the cache holds it when that is what
 * the client asked for (plain JSON of the storage version), else decoded and encoded as asked.
 */
export function encodeCachedObject(o: CachedObject, kv: KindVersion, fmt: ResponseFormat, table?: TableOptions): Body {
  if (wantsStoredJson(kv, fmt)) {
    return { contentType: fmt.mediaType, body: o.parts !== undefined ? partsPieces(o.parts) : o.json };
  }
  return encodeObject(decodeCached(o), kv, fmt, table);
}

/** Objects computed on a read, not stored (componentstatuses): one object, or their list, or their Table. */
export function encodeComputed(objects: readonly KubeObject[], kv: KindVersion, fmt: ResponseFormat, table: TableOptions, single: boolean): Body {
  if (fmt.as === 'Table') return encodeAs(buildTable(objects, kv, {}, fmt, table), Table, fmt);
  if (single) return encodeAs(canonicalize(toServed(objects[0]!, kv), kv.type) as KubeObject, kv.type, fmt);
  const list = { kind: `${kv.kind}List`, apiVersion: apiVersionOf(kv), metadata: {}, items: objects.map((o) => toServed(o, kv)) };
  return encodeAs(canonicalize(list, kv.list!) as KubeObject, kv.list!, fmt);
}

/** A non-resource object (Status, Scale, discovery, ...) in the negotiated media type. */
export function encodeOther(obj: KubeObject, type: StructType, fmt: ResponseFormat): Body {
  return encodeAs(obj, type, { ...fmt, as: '' });
}

export interface ListPage {
  items: readonly CachedObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

function listMetaOf(page: ListPage): KubeObject {
  const m: KubeObject = { resourceVersion: page.resourceVersion };
  if (page.continue) m.continue = page.continue;
  if (page.remainingItemCount !== undefined) m.remainingItemCount = page.remainingItemCount;
  return m;
}

/** A cached object decoded (the shared decoding a conversion was prepared on, when there is one). */
function decodeCached(o: CachedObject): KubeObject {
  return decodedOrFresh(o);
}

/** A list response as one buffer (see encodeListStreamed). */
export function encodeList(page: ListPage, kv: KindVersion, fmt: ResponseFormat, items: ProtobufItems, table?: TableOptions): Body {
  const body = encodeListStreamed(page, kv, fmt, items, table);
  if (!('chunks' in body)) return body;
  return { contentType: body.contentType, body: Buffer.concat([...body.chunks], body.length) };
}

/**
 * A list response. The fast paths — JSON and protobuf of the storage version — splice the cached
 * bytes of each item (JSON without their kind and apiVersion, as Kubernetes lists items) into the
 * list envelope, copied into the response chunk by chunk as the client reads.
 */
export function encodeListStreamed(page: ListPage, kv: KindVersion, fmt: ResponseFormat, items: ProtobufItems, table?: TableOptions): Body | StreamedBody {
  const listMeta = listMetaOf(page);
  if (fmt.as === 'Table') {
    const opts = table ?? { includeObject: 'Metadata', now: Date.now() };
    // What kubectl get asks for, made from the cached bytes; YAML, indented JSON and rows with the
    // whole object are made by encoding the whole Table.
    if (fmt.mediaType === 'application/json' && !fmt.pretty && opts.includeObject !== 'Object') {
      const { includeObject, now } = opts;
      return tableListStreamed(page.items, printerOf(kv), listMeta, { apiVersion: metaApiVersion(fmt), includeObject, now, printerReadsManagedFields: kv.custom !== undefined });
    }
    return encodeAs(buildTable(page.items.map(decodeCached), kv, listMeta, fmt, opts), Table, fmt);
  }
  if (fmt.as === 'PartialObjectMetadataList' || fmt.as === 'PartialObjectMetadata') {
    const list = {
      kind: 'PartialObjectMetadataList',
      apiVersion: metaApiVersion(fmt),
      metadata: listMeta,
      items: page.items.map((o) => partial(decodeCached(o), fmt)),
    };
    return encodeAs(list, PartialObjectMetadataList, fmt);
  }
  const listKind = listKindOf(kv);
  const apiVersion = apiVersionOf(kv);
  if (fmt.mediaType === 'application/json' && kv.storage && !fmt.pretty && !kv.custom) {
    const prefix = encoder.encode(`{"kind":"${kv.kind}","apiVersion":"${apiVersion}",`);
    const head = encoder.encode(`{"kind":"${listKind}","apiVersion":"${apiVersion}","metadata":${JSON.stringify(canonicalize(listMeta, ListMeta))},"items":[`);
    const tail = encoder.encode(']}\n');
    // Items whose bytes do not start with the kind's prefix (none, in practice) are re-encoded.
    const other = new Map<CachedObject, Uint8Array>();
    let length = head.byteLength + tail.byteLength + Math.max(0, page.items.length - 1);
    for (const o of page.items) {
      if (o.parts !== undefined ? partsStartWith(o.parts, prefix) : startsWith(o.json, prefix)) length += jsonLength(o) - prefix.byteLength; // '{' + the rest without the trailing newline
      else {
        const { kind: _k, apiVersion: _a, ...rest } = decodeCached(o);
        const bytes = encoder.encode(JSON.stringify(rest));
        other.set(o, bytes);
        length += bytes.byteLength;
      }
    }
    return { contentType: 'application/json', length, chunks: jsonListChunks(head, tail, prefix.byteLength, page.items, other), release: releaseChunk };
  }
  if (fmt.mediaType === 'application/vnd.kubernetes.protobuf' && kv.storage && protobufSplicing(kv)) {
    return protobufList(page.items, listMeta, listKind, apiVersion, kv, items);
  }
  return encodeAs(slowList(page.items, listMeta, listKind, apiVersion, kv), kv.list!, fmt);
}

function slowList(items: readonly CachedObject[], listMeta: KubeObject, listKind: string, apiVersion: string, kv: KindVersion): KubeObject {
  return {
    kind: listKind,
    apiVersion,
    metadata: listMeta,
    // Custom resources are unstructured in Kubernetes: their list items keep apiVersion and kind.
    items: items.map((o) => {
      const served = toServed(decodeCached(o), kv);
      if (kv.custom) return served;
      const { kind: _k, apiVersion: _a, ...rest } = served;
      return rest;
    }),
  };
}

// Protobuf lists of the storage version are spliced from per-object message bytes (the registry's
// ProtobufItems: kept per cached object on the fast path). A list is Kubernetes' envelope —
// "k8s\0", runtime.Unknown {typeMeta = 1, raw = 2, contentEncoding = 3, contentType = 4} — around
// the XxxList message {metadata = 1, items = 2 (repeated)}.

/** The protobuf message of a cached object of the served kind `kv`, without its kind and apiVersion. */
function protobufMessageOf(kv: KindVersion): (o: CachedObject) => Buffer {
  return (o) => {
    const { kind: _k, apiVersion: _a, ...rest } = decodeCached(o);
    return encodeMessage(rest, kv.type);
  };
}

function varintLength(n: number): number {
  let len = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    len++;
  }
  return len;
}

function writeVarint(buf: Buffer, pos: number, n: number): number {
  while (n >= 128) {
    buf[pos++] = (n % 128) | 128;
    n = Math.floor(n / 128);
  }
  buf[pos++] = n;
  return pos;
}

function protobufList(items: readonly CachedObject[], listMeta: KubeObject, listKind: string, apiVersion: string, kv: KindVersion, itemOf: ProtobufItems): StreamedBody {
  const meta = encodeMessage({ metadata: listMeta }, kv.list!);
  const message = protobufMessageOf(kv);
  const parts = items.map((o) => itemOf(o, message));
  let rawLength = meta.length;
  for (const p of parts) rawLength += 1 + varintLength(p.byteLength) + p.byteLength;
  const av = Buffer.from(apiVersion);
  const kind = Buffer.from(listKind);
  const typeMetaLength = 1 + varintLength(av.length) + av.length + 1 + varintLength(kind.length) + kind.length;
  const head = Buffer.allocUnsafe(4 + 1 + varintLength(typeMetaLength) + typeMetaLength + 1 + varintLength(rawLength));
  let pos = head.write('k8s\0', 0, 'latin1');
  head[pos++] = 0x0a;
  pos = writeVarint(head, pos, typeMetaLength);
  head[pos++] = 0x0a;
  pos = writeVarint(head, pos, av.length);
  pos += av.copy(head, pos);
  head[pos++] = 0x12;
  pos = writeVarint(head, pos, kind.length);
  pos += kind.copy(head, pos);
  head[pos++] = 0x12;
  writeVarint(head, pos, rawLength);
  const trailer = Buffer.from([0x1a, 0, 0x22, 0]);
  return {
    contentType: 'application/vnd.kubernetes.protobuf',
    length: head.length + rawLength + trailer.length,
    chunks: protobufListChunks(head, meta, parts, trailer),
    release: releaseChunk,
  };
}

function* jsonListChunks(head: Uint8Array, tail: Uint8Array, prefixLength: number, items: readonly CachedObject[], other: ReadonlyMap<CachedObject, Uint8Array>): Generator<Uint8Array> {
  const c = new ChunkCopier();
  const put = (src: Uint8Array, start: number, end: number) => c.put(src, start, end);
  c.put(head);
  for (let i = 0; i < items.length; i++) {
    const o = items[i]!;
    if (i > 0) c.byte(0x2c);
    const bytes = other.get(o);
    if (bytes !== undefined) c.put(bytes);
    else {
      c.byte(0x7b);
      // Without kind, apiVersion and the trailing newline.
      if (o.parts !== undefined) forEachRange(o.parts, prefixLength, o.parts.byteLength - 1, put);
      else c.put(o.json, prefixLength, o.json.byteLength - 1);
    }
    if (c.full.length > 0) yield* c.take();
  }
  c.put(tail);
  yield* c.finish();
}

function* protobufListChunks(head: Uint8Array, meta: Uint8Array, parts: readonly JsonParts[], trailer: Uint8Array): Generator<Uint8Array> {
  const c = new ChunkCopier();
  const put = (src: Uint8Array, start: number, end: number) => c.put(src, start, end);
  c.put(head);
  c.put(meta);
  const varint = Buffer.allocUnsafe(10);
  for (const p of parts) {
    c.byte(0x12);
    c.put(varint, 0, writeVarint(varint, 0, p.byteLength));
    forEachRange(p, 0, p.byteLength, put);
    if (c.full.length > 0) yield* c.take();
  }
  c.put(trailer);
  yield* c.finish();
}

/**
 * Whether splicing gives this kind's list exactly the bytes of encoding the whole list, checked
 * once per kind on a sample object (the list layout above is Kubernetes' for every kind, so this
 * is a guard, not a branch).
 */
const splicingChecked = new Map<KindVersion, boolean>();

function protobufSplicing(kv: KindVersion): boolean {
  let ok = splicingChecked.get(kv);
  if (ok === undefined) {
    const sample: KubeObject = { kind: kv.kind, apiVersion: apiVersionOf(kv), metadata: { name: 'a', namespace: 'b', resourceVersion: '2', labels: { c: 'd' } } };
    const o: CachedObject = { key: '/k', namespace: 'b', name: 'a', revision: 2, json: encoder.encode(JSON.stringify(sample)), labels: {}, fields: {} };
    const listMeta = { resourceVersion: '3', continue: 'x' };
    const listKind = listKindOf(kv);
    const streamed = protobufList([o, o], listMeta, listKind, apiVersionOf(kv), kv, (item, message) => partsOf(message(item), [], []));
    const spliced = Buffer.concat([...streamed.chunks], streamed.length);
    const whole = encodeBody('protobuf', slowList([o, o], listMeta, listKind, apiVersionOf(kv), kv), kv.list!);
    ok = spliced.equals(whole);
    splicingChecked.set(kv, ok);
  }
  return ok;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.byteLength < prefix.byteLength) return false;
  for (let i = 0; i < prefix.byteLength; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}
