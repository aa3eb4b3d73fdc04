// WebSocket upgrades: subprotocol negotiation as golang.org/x/net/websocket does it for the kubelet
// (the first protocol the client lists that the server serves; no protocol at all counts as ""),
// a 403 for none, and a Duplex over binary messages for protocols that tunnel a byte stream
// (SPDY/3.1+portforward.k8s.io).
import type { IncomingMessage } from 'node:http';
import { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { refuseUpgrade } from './upgrade.js';

/** Messages bigger than this close the connection (1009); a stream never needs one that big. */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

let server: WebSocketServer | undefined;

function webSocketServer(): WebSocketServer {
  server ??= new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    // The protocol is chosen before the handshake (see acceptWebSocket) and carried on the request.
    handleProtocols: (_offered, req) => (req as IncomingMessage & { chosenProtocol?: string }).chosenProtocol || false,
  });
  return server;
}

export function offeredProtocols(req: IncomingMessage): string[] {
  return (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter((p) => p.length > 0);
}

/** Completes the WebSocket handshake with the first offered protocol in `supported`, or refuses it with 403. */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, head: Buffer, supported: readonly string[]): Promise<{ ws: WebSocket; protocol: string }> {
  const offered = offeredProtocols(req);
  const protocol = (offered.length === 0 ? [''] : offered).find((p) => supported.includes(p));
  if (protocol === undefined) {
    const shown = supported.filter((p) => p !== '');
    return Promise.reject(refuseUpgrade(socket, { status: 403, message: `requested protocol(s) are not supported: [${offered.join(' ')}]; supports [${shown.join(' ')}]` }));
  }
  (req as IncomingMessage & { chosenProtocol?: string }).chosenProtocol = protocol;
  // ws refuses subprotocols that are not RFC 7230 tokens, and SPDY/3.1+portforward.k8s.io has a
  // '/': having chosen already, it is shown a token and answers with the real name.
  if (protocol !== '') req.headers['sec-websocket-protocol'] = 'chosen';
  return new Promise((resolve, reject) => {
    const onClose = () => reject(new Error('the client closed the connection during the WebSocket handshake'));
    socket.once('close', onClose);
    webSocketServer().handleUpgrade(req, socket, head, (ws) => {
      socket.off('close', onClose);
      resolve({ ws, protocol });
    });
  });
}

/**
 * The bytes of binary messages as a stream, each write one message: how client-go's
 * TunnelingConnection carries SPDY inside a WebSocket. Ending it closes the WebSocket normally.
 */
export function webSocketDuplex(ws: WebSocket): Duplex {
  const duplex = new Duplex({
    allowHalfOpen: false,
    read() {
      ws.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      if (ws.readyState !== WebSocket.OPEN) {
        callback(new Error('WebSocket is closed'));
        return;
      }
      ws.send(chunk, { binary: true }, (err) => callback(err ?? null));
    },
    final(callback) {
      if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      callback();
    },
    destroy(error, callback) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate();
      callback(error);
    },
  });
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (!isBinary) {
      duplex.destroy(new Error('invalid message type received'));
      return;
    }
    if (!duplex.push(data)) ws.pause();
  });
  ws.on('close', () => duplex.push(null));
  ws.on('error', (err) => duplex.destroy(err));
  return duplex;
}
