import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { request, type ClientRequest } from 'node:http';
import type { ServerResponse } from 'node:http';
import { after, before, describe, it, mock } from 'node:test';
import { TokenFileAuthenticator } from '../auth/token-file.js';
import { parseRequestInfo } from '../request/request-info.js';
import { startApiServer, type ApiServer } from '../server.js';
import { waitFor } from '../../../test/support/wait.js';
import { InflightLimiter, isLongRunning, MAX_QUEUED, QUEUE_WAIT_LIMIT_MS } from './inflight.js';

/** A response that records what was written and closes on demand. */
class FakeResponse extends EventEmitter {
  status = 0;
  headers: Record<string, unknown> = {};
  body = '';
  setHeader(k: string, v: unknown) {
    this.headers[k.toLowerCase()] = v;
  }
  writeHead(code: number) {
    this.status = code;
  }
  end(body: string) {
    this.body = body;
  }
}

const info = (method: string, path: string) => parseRequestInfo(method, path, new URLSearchParams(path.includes('?') ? path.split('?')[1] : ''));
const jane = { name: 'jane', groups: ['system:authenticated'] };
const master = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };

describe('max in flight', () => {
  it('long-running requests are watches, proxy and the exec/attach/log/portforward subresources', () => {
    assert.equal(isLongRunning(info('GET', '/api/v1/namespaces/a/pods')), false);
    assert.equal(isLongRunning(parseRequestInfo('GET', '/api/v1/namespaces/a/pods', new URLSearchParams('watch=true'))), true);
    for (const sub of ['exec', 'attach', 'log', 'portforward', 'proxy']) assert.equal(isLongRunning(info('GET', `/api/v1/namespaces/a/pods/p/${sub}`)), true, sub);
    assert.equal(isLongRunning(info('GET', '/api/v1/namespaces/a/pods/p/status')), false);
  });

  it('counts read-only and mutating requests apart; a full pool answers 429 with Retry-After: 1 until a place frees', () => {
    const limiter = new InflightLimiter({ readOnly: 2, mutating: 1 });
    const open: FakeResponse[] = [];
    const admit = (method: string, path: string, user = jane) => {
      const res = new FakeResponse();
      const ok = limiter.admit(info(method, path), user, res as unknown as ServerResponse);
      if (ok) open.push(res);
      return { ok, res };
    };
    assert.equal(admit('GET', '/api/v1/namespaces/a/pods').ok, true);
    assert.equal(admit('GET', '/api/v1/namespaces/a/pods/p').ok, true);
    const refused = admit('GET', '/api/v1/namespaces');
    assert.equal(refused.ok, false);
    assert.equal(refused.res.status, 429);
    assert.equal(refused.res.headers['retry-after'], '1');
    assert.equal(refused.res.body, 'Too many requests, please try again later.\n');
    // The mutating pool is its own; a watch is never counted; system:masters is never refused.
    assert.equal(admit('POST', '/api/v1/namespaces/a/pods').ok, true);
    assert.equal(admit('DELETE', '/api/v1/namespaces/a/pods/p').ok, false);
    assert.equal(admit('GET', '/api/v1/namespaces/a/pods?watch=1').ok, true);
    assert.equal(admit('GET', '/api/v1/namespaces', master).ok, true);
    assert.deepEqual(limiter.counts, { readOnly: 2, mutating: 1 });
    open[0]!.emit('close');
    assert.deepEqual(limiter.counts, { readOnly: 1, mutating: 1 });
    assert.equal(admit('GET', '/api/v1/namespaces').ok, true);
  });

  it('0 means no limit', () => {
    const limiter = new InflightLimiter({ readOnly: 0, mutating: 0 });
    for (let i = 0; i < 1000; i++) assert.equal(limiter.admit(info('POST', '/api/v1/namespaces'), jane, new FakeResponse() as unknown as ServerResponse), true);
  });
});

