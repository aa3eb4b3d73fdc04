// The kubelet's side of exec and attach (pkg/kubelet/cri/streaming/remotecommand): the client
// upgrades to SPDY/3.1 and opens one stream per standard stream plus an error stream (and a resize
// stream with a TTY), or to a WebSocket where channels 0-4 carry stdin, stdout, stderr, the error
// and resize. The caller runs the command on the streams of the session it gets and calls finish().
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex, Readable, Writable } from 'node:stream';
import { errorStreamPayload, type CommandOutcome } from './exec-status.js';
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
import { acceptWebSocket } from './websocket.js';
import { TerminalSizeDecoder, type TerminalSize } from './terminal-size.js';

/** Remote command protocols over SPDY, most preferred first (remotecommand.SupportedStreamingProtocols). */
export const SPDY_REMOTE_COMMAND_PROTOCOLS = ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'] as const;

/** Remote command subprotocols over WebSocket ("" is a client that names none: plain channel.k8s.io). */
export const WEBSOCKET_REMOTE_COMMAND_PROTOCOLS = [
  'v5.channel.k8s.io',
  'v4.channel.k8s.io',
  'v4.base64.channel.k8s.io',
  'v3.channel.k8s.io',
  'v2.channel.k8s.io',
  'channel.k8s.io',
  'base64.channel.k8s.io',
  '',
] as const;

const STDIN = 0;
const STDOUT = 1;
const STDERR = 2;
const ERROR = 3;
const RESIZE = 4;
/** v5: [255, n] says the client closed its side of channel n. */
const CLOSE_SIGNAL = 255;

export interface StdStreams {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

export interface RemoteCommandOptions extends StdStreams {
  /** How long a SPDY client may take to open its streams (kubelet default 30 s). */
  streamCreationTimeoutMs?: number;
  /** Hang up a connection with no traffic either way for this long (none by default; kubelet: 4 h). */
  idleTimeoutMs?: number;
  /** Passed to the SPDY connection: how long to wait for the client to hang up after finish(). */
  closeGraceMs?: number;
}

export type { CommandOutcome, TerminalSize };

/** The stdin/stdout/stderr/tty query parameters of an exec or attach request (Go's ParseBool values). */
export function stdStreamsFromQuery(query: URLSearchParams): StdStreams {
  const flag = (name: string) => ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(query.get(name) ?? '');
  return { stdin: flag('stdin'), stdout: flag('stdout'), stderr: flag('stderr'), tty: flag('tty') };
}

/** What the kubelet answers to the options before any upgrade, or null when they are fine. */
function optionsRefusal(options: StdStreams): Refusal | null {
  if (!options.stdin && !options.stdout && !options.stderr) return { status: 400, message: 'you must specify at least 1 of stdin, stdout, stderr' };
  return null;
}

/**
 * Answers an exec/attach request that did not ask to upgrade as the kubelet does (it needs
 * X-Stream-Protocol-Version and the SPDY/3.1 upgrade headers, or a WebSocket).
 */
export function refuseRemoteCommandWithoutUpgrade(req: IncomingMessage, res: ServerResponse, options: StdStreams): void {
  const negotiated = negotiateStreamProtocol(req, SPDY_REMOTE_COMMAND_PROTOCOLS);
  refuseResponse(res, optionsRefusal(options) ?? ('status' in negotiated ? negotiated : missingUpgradeHeaders(req)));
}

interface SessionBackend {
  writeStatus(payload: Buffer): Promise<void>;
  hangUp(): void;
}

interface SessionEvents {
  /** The client's terminal changed size (TTY sessions of protocols v3 and later). */
  resize: [size: TerminalSize];
  /** The connection is gone: finished, or the client hung up. */
  close: [];
}

/** An accepted exec/attach: the client's streams, ready for the command. */
export class RemoteCommandSession extends EventEmitter<SessionEvents> {
  private readonly controller = new AbortController();
  private finishing: Promise<void> | undefined;

