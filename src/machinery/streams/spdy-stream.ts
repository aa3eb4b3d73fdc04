// One SPDY stream as a Node Duplex: what the peer sends in DATA frames is read, what is written
// goes out in DATA frames, `end()` sends an empty DATA frame with FIN (a half-close, as
// spdystream's Stream.Close), `reset()` a RST_STREAM (both directions, as Stream.Reset).
import { Duplex } from 'node:stream';
import { RstStatus } from './spdy-frames.js';
import type { SpdyHeaders } from './spdy-header-compression.js';

/** What a stream needs from its connection. */
export interface StreamOwner {
  sendData(streamId: number, data: Buffer, fin: boolean, done: (err?: Error | null) => void): void;
  sendReply(streamId: number, headers: SpdyHeaders, fin: boolean): void;
  sendReset(streamId: number, status: number): void;
  /** The stream's reader wants more: the connection may read its transport again. */
  unblock(stream: SpdyStream): void;
  /** Both directions are finished, or the stream was reset: forget it. */
  release(stream: SpdyStream): void;
}

/** DATA frames are cut to this size, so one stream cannot hold the connection for long. */
const MAX_FRAME_DATA = 64 * 1024;

export class SpdyStream extends Duplex {
  private localFinished = false;
  private remoteFinished = false;
  private wasReset = false;
  private replied = false;

  constructor(
    private readonly owner: StreamOwner,
    readonly id: number,
    /** The headers of the SYN_STREAM that opened the stream (streamtype, port, requestid ...). */
    readonly headers: SpdyHeaders,
  ) {
    super({ allowHalfOpen: true });
  }

  /** Answers the peer's SYN_STREAM with a SYN_REPLY, as the kubelet does for every stream it keeps. */
  accept(headers: SpdyHeaders = {}): void {
    if (this.replied || this.wasReset) return;
    this.replied = true;
    this.owner.sendReply(this.id, headers, false);
  }

  /** Ends both directions with RST_STREAM (CANCEL unless told otherwise). */
  reset(status: number = RstStatus.Cancel): void {
    if (this.wasReset || (this.localFinished && this.remoteFinished)) {
      this.destroy();
      return;
    }
    this.wasReset = true;
    this.owner.sendReset(this.id, status);
    this.owner.release(this);
    this.destroy();
  }

  get isReset(): boolean {
    return this.wasReset;
  }

  /** Called by the connection for each DATA frame of this stream. Returns false when the reader is full. */
  receive(data: Buffer, fin: boolean): boolean {
    if (this.remoteFinished || this.wasReset || this.destroyed) return true;
    let more = true;
    if (data.length > 0) more = this.push(data);
    if (fin) this.receiveFin();
    return more;
  }

  receiveFin(): void {
    if (this.remoteFinished) return;
    this.remoteFinished = true;
    this.push(null);
    if (this.localFinished) this.owner.release(this);
  }

  /**
   * The peer reset the stream, or the connection went away: no more writes. After a reset what
   * arrived before it stays readable, then the stream ends (spdystream's reader sees EOF);
   * without a connection the stream is dropped at once.
   */
  abort(byPeer: boolean): void {
    if (this.wasReset && !byPeer) {
      this.destroy();
      return;
    }
    if (this.wasReset) return;
    this.wasReset = true;
    this.owner.release(this);
    if (!byPeer) {
      this.destroy();
      return;
    }
    this.emit('reset');
    if (this.readableEnded) this.destroy();
    else {
      this.once('end', () => this.destroy());
      if (!this.remoteFinished) {
        this.remoteFinished = true;
        this.push(null);
      }
    }
  }

  override _read(): void {
    this.owner.unblock(this);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    // Writes after a reset go nowhere, as the peer will not read them; they are not an error here.
    if (this.wasReset) {
      callback();
      return;
    }
    let offset = 0;
    const next = (err?: Error | null): void => {
      if (err || offset >= chunk.length) {
        callback(err);
        return;
      }
      const piece = chunk.subarray(offset, offset + MAX_FRAME_DATA);
      offset += piece.length;
      this.owner.sendData(this.id, piece, false, next);
    };
    next();
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.wasReset) {
      callback();
      return;
    }
    this.localFinished = true;
    this.owner.sendData(this.id, Buffer.alloc(0), true, (err) => {
      if (this.remoteFinished) this.owner.release(this);
      callback(err);
    });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A stream dropped before both sides finished is cancelled, so the peer stops sending.
    if (!this.wasReset && !(this.localFinished && this.remoteFinished)) {
      this.wasReset = true;
      this.owner.sendReset(this.id, RstStatus.Cancel);
    }
    this.owner.release(this);
    callback(error);
  }
}
