// The HTTP side of an upgrade as the kubelet answers it: X-Stream-Protocol-Version negotiation
// (apimachinery httpstream.Handshake), the SPDY/3.1 101 response (httpstream/spdy.UpgradeResponse),
// and refusals as Go's http.Error writes them (text/plain, the message and a newline) on the raw
// socket of an 'upgrade' event, or on a plain response for a request that did not ask to upgrade.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

export const HEADER_PROTOCOL_VERSION = 'X-Stream-Protocol-Version';
export const HEADER_ACCEPTED_PROTOCOL_VERSIONS = 'X-Accepted-Stream-Protocol-Versions';
export const SPDY_31 = 'SPDY/3.1';

/** An upgrade the library refused; the client already has its answer (status and message). */
export class UpgradeRejectedError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'UpgradeRejectedError';
  }
}

export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string | string[]>;
}

/** httpstream.IsUpgradeRequest and wsstream.IsWebSocketRequest. */
export function isWebSocketRequest(req: IncomingMessage): boolean {
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return false;
  return /(^|.*,\s*)upgrade($|\s*,)/.test((req.headers.connection ?? '').toLowerCase());
}

export function isSpdyUpgrade(req: IncomingMessage): boolean {
  return (req.headers.connection ?? '').toLowerCase().includes('upgrade') && (req.headers.upgrade ?? '').toLowerCase().includes(SPDY_31.toLowerCase());
}

function commaSeparated(value: string | string[] | undefined): string[] {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v.length > 0);
}

/** Picks the first protocol the client lists that the server speaks (httpstream.Handshake). */
export function negotiateStreamProtocol(req: IncomingMessage, serverProtocols: readonly string[]): { protocol: string } | Refusal {
  const clientProtocols = commaSeparated(req.headers[HEADER_PROTOCOL_VERSION.toLowerCase()]);
  if (clientProtocols.length === 0) return { status: 400, message: `unable to upgrade: ${HEADER_PROTOCOL_VERSION} is required` };
  const protocol = clientProtocols.find((p) => serverProtocols.includes(p));
  if (protocol !== undefined) return { protocol };
  return {
    status: 403,
    message: `unable to upgrade: unable to negotiate protocol: client supports [${clientProtocols.join(' ')}], server accepts [${serverProtocols.join(' ')}]`,
    headers: { [HEADER_ACCEPTED_PROTOCOL_VERSIONS]: [...serverProtocols] },
  };
}

/** The refusal of a request whose Connection/Upgrade headers do not ask for SPDY/3.1. */
export function missingUpgradeHeaders(req: IncomingMessage): Refusal {
  return { status: 400, message: `unable to upgrade: missing upgrade headers in request: ${goHeaderDump(req.headers)}` };
}

/** Go's %#v of an http.Header (canonical keys, sorted), which is what the kubelet prints. */
function goHeaderDump(headers: IncomingHttpHeaders): string {
  const canonical = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
  const entries = Object.entries(headers)
    .filter(([name]) => name !== 'host')
    .map(([name, value]) => [canonical(name), Array.isArray(value) ? value : [value ?? '']] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `http.Header{${entries.map(([name, values]) => `${JSON.stringify(name)}:[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`).join(', ')}}`;
}

function responseHead(status: number, headers: Record<string, string | string[]>): string {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n`;
  for (const [name, value] of Object.entries(headers)) for (const v of Array.isArray(value) ? value : [value]) head += `${name}: ${v}\r\n`;
  return head + '\r\n';
}

/** Writes a refusal as http.Error on the raw socket of an upgrade and hangs up. */
export function refuseUpgrade(socket: Duplex, refusal: Refusal): UpgradeRejectedError {
  const body = Buffer.from(refusal.message + '\n');
  if (socket.writable) {
    socket.end(
      responseHead(refusal.status, {
        ...refusal.headers,
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
        'Content-Length': String(body.length),
        Connection: 'close',
      }) + body.toString('utf8'),
    );
  }
  socket.once('finish', () => socket.destroy());
  return new UpgradeRejectedError(refusal.status, refusal.message);
}

/** Writes a refusal as http.Error on an ordinary response (a request that did not upgrade). */
export function refuseResponse(res: ServerResponse, refusal: Refusal): void {
  for (const [name, value] of Object.entries(refusal.headers ?? {})) res.setHeader(name, value);
  res.writeHead(refusal.status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end(refusal.message + '\n');
}

/** The 101 of a SPDY/3.1 upgrade, with the negotiated X-Stream-Protocol-Version. */
export function acceptSpdyUpgrade(socket: Duplex, protocol: string): void {
  socket.write(responseHead(101, { [HEADER_PROTOCOL_VERSION]: protocol, Connection: 'Upgrade', Upgrade: SPDY_31 }));
}

/**
 * Prepares the socket of an 'upgrade' event for a protocol that reads it itself: bytes Node read
 * past the request head go back in front, Nagle is off (frames are small and interactive).
 */
export function takeOverSocket(socket: Duplex, head: Buffer): void {
  if (head.length > 0) socket.unshift(head);
  (socket as Partial<{ setNoDelay(on: boolean): void }>).setNoDelay?.(true);
}