  constructor(
    /** The negotiated protocol (X-Stream-Protocol-Version or WebSocket subprotocol). */
    readonly protocol: string,
    readonly transport: 'spdy' | 'websocket',
    readonly tty: boolean,
    /** What the client types; ends when the client closes stdin. */
    readonly stdin: Readable | null,
    readonly stdout: Writable | null,
    readonly stderr: Writable | null,
    private readonly backend: SessionBackend,
  ) {
    super();
  }

  /** Aborted when the connection is gone: the command should stop. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Ends the session as the kubelet ends an exec: stdout and stderr are flushed and closed, the
   * outcome is written on the error stream in the protocol's format, the connection is closed.
   */
  finish(outcome: CommandOutcome): Promise<void> {
    this.finishing ??= (async () => {
      await Promise.all([endWritable(this.stdout), endWritable(this.stderr)]);
      if (!this.signal.aborted) await this.backend.writeStatus(errorStreamPayload(outcome, this.jsonStatus)).catch(() => undefined);
      this.backend.hangUp();
    })();
    return this.finishing;
  }

  /** Drops the connection without a status. */
  abort(): void {
    this.backend.hangUp();
    this.closed();
  }

  /** Protocol v4 and later report a JSON Status; older ones only the text of a failure. */
  private get jsonStatus(): boolean {
    return this.protocol.startsWith('v4.') || this.protocol.startsWith('v5.');
  }

  /** @internal */
  closed(): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort();
    for (const stream of [this.stdin, this.stdout, this.stderr]) if (stream && !stream.destroyed) stream.destroy();
    this.emit('close');
  }
}

function endWritable(stream: Writable | null): Promise<void> {
  if (!stream || stream.destroyed || stream.writableFinished) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('finish', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('finish', done);
    stream.on('close', done);
    stream.on('error', done);
    stream.end();
  });
}

function applyIdleTimeout(socket: Duplex, ms: number | undefined): void {
  const timed = socket as Partial<{ setTimeout(ms: number, cb: () => void): void }>;
  if (ms && ms > 0) timed.setTimeout?.(ms, () => socket.destroy());
}

/**
 * Accepts the upgrade of an exec or attach request (the arguments of an http.Server 'upgrade'
 * event). Rejects with UpgradeRejectedError after answering the client when the request cannot be
 * served (no common protocol, no upgrade headers, no stream asked for).
 */
export async function acceptRemoteCommand(req: IncomingMessage, socket: Duplex, head: Buffer, requested: RemoteCommandOptions): Promise<RemoteCommandSession> {
  // The kubelet does not serve stderr beside a TTY (the terminal merges them).
  const options = { ...requested, stderr: requested.stderr && !requested.tty };
  const refusal = optionsRefusal(options);
  if (refusal) throw refuseUpgrade(socket, refusal);
  applyIdleTimeout(socket, options.idleTimeoutMs);
  if (isWebSocketRequest(req)) return acceptOverWebSocket(req, socket, head, options);
  return acceptOverSpdy(req, socket, head, options);
}

async function acceptOverWebSocket(req: IncomingMessage, socket: Duplex, head: Buffer, options: RemoteCommandOptions): Promise<RemoteCommandSession> {
  const { ws, protocol } = await acceptWebSocket(req, socket, head, WEBSOCKET_REMOTE_COMMAND_PROTOCOLS);
  const channels = new ChannelSocket(ws, protocol.includes('base64'));
  const stdin = options.stdin ? channels.reader(STDIN) : null;
  const session = new RemoteCommandSession(
    protocol || 'channel.k8s.io',
    'websocket',
    options.tty,
    stdin,
    options.stdout ? channels.writer(STDOUT) : null,
    options.stderr ? channels.writer(STDERR) : null,
    {
      writeStatus: (payload) =>
        payload.length === 0 ? Promise.resolve() : new Promise((resolve, reject) => channels.send(ERROR, payload, (err) => (err ? reject(err) : resolve()))),
      hangUp: () => channels.close(1000),
    },
  );
  const sizes = new TerminalSizeDecoder();
  channels.onChannel(RESIZE, (data) => {
    for (const size of sizes.push(data)) session.emit('resize', size);
  });
  if (protocol.startsWith('v5.')) {
    channels.onChannel(CLOSE_SIGNAL, (data) => {
      if (data[0] === STDIN) channels.endReader(STDIN);
    });
  }
  ws.on('close', () => session.closed());
  // The kubelet tells the client the connection is up with an empty message on the lowest channel it writes.
  channels.send(options.stdout ? STDOUT : options.stderr ? STDERR : ERROR, Buffer.alloc(0));
  return session;
}

