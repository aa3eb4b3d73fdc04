// The API server's listener: HTTPS with HTTP/2 and HTTP/1.1 chosen by ALPN (kubectl and client-go
// speak h2), or plain HTTP/1.1 for in-process unit tests. One TLS listener hands each connection,
// once the handshake is done, to an HTTP/1.1 server or an HTTP/2 server, so each protocol keeps all
// its own settings (Node's combined `allowHTTP1` server ignores the HTTP/1 header-size limit and
// request timeout, and the latter would cut watches after five minutes).
//
// The TLS layer asks for a client certificate when a client CA is configured but never requires
// one, and never fails the handshake over it: an untrusted certificate is the x509 authenticator's
// business (401), as in kube-apiserver.
//
// Slow clients: HTTP/1 request headers must arrive within headersTimeout (70 s), on TLS connections
// as on plain ones, else 408 and the connection is closed (slowloris).
//
// Header limits as Go's server: more than 64 KiB of request headers → 431. HTTP/1: the parser's
// limit. HTTP/2: the header list is accepted up to 256 KiB (advertised in SETTINGS, so Go clients
// stay below it) and checked here; beyond that the stream or session is refused by the protocol.
import type { Duplex } from 'node:stream';
import { upgradeAsRequest } from '../../machinery/http-upgrade.js';
import { createServer as createHttp1Server, type IncomingMessage, type Server as Http1Server, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { SERVER_CIPHERS } from '../../machinery/tls-ciphers.js';

export const MAX_HEADER_BYTES = 64 * 1024;
const HTTP2_MAX_HEADER_LIST = 256 * 1024;
/**
 * kube-apiserver's HTTP/2 server: 100 concurrent streams per connection (its default for
 * --http2-max-streams-per-connection 0; Node's is 2^32-1, so a flood of streams would all be
 * served at once) and frames of at most 256 KiB. Streams opened past the limit are refused, and a
 * session refusing more than maxSessionRejectedStreams (Node's 100) is closed; a "rapid reset"
 * client (open and RST_STREAM in a loop) gets a GOAWAY from nghttp2's reset rate limit.
 */
const HTTP2_SETTINGS = { maxHeaderListSize: HTTP2_MAX_HEADER_LIST, maxConcurrentStreams: 100, maxFrameSize: 256 * 1024 };

export interface TlsOptions {
  /** PEM serving certificate (chain) and key. */
  cert: string | Buffer;
  key: string | Buffer;
  /** PEM CA bundle that client certificates must chain to; absent: clients are not asked for one. */
  clientCA?: string | Buffer;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface Listener {
  /** 'https' or 'http'. */
  scheme: string;
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Stops accepting and ends every open connection (watches included). */
  close(): Promise<void>;
}

const HTTP1_OPTIONS = { keepAliveTimeout: 65_000, headersTimeout: 70_000, requestTimeout: 0, maxHeaderSize: MAX_HEADER_BYTES };

/** Overrides of the HTTP/1 server's slow-client limits (tests). */
export interface Http1Timeouts {
  /** How long a request's headers may take to arrive (Node's headersTimeout; default 70 s). */
  headersTimeout?: number;
  /** How often connections are checked against it (Node's connectionsCheckingInterval; default 30 s). */
  connectionsCheckingInterval?: number;
}

function http1Server(handler: RequestHandler, timeouts: Http1Timeouts): Http1Server {
  const server = createHttp1Server({ ...HTTP1_OPTIONS, ...timeouts }, handler);
  server.on('clientError', answerClientError);
  // exec, attach and port-forward upgrade the connection (SPDY/3.1, WebSocket)
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => upgradeAsRequest(req, socket, head, handler));
  return server;
}

/**
 * What Go's HTTP/1 server (so kube-apiserver) answers to requests it cannot parse. Like Go, it then
 * reads and drops what the client still sends for a moment before closing: closing with unread
 * data would reset the connection, and the client would lose the answer.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const answered = socket as Socket & { kubeliteAnswered?: boolean };
  // The parser may report the same broken request more than once: answer it once.
  if (answered.kubeliteAnswered) return;
  answered.kubeliteAnswered = true;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // Headers not in by headersTimeout (a slowloris): 408 and close, as Node's own server answers.
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`);
  socket.on('data', () => {});
  socket.resume();
  setTimeout(() => socket.destroy(), 500).unref();
}

/** HTTPS request headers over the limit (HTTP/2: HPACK's accounting, 32 bytes per field). */
function http2HeadersTooLarge(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  let size = 0;
  for (let i = 0; i < raw.length; i++) size += raw[i]!.length;
  return size + 16 * raw.length > MAX_HEADER_BYTES;
}

function listenOn(server: { listen(port: number, host: string, cb: () => void): unknown; once(e: 'error', l: (err: Error) => void): unknown; off(e: 'error', l: (err: Error) => void): unknown; address(): unknown }, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Plain HTTP/1.1 (in-process unit tests only). */
export function plainListener(handler: RequestHandler, timeouts: Http1Timeouts = {}): Listener {
  const server = http1Server(handler, timeouts);
  return {
    scheme: 'http',
    listen: (port, host) => listenOn(server, port, host),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** HTTPS, h2 and http/1.1 by ALPN. */
export function tlsListener(tls: TlsOptions, handler: RequestHandler, timeouts: Http1Timeouts = {}): Listener {
  const http1 = http1Server(handler, timeouts);
  // The HTTP/1 server never listens itself (the TLS server hands it connections), and Node starts
  // the checker that enforces headersTimeout (and cuts slowloris clients) when a server starts
  // listening: started here, else a client sending its headers a byte at a time would hold a
  // connection forever.
  http1.emit('listening');
  const http2: Http2Server = createHttp2Server({ settings: HTTP2_SETTINGS }, (req, res) => {
    const request = req as unknown as IncomingMessage;
    const response = res as unknown as ServerResponse;
    if (http2HeadersTooLarge(request)) {
      res.writeHead(431, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('431 Request Header Fields Too Large');
      return;
    }
    handler(request, response);
  });
  // A broken stream or session ends that stream or connection, never the process.
  http2.on('sessionError', () => {});
  const sockets = new Set<TLSSocket>();
  const server = createTlsServer(
    {
      cert: tls.cert,
      key: tls.key,
      ca: tls.clientCA,
      requestCert: tls.clientCA !== undefined,
      rejectUnauthorized: false,
      ALPNProtocols: ['h2', 'http/1.1'],
      // Go's server order on CPUs with AES instructions (kube-apiserver's): AES-128-GCM first.
      // OpenSSL's default puts AES-256-GCM first, which costs more per byte on both ends of a
      // long list or watch for no security the API needs.
      ciphers: SERVER_CIPHERS,
      honorCipherOrder: true,
    },
    (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      if (socket.alpnProtocol === 'h2') http2.emit('connection', socket);
      else http1.emit('connection', socket);
    },
  );
  // Failed handshakes (a plain-HTTP client, an aborted connection) concern that connection only.
  server.on('tlsClientError', (_err, socket) => socket.destroy());
  return {
    scheme: 'https',
    listen: (port, host) => listenOn(server, port, host),
    close: () =>
      new Promise<void>((resolve) => {
        // Stops the HTTP/1 server's connection checker (it was never listening: the callback's error says so).
        http1.close(() => {});
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
