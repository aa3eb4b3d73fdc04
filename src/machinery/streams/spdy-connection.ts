// A SPDY/3.1 connection over any Duplex (an upgraded socket, or a WebSocket carrying SPDY): frames
// in, streams out. It behaves as moby/spdystream, the implementation every Kubernetes client
// speaks to: the client opens odd streams and the server even ones, PINGs from the peer are echoed,
// SETTINGS and WINDOW_UPDATE are read and ignored (spdystream keeps no flow-control windows, so
// neither side waits for one), GOAWAY stops new streams. Back-pressure is the transport's: a
// stream whose reader is full pauses reading the connection (spdystream's frame queue blocks the
// same way), a write completes when the transport has taken it.
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { FrameDecoder, FrameEncoder, RstStatus, type SpdyFrame } from './spdy-frames.js';
import type { SpdyHeaders } from './spdy-header-compression.js';
import { SpdyStream, type StreamOwner } from './spdy-stream.js';

export interface SpdyConnectionOptions {
  /** Servers open even stream ids and accept odd ones; clients the other way round. */
  role: 'server' | 'client';
  /** How long close() waits for the peer to hang up before it drops the transport (5 s). */
  closeGraceMs?: number;
}

export interface SpdyConnectionEvents {
  /** A SYN_STREAM arrived; call `stream.accept()` (SYN_REPLY) or `stream.reset()`. */
  stream: [stream: SpdyStream];
  /** A SYN_REPLY arrived for a stream this side opened. */
  reply: [stream: SpdyStream, headers: SpdyHeaders];
  /** The connection is gone (closed by either side, or broken); every stream has been dropped. */
  close: [error?: Error];
}