function acceptOverSpdy(req: IncomingMessage, socket: Duplex, head: Buffer, options: RemoteCommandOptions): Promise<RemoteCommandSession> {
  const negotiated = negotiateStreamProtocol(req, SPDY_REMOTE_COMMAND_PROTOCOLS);
  if ('status' in negotiated) return Promise.reject(refuseUpgrade(socket, negotiated));
  if (!isSpdyUpgrade(req)) return Promise.reject(refuseUpgrade(socket, missingUpgradeHeaders(req)));
  const { protocol } = negotiated;
  acceptSpdyUpgrade(socket, protocol);
  takeOverSocket(socket, head);
  const connection = new SpdyConnection(socket, { role: 'server', closeGraceMs: options.closeGraceMs });
  const resizable = options.tty && protocol !== 'channel.k8s.io' && protocol !== 'v2.channel.k8s.io';
  const expected = 1 + Number(options.stdin) + Number(options.stdout) + Number(options.stderr) + Number(resizable);

  return new Promise((resolve, reject) => {
    const byType = new Map<string, SpdyStream>();
    let received = 0;
    const timer = setTimeout(() => {
      connection.off('close', onEarlyClose);
      connection.close();
      reject(new Error('timed out waiting for client to create streams'));
    }, options.streamCreationTimeoutMs ?? 30_000);
    const onEarlyClose = () => {
      clearTimeout(timer);
      reject(new Error('the client closed the connection before creating its streams'));
    };
    connection.once('close', onEarlyClose);
    connection.on('stream', (stream) => {
      stream.accept();
      if (received === expected) return;
      const type = headerValue(stream.headers, 'streamType');
      if (!['error', 'stdin', 'stdout', 'stderr', 'resize'].includes(type) || byType.has(type)) return;
      byType.set(type, stream);
      if (++received < expected) return;
      clearTimeout(timer);
      connection.off('close', onEarlyClose);
      resolve(spdySession(connection, protocol, options, byType));
    });
  });
}

function spdySession(connection: SpdyConnection, protocol: string, options: RemoteCommandOptions, byType: Map<string, SpdyStream>): RemoteCommandSession {
  const errorStream = byType.get('error')!;
  // The client never writes on the streams the server writes: read them away so they can end.
  for (const type of ['error', 'stdout', 'stderr']) byType.get(type)?.resume();
  const stdin = options.stdin ? byType.get('stdin') ?? null : null;
  // Protocol v1 closes stdin at once (what 1.0 kubelets did).
  if (stdin && protocol === 'channel.k8s.io') stdin.end();
  const session = new RemoteCommandSession(
    protocol,
    'spdy',
    options.tty,
    stdin,
    options.stdout ? byType.get('stdout') ?? null : null,
    options.stderr ? byType.get('stderr') ?? null : null,
    {
      writeStatus: (payload) =>
        new Promise((resolve) => {
          errorStream.end(payload, () => resolve());
          errorStream.once('close', () => resolve());
        }),
      hangUp: () => connection.close(),
    },
  );
  const resize = byType.get('resize');
  if (resize) {
    const sizes = new TerminalSizeDecoder();
    resize.on('data', (data: Buffer) => {
      for (const size of sizes.push(data)) session.emit('resize', size);
    });
  }
  connection.once('close', () => session.closed());
  return session;
}
