// HTTP/1.1 upgrade requests (exec, attach and port-forward over SPDY or WebSocket) go through the
// same handler as every request: authentication, authorization and the pod lookup answer errors
// through an ordinary response written to the socket, and a handler that proxies the upgrade takes
// the socket (and the bytes already read past the headers) with takeUpgrade().
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const UPGRADE = Symbol('kubelite.upgrade');

interface Upgradable {
  [UPGRADE]?: { socket: Duplex; head: Buffer; taken: boolean };
}

/** Wraps an 'upgrade' event as a request and a response on its socket. */
export function upgradeAsRequest(req: IncomingMessage, socket: Duplex, head: Buffer, handler: (req: IncomingMessage, res: ServerResponse) => void): void {
  (req as IncomingMessage & Upgradable)[UPGRADE] = { socket, head, taken: false };
  const res = new ServerResponse(req);
  res.assignSocket(socket as never);
  // An answer without the upgrade ends the connection: the client is waiting for 101 or an error.
  res.shouldKeepAlive = false;
  socket.on('error', () => socket.destroy());
  res.on('finish', () => {
    if (!(req as IncomingMessage & Upgradable)[UPGRADE]!.taken) socket.end();
  });
  handler(req, res);
}

/** Whether the request asked to upgrade its connection (HTTP/1.1 `Connection: Upgrade`). */
export function isUpgrade(req: IncomingMessage): boolean {
  return (req as IncomingMessage & Upgradable)[UPGRADE] !== undefined;
}

/** Whether the request's connection was taken over (the upgrade went through to a handler). */
export function upgradeTaken(req: IncomingMessage): boolean {
  return (req as IncomingMessage & Upgradable)[UPGRADE]?.taken === true;
}

/** The socket of an upgrade request, taken over by the caller (undefined: not an upgrade). */
export function takeUpgrade(req: IncomingMessage, res: ServerResponse): { socket: Duplex; head: Buffer } | undefined {
  const u = (req as IncomingMessage & Upgradable)[UPGRADE];
  if (!u || u.taken) return undefined;
  u.taken = true;
  res.detachSocket(u.socket as never);
  return { socket: u.socket, head: u.head };
}
