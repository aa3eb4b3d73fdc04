// The kubelet's side of port-forward (pkg/kubelet/cri/streaming/portforward). Three transports:
// - SPDY/3.1 (protocol portforward.k8s.io): for each forwarded connection the client opens an
//   error stream and a data stream with headers port, streamType and requestID, paired here;
// - SPDY/3.1 tunnelled in WebSocket binary messages (subprotocol SPDY/3.1+portforward.k8s.io,
//   kubectl 1.31 and later): the same, over the WebSocket;
// - WebSocket channels (v4.channel.k8s.io and its base64 variant, @kubernetes/client-node): one
//   connection per port given in the query, data on channel 2i and errors on 2i+1, each channel
//   opening with the port as a little-endian uint16.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Duplex, type Writable } from 'node:stream';
import { headerValue } from './spdy-header-compression.js';
import { SpdyConnection } from './spdy-connection.js';
import type { SpdyStream } from './spdy-stream.js';
import {
  acceptSpdyUpgrade,
  isSpdyUpgrade,
  isWebSocketRequest,
  missingUpgradeHeaders,
  negotiateStreamProtocol,
  refuseResponse,
  refuseUpgrade,
  takeOverSocket,
  type Refusal,
} from './upgrade.js';
import { ChannelSocket } from './websocket-channels.js';
import { acceptWebSocket, webSocketDuplex } from './websocket.js';

export const SPDY_PORT_FORWARD_PROTOCOLS = ['portforward.k8s.io'] as const;
export const TUNNELED_SPDY_PORT_FORWARD_PROTOCOL = 'SPDY/3.1+portforward.k8s.io';
export const WEBSOCKET_PORT_FORWARD_PROTOCOLS = [TUNNELED_SPDY_PORT_FORWARD_PROTOCOL, 'v4.channel.k8s.io', 'v4.base64.channel.k8s.io', ''] as const;

export interface PortForwardOptions {
  /** The ports of the request's query (`port`, or `ports` as clients send it); needed by the WebSocket channel protocols. */
  ports?: number[];
  /** How long a SPDY client may take to open both streams of a request (kubelet default 30 s). */
  streamCreationTimeoutMs?: number;
  /** Hang up a connection with no traffic either way for this long (none by default). */
  idleTimeoutMs?: number;
  closeGraceMs?: number;
}

/** One forwarded connection: bytes both ways on `data`; a message on `error` fails it on the client. */
export interface PortForwardStream {
  port: number;
  /** The client's requestID (SPDY), or the index of the port (WebSocket channels). */
  requestId: string;
  /** End it when the pod side closes; it ends when the client closes. */
  data: Duplex;
  /** Write the error message here before ending `data`; it is closed with `data`. */
  error: Writable;
}

interface SessionEvents {
  stream: [stream: PortForwardStream];
  close: [];
}

export class PortForwardSession extends EventEmitter<SessionEvents> {
  constructor(
    readonly transport: 'spdy' | 'websocket-spdy' | 'websocket',
    readonly protocol: string,
    private readonly hangUp: () => void,
  ) {
    super();
  }

  close(): void {
    this.hangUp();
  }
}

/** Ports from `port`/`ports` query values (comma-separated allowed), or the kubelet's refusal. */
export function portsFromQuery(query: URLSearchParams): number[] | Refusal {
  const values = [...query.getAll('port'), ...query.getAll('ports')];
  if (values.length === 0) return { status: 400, message: 'query parameter "port" is required' };
  const ports: number[] = [];
  for (const value of values) {
    if (value === '') return { status: 400, message: 'query parameter "port" cannot be empty' };
    for (const p of value.split(',')) {
      const port = /^\d+$/.test(p) ? Number(p) : NaN;
      if (!(port <= 65535)) return { status: 400, message: `unable to parse "${value}" as a port` };
      if (port < 1) return { status: 400, message: `port "${value}" must be > 0` };
      ports.push(port);
    }
  }
  return ports;
}

/** Answers a port-forward request that did not ask to upgrade as the kubelet does. */
export function refusePortForwardWithoutUpgrade(req: IncomingMessage, res: ServerResponse): void {
  const negotiated = negotiateStreamProtocol(req, SPDY_PORT_FORWARD_PROTOCOLS);
  refuseResponse(res, 'status' in negotiated ? negotiated : missingUpgradeHeaders(req));
}

/**
 * Accepts the upgrade of a port-forward request (the arguments of an http.Server 'upgrade' event).
 * Each forwarded connection arrives as a 'stream' event of the session.
 */
export async function acceptPortForward(req: IncomingMessage, socket: Duplex, head: Buffer, options: PortForwardOptions = {}): Promise<PortForwardSession> {
  const timed = socket as Partial<{ setTimeout(ms: number, cb: () => void): void }>;
  if (options.idleTimeoutMs && options.idleTimeoutMs > 0) timed.setTimeout?.(options.idleTimeoutMs, () => socket.destroy());
  if (isWebSocketRequest(req)) {
    const { ws, protocol } = await acceptWebSocket(req, socket, head, WEBSOCKET_PORT_FORWARD_PROTOCOLS);
    if (protocol === TUNNELED_SPDY_PORT_FORWARD_PROTOCOL) {
      return spdySession('websocket-spdy', protocol, new SpdyConnection(webSocketDuplex(ws), { role: 'server', closeGraceMs: options.closeGraceMs }), options);
    }
    if (!options.ports?.length) {
      ws.close(1011, 'query parameter "port" is required');
      throw new Error('query parameter "port" is required');
    }
    return channelSession(new ChannelSocket(ws, protocol.includes('base64')), protocol, options.ports);
  }
  const negotiated = negotiateStreamProtocol(req, SPDY_PORT_FORWARD_PROTOCOLS);
  if ('status' in negotiated) throw refuseUpgrade(socket, negotiated);
  if (!isSpdyUpgrade(req)) throw refuseUpgrade(socket, missingUpgradeHeaders(req));
  acceptSpdyUpgrade(socket, negotiated.protocol);
  takeOverSocket(socket, head);
  return spdySession('spdy', negotiated.protocol, new SpdyConnection(socket, { role: 'server', closeGraceMs: options.closeGraceMs }), options);
}

