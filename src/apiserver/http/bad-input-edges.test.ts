// Bad input at the API server's edges, over TLS with HTTP/1.1 and HTTP/2 (an in-process server):
// 10 MiB of request headers, bodies just over the 3 MiB limit, 10,000 nested arrays, a body that
// trickles (slowloris), a connection half-closed mid-body, floods of HTTP/2 streams and of
// RST_STREAM ("rapid reset"). Each is answered with a Status or its connection closed, within a
// generous bound, and meanwhile another client still gets answers.
import assert from 'node:assert/strict';
import { connect as http2Connect, constants as h2, type ClientHttp2Session } from 'node:http2';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../server.js';
import { createCA, issueCertificate, type KeyPair } from '../tls/pki.js';
import { MAX_REQUEST_BODY_BYTES } from './body.js';

/** Generous: every attack must be over (answered or cut) well within this, even on a loaded machine. */
const BOUND_MS = 60_000;
const MiB = 1024 * 1024;

let ca: KeyPair;
let server: ApiServer;
let port = 0;

function within<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not over within ${BOUND_MS} ms`)), BOUND_MS)));
  return Promise.race([p, bound]).finally(() => clearTimeout(timer));
}

function tlsSocket(alpn: string): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ port, host: '127.0.0.1', servername: 'localhost', ca: ca.cert, ALPNProtocols: [alpn] }, () => resolve(s));
    s.once('error', reject);
  });
}

/** What the server sent on a raw HTTP/1.1 connection until it closed it. */
function collect(socket: TLSSocket): Promise<string> {
  let answer = '';
  socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
  socket.on('error', () => {});
  return new Promise((resolve) => socket.once('close', () => resolve(answer)));
}

function h2Session(): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const s = http2Connect(`https://localhost:${port}`, { ca: ca.cert, host: '127.0.0.1' } as never);
    s.once('remoteSettings', () => resolve(s));
    s.once('error', reject);
  });
}

interface H2Answer {
  status: number;
  body: string;
}
function h2Request(session: ClientHttp2Session, headers: Record<string, string>, body?: Buffer | string): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request(headers);
    let status = 0;
    let text = '';
    req.on('response', (h) => (status = Number(h[':status'])));
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => resolve({ status, body: text }));
    req.on('error', reject);
    req.end(body);
  });
}

/** Another client's list, on its own connection: it must be answered while an attack goes on. */
async function anotherClientIsServed(): Promise<void> {
  const session = await h2Session();
  try {
    const a = await h2Request(session, { ':method': 'GET', ':path': '/api/v1/namespaces/default/configmaps' });
    assert.equal(a.status, 200, a.body);
  } finally {
    session.close();
  }
}

/** Runs `attack` and, while it goes on, another client; both must be over within the bound. */
async function duringAttack<T>(what: string, attack: () => Promise<T>): Promise<T> {
  const running = attack();
  await within(`${what}: another client`, anotherClientIsServed());
  return within(what, running);
}

