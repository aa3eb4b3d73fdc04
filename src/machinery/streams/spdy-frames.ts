// SPDY/3.1 framing (draft 3.1, section 2.2): an 8-byte header — a control frame has the high bit
// set, version 3 and a type; a data frame a 31-bit stream id — then flags (8 bits) and a 24-bit
// length. Control frames carrying headers (SYN_STREAM, SYN_REPLY, HEADERS) compress them with the
// connection's zlib context, so encoding and decoding are done by a framer that owns both contexts.
import { HeaderCompressor, HeaderDecompressor, u32, type SpdyHeaders } from './spdy-header-compression.js';

export const SPDY_VERSION = 3;
export const MAX_DATA_LENGTH = 0xffffff;

export const enum ControlType {
  SynStream = 1,
  SynReply = 2,
  RstStream = 3,
  Settings = 4,
  Ping = 6,
  GoAway = 7,
  Headers = 8,
  WindowUpdate = 9,
}

export const FLAG_FIN = 0x01;
export const FLAG_UNIDIRECTIONAL = 0x02;

/** RST_STREAM status codes. */
export const RstStatus = {
  ProtocolError: 1,
  InvalidStream: 2,
  RefusedStream: 3,
  UnsupportedVersion: 4,
  Cancel: 5,
  InternalError: 6,
  FlowControlError: 7,
  StreamInUse: 8,
  StreamAlreadyClosed: 9,
  FrameTooLarge: 11,
} as const;

export type SpdyFrame =
  | { type: 'data'; streamId: number; fin: boolean; data: Buffer }
  | { type: 'synStream'; streamId: number; associatedToStreamId: number; priority: number; fin: boolean; unidirectional: boolean; headers: SpdyHeaders }
  | { type: 'synReply'; streamId: number; fin: boolean; headers: SpdyHeaders }
  | { type: 'rstStream'; streamId: number; status: number }
  | { type: 'settings'; clearSettings: boolean; settings: Array<{ flags: number; id: number; value: number }> }
  | { type: 'ping'; id: number }
  | { type: 'goAway'; lastGoodStreamId: number; status: number }
  | { type: 'headers'; streamId: number; fin: boolean; headers: SpdyHeaders }
  | { type: 'windowUpdate'; streamId: number; deltaWindowSize: number };

export class SpdyProtocolError extends Error {}

/** Encodes frames, compressing header blocks with this direction's zlib context. */
export class FrameEncoder {
  private readonly compressor = new HeaderCompressor();

  encode(frame: SpdyFrame): Buffer {
    switch (frame.type) {
      case 'data': {
        if (frame.data.length > MAX_DATA_LENGTH) throw new SpdyProtocolError('data frame too long');
        const head = Buffer.alloc(8);
        head.writeUInt32BE(frame.streamId & 0x7fffffff, 0);
        head.writeUInt32BE((((frame.fin ? FLAG_FIN : 0) << 24) | frame.data.length) >>> 0, 4);
        return frame.data.length === 0 ? head : Buffer.concat([head, frame.data]);
      }
      case 'synStream': {
        const fixed = Buffer.alloc(10);
        fixed.writeUInt32BE(frame.streamId, 0);
        fixed.writeUInt32BE(frame.associatedToStreamId, 4);
        fixed.writeUInt8((frame.priority & 0x7) << 5, 8);
        const flags = (frame.fin ? FLAG_FIN : 0) | (frame.unidirectional ? FLAG_UNIDIRECTIONAL : 0);
        return control(ControlType.SynStream, flags, fixed, this.compressor.compress(frame.headers));
      }
      case 'synReply':
        return control(ControlType.SynReply, frame.fin ? FLAG_FIN : 0, u32(frame.streamId), this.compressor.compress(frame.headers));
      case 'headers':
        return control(ControlType.Headers, frame.fin ? FLAG_FIN : 0, u32(frame.streamId), this.compressor.compress(frame.headers));
      case 'rstStream':
        return control(ControlType.RstStream, 0, u32(frame.streamId), u32(frame.status));
      case 'settings': {
        const body = [u32(frame.settings.length)];
        for (const s of frame.settings) body.push(u32(((s.flags & 0xff) << 24 | (s.id & 0xffffff)) >>> 0), u32(s.value));
        return control(ControlType.Settings, frame.clearSettings ? 1 : 0, ...body);
      }
      case 'ping':
        return control(ControlType.Ping, 0, u32(frame.id));
      case 'goAway':
        return control(ControlType.GoAway, 0, u32(frame.lastGoodStreamId), u32(frame.status));
      case 'windowUpdate':
        return control(ControlType.WindowUpdate, 0, u32(frame.streamId), u32(frame.deltaWindowSize));
    }
  }
}

/**
 * Splits a byte stream into frames. A DATA frame's payload is handed on as it arrives, in pieces
 * that are views of the pushed chunks (no copy, nothing held back for the rest of the frame): its
 * pieces are consecutive 'data' frames of its stream, FIN on the last only. Control frames come
 * whole: `push` buffers at most one incomplete control frame (held to `maxControlFrameBytes`).
 */
export class FrameDecoder {
  private readonly decompressor = new HeaderDecompressor();
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The DATA frame whose payload is being read. */
  private data: { streamId: number; fin: boolean; remaining: number } | undefined;

  constructor(private readonly maxControlFrameBytes = 1024 * 1024) {}

