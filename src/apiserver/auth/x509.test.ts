// The HTTPS transport and client certificate authentication, in process: HTTP/1.1 and HTTP/2 (by
// ALPN), CN/O as user and groups, untrusted and expired certificates refused with 401 (not at the
// handshake), header limits (431) on both protocols, watches streamed over HTTP/2.
import assert from 'node:assert/strict';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../server.js';
import { createCA, issueCertificate, servingNames, type KeyPair } from '../tls/pki.js';
import type { Attributes, Authorizer, UserInfo } from './types.js';
import { X509Authenticator } from './x509.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP/1.1 request on a fresh TLS connection. */
function h1(url: string, ca: string, path: string, opts: { client?: KeyPair; headers?: Record<string, string>; method?: string; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const u = new URL(path, url);
    const options: RequestOptions = { method: opts.method ?? 'GET', ca, cert: opts.client?.cert, key: opts.client?.key, headers: { accept: 'application/json', ...opts.headers }, agent: false };
    const req = httpsRequest(u, options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

function h2session(url: string, ca: string, client?: KeyPair): ClientHttp2Session {
  return http2Connect(url, { ca, cert: client?.cert, key: client?.key, maxSendHeaderBlockLength: 1 << 20 });
}

function h2(session: ClientHttp2Session, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path, accept: 'application/json', ...headers });
    let replyHeaders: Record<string, string | string[] | undefined> = {};
    let body = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => (replyHeaders = h as Record<string, string | string[] | undefined>));
    stream.on('data', (d: string) => (body += d));
    stream.on('end', () => resolve({ status: Number(replyHeaders[':status']), headers: replyHeaders, body }));
    stream.on('error', reject);
    stream.end();
  });
}