function assertStatus(answer: string | H2Answer, code: number): void {
  const body = typeof answer === 'string' ? answer.slice(answer.indexOf('\r\n\r\n') + 4) : answer.body;
  const status = typeof answer === 'string' ? Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]) : answer.status;
  assert.equal(status, code, typeof answer === 'string' ? answer.slice(0, 300) : answer.body.slice(0, 300));
  const parsed = JSON.parse(body) as { kind?: string; code?: number };
  assert.equal(parsed.kind, 'Status');
  assert.equal(parsed.code, code);
}

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const configMapJson = (data: string) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"edge"},"data":${data}}`;

describe('bad input at the API server edges (HTTP/1.1 and HTTP/2 over TLS)', () => {
  before(async () => {
    ca = await createCA('bad-input-edges');
    const serving = await issueCertificate(ca, { commonName: 'localhost', usage: 'server', dnsNames: ['localhost'], ips: ['127.0.0.1'] });
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, tls: { cert: serving.cert, key: serving.key } });
    port = Number(new URL(server.url).port);
  });
  after(() => server.close());

  it('HTTP/1.1: 10 MiB of headers get 431 and the connection closed; memory stays bounded', async () => {
    const rssBefore = process.memoryUsage().rss;
    const answer = await duringAttack('10 MiB of headers', async () => {
      const socket = await tlsSocket('http/1.1');
      const answered = collect(socket);
      socket.write(`GET ${CONFIGMAPS} HTTP/1.1\r\nHost: localhost\r\n`);
      const line = `X-Filler: ${'a'.repeat(1000)}\r\n`;
      for (let sent = 0; sent < 10 * MiB && socket.writable; sent += line.length * 64) socket.write(line.repeat(64));
      return answered;
    });
    assert.match(answer, /^HTTP\/1\.1 431 /);
    // The server never holds the headers: far less than 10 MiB per attempt (plenty of slack for the GC).
    assert.ok(process.memoryUsage().rss - rssBefore < 256 * MiB);
  });

  it('HTTP/2: 10 MiB of headers are refused (431, or the stream or session reset)', async () => {
    const outcome = await duringAttack('HTTP/2 10 MiB of headers', async () => {
      const session = await h2Session();
      session.on('error', () => {});
      try {
        const a = await h2Request(session, { ':method': 'GET', ':path': CONFIGMAPS, 'x-filler': 'a'.repeat(10 * MiB) });
        return String(a.status);
      } catch (e) {
        return (e as NodeJS.ErrnoException).code ?? 'error';
      } finally {
        session.destroy();
      }
    });
    assert.notEqual(outcome, '200');
  });

  it('bodies just over the limit get 413, declared or chunked, on HTTP/1.1 and HTTP/2', async () => {
    const over = Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1, 0x20);
    const declared = await duringAttack('declared body over the limit', async () => {
      const socket = await tlsSocket('http/1.1');
      const answered = collect(socket);
      socket.write(`POST ${CONFIGMAPS} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${over.length}\r\nConnection: close\r\n\r\n`);
      socket.end(over);
      return answered;
    });
    assertStatus(declared, 413);
    const chunked = await duringAttack('chunked body over the limit', async () => {
      const socket = await tlsSocket('http/1.1');
      const answered = collect(socket);
      socket.write(`POST ${CONFIGMAPS} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`);
      socket.end(`${over.length.toString(16)}\r\n${over.toString('latin1')}\r\n0\r\n\r\n`);
      return answered;
    });
    assertStatus(chunked, 413);
    const overH2 = await duringAttack('HTTP/2 body over the limit', async () => {
      const session = await h2Session();
      try {
        return await h2Request(session, { ':method': 'POST', ':path': CONFIGMAPS, 'content-type': 'application/json' }, over);
      } finally {
        session.close();
      }
    });
    assertStatus(overH2, 413);
  });

  it('10,000 nested arrays get 400 and create nothing', async () => {
    const session = await h2Session();
    try {
      const deep = configMapJson(`{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
      const a = await duringAttack('10,000 nested arrays', () => h2Request(session, { ':method': 'POST', ':path': CONFIGMAPS, 'content-type': 'application/json' }, deep));
      assertStatus(a, 400);
      const patch = await h2Request(session, { ':method': 'PATCH', ':path': `${CONFIGMAPS}/edge`, 'content-type': 'application/merge-patch+json' }, `{"data":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
      assert.ok(patch.status === 400 || patch.status === 404, `${patch.status} ${patch.body.slice(0, 200)}`);
      const get = await h2Request(session, { ':method': 'GET', ':path': `${CONFIGMAPS}/edge` });
      assert.equal(get.status, 404);
    } finally {
      session.close();
    }
  });

  it('a body that trickles is cut at the request deadline with 504, and the connection closed', async () => {
    const answer = await duringAttack('slowloris body', async () => {
      const socket = await tlsSocket('http/1.1');
      const answered = collect(socket);
      const body = configMapJson('{"k":"v"}');
      socket.write(`POST ${CONFIGMAPS}?timeout=1s HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      let i = 0;
      const drip = setInterval(() => (socket.writable && i < body.length - 1 ? socket.write(body[i++]!) : undefined), 100);
      return answered.finally(() => clearInterval(drip));
    });
    assertStatus(answer, 504);
  });

  it('a connection half-closed mid-body is answered or closed, and nothing is created', async () => {
    const answer = await duringAttack('half-closed connection', async () => {
      const socket = await tlsSocket('http/1.1');
      const answered = collect(socket);
      const body = configMapJson('{"k":"v"}');
      socket.write(`POST ${CONFIGMAPS} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      socket.end(body.slice(0, 20));
      return answered;
    });
    if (answer !== '') assert.match(answer, /^HTTP\/1\.1 4\d\d /);
    const session = await h2Session();
    assert.equal((await h2Request(session, { ':method': 'GET', ':path': `${CONFIGMAPS}/edge` })).status, 404);
    session.close();
  });

  it('HTTP/2: 100 concurrent streams per connection, as kube-apiserver; a flood of 1,000 requests on one connection is served in turn', async () => {
    const session = await h2Session();
    try {
      assert.equal(session.remoteSettings.maxConcurrentStreams, 100);
      const statuses = await duringAttack('stream flood', () =>
        Promise.all(Array.from({ length: 1000 }, () => h2Request(session, { ':method': 'GET', ':path': CONFIGMAPS }).then((a) => a.status, (e: NodeJS.ErrnoException) => e.code ?? 'error'))),
      );
      assert.ok(statuses.every((s) => s === 200 || s === 'ERR_HTTP2_STREAM_ERROR'), JSON.stringify([...new Set(statuses)]));
    } finally {
      session.destroy();
    }
  });

  it('HTTP/2 rapid reset: 10,000 streams opened and cancelled at once end that connection or are absorbed, and others are served', async () => {
    const closed = await duringAttack('rapid reset', async () => {
      const session = await h2Session();
      session.on('error', () => {});
      const ended = new Promise<boolean>((resolve) => session.once('close', () => resolve(true)));
      for (let i = 0; i < 10_000 && !session.closed && !session.destroyed; i++) {
        const req = session.request({ ':method': 'GET', ':path': CONFIGMAPS });
        req.on('error', () => {});
        req.close(h2.NGHTTP2_CANCEL);
        if (i % 500 === 499) await new Promise((r) => setImmediate(r));
      }
      // Whatever the server made of it, a normal request on the same connection is answered or refused.
      const after = await h2Request(session, { ':method': 'GET', ':path': CONFIGMAPS }).then((a) => a.status, () => 0);
      session.destroy();
      await ended;
      return after;
    });
    assert.ok(closed === 200 || closed === 0, String(closed));
    await anotherClientIsServed();
  });
});
