// The TLS front's HTTP/1 side enforces headersTimeout as Node's server does on plain connections: a
// client that sends its request headers slowly (slowloris) gets 408 and is disconnected; a normal
// request on the same listener is served, and so is a request whose headers arrive in time.
import assert from 'node:assert/strict';
import { connect, type TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { createCA, issueCertificate, type KeyPair } from './pki.js';
import { plainListener, tlsListener, type Listener } from './serve.js';
import { connect as tcpConnect, type Socket } from 'node:net';

const TIMEOUTS = { headersTimeout: 400, connectionsCheckingInterval: 50 };

/** Sends a header line every 100 ms until the server closes (gives up after 5 s); resolves with what came back and when. */
function slowloris(socket: TLSSocket | Socket): Promise<{ answer: string; ms: number }> {
  const t0 = Date.now();
  let answer = '';
  return new Promise((resolve) => {
    socket.write('GET /x HTTP/1.1\r\nHost: localhost\r\n');
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 100);
    const giveUp = setTimeout(() => socket.destroy(), 5000);
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(giveUp);
      resolve({ answer, ms: Date.now() - t0 });
    });
  });
}

describe('HTTP/1 headersTimeout', () => {
  let ca: KeyPair;
  let tls: Listener;
  let plain: Listener;
  let tlsPort = 0;
  let plainPort = 0;
  const handler = (_req: unknown, res: { end(s: string): void }) => res.end('served');

  before(async () => {
    ca = await createCA('serve-test');
    const serving = await issueCertificate(ca, { commonName: 'localhost', usage: 'server', dnsNames: ['localhost'], ips: ['127.0.0.1'] });
    tls = tlsListener({ cert: serving.cert, key: serving.key }, handler as never, TIMEOUTS);
    plain = plainListener(handler as never, TIMEOUTS);
    tlsPort = (await tls.listen(0, '127.0.0.1')).port;
    plainPort = (await plain.listen(0, '127.0.0.1')).port;
  });
  after(async () => {
    await tls.close();
    await plain.close();
  });

  const tlsSocket = () =>
    new Promise<TLSSocket>((resolve, reject) => {
      const s = connect({ port: tlsPort, host: '127.0.0.1', servername: 'localhost', ca: ca.cert, ALPNProtocols: ['http/1.1'] }, () => resolve(s));
      s.once('error', reject);
    });

  it('cuts a TLS client whose headers never end, with 408, as a plain one', async () => {
    const overTls = await slowloris(await tlsSocket());
    assert.match(overTls.answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.ok(overTls.ms >= TIMEOUTS.headersTimeout, `cut after ${overTls.ms} ms`);
    const overTcp = await slowloris(tcpConnect(plainPort, '127.0.0.1'));
    assert.match(overTcp.answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('serves requests whose headers arrive in time, also slowly within the limit', async () => {
    const socket = await tlsSocket();
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.write('GET /x HTTP/1.1\r\nHost: localhost\r\n');
    await new Promise((r) => setTimeout(r, 150));
    socket.write('Connection: close\r\n\r\n');
    await new Promise((r) => socket.on('close', r));
    assert.match(answer, /^HTTP\/1\.1 200 OK\r\n[\s\S]*served$/);
  });
});