  push(chunk: Buffer): SpdyFrame[] {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    const frames: SpdyFrame[] = [];
    for (;;) {
      const data = this.data;
      if (data) {
        if (this.pendingBytes === 0) break;
        const piece = this.take(Math.min(this.pending[0]!.length, data.remaining));
        data.remaining -= piece.length;
        const last = data.remaining === 0;
        if (last) this.data = undefined;
        frames.push({ type: 'data', streamId: data.streamId, fin: last && data.fin, data: piece });
        continue;
      }
      if (this.pendingBytes < 8) break;
      const head = this.peek(8);
      const word = head.readUInt32BE(0);
      const flags = head[4]!;
      const length = head.readUInt32BE(4) & 0xffffff;
      if ((word & 0x80000000) === 0) {
        const streamId = word & 0x7fffffff;
        if (streamId === 0) throw new SpdyProtocolError('stream id zero is disallowed');
        this.take(8);
        const fin = (flags & FLAG_FIN) !== 0;
        if (length === 0) frames.push({ type: 'data', streamId, fin, data: Buffer.alloc(0) });
        else this.data = { streamId, fin, remaining: length };
        continue;
      }
      if (length > this.maxControlFrameBytes) throw new SpdyProtocolError(`control frame of ${length} bytes is too large`);
      if (this.pendingBytes < 8 + length) break;
      frames.push(this.decodeControl(this.take(8 + length)));
    }
    return frames;
  }

  close(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.data = undefined;
  }

  /** The next n pending bytes, left pending (copied only when they span chunks). */
  private peek(n: number): Buffer {
    const first = this.pending[0]!;
    if (first.length >= n) return first.subarray(0, n);
    return this.gather(n, false);
  }

  /** The next n pending bytes, consumed (a view when they lie in one chunk). */
  private take(n: number): Buffer {
    const first = this.pending[0]!;
    if (first.length < n) return this.gather(n, true);
    if (first.length === n) this.pending.shift();
    else this.pending[0] = first.subarray(n);
    this.pendingBytes -= n;
    return first.subarray(0, n);
  }

  private gather(n: number, consume: boolean): Buffer {
    const out = Buffer.allocUnsafe(n);
    let copied = 0;
    let i = 0;
    while (copied < n) {
      const b = this.pending[i]!;
      const k = Math.min(b.length, n - copied);
      b.copy(out, copied, 0, k);
      copied += k;
      if (!consume) i++;
      else if (k === b.length) this.pending.shift();
      else this.pending[0] = b.subarray(k);
    }
    if (consume) this.pendingBytes -= n;
    return out;
  }

  private decodeControl(frame: Buffer): SpdyFrame {
    const word = frame.readUInt32BE(0);
    const flags = frame[4]!;
    const body = frame.subarray(8);
    const version = (word >>> 16) & 0x7fff;
    if (version !== SPDY_VERSION) throw new SpdyProtocolError(`unsupported SPDY version ${version}`);
    const type = word & 0xffff;
    const need = (n: number) => {
      if (body.length < n) throw new SpdyProtocolError(`control frame of type ${type} is too short`);
    };
    switch (type) {
      case ControlType.SynStream:
        need(10);
        return {
          type: 'synStream',
          streamId: nonZero(body.readUInt32BE(0) & 0x7fffffff),
          associatedToStreamId: body.readUInt32BE(4) & 0x7fffffff,
          priority: body[8]! >> 5,
          fin: (flags & FLAG_FIN) !== 0,
          unidirectional: (flags & FLAG_UNIDIRECTIONAL) !== 0,
          headers: this.decompressor.decompress(body.subarray(10)),
        };
      case ControlType.SynReply:
      case ControlType.Headers: {
        need(4);
        const streamId = nonZero(body.readUInt32BE(0) & 0x7fffffff);
        const headers = this.decompressor.decompress(body.subarray(4));
        return { type: type === ControlType.SynReply ? 'synReply' : 'headers', streamId, fin: (flags & FLAG_FIN) !== 0, headers };
      }
      case ControlType.RstStream:
        need(8);
        return { type: 'rstStream', streamId: nonZero(body.readUInt32BE(0) & 0x7fffffff), status: body.readUInt32BE(4) };
      case ControlType.Settings: {
        need(4);
        const count = body.readUInt32BE(0);
        need(4 + count * 8);
        const settings = [];
        for (let i = 0; i < count; i++) {
          const flagId = body.readUInt32BE(4 + i * 8);
          settings.push({ flags: flagId >>> 24, id: flagId & 0xffffff, value: body.readUInt32BE(8 + i * 8) });
        }
        return { type: 'settings', clearSettings: (flags & 1) !== 0, settings };
      }
      case ControlType.Ping:
        need(4);
        return { type: 'ping', id: body.readUInt32BE(0) };
      case ControlType.GoAway:
        need(8);
        return { type: 'goAway', lastGoodStreamId: body.readUInt32BE(0) & 0x7fffffff, status: body.readUInt32BE(4) };
      case ControlType.WindowUpdate:
        need(8);
        return { type: 'windowUpdate', streamId: body.readUInt32BE(0) & 0x7fffffff, deltaWindowSize: body.readUInt32BE(4) & 0x7fffffff };
      default:
        throw new SpdyProtocolError(`unknown control frame type ${type}`);
    }
  }
}

function control(type: ControlType, flags: number, ...parts: Buffer[]): Buffer {
  const length = parts.reduce((n, p) => n + p.length, 0);
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(((flags & 0xff) << 24 | length) >>> 0, 4);
  return Buffer.concat([head, ...parts]);
}

function nonZero(streamId: number): number {
  if (streamId === 0) throw new SpdyProtocolError('stream id zero is disallowed');
  return streamId;
}
