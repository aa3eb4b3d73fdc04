// Watch streams.
// - Protobuf (`application/vnd.kubernetes.protobuf;stream=watch`): frames of a 4-byte big-endian
//   length followed by a WatchEvent message {type = 1, object = 2 (RawExtension {raw = 1})}; the
//   frame has no magic, the object's raw bytes are a complete `k8s\0` envelope.
// - JSON (`application/json`): one `{"type":...,"object":...}` document per line.
// Decoders are incremental (feed chunks as they arrive) and bounded (a frame larger than the
// limit is an error, not an allocation).
import type { StructType } from '../../api/schema/dsl.js';
import { StatusError } from '../status.js';
import { MAX_BODY_BYTES, toBadRequest } from './common.js';
import { bodyText, decodeParsed, encodeJson, stringifyJson, type DecodeOptions } from './json.js';
import { decodeProtobuf, encodeProtobuf, type ProtobufDecodeOptions, type TypeMeta } from './protobuf.js';
import { readBytes, readLenEnd, readString, readTag, reader, skipField, Writer } from './wire.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR' | string;

/** Default limit of one watch frame / line (objects are at most ~1.5 MiB in etcd). */
export const MAX_WATCH_FRAME_BYTES = 2 * MAX_BODY_BYTES;

// ---------------------------------------------------------------------------------------------
// Protobuf frames.
// ---------------------------------------------------------------------------------------------

/** One protobuf watch frame from already-serialized object bytes (a full `k8s\0` envelope). */
export function encodeWatchFrame(type: WatchEventType, objectEnvelope: Uint8Array): Buffer {
  const typeBytes = Buffer.from(type, 'utf8');
  const inner = 1 + varintSize(objectEnvelope.length) + objectEnvelope.length; // RawExtension {raw = 1}
  const payload = 1 + varintSize(typeBytes.length) + typeBytes.length + 1 + varintSize(inner) + inner;
  const w = new Writer(4 + payload);
  w.byte(payload >>> 24);
  w.byte((payload >>> 16) & 255);
  w.byte((payload >>> 8) & 255);
  w.byte(payload & 255);
  w.byte(0x0a);
  w.bytes(typeBytes);
  w.byte(0x12);
  w.uvarint(inner);
  w.byte(0x0a);
  w.bytes(objectEnvelope);
  return w.finish();
}

function varintSize(n: number): number {
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** One protobuf watch frame for an object (serialized with its envelope here). */
export function encodeWatchEventProtobuf(
  type: WatchEventType,
  object: unknown,
  objectType: StructType,
  typeMeta?: Partial<TypeMeta>,
): Buffer {
  return encodeWatchFrame(type, encodeProtobuf(object, objectType, typeMeta));
}

export interface WatchFrame {
  type: WatchEventType;
  /** The object's serialized bytes (a `k8s\0` envelope for protobuf streams). */
  object: Uint8Array;
}

/** Parses one WatchEvent message (the frame payload, without the length). */
export function parseWatchEventMessage(msg: Uint8Array): WatchFrame {
  try {
    const r = reader(msg);
    const end = msg.length;
    let type = '';
    let object: Uint8Array = new Uint8Array(0);
    while (r.pos < end) {
      const t = readTag(r, end, 'WatchEvent');
      if (t === 0x0a) type = readString(r, end);
      else if (t === 0x12) {
        const e = readLenEnd(r, end);
        while (r.pos < e) {
          const t2 = readTag(r, e, 'RawExtension');
          if (t2 === 0x0a) object = readBytes(r, e);
          else skipField(r, t2 & 7, e);
        }
      } else skipField(r, t & 7, end);
    }
    return { type, object };
  } catch (e) {
    throw toBadRequest(e, 'invalid watch event: ');
  }
}

/**
 * Incremental decoder of a protobuf watch stream: `push` chunks as they arrive (any split),
 * get the complete frames. Throws a StatusError on a frame above the limit or a malformed event.
 */
export class WatchFrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private readonly maxFrameBytes: number;

  constructor(opts: { maxFrameBytes?: number } = {}) {
    this.maxFrameBytes = opts.maxFrameBytes ?? MAX_WATCH_FRAME_BYTES;
  }

  push(chunk: Uint8Array): WatchFrame[] {
    if (chunk.length > 0) {
      this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      this.buffered += chunk.length;
    }
    const frames: WatchFrame[] = [];
    for (;;) {
      if (this.buffered < 4) break;
      const head = this.peek(4);
      const len = head.readUInt32BE(0);
      if (len > this.maxFrameBytes)
        throw StatusError.badRequest(`watch frame of ${len} bytes exceeds the limit of ${this.maxFrameBytes}`);
      if (this.buffered < 4 + len) break;
      const frame = this.take(4 + len);
      frames.push(parseWatchEventMessage(frame.subarray(4)));
    }
    return frames;
  }

  /** Bytes received but not yet part of a complete frame. */
  get pending(): number {
    return this.buffered;
  }

  /** Call at end of stream: throws if a partial frame is left. */
  end(): void {
    if (this.buffered !== 0) throw StatusError.badRequest(`watch stream ended inside a frame (${this.buffered} bytes left)`);
  }

  private peek(n: number): Buffer {
    if (this.chunks[0]!.length >= n) return this.chunks[0]!;
    return this.concat();
  }

  private concat(): Buffer {
    const all = Buffer.concat(this.chunks);
    this.chunks = [all];
    return all;
  }

  private take(n: number): Buffer {
    let first = this.chunks[0]!;
    if (first.length < n) first = this.concat();
    const out = first.subarray(0, n);
    const rest = first.subarray(n);
    if (rest.length > 0) this.chunks[0] = rest;
    else this.chunks.shift();
    this.buffered -= n;
    return out;
  }
}