describe('HTTPS with client certificates', () => {
  let server: ApiServer;
  let ca: KeyPair;
  let admin: KeyPair;
  let jane: KeyPair;
  let foreign: KeyPair;
  let expired: KeyPair;
  const seen: UserInfo[] = [];
  // Records who each request was authorized as.
  const recorder: Authorizer = {
    authorize(attrs: Attributes) {
      seen.push(attrs.user);
      return { decision: 'allow', reason: '' };
    },
  };

  before(async () => {
    ca = await createCA('test-ca');
    const otherCA = await createCA('other-ca');
    const serving = await issueCertificate(ca, { commonName: 'kube-apiserver', usage: 'server', ...servingNames('127.0.0.1') });
    admin = await issueCertificate(ca, { commonName: 'kubernetes-admin', organizations: ['system:masters'], usage: 'client' });
    jane = await issueCertificate(ca, { commonName: 'jane', organizations: ['dev', 'ops'], usage: 'client' });
    foreign = await issueCertificate(otherCA, { commonName: 'kubernetes-admin', organizations: ['system:masters'], usage: 'client' });
    const day = 86_400_000;
    expired = await issueCertificate(ca, { commonName: 'old', usage: 'client', notBefore: new Date(Date.now() - 10 * day), notAfter: new Date(Date.now() - day) });
    server = await startApiServer({
      storage: 'memory',
      port: 0,
      log: () => {},
      tls: { cert: serving.cert, key: serving.key, clientCA: ca.cert },
      authentication: { authenticators: [new X509Authenticator()], anonymous: true },
      authorizer: recorder,
    });
  });
  after(() => server?.close());

  const last = () => seen[seen.length - 1]!;

  it('serves https; CN is the user and each O a group, plus system:authenticated', async () => {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const r = await h1(server.url, ca.cert, '/api/v1/namespaces/default', { client: jane });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(last(), { name: 'jane', groups: ['dev', 'ops', 'system:authenticated'] });
  });

  it('no certificate: anonymous', async () => {
    const r = await h1(server.url, ca.cert, '/version');
    assert.equal(r.status, 200);
    assert.equal(last().name, 'system:anonymous');
  });

  it('a certificate from another CA or an expired one: 401 Status, the handshake itself succeeds', async () => {
    for (const client of [foreign, expired]) {
      const before = seen.length;
      const r = await h1(server.url, ca.cert, '/api/v1/namespaces', { client });
      assert.equal(r.status, 401, r.body);
      const status = JSON.parse(r.body);
      assert.deepEqual([status.kind, status.reason, status.message, status.code], ['Status', 'Unauthorized', 'Unauthorized', 401]);
      assert.equal(seen.length, before, 'never reaches authorization');
    }
  });

  it('speaks HTTP/2 when the client offers it, with the same authentication per connection', async () => {
    const session = h2session(server.url, ca.cert, jane);
    try {
      const [a, b] = await Promise.all([h2(session, '/api/v1/namespaces/default'), h2(session, '/api/v1/namespaces')]);
      assert.equal(a.status, 200, a.body);
      assert.equal(b.status, 200, b.body);
      assert.deepEqual(last(), { name: 'jane', groups: ['dev', 'ops', 'system:authenticated'] });
      const foreignSession = h2session(server.url, ca.cert, foreign);
      try {
        assert.equal((await h2(foreignSession, '/api/v1/namespaces')).status, 401);
      } finally {
        foreignSession.close();
      }
    } finally {
      session.close();
    }
  });

  it('streams watch events over HTTP/2 as they happen', async () => {
    const session = h2session(server.url, ca.cert, admin);
    try {
      const stream = session.request({ ':path': '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0', accept: 'application/json' });
      stream.setEncoding('utf8');
      let text = '';
      const gotEvent = new Promise<void>((resolve, reject) => {
        stream.on('data', (d: string) => {
          text += d;
          if (text.includes('"name":"watched"')) resolve();
        });
        stream.on('error', reject);
      });
      const status = await new Promise<number>((resolve) => stream.on('response', (h) => resolve(Number(h[':status']))));
      assert.equal(status, 200);
      const created = await h1(server.url, ca.cert, '/api/v1/namespaces/default/configmaps', {
        client: admin,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' } }),
      });
      assert.equal(created.status, 201, created.body);
      await gotEvent;
      assert.match(text.split('\n')[0]!, /^\{"type":"ADDED","object":\{"kind":"ConfigMap"/);
      stream.close();
    } finally {
      session.close();
    }
  });

  it('more than 64 KiB of headers: 431 on HTTP/1.1 and HTTP/2, and the server goes on', async () => {
    const big = { 'x-big': 'a'.repeat(70 * 1024) };
    const one = await h1(server.url, ca.cert, '/version', { headers: big }).catch((err: Error) => ({ status: 0, headers: {}, body: err.message }));
    assert.equal(one.status, 431, one.body);
    const session = h2session(server.url, ca.cert);
    try {
      assert.equal((await h2(session, '/version', big)).status, 431);
      assert.equal((await h2(session, '/version')).status, 200, 'the same connection still serves');
    } finally {
      session.close();
    }
    assert.equal((await h1(server.url, ca.cert, '/version')).status, 200);
  });

  it('a body over 3 MiB on HTTP/2: 413 Status', async () => {
    const session = h2session(server.url, ca.cert, admin);
    try {
      const reply = await new Promise<Reply>((resolve, reject) => {
        const stream = session.request({ ':path': '/api/v1/namespaces/default/configmaps', ':method': 'POST', 'content-type': 'application/json' });
        let headers: Record<string, string | string[] | undefined> = {};
        let body = '';
        stream.setEncoding('utf8');
        stream.on('response', (h) => (headers = h as Record<string, string | string[] | undefined>));
        stream.on('data', (d: string) => (body += d));
        stream.on('end', () => resolve({ status: Number(headers[':status']), headers, body }));
        stream.on('error', reject);
        stream.end(Buffer.alloc(4 * 1024 * 1024, 0x20));
      });
      assert.equal(reply.status, 413, reply.body);
      assert.equal(JSON.parse(reply.body).reason, 'RequestEntityTooLarge');
    } finally {
      session.close();
    }
  });
});
