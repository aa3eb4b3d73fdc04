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
 * Splits a byte stream into frames. `push` buffers at most one incomplete frame (the 24-bit length
 * bounds it to 16 MiB; control frames are held to `maxControlFrameBytes`).
 */
export class FrameDecoder {
  private readonly decompressor = new HeaderDecompressor();
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxControlFrameBytes = 1024 * 1024) {}

  push(chunk: Buffer): SpdyFrame[] {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    const frames: SpdyFrame[] = [];
    while (this.pendingBytes >= 8) {
      const head = this.peek(8);
      const isControl = (head[0]! & 0x80) !== 0;
      const length = head.readUInt32BE(4) & 0xffffff;
      if (isControl && length > this.maxControlFrameBytes) throw new SpdyProtocolError(`control frame of ${length} bytes is too large`);
      if (this.pendingBytes < 8 + length) break;
      const frame = this.take(8 + length);
      frames.push(this.decode(frame));
    }
    return frames;
  }

  close(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  private peek(n: number): Buffer {
    if (this.pending[0]!.length < n) this.pending = [Buffer.concat(this.pending)];
    return this.pending[0]!.subarray(0, n);
  }

  private take(n: number): Buffer {
    if (this.pending[0]!.length < n) this.pending = [Buffer.concat(this.pending)];
    const first = this.pending[0]!;
    const out = first.subarray(0, n);
    if (first.length === n) this.pending.shift();
    else this.pending[0] = first.subarray(n);
    this.pendingBytes -= n;
    return out;
  }

  private decode(frame: Buffer): SpdyFrame {
    const word = frame.readUInt32BE(0);
    const flags = frame[4]!;
    const body = frame.subarray(8);
    if ((word & 0x80000000) === 0) {
      const streamId = word & 0x7fffffff;
      if (streamId === 0) throw new SpdyProtocolError('stream id zero is disallowed');
      return { type: 'data', streamId, fin: (flags & FLAG_FIN) !== 0, data: body };
    }
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
