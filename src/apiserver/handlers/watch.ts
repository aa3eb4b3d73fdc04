// WATCH: a chunked stream of ADDED / MODIFIED / DELETED / BOOKMARK / ERROR events from the watch
// cache, in JSON lines or protobuf frames, with Kubernetes' resourceVersion semantics (unset or
// "0": the current objects first; N: every change after N; a compacted N: one ERROR event with a
// 410 Status), the streaming list (sendInitialEvents + NotOlderThan: the current objects, then a
// BOOKMARK annotated k8s.io/initial-events-end), bookmarks, selectors and timeoutSeconds. Each
// event is encoded once per format and version and shared by every watcher.
import { apiVersionOf } from '../../api/kinds.js';
import { resourceVersionOf } from '../../api/meta/object.js';
import { PartialObjectMetadata, Status, Table } from '../../api/meta/v1.js';
import type { StructType } from '../../api/schema/dsl.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { encodeJson } from '../../machinery/codec/json.js';
import { memberRange } from '../../machinery/codec/json-members.js';
import { zeroValue } from '../../machinery/codec/normalize.js';
import { encodeProtobuf } from '../../machinery/codec/protobuf.js';
import { encodeWatchFrame } from '../../machinery/codec/watch.js';
import { StatusError } from '../../machinery/status.js';
import { parseFieldSelectorWith } from '../../machinery/selectors/index.js';
import { fieldLabelsOf } from '../../registry/kinds/index.js';
import { apiError } from '../../registry/errors.js';
import type { EventEncodings } from '../../registry/fast-path/index.js';
import type { Store } from '../../registry/store.js';
import { forEachRange, isCacheError, jsonLength, type CachedObject, type CacheWatch } from '../../storage/cacher/index.js';
import type { WatchCacheEvent } from '../../storage/cacher/types.js';
import { buildTable, partial, toServed, type ResponseFormat } from '../encode.js';
import { filterOf } from '../request/filter.js';
import { int64Param, timeoutSecondsOf } from '../request/query-params.js';
import { parseBool } from '../request/request-info.js';
import { warningHeaders } from '../http/respond.js';
import type { RequestContext } from '../request/context.js';
import { prepareServedCached } from '../request/conversion.js';
import { decodedOrFresh } from '../../registry/decode-cached.js';
import { drainedOrClosed } from '../../machinery/drained.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Without timeoutSeconds Kubernetes ends a watch after 30 to 60 minutes (its minRequestTimeout). */
const DEFAULT_WATCH_SECONDS = 1800;
const MAX_TIMER_MS = 2 ** 31 - 1;

function statusObject(err: StatusError): KubeObject {
  return err.toStatus() as unknown as KubeObject;
}

function bookmarkObject(kv: KindVersion, revision: number, initialEventsEnd: boolean): KubeObject {
  const meta: KubeObject = { resourceVersion: String(revision), creationTimestamp: null };
  if (initialEventsEnd) meta.annotations = { 'k8s.io/initial-events-end': 'true' };
  // An empty object of the kind (Go's zero value) in the kind's field order: kind, apiVersion, metadata, spec, status.
  return { kind: kv.kind, apiVersion: apiVersionOf(kv), ...zeroValue<KubeObject>(kv.type), metadata: meta };
}

function jsonLine(type: string, objectJson: Uint8Array | string): Uint8Array {
  const obj = typeof objectJson === 'string' ? objectJson : decoder.decode(objectJson);
  return encoder.encode(`{"type":"${type}","object":${obj.endsWith('\n') ? obj.slice(0, -1) : obj}}\n`);
}

/** The JSON line of an event of a cached object: its served bytes framed, without decoding them. */
function cachedEventLine(type: string, o: CachedObject): Uint8Array {
  const head = encoder.encode(`{"type":"${type}","object":`);
  // The served bytes end with a newline (encodeJson's), which the frame replaces.
  const json = o.parts === undefined ? o.json : undefined;
  const length = jsonLength(o) - (json === undefined || json[json.byteLength - 1] === 0x0a ? 1 : 0);
  const out = new Uint8Array(head.byteLength + length + 2);
  out.set(head, 0);
  let at = head.byteLength;
  if (json !== undefined) {
    out.set(json.subarray(0, length), at);
    at += length;
  } else {
    forEachRange(o.parts!, 0, length, (src, start, end) => {
      out.set(src.subarray(start, end), at);
      at += end - start;
    });
  }
  out[at] = 0x7d; // }
  out[at + 1] = 0x0a;
  return out;
}

/**
 * The JSON line of an event of a metadata-only watch: PartialObjectMetadata around the cached
 * object's metadata, copied as stored (already in the served form and escaping). Undefined when
 * the bytes have no metadata member to copy.
 */
