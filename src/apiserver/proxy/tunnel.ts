// kubectl ≥ 1.31 runs port-forward's SPDY/3.1 inside WebSocket binary messages (subprotocol
// SPDY/3.1+portforward.k8s.io); a kubelet speaks SPDY. As kube-apiserver's TunnelingHandler
// (feature PortForwardWebsockets, on since 1.31): the API server asks the kubelet for a SPDY
// upgrade with the tunnelled protocols, and once it answers 101 completes the client's WebSocket
// handshake with the protocol the kubelet chose, then carries the SPDY bytes across: what the
// kubelet sends goes to the client one binary message per chunk, what the client sends is
// unframed and written on as it is read.
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { forward, untilEitherCloses } from '../../machinery/streams/forward.js';
import { ClientFrameReader, CloseCode, closePayload, frame, frameHeader, Opcode, WebSocketProtocolError } from '../../machinery/streams/websocket-frames.js';
import { StatusError } from '../../machinery/status.js';

const TUNNELING_PREFIX = 'SPDY/3.1+';
const KUBERNETES_SUFFIX = '.k8s.io';
const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

const headerList = (v: string | string[] | undefined): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((x) => x.split(',')).map((x) => x.trim()).filter((x) => x !== '');

/** The SPDY protocols a WebSocket request tunnels (its `SPDY/3.1+<name>.k8s.io` subprotocols, the prefix taken off). */
export function tunneledSpdyProtocols(req: IncomingMessage): string[] {
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return [];
  return headerList(req.headers['sec-websocket-protocol'])
    .filter((p) => p.startsWith(TUNNELING_PREFIX) && p.endsWith(KUBERNETES_SUFFIX))
    .map((p) => p.slice(TUNNELING_PREFIX.length));
}

/**
 * What gorilla/websocket's Upgrader refuses once the kubelet has said yes (the request already
 * asks for a WebSocket): checked before the kubelet is asked, so that no SPDY connection is
 * opened for a handshake that cannot complete.
 */
export function webSocketHandshakeError(req: IncomingMessage): StatusError | undefined {
  if (req.method !== 'GET') return new StatusError(405, 'MethodNotAllowed', 'websocket: the client is not using the websocket protocol: request method is not GET');
  if (!headerList(req.headers['sec-websocket-version']).includes('13')) return StatusError.badRequest("websocket: unsupported version: 13 not found in 'Sec-Websocket-Version' header");
  const key = req.headers['sec-websocket-key'] ?? '';
  if (!/^[A-Za-z0-9+/]{22}==$/.test(key.trim())) return StatusError.badRequest("websocket: not a websocket handshake: 'Sec-WebSocket-Key' header must be Base64 encoded value of 16-byte in length");
  return undefined;
}

/** The kubelet's request: the client's headers with the WebSocket ones replaced by a SPDY/3.1 upgrade (createSPDYRequest). */
export function spdyUpgradeHeaders(headers: Record<string, string | string[]>, spdyProtocols: readonly string[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (k === 'sec-websocket-protocol' || k === 'sec-websocket-key' || k === 'sec-websocket-version' || k === 'upgrade' || k === 'x-stream-protocol-version') continue;
    out[k] = v;
  }
  out['upgrade'] = 'SPDY/3.1';
  out['x-stream-protocol-version'] = [...spdyProtocols];
  return out;
}

/** The kubelet's 101 must be a SPDY/3.1 upgrade; the WebSocket protocol the client gets is the SPDY one it chose, tunnelled. */
export function tunnelProtocol(kubelet: { headers: IncomingHttpHeaders }): string {
  const connection = String(kubelet.headers.connection ?? '').toLowerCase();
  const upgrade = String(kubelet.headers.upgrade ?? '').toLowerCase();
  if (!connection.includes('upgrade') || !upgrade.includes('spdy/3.1')) throw StatusError.internal('unable to upgrade: missing upgrade headers in response');
  const chosen = String(kubelet.headers['x-stream-protocol-version'] ?? '').trim();
  return chosen === '' ? '' : TUNNELING_PREFIX + chosen;
}

/** The 101 completing the client's handshake. */
export function webSocketAccept(req: IncomingMessage, protocol: string): string {
  const accept = createHash('sha1')
    .update((req.headers['sec-websocket-key'] ?? '').trim() + WEBSOCKET_GUID)
    .digest('base64');
  let head = `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n`;
  if (protocol !== '') head += `Sec-WebSocket-Protocol: ${protocol}\r\n`;
  return `${head}\r\n`;
}

/**
 * Carries SPDY between the client's WebSocket and the kubelet's upgraded connection until either
 * side goes: a close frame from the client is answered and ends both, the kubelet's end closes
 * the WebSocket normally (the tunnel's Close), a frame breaking the protocol closes it with 1002
 * (1003 for a text message: client-go's tunnel reads binary messages only).
 */
export function joinTunnel(client: Duplex, clientHead: Buffer, kubelet: Duplex, kubeletHead: Buffer): Promise<void> {
  const { closed, close } = untilEitherCloses(client, kubelet);
  let open = true;
  /** Sends the close frame and ends the kubelet's side; both go once what is queued is out. */
  const hangUp = (code: number, reason = '') => {
    if (!open) return;
    open = false;
    let pending = 2;
    const flushed = () => {
      if (--pending === 0) close();
    };
    client.end(frame(Opcode.Close, closePayload(code, reason)), flushed);
    kubelet.end(flushed);
  };
  const reader = new ClientFrameReader({
    data: (payload, opcode) => {
      if (opcode !== Opcode.Binary) throw new UnsupportedMessage();
      kubelet.write(payload);
    },
    control: (opcode, payload) => {
      if (opcode === Opcode.Ping) client.write(frame(Opcode.Pong, payload));
      else if (opcode === Opcode.Close) hangUp(payload.length >= 2 ? payload.readUInt16BE(0) : CloseCode.Normal);
    },
  });
  const unframe = (chunk: Buffer) => {
    if (!open) return;
    try {
      reader.push(chunk);
    } catch (e) {
      if (e instanceof UnsupportedMessage) hangUp(CloseCode.UnsupportedData, 'invalid message type received');
      else if (e instanceof WebSocketProtocolError) hangUp(CloseCode.ProtocolError, e.message);
      else throw e;
    }
  };
  if (clientHead.length > 0) client.unshift(clientHead);
  if (kubeletHead.length > 0) kubelet.unshift(kubeletHead);
  forward(client, kubelet, { write: unframe });
  forward(kubelet, client, {
    write: (chunk, to) => {
      to.write(frameHeader(Opcode.Binary, chunk.length));
      to.write(chunk);
    },
    end: () => hangUp(CloseCode.Normal),
  });
  return closed;
}

class UnsupportedMessage extends Error {}
