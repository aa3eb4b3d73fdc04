// The API server's SPDY-in-WebSocket tunnel with a real WebSocket client (ws) on one side and a
// TCP connection standing for the kubelet's upgraded SPDY connection on the other.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { joinTunnel, spdyUpgradeHeaders, tunneledSpdyProtocols, tunnelProtocol, webSocketAccept, webSocketHandshakeError } from './tunnel.js';

const PROTOCOL = 'SPDY/3.1+portforward.k8s.io';
/** ws refuses to offer a subprotocol with a '/' (not an RFC 7230 token): its client offers this one. */
const CLIENT_PROTOCOL = 'portforward.k8s.io';

const portOf = (server: { address(): unknown }) => (server.address() as { port: number }).port;

interface Tunnel {
  client: WebSocket;
  /** The kubelet's end of the tunnelled connection. */
  kubelet: Socket;
  /** Settles when the relay has let go of both connections. */
  joined: Promise<void>;
  close(): void;
}

/** A "kubelet" listener, an "API server" tunnelling every upgrade to it, and a ws client through both. */
async function tunnel(): Promise<Tunnel> {
  const kubeletSide = createServer();
  kubeletSide.listen(0, '127.0.0.1');
  await once(kubeletSide, 'listening');
  const kubeletConnection = once(kubeletSide, 'connection') as Promise<[Socket]>;
  let joined!: Promise<void>;
  const api = createHttpServer();
  const relayed = new Promise<void>((resolve) =>
    api.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      const upstream = connect(portOf(kubeletSide), '127.0.0.1', () => {
        socket.write(webSocketAccept(req, CLIENT_PROTOCOL));
        joined = joinTunnel(socket, head, upstream, Buffer.alloc(0));
        resolve();
      });
    }),
  );
  api.listen(0, '127.0.0.1');
  await once(api, 'listening');
  const client = new WebSocket(`ws://127.0.0.1:${portOf(api)}/`, [CLIENT_PROTOCOL]);
  await once(client, 'open');
  await relayed;
  const [kubelet] = await kubeletConnection;
  return {
    client,
    kubelet,
    joined,
    close: () => {
      client.terminate();
      api.close();
      kubeletSide.close();
    },
  };
}

/** Reads `n` bytes from a socket. */
async function bytes(socket: Socket, n: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let have = 0;
  for await (const chunk of socket as AsyncIterable<Buffer>) {
    parts.push(chunk);
    have += chunk.length;
    if (have >= n) break;
  }
  return Buffer.concat(parts);
}

test('binary messages reach the kubelet as bytes and its bytes come back as binary messages', async () => {
  const t = await tunnel();
  try {
    assert.equal(t.client.protocol, CLIENT_PROTOCOL);
    const sent = [randomBytes(3), randomBytes(40_000), randomBytes(200_000)];
    const arriving = new Promise<Buffer>((resolve) => {
      const parts: Buffer[] = [];
      t.kubelet.on('data', (d: Buffer) => {
        parts.push(d);
        if (Buffer.concat(parts).length === 240_003) resolve(Buffer.concat(parts));
      });
    });
    for (const m of sent) t.client.send(m);
    assert.deepEqual(await arriving, Buffer.concat(sent));

    const back = randomBytes(100_000);
    const received: Buffer[] = [];
    const allBack = new Promise<void>((resolve) =>
      t.client.on('message', (data: Buffer, isBinary: boolean) => {
        assert.equal(isBinary, true);
        received.push(data);
        if (Buffer.concat(received).length === back.length) resolve();
      }),
    );
    t.kubelet.write(back);
    await allBack;
    assert.deepEqual(Buffer.concat(received), back);
  } finally {
    t.close();
  }
});

test('a ping is answered; a close from the client is answered and ends the kubelet connection', async () => {
  const t = await tunnel();
  try {
    const pong = once(t.client, 'pong');
    t.client.ping(Buffer.from('hi'));
    assert.equal(((await pong) as [Buffer])[0].toString(), 'hi');
    const kubeletEnded = once(t.kubelet, 'end');
    const closed = once(t.client, 'close');
    t.client.close(1000);
    assert.equal(((await closed) as [number])[0], 1000);
    await kubeletEnded;
    await t.joined;
  } finally {
    t.close();
  }
});

test("the kubelet's end closes the WebSocket normally, after what it sent", async () => {
  const t = await tunnel();
  try {
    const last: Buffer[] = [];
    t.client.on('message', (d: Buffer) => last.push(d));
    const closed = once(t.client, 'close');
    t.kubelet.end(Buffer.from('goodbye'));
    assert.equal(((await closed) as [number])[0], 1000);
    assert.equal(Buffer.concat(last).toString(), 'goodbye');
    await t.joined;
  } finally {
    t.close();
  }
});

test('a text message closes the tunnel with 1003, as client-go reads binary messages only', async () => {
  const t = await tunnel();
  try {
    const closed = once(t.client, 'close');
    t.client.send('text');
    assert.equal(((await closed) as [number])[0], 1003);
    const seen = await bytes(t.kubelet, 1).catch(() => Buffer.alloc(0));
    assert.equal(seen.length, 0);
    await t.joined;
  } finally {
    t.close();
  }
});

test('the request to the kubelet is a SPDY upgrade with the tunnelled protocols', () => {
  const req = {
    method: 'GET',
    headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-protocol': 'v4.channel.k8s.io, SPDY/3.1+portforward.k8s.io', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
  } as unknown as IncomingMessage;
  assert.deepEqual(tunneledSpdyProtocols(req), ['portforward.k8s.io']);
  assert.equal(webSocketHandshakeError(req), undefined);
  assert.deepEqual(spdyUpgradeHeaders({ ...req.headers } as Record<string, string>, ['portforward.k8s.io']), { connection: 'Upgrade', upgrade: 'SPDY/3.1', 'x-stream-protocol-version': ['portforward.k8s.io'] });
  // RFC 6455's own example key and answer
  assert.match(webSocketAccept(req, PROTOCOL), /\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK\+xOo=\r\nSec-WebSocket-Protocol: SPDY\/3\.1\+portforward\.k8s\.io\r\n\r\n$/);
  assert.equal(tunnelProtocol({ headers: { connection: 'Upgrade', upgrade: 'SPDY/3.1', 'x-stream-protocol-version': 'portforward.k8s.io' } }), PROTOCOL);
  assert.throws(() => tunnelProtocol({ headers: { connection: 'close' } }), /missing upgrade headers in response/);
  const bad = (headers: Record<string, string>, method = 'GET') => webSocketHandshakeError({ method, headers: { ...req.headers, ...headers } } as unknown as IncomingMessage)?.message;
  assert.match(bad({ 'sec-websocket-version': '8' }) ?? '', /unsupported version/);
  assert.match(bad({ 'sec-websocket-key': 'short' }) ?? '', /Sec-WebSocket-Key/);
  assert.match(bad({}, 'POST') ?? '', /request method is not GET/);
});