describe('priority and fairness: over the limit, requests wait in a queue', () => {
  const limited = () => new InflightLimiter({ readOnly: 1, mutating: 1, priorityAndFairness: true });
  const admit = (limiter: InflightLimiter, method: string, user = jane) => {
    const res = new FakeResponse();
    return { res, admitted: limiter.admit(info(method, '/api/v1/namespaces/a/configmaps'), user, res as unknown as ServerResponse) };
  };

  it('the limit is both flags together; the next request waits, in order, for a place to free', async () => {
    const limiter = limited();
    const first = admit(limiter, 'POST');
    const second = admit(limiter, 'GET');
    assert.deepEqual([first.admitted, second.admitted], [true, true], 'a read and a write: two places in all');
    const third = admit(limiter, 'POST');
    const fourth = admit(limiter, 'DELETE');
    assert.ok(third.admitted instanceof Promise && fourth.admitted instanceof Promise);
    assert.deepEqual(limiter.queue, { served: 2, waiting: 2 });
    const order: string[] = [];
    void third.admitted.then((ok) => order.push(`third ${ok}`));
    void fourth.admitted.then((ok) => order.push(`fourth ${ok}`));
    first.res.emit('close');
    await waitFor(() => order.length === 1, 'the first waiter admitted');
    assert.deepEqual(order, ['third true']);
    assert.deepEqual(limiter.queue, { served: 2, waiting: 1 });
    second.res.emit('close');
    await waitFor(() => order.length === 2, 'the second waiter admitted');
    assert.deepEqual(order, ['third true', 'fourth true']);
    third.res.emit('close');
    fourth.res.emit('close');
    assert.deepEqual(limiter.queue, { served: 0, waiting: 0 });
    assert.equal(third.res.status, 0, 'nothing written for an admitted request');
  });

  it('system:masters and watches never wait; a client that goes away leaves the queue', async () => {
    const limiter = limited();
    admit(limiter, 'POST');
    admit(limiter, 'POST');
    assert.equal(admit(limiter, 'POST', master).admitted, true);
    assert.equal(limiter.admit(parseRequestInfo('GET', '/api/v1/pods', new URLSearchParams('watch=1')), jane, new FakeResponse() as unknown as ServerResponse), true);
    const waiting = admit(limiter, 'POST');
    assert.deepEqual(limiter.queue, { served: 2, waiting: 1 });
    waiting.res.emit('close');
    assert.equal(await waiting.admitted, false);
    assert.deepEqual(limiter.queue, { served: 2, waiting: 0 });
  });

  it('a full queue refuses at once with 429; a request that waited past the wait limit is refused 429', async () => {
    const limiter = limited();
    admit(limiter, 'POST');
    admit(limiter, 'POST');
    const queued = Array.from({ length: MAX_QUEUED }, () => admit(limiter, 'POST'));
    const over = admit(limiter, 'POST');
    assert.equal(over.admitted, false);
    assert.equal(over.res.status, 429);
    assert.equal(over.res.headers['retry-after'], '1');
    assert.equal(over.res.body, 'Too many requests, please try again later.\n');
    for (const q of queued) q.res.emit('close');
    assert.deepEqual(limiter.queue, { served: 2, waiting: 0 });
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const late = admit(limiter, 'POST');
      mock.timers.tick(QUEUE_WAIT_LIMIT_MS - 1);
      assert.deepEqual(limiter.queue, { served: 2, waiting: 1 });
      mock.timers.tick(1);
      assert.equal(await late.admitted, false);
      assert.equal(late.res.status, 429);
      assert.deepEqual(limiter.queue, { served: 2, waiting: 0 });
    } finally {
      mock.timers.reset();
    }
  });
});

describe('max in flight in the server', () => {
  let server: ApiServer;
  const held: ClientRequest[] = [];
  before(async () => {
    server = await startApiServer({
      storage: 'memory',
      port: 0,
      log: () => {},
      authentication: { authenticators: [new TokenFileAuthenticator(new Map([['t', { name: 'jane', uid: '1', groups: [] }]]))], anonymous: false },
      inflight: { readOnly: 400, mutating: 2 },
    });
  });
  after(async () => {
    for (const r of held) r.destroy();
    await server?.close();
  });

  it('mutating requests still reading their bodies hold their places: the next one is 429, reads go on', async () => {
    const u = new URL(server.url);
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    // Two creates whose bodies never finish arriving: in flight for as long as they stay open.
    for (let i = 0; i < 2; i++) {
      const r = request({ host: u.hostname, port: u.port, method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'content-length': body.length } });
      r.on('error', () => {});
      r.write(body.slice(0, 10));
      held.push(r);
    }
    const create = () => fetch(`${server.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'y' } }) });
    const refused = await waitFor(async () => {
      const r = await create();
      return r.status === 429 ? r : undefined;
    }, 'a 429 once both places are taken');
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(await refused.text(), 'Too many requests, please try again later.\n');
    assert.equal((await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, { headers: { authorization: 'Bearer t' } })).status, 200, 'read-only requests are not affected');
    for (const r of held.splice(0)) r.destroy();
    await waitFor(async () => (await create()).status === 201, 'the create going through once the places are free');
  });
});