function partialEventLine(type: string, o: CachedObject, format: ResponseFormat): Uint8Array | undefined {
  const json = o.json;
  const metadata = memberRange(json, 0, 'metadata');
  if (metadata === undefined) return undefined;
  const head = encoder.encode(`{"type":"${type}","object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/${format.asVersion}","metadata":`);
  const length = metadata.valueEnd - metadata.valueStart;
  const out = new Uint8Array(head.byteLength + length + 3);
  out.set(head, 0);
  out.set(json.subarray(metadata.valueStart, metadata.valueEnd), head.byteLength);
  out.set(CLOSE_PARTIAL_LINE, head.byteLength + length);
  return out;
}
const CLOSE_PARTIAL_LINE = new Uint8Array([0x7d, 0x7d, 0x0a]); // }}\n

export class WatchEncoder {
  constructor(
    private readonly kv: KindVersion,
    private readonly format: ResponseFormat,
    private readonly now: () => number,
    /** Per (format, version) bytes of recent events, shared by the watchers they fan out to. */
    private readonly encodings: EventEncodings,
  ) {}

  private cacheKey(): string {
    return `${this.format.mediaType};${this.format.as};${this.kv.group}/${this.kv.version}`;
  }

  /** The object of an event as the client wants it, as a JS object (for non-fast paths). */
  private served(object: CachedObject): KubeObject {
    const hub = decodedOrFresh(object);
    if (this.format.as === 'Table') {
      return buildTable([hub], this.kv, { resourceVersion: resourceVersionOf(hub) }, this.format, { includeObject: 'Metadata', now: this.now() });
    }
    const served = toServed(hub, this.kv);
    return this.format.as === 'PartialObjectMetadata' ? partial(served, this.format) : served;
  }

  private encodeObjectEvent(type: string, object: CachedObject): Uint8Array {
    const protobuf = this.format.mediaType === 'application/vnd.kubernetes.protobuf';
    if (!protobuf && this.kv.storage) {
      if (this.format.as === '') return cachedEventLine(type, object);
      if (this.format.as === 'PartialObjectMetadata') {
        const line = partialEventLine(type, object, this.format);
        if (line !== undefined) return line;
      }
    }
    const obj = this.served(object);
    if (protobuf) return encodeWatchFrame(type, encodeProtobuf(obj, this.typeOfServed()));
    return jsonLine(type, encodeJson(obj));
  }

  private typeOfServed(): StructType {
    return this.format.as === 'Table' ? Table : this.format.as === 'PartialObjectMetadata' ? PartialObjectMetadata : this.kv.type;
  }

  encode(ev: WatchCacheEvent): Uint8Array {
    if (ev.type === 'BOOKMARK') return this.encodeSynthetic('BOOKMARK', bookmarkObject(this.kv, ev.revision, ev.initialEventsEnd));
    if (ev.type === 'ERROR') return this.encodeSynthetic('ERROR', statusObject(watchError(ev.error)));
    return this.encodings.get(ev, this.cacheKey(), () => this.encodeObjectEvent(ev.type, ev.object));
  }

  encodeSynthetic(type: 'BOOKMARK' | 'ERROR', obj: KubeObject): Uint8Array {
    // A metadata-only watch's bookmarks are PartialObjectMetadata too, as its objects are.
    const metadataOnly = type === 'BOOKMARK' && this.format.as === 'PartialObjectMetadata';
    const served = metadataOnly ? partial(obj, this.format) : obj;
    if (this.format.mediaType === 'application/vnd.kubernetes.protobuf') {
      return encodeWatchFrame(type, encodeProtobuf(served, type === 'ERROR' ? Status : metadataOnly ? PartialObjectMetadata : this.kv.type));
    }
    return jsonLine(type, encodeJson(served));
  }
}

/** The Status an ended cache watch reports to its client. */
function watchError(err: unknown): StatusError {
  if (isCacheError(err)) {
    if (err.code === 'Expired' || err.code === 'Reinitialized') return apiError.expired(err.message);
    if (err.code === 'TooLargeResourceVersion') return apiError.tooLargeResourceVersion(err.message);
    return apiError.serviceUnavailable(err.message);
  }
  return err instanceof StatusError ? err : apiError.internal(String(err));
}

