// The channel.k8s.io family of WebSocket subprotocols (apimachinery wsstream): every message starts
// with its channel number — a byte, or in the base64 variants an ASCII digit and the rest base64
// text. This is the multiplexer both remote command and the WebSocket port-forward sit on.
import { Readable, Writable } from 'node:stream';
import { WebSocket } from 'ws';

/** What the client sends on a channel nobody reads is dropped, as wsstream's IgnoreChannel does. */
export class ChannelSocket {
  private readonly readers = new Map<number, Readable>();
  private readonly blocked = new Set<number>();
  private handlers = new Map<number, (data: Buffer) => void>();

  constructor(
    readonly ws: WebSocket,
    readonly base64: boolean,
  ) {
    ws.on('message', (data: Buffer, isBinary: boolean) => this.onMessage(data, isBinary));
    ws.on('close', () => {
      for (const reader of this.readers.values()) reader.push(null);
      this.readers.clear();
    });
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends `data` on `channel`; `done` runs when the socket has taken the message. */
  send(channel: number, data: Buffer, done?: (err?: Error) => void): void {
    if (!this.open) {
      done?.(new Error('WebSocket is closed'));
      return;
    }
    if (this.base64) this.ws.send(String.fromCharCode(48 + channel) + data.toString('base64'), { binary: false }, done);
    else this.ws.send(Buffer.concat([Buffer.from([channel]), data]), { binary: true }, done);
  }

  /** A stream of what the client sends on `channel`; reading slowly pauses the whole socket. */
  reader(channel: number): Readable {
    const reader = new Readable({
      read: () => {
        if (this.blocked.delete(channel) && this.blocked.size === 0) this.ws.resume();
      },
    });
    reader.on('close', () => {
      this.readers.delete(channel);
      if (this.blocked.delete(channel) && this.blocked.size === 0) this.ws.resume();
    });
    this.readers.set(channel, reader);
    return reader;
  }

  /** Ends the reader of `channel` (the client half-closed it). */
  endReader(channel: number): void {
    this.readers.get(channel)?.push(null);
  }

  /**
   * A stream whose writes go out on `channel`; ending it sends nothing (wsstream's channels cannot
   * half-close). Once the socket is gone the writer is destroyed rather than failed: the client left.
   */
  writer(channel: number): Writable {
    const writer: Writable = new Writable({
      write: (chunk: Buffer, _encoding, callback) =>
        this.send(channel, chunk, (err) => {
          if (err) writer.destroy();
          callback();
        }),
    });
    return writer;
  }

  /** Messages on `channel` go to `handler` instead of a reader (resize, the v5 close signal). */
  onChannel(channel: number, handler: (data: Buffer) => void): void {
    this.handlers.set(channel, handler);
  }

  close(code = 1000): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code);
  }

  private onMessage(raw: Buffer, isBinary: boolean): void {
    if (raw.length === 0) return;
    let channel = raw[0]!;
    let data = raw.subarray(1);
    if (this.base64) {
      if (isBinary) return;
      channel -= 48;
      data = Buffer.from(data.toString('latin1'), 'base64');
    }
    const handler = this.handlers.get(channel);
    if (handler) {
      handler(data);
      return;
    }
    const reader = this.readers.get(channel);
    if (reader && !reader.push(data)) {
      this.blocked.add(channel);
      this.ws.pause();
    }
  }
}