export class SpdyConnection extends EventEmitter<SpdyConnectionEvents> implements StreamOwner {
  private readonly encoder = new FrameEncoder();
  private readonly decoder = new FrameDecoder();
  private readonly streams = new Map<number, SpdyStream>();
  private readonly blocked = new Set<SpdyStream>();
  private drainWaiters: Array<(err?: Error | null) => void> = [];
  private nextStreamId: number;
  private lastPeerStreamId = 0;
  private goneAway = false;
  private ended = false;
  private graceTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly transport: Duplex,
    private readonly options: SpdyConnectionOptions,
  ) {
    super();
    this.nextStreamId = options.role === 'server' ? 2 : 1;
    transport.on('data', (chunk: Buffer) => this.onData(chunk));
    transport.on('drain', () => this.flushDrainWaiters());
    transport.on('end', () => this.shutdown(undefined, true));
    transport.on('close', () => this.shutdown());
    transport.on('error', (err: Error) => this.shutdown(err));
    // Node hands over an upgraded socket paused; a 'data' listener alone would not start it.
    transport.resume();
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Streams not yet finished in both directions (nor reset). */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Opens a stream (SYN_STREAM); its SYN_REPLY comes as a 'reply' event. */
  openStream(headers: SpdyHeaders, fin = false): SpdyStream {
    if (this.ended || this.goneAway) throw new Error('SPDY connection is closed');
    const id = this.nextStreamId;
    this.nextStreamId += 2;
    const stream = new SpdyStream(this, id, headers);
    this.streams.set(id, stream);
    this.write({ type: 'synStream', streamId: id, associatedToStreamId: 0, priority: 0, fin, unidirectional: false, headers });
    if (fin) stream.end();
    return stream;
  }

  /**
   * Resets every stream and says GOAWAY (kubelet's connection Close), then leaves the hang-up to
   * the peer for a grace period: a client still reading frames queued before the resets (stdout,
   * the exit status) gets them all, where closing the socket at once could cut them off.
   */
  close(): void {
    if (this.ended) return;
    for (const stream of [...this.streams.values()]) stream.reset(RstStatus.Cancel);
    if (!this.goneAway) {
      this.goneAway = true;
      this.write({ type: 'goAway', lastGoodStreamId: this.lastPeerStreamId, status: 0 });
    }
    if (this.graceTimer) return;
    this.graceTimer = setTimeout(() => this.shutdown(), this.options.closeGraceMs ?? 5000);
    this.graceTimer.unref();
  }

  /** Drops the transport at once. */
  destroy(error?: Error): void {
    this.transport.destroy();
    this.shutdown(error);
  }

  sendData(streamId: number, data: Buffer, fin: boolean, done: (err?: Error | null) => void): void {
    if (this.ended) {
      done(new Error('SPDY connection is closed'));
      return;
    }
    if (this.write({ type: 'data', streamId, fin, data })) done();
    else this.drainWaiters.push(done);
  }

  sendReply(streamId: number, headers: SpdyHeaders, fin: boolean): void {
    this.write({ type: 'synReply', streamId, fin, headers });
  }

  sendReset(streamId: number, status: number): void {
    this.write({ type: 'rstStream', streamId, status });
  }

  unblock(stream: SpdyStream): void {
    if (this.blocked.delete(stream) && this.blocked.size === 0) this.transport.resume();
  }

  release(stream: SpdyStream): void {
    if (this.streams.get(stream.id) === stream) this.streams.delete(stream.id);
    this.unblock(stream);
    if (this.goneAway && this.streams.size === 0 && !this.ended) this.close();
  }

  private write(frame: SpdyFrame): boolean {
    if (this.ended || this.transport.destroyed || this.transport.writableEnded) return true;
    return this.transport.write(this.encoder.encode(frame));
  }

  private flushDrainWaiters(error?: Error): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const done of waiters) done(error);
  }

  private onData(chunk: Buffer): void {
    if (this.ended) return;
    let frames: SpdyFrame[];
    try {
      frames = this.decoder.push(chunk);
    } catch (err) {
      // spdystream stops serving a connection whose frames it cannot read.
      this.destroy(err as Error);
      return;
    }
    for (const frame of frames) this.onFrame(frame);
  }

  private onFrame(frame: SpdyFrame): void {
    switch (frame.type) {
      case 'synStream':
        this.onSynStream(frame);
        return;
      case 'synReply': {
        const stream = this.streams.get(frame.streamId);
        if (!stream) return;
        this.emit('reply', stream, frame.headers);
        if (frame.fin) stream.receiveFin();
        return;
      }
      case 'data': {
        const stream = this.streams.get(frame.streamId);
        if (!stream) return;
        if (!stream.receive(frame.data, frame.fin) && !stream.destroyed) {
          this.blocked.add(stream);
          this.transport.pause();
        }
        return;
      }
      case 'headers': {
        const stream = this.streams.get(frame.streamId);
        if (stream && frame.fin) stream.receiveFin();
        return;
      }
      case 'rstStream':
        this.streams.get(frame.streamId)?.abort(true);
        return;
      case 'ping':
        // Ids of the peer's pings have the other parity than ours (clients odd, servers even).
        if ((frame.id & 1) !== (this.options.role === 'server' ? 0 : 1)) this.write(frame);
        return;
      case 'goAway':
        this.goneAway = true;
        if (this.streams.size === 0) this.close();
        return;
      case 'settings':
      case 'windowUpdate':
        return;
    }
  }

  private onSynStream(frame: Extract<SpdyFrame, { type: 'synStream' }>): void {
    if (this.goneAway) return;
    const peerParity = this.options.role === 'server' ? 1 : 0;
    if ((frame.streamId & 1) !== peerParity || frame.streamId <= this.lastPeerStreamId || this.streams.has(frame.streamId)) {
      this.sendReset(frame.streamId, RstStatus.ProtocolError);
      return;
    }
    this.lastPeerStreamId = frame.streamId;
    const stream = new SpdyStream(this, frame.streamId, frame.headers);
    this.streams.set(frame.streamId, stream);
    if (frame.unidirectional) stream.end();
    if (frame.fin) stream.receiveFin();
    if (this.listenerCount('stream') === 0) {
      stream.reset(RstStatus.RefusedStream);
      return;
    }
    this.emit('stream', stream);
  }

  private shutdown(error?: Error, peerEnded = false): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.graceTimer);
    // Streams go first, so the writes failed below land on destroyed streams and raise no 'error'.
    for (const stream of [...this.streams.values()]) stream.abort(false);
    this.flushDrainWaiters(new Error('SPDY connection is closed'));
    this.streams.clear();
    this.blocked.clear();
    this.decoder.close();
    // A peer that only half-closed gets what is still queued for it; otherwise the transport goes.
    if (peerEnded) this.transport.end();
    else this.transport.destroy();
    this.emit('close', error);
  }
}
