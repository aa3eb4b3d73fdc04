// WebSocket framing (RFC 6455 §5) for a relay that carries a byte stream in binary messages (the
// API server between kubectl's SPDY-in-WebSocket tunnel and the kubelet's SPDY): the reader hands
// on each payload byte as soon as it has been read — unmasked in place, no message assembled, no
// copy — and the writer frames each chunk as one unmasked server message.
import { createRequire } from 'node:module';

export const enum Opcode {
  Continuation = 0,
  Text = 1,
  Binary = 2,
  Close = 8,
  Ping = 9,
  Pong = 10,
}

/** Close codes (RFC 6455 §7.4.1). */
export const CloseCode = { Normal: 1000, ProtocolError: 1002, UnsupportedData: 1003 } as const;

export class WebSocketProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebSocketProtocolError';
  }
}

export interface FrameHandler {
  /** Payload bytes of a data message, in order, as they arrive; `opcode` is the message's (text or binary). */
  data(payload: Buffer, opcode: Opcode.Text | Opcode.Binary): void;
  /** A whole control frame. */
  control(opcode: Opcode.Close | Opcode.Ping | Opcode.Pong, payload: Buffer): void;
}

/** ws's optional native helper (an optional dependency); the byte loop below without it. */
const native = (() => {
  try {
    return createRequire(import.meta.url)('bufferutil') as { unmask(buffer: Buffer, mask: Buffer): void };
  } catch {
    return undefined;
  }
})();

/** Below this the native call costs more than the loop (ws draws the line at 32 bytes too). */
const NATIVE_UNMASK_MIN_BYTES = 32;

function unmask(payload: Buffer, mask: Buffer): void {
  if (native && payload.length >= NATIVE_UNMASK_MIN_BYTES) {
    native.unmask(payload, mask);
    return;
  }
  for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i & 3]!;
}

/** The longest header: 2 bytes, a 64-bit length, a mask key. */
const MAX_HEADER_BYTES = 14;
const MAX_CONTROL_PAYLOAD = 125;

/**
 * Reads a client's frames (masked, as RFC 6455 requires of clients) from the chunks of a byte
 * stream. Data frames reach the handler piece by piece, each piece unmasked in the chunk it came
 * in (the chunks are the reader's to change); control frames whole. A frame that breaks the
 * protocol throws WebSocketProtocolError (close with 1002).
 */
export class ClientFrameReader {
  private readonly header = Buffer.alloc(MAX_HEADER_BYTES);
  private headerBytes = 0;
  /** Payload bytes of the current frame still to come; -1 while reading a header. */
  private remaining = -1;
  /** The current frame's mask key, turned so that it starts at the next payload byte. */
  private readonly mask = Buffer.alloc(4);
  private opcode: Opcode = Opcode.Continuation;
  private fin = false;
  /** The opcode of a fragmented message in progress (text or binary), or none. */
  private message: Opcode.Text | Opcode.Binary | undefined;
  private control: Buffer[] = [];

  constructor(private readonly handler: FrameHandler) {}