export interface DecodedWatchEvent<T = Record<string, unknown>> {
  type: WatchEventType;
  object: T;
  typeMeta: TypeMeta;
}

/**
 * Decodes the object of a protobuf watch frame. `resolve` picks the schema from the envelope's
 * typeMeta (e.g. the watched kind, or meta/v1 Status for ERROR events).
 */
export function decodeWatchFrame<T = Record<string, unknown>>(
  frame: WatchFrame,
  resolve: StructType | ((tm: TypeMeta) => StructType | undefined),
  opts: ProtobufDecodeOptions = {},
): DecodedWatchEvent<T> {
  const { object, typeMeta } = decodeProtobuf<T>(frame.object, resolve, opts);
  return { type: frame.type, object, typeMeta };
}

// ---------------------------------------------------------------------------------------------
// JSON lines.
// ---------------------------------------------------------------------------------------------

/**
 * One JSON watch event line (with its trailing newline). `object` is the canonical object, or
 * its JSON text already serialized (the watch cache's bytes, without trailing newline).
 */
export function encodeWatchEventJson(type: WatchEventType, object: unknown): string {
  if (typeof object === 'string') {
    const o = object.endsWith('\n') ? object.slice(0, -1) : object;
    return `{"type":${JSON.stringify(type)},"object":${o}}\n`;
  }
  return `{"type":${stringifyJson(type)},"object":${stringifyJson(object)}}\n`;
}

/** Incremental decoder of a JSON watch stream (one document per line). */
export class JsonWatchDecoder {
  private partial = '';
  private readonly maxLineBytes: number;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(opts: { maxLineBytes?: number } = {}) {
    this.maxLineBytes = opts.maxLineBytes ?? MAX_WATCH_FRAME_BYTES;
  }

  /** Returns the complete events' raw JSON texts ({type, object} documents). */
  push(chunk: Uint8Array | string): string[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const lines: string[] = [];
    // Only the new text can hold a newline: no rescanning of a long partial line.
    if (text.indexOf('\n') === -1) {
      this.partial += text;
    } else {
      this.partial += text;
      let nl: number;
      while ((nl = this.partial.indexOf('\n')) >= 0) {
        const line = this.partial.slice(0, nl);
        this.partial = this.partial.slice(nl + 1);
        if (line.trim() !== '') lines.push(line);
      }
    }
    if (this.partial.length > this.maxLineBytes)
      throw StatusError.badRequest(`watch event of more than ${this.maxLineBytes} bytes exceeds the limit`);
    return lines;
  }

  end(): string[] {
    const rest = this.partial.trim();
    this.partial = '';
    return rest === '' ? [] : [rest];
  }
}

/**
 * Decodes one JSON watch event document: {type, object} with `object` normalized to `resolve`'s
 * schema (chosen from the object's apiVersion/kind).
 */
export function decodeWatchEventJson<T = Record<string, unknown>>(
  line: string,
  resolve: StructType | ((tm: TypeMeta) => StructType | undefined),
  opts: DecodeOptions = {},
): DecodedWatchEvent<T> {
  const text = bodyText(line, opts.maxBytes ?? MAX_WATCH_FRAME_BYTES);
  let ev: unknown;
  try {
    ev = JSON.parse(text);
  } catch (e) {
    throw StatusError.badRequest(`invalid watch event: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof ev !== 'object' || ev === null || Array.isArray(ev) || typeof (ev as { type?: unknown }).type !== 'string')
    throw StatusError.badRequest('invalid watch event: expected {"type": string, "object": object}');
  const { type, object } = ev as { type: string; object: unknown };
  const o = (typeof object === 'object' && object !== null ? object : {}) as Record<string, unknown>;
  const typeMeta: TypeMeta = {
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '',
    kind: typeof o.kind === 'string' ? o.kind : '',
  };
  const st = typeof resolve === 'function' ? resolve(typeMeta) : resolve;
  if (st === undefined) throw StatusError.badRequest(`no kind ${JSON.stringify(typeMeta.kind)} is registered`);
  const decoded = decodeParsed<T>(object ?? null, null, st, opts.fieldValidation ?? 'Ignore', opts.defaultGVK, text);
  return { type, object: decoded.object, typeMeta };
}

export { encodeJson };
