// A small SPDY/3.1 client for tests, on the library's own connection in the client role: it
// upgrades an HTTP request as client-go's SPDY round tripper does and opens streams, waiting for
// each SYN_REPLY as spdystream's CreateStream + Wait do.
import { request } from 'node:http';
import type { Socket } from 'node:net';
import type { SpdyHeaders } from './spdy-header-compression.js';
import { SpdyConnection } from './spdy-connection.js';
import type { SpdyStream } from './spdy-stream.js';

export interface UpgradeAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface SpdyClient {
  connection: SpdyConnection;
  socket: Socket;
  protocol: string;
  /** Opens a stream and waits for its SYN_REPLY (rejects if the server resets it). */
  open(headers: Record<string, string>): Promise<SpdyStream>;
}

/** POSTs an upgrade to SPDY/3.1; resolves with a client, or rejects with the refusal's answer. */
export function dialSpdy(url: string, protocols: string[], extraHeaders: Record<string, string> = {}): Promise<SpdyClient> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': protocols, ...extraHeaders },
    });
    req.on('upgrade', (res, socket: Socket, head) => {
      if (head.length > 0) socket.unshift(head);
      const connection = new SpdyConnection(socket, { role: 'client' });
      const waiting = new Map<SpdyStream, (stream: SpdyStream) => void>();
      connection.on('reply', (stream) => waiting.get(stream)?.(stream));
      resolve({
        connection,
        socket,
        protocol: String(res.headers['x-stream-protocol-version'] ?? ''),
        open: (headers) =>
          new Promise((ok, fail) => {
            const spdyHeaders: SpdyHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), [v]]));
            const stream = connection.openStream(spdyHeaders);
            waiting.set(stream, ok);
            stream.once('reset', () => fail(new Error(`stream ${stream.id} was reset`)));
            stream.once('close', () => fail(new Error(`stream ${stream.id} closed before its reply`)));
          }),
      });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode} ${body}`), { answer: { status: res.statusCode ?? 0, headers: res.headers, body } as UpgradeAnswer })));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Everything a readable gives until it ends (or closes). */
export function readAll(stream: NodeJS.ReadableStream & { once(event: 'close', cb: () => void): unknown }): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    stream.on('data', (d: Buffer) => (text += d.toString()));
    stream.once('end', () => resolve(text));
    stream.once('close', () => resolve(text));
  });
}