  push(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.remaining < 0) {
        pos = this.readHeader(chunk, pos);
        continue;
      }
      const n = Math.min(this.remaining, chunk.length - pos);
      const piece = chunk.subarray(pos, pos + n);
      pos += n;
      this.remaining -= n;
      unmask(piece, this.mask);
      this.turnMask(n);
      if (this.opcode >= Opcode.Close) this.control.push(piece);
      else if (n > 0) this.handler.data(piece, this.message ?? (this.opcode as Opcode.Text | Opcode.Binary));
      if (this.remaining === 0) this.endFrame();
    }
  }

  /** Copies header bytes from `chunk` at `pos`; once the header is whole, starts its frame. */
  private readHeader(chunk: Buffer, pos: number): number {
    while (pos < chunk.length && this.headerBytes < 2) this.header[this.headerBytes++] = chunk[pos++]!;
    if (this.headerBytes < 2) return pos;
    const b1 = this.header[1]!;
    if ((b1 & 0x80) === 0) throw new WebSocketProtocolError('a client frame must be masked');
    const len7 = b1 & 0x7f;
    const size = 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + 4;
    while (pos < chunk.length && this.headerBytes < size) this.header[this.headerBytes++] = chunk[pos++]!;
    if (this.headerBytes === size) this.startFrame();
    return pos;
  }

  private startFrame(): void {
    const h = this.header;
    const b0 = h[0]!;
    const b1 = h[1]!;
    this.headerBytes = 0;
    if ((b0 & 0x70) !== 0) throw new WebSocketProtocolError('unexpected reserved bits');
    this.fin = (b0 & 0x80) !== 0;
    this.opcode = b0 & 0x0f;
    const len7 = b1 & 0x7f;
    let length = len7;
    let maskAt = 2;
    if (len7 === 126) {
      length = h.readUInt16BE(2);
      maskAt = 4;
    } else if (len7 === 127) {
      const high = h.readUInt32BE(2);
      // 2^53 is beyond any stream's reach; the top bit is forbidden outright.
      if (high > 0x1fffff) throw new WebSocketProtocolError('frame length too large');
      length = high * 2 ** 32 + h.readUInt32BE(6);
      maskAt = 10;
    }
    h.copy(this.mask, 0, maskAt, maskAt + 4);
    switch (this.opcode) {
      case Opcode.Close:
      case Opcode.Ping:
      case Opcode.Pong:
        if (!this.fin) throw new WebSocketProtocolError('fragmented control frame');
        if (length > MAX_CONTROL_PAYLOAD) throw new WebSocketProtocolError('control frame too long');
        break;
      case Opcode.Text:
      case Opcode.Binary:
        if (this.message !== undefined) throw new WebSocketProtocolError('a new message before the last one ended');
        if (!this.fin) this.message = this.opcode;
        break;
      case Opcode.Continuation:
        if (this.message === undefined) throw new WebSocketProtocolError('continuation frame without a message');
        break;
      default:
        throw new WebSocketProtocolError(`unknown opcode ${this.opcode}`);
    }
    this.remaining = length;
    if (length === 0) this.endFrame();
  }

  /** After n payload bytes the mask goes on from byte n mod 4 of the key: turn it by as many bytes. */
  private turnMask(n: number): void {
    const bits = (n & 3) * 8;
    if (bits === 0) return;
    const key = this.mask.readUInt32BE(0);
    this.mask.writeUInt32BE(((key << bits) | (key >>> (32 - bits))) >>> 0, 0);
  }

  private endFrame(): void {
    this.remaining = -1;
    if (this.opcode >= Opcode.Close) {
      const payload = this.control.length === 1 ? this.control[0]! : Buffer.concat(this.control);
      this.control = [];
      this.handler.control(this.opcode as Opcode.Close | Opcode.Ping | Opcode.Pong, payload);
      return;
    }
    if (this.fin && this.opcode === Opcode.Continuation) this.message = undefined;
  }
}

/** The header of an unmasked (server) frame with FIN set carrying `length` payload bytes. */
export function frameHeader(opcode: Opcode, length: number): Buffer {
  if (length < 126) return Buffer.from([0x80 | opcode, length]);
  if (length < 0x10000) {
    const h = Buffer.allocUnsafe(4);
    h[0] = 0x80 | opcode;
    h[1] = 126;
    h.writeUInt16BE(length, 2);
    return h;
  }
  const h = Buffer.allocUnsafe(10);
  h[0] = 0x80 | opcode;
  h[1] = 127;
  h.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
  h.writeUInt32BE(length >>> 0, 6);
  return h;
}

/** A whole server frame. */
export function frame(opcode: Opcode, payload: Buffer = Buffer.alloc(0)): Buffer {
  return Buffer.concat([frameHeader(opcode, payload.length), payload]);
}

/** The payload of a close frame: the code, then a UTF-8 reason cut to fit a control frame. */
export function closePayload(code: number, reason = ''): Buffer {
  const text = Buffer.from(reason, 'utf8').subarray(0, MAX_CONTROL_PAYLOAD - 2);
  const out = Buffer.alloc(2 + text.length);
  out.writeUInt16BE(code, 0);
  text.copy(out, 2);
  return out;
}