export async function handleWatch(ctx: RequestContext, kv: KindVersion, store: Store, namespace: string): Promise<void> {
  const q = ctx.query;
  const rvText = q.get('resourceVersion') ?? '';
  if (rvText !== '' && !/^\d+$/.test(rvText)) {
    throw new StatusError(500, '', `resourceVersion: Invalid value: ${JSON.stringify(rvText)}: strconv.ParseUint: parsing ${JSON.stringify(rvText)}: invalid syntax`);
  }
  const allowBookmarks = parseBool(q.get('allowWatchBookmarks') ?? '') === true;
  const sendInitialEvents = parseBool(q.get('sendInitialEvents') ?? '');
  const match = q.get('resourceVersionMatch') ?? '';
  if (sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    throw apiError.invalid('ListOptions', 'meta.k8s.io', '', [
      { type: 'FieldValueForbidden', field: 'sendInitialEvents', badValue: { kind: 'none' }, detail: 'sendInitialEvents is forbidden for watch unless resourceVersionMatch is set to NotOlderThan' },
    ]);
  }
  if (match !== '' && sendInitialEvents === undefined) {
    throw apiError.invalid('ListOptions', 'meta.k8s.io', '', [
      { type: 'FieldValueForbidden', field: 'resourceVersionMatch', badValue: { kind: 'none' }, detail: 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided' },
    ]);
  }
  if (sendInitialEvents === true && !allowBookmarks) {
    throw apiError.invalid('ListOptions', 'meta.k8s.io', '', [
      { type: 'FieldValueForbidden', field: 'allowWatchBookmarks', badValue: { kind: 'none' }, detail: 'allowWatchBookmarks must be set to true when sendInitialEvents is true' },
    ]);
  }
  // ListOptions' timeoutSeconds (400 when it is no int64). Unset or 0 is the server's default; a
  // negative one ends the watch at once, as Kubernetes' watch timer does. setTimeout holds 2^31-1 ms.
  const requested = timeoutSecondsOf(q);
  const timeoutMs = Math.min(requested === undefined || requested === 0 ? DEFAULT_WATCH_SECONDS * 1000 : Math.max(requested, 0) * 1000, MAX_TIMER_MS);
  int64Param(q, 'limit');
  if (ctx.format.as === 'PartialObjectMetadataList') {
    // Metadata-only watches (the garbage collector's informers) carry PartialObjectMetadata objects.
    ctx.format = { ...ctx.format, as: 'PartialObjectMetadata' };
  }

  const filter = filterOf(ctx, kv);
  // A watch on an object's URL (or /watch/.../<name>) watches that object only, as Kubernetes
  // turns the name into a metadata.name field selector; an explicit one must agree with it.
  const name = ctx.info.name;
  if (name !== '' && (q.get('fieldSelector') ?? '').trim() !== '') {
    const selected = parseFieldSelectorWith(fieldLabelsOf(kv), q.get('fieldSelector') ?? '').requiresExactMatch('metadata.name');
    if (selected !== name) throw apiError.badRequest("fieldSelector metadata.name doesn't match requested name");
  }
  const target = name !== '' ? { key: store.key(namespace, name) } : { prefix: store.prefix(namespace) };
  const rv = rvText === '' ? undefined : Number(rvText);
  let watch: CacheWatch;
  try {
    if (sendInitialEvents === true) {
      // Streaming list: at least as new as rv (or a consistent read when rv is unset or 0).
      if (rv === undefined || rv === 0) await ctx.registry.cacher.waitUntilFresh();
      else await ctx.registry.cacher.waitForRevision(rv);
      watch = store.cache.watch({ ...target, fromRevision: 'now', filter, sendInitialEvents: true, allowBookmarks });
    } else if (rv === undefined || rv === 0) {
      if (rv === undefined) await ctx.registry.cacher.waitUntilFresh();
      watch = store.cache.watch({ ...target, fromRevision: 'now', filter, initialEvents: true, allowBookmarks });
    } else {
      watch = store.cache.watch({ ...target, fromRevision: rv, filter, allowBookmarks });
    }
  } catch (err) {
    throw watchError(err);
  }

  const { res } = ctx;
  const enc = new WatchEncoder(kv, ctx.format, () => Date.now(), ctx.registry.fastPath.eventEncodings);
  const contentType = ctx.format.mediaType === 'application/vnd.kubernetes.protobuf' ? 'application/vnd.kubernetes.protobuf;stream=watch' : 'application/json';
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-cache, private');
  // No Content-Length: HTTP/1.1 sends the stream chunked, HTTP/2 in DATA frames (where a
  // Transfer-Encoding header is forbidden).
  if (ctx.warnings.length > 0) res.setHeader('Warning', warningHeaders(ctx.warnings));
  res.writeHead(200);
  res.flushHeaders();

  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    watch.close();
    if (!res.writableEnded) res.end();
  };
  const timer = setTimeout(() => {
    // A bookmark just before the timeout lets the client resume exactly where it was.
    if (allowBookmarks) watch.bookmark();
    setImmediate(end);
  }, timeoutMs);
  res.on('close', end);
  ctx.req.on('close', () => {
    if (!res.writableFinished) end();
  });

  try {
    for (;;) {
      const batch = await watch.nextBatch(256);
      if (batch.length === 0 || ended) break;
      await prepareServedCached(kv, batch.flatMap((ev) => (ev.type === 'BOOKMARK' || ev.type === 'ERROR' ? [] : [ev.object])));
      let ok = true;
      for (const ev of batch) ok = res.write(enc.encode(ev)) && ok;
      if (batch.some((ev) => ev.type === 'ERROR')) break;
      // Backpressure: stop pulling from the cache until the socket drains (the cache cuts off a
      // watcher that falls too far behind).
      if (!ok && !ended) await drainedOrClosed(res);
    }
  } finally {
    end();
  }
}