function channelSession(channels: ChannelSocket, protocol: string, ports: number[]): PortForwardSession {
  const session = new PortForwardSession('websocket', protocol || 'channel.k8s.io', () => channels.close(1000));
  let open = ports.length;
  const pairs = ports.map((port, i) => {
    const portBytes = Buffer.alloc(2);
    portBytes.writeUInt16LE(port);
    channels.send(2 * i, portBytes);
    channels.send(2 * i + 1, portBytes);
    const data = channelDuplex(channels, 2 * i);
    const error = channels.writer(2 * i + 1);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      error.end();
      // The kubelet closes the WebSocket when every port's forwarder has returned.
      if (--open === 0) channels.close(1000);
    };
    data.once('finish', finish);
    data.once('close', finish);
    return { port, requestId: String(i), data, error };
  });
  channels.ws.once('close', () => {
    for (const pair of pairs) pair.data.destroy();
    session.emit('close');
  });
  setImmediate(() => {
    for (const pair of pairs) session.emit('stream', pair);
  });
  return session;
}

/** Reads and writes of one channel as a Duplex (Duplex.from would raise an AbortError when destroyed). */
function channelDuplex(channels: ChannelSocket, channel: number): Duplex {
  const reader = channels.reader(channel);
  const writer = channels.writer(channel);
  const data: Duplex = new Duplex({
    read: () => reader.resume(),
    write: (chunk: Buffer, _encoding, callback) => writer.write(chunk, () => callback()),
    final: (callback) => writer.end(() => callback()),
    destroy: (error, callback) => {
      reader.destroy();
      writer.destroy();
      callback(error);
    },
  });
  reader.on('data', (chunk: Buffer) => {
    if (!data.push(chunk)) reader.pause();
  });
  reader.once('end', () => data.push(null));
  return data;
}

interface PendingPair {
  data?: SpdyStream;
  error?: SpdyStream;
  timer: NodeJS.Timeout;
}

function spdySession(transport: 'spdy' | 'websocket-spdy', protocol: string, connection: SpdyConnection, options: PortForwardOptions): PortForwardSession {
  const session = new PortForwardSession(transport, protocol, () => connection.close());
  const pending = new Map<string, PendingPair>();
  connection.on('stream', (stream) => {
    const refusal = streamRefusal(stream);
    if (refusal) {
      stream.reset();
      return;
    }
    stream.accept();
    const type = headerValue(stream.headers, 'streamType') as 'data' | 'error';
    const requestId = requestIdOf(stream, type);
    let pair = pending.get(requestId);
    if (!pair) {
      const timer = setTimeout(() => {
        pending.delete(requestId);
        pair!.error?.end(`(request=${requestId}) timed out waiting for streams`);
      }, options.streamCreationTimeoutMs ?? 30_000);
      pair = { timer };
      pending.set(requestId, pair);
    }
    if (pair[type]) {
      pair.error?.write(`error processing stream for request ${requestId}: ${type} stream already assigned`);
      return;
    }
    pair[type] = stream;
    if (!pair.data || !pair.error) return;
    clearTimeout(pair.timer);
    pending.delete(requestId);
    session.emit('stream', spdyPair(pair.data, pair.error, requestId));
  });
  connection.once('close', () => {
    for (const pair of pending.values()) clearTimeout(pair.timer);
    pending.clear();
    session.emit('close');
  });
  return session;
}

function spdyPair(data: SpdyStream, error: SpdyStream, requestId: string): PortForwardStream {
  // The client only reads the error stream; drain what it may send so the stream can finish.
  error.resume();
  // Closing the data stream closes the error stream too (the kubelet's deferred Closes), which the
  // client waits for before it drops the forwarded connection.
  const closeError = () => {
    if (!error.writableEnded && !error.destroyed) error.end();
  };
  data.once('finish', closeError);
  data.once('close', closeError);
  return { port: Number(headerValue(data.headers, 'port')), requestId, data, error };
}

/** The kubelet's checks of a new stream (httpStreamReceived); a stream that fails them is reset. */
function streamRefusal(stream: SpdyStream): string | null {
  const port = headerValue(stream.headers, 'port');
  if (port === '') return '"port" header is required';
  if (!/^\d+$/.test(port) || Number(port) > 65535) return `unable to parse "${port}" as a port`;
  if (Number(port) < 1) return `port "${port}" must be > 0`;
  const type = headerValue(stream.headers, 'streamType');
  if (type === '') return '"streamType" header is required';
  if (type !== 'error' && type !== 'data') return `invalid stream type "${type}"`;
  return null;
}

/** The client's requestID; old clients send none, and their consecutive stream ids stand in for it. */
function requestIdOf(stream: SpdyStream, type: 'data' | 'error'): string {
  const id = headerValue(stream.headers, 'requestID');
  if (id !== '') return id;
  return String(type === 'error' ? stream.id : stream.id - 2);
}
