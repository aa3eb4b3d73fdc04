// End-to-end: the generic query parameters answer as kube-apiserver 1.33's do — `export` on a GET
// refused (400) unless false, `export`/`exact`/`includeUninitialized` ignored elsewhere (they left
// ListOptions long ago), ListOptions' integers (timeoutSeconds, limit) decoded with Go's ParseInt
// (400 with its message), and `timeout` bounding a non-long-running request (504 Timeout).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '../support/http.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe('query parameters as kube-apiserver 1.33', () => {
  let server: RunningApiserver;
  let c: Client;
  before(async () => {
    server = await startApiserver();
    c = new Client(server.url);
    await c.create(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'q' }, data: { a: '1' } });
  });
  after(async () => {
    await server?.stop();
  });

  function assertBadRequest(r: { status: number; json: any }, message: string, what: string): void {
    assert.equal(r.status, 400, what);
    assert.deepEqual(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 }, what);
  }

  it('GET ?export=true is refused; export=false, exact and includeUninitialized are ignored', async () => {
    for (const q of ['export=true', 'export=1', 'export=', 'export=true&exact=true']) {
      assertBadRequest(await c.get(`${CM}/q?${q}`), 'the export parameter, deprecated since v1.14, is no longer supported', q);
    }
    // The scale and status subresources' GETs are GetResource too.
    await c.create('/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    for (const sub of ['scale', 'status']) {
      assertBadRequest(await c.get(`/apis/apps/v1/namespaces/default/deployments/d/${sub}?export=1`), 'the export parameter, deprecated since v1.14, is no longer supported', sub);
      assert.equal((await c.get(`/apis/apps/v1/namespaces/default/deployments/d/${sub}?export=false&exact=true`)).status, 200, sub);
    }
    for (const q of ['export=false', 'export=0', 'exact=true', 'exact=false', 'includeUninitialized=true']) {
      const r = await c.get(`${CM}/q?${q}`);
      assert.equal(r.status, 200, `${q}: ${r.text}`);
      assert.equal(r.json.metadata.name, 'q');
    }
  });

  it('lists and watches ignore export, exact and includeUninitialized', async () => {
    for (const q of ['export=true', 'exact=true', 'includeUninitialized=true']) {
      const r = await c.get(`${CM}?${q}`);
      assert.equal(r.status, 200, `${q}: ${r.text}`);
      assert.equal(r.json.kind, 'ConfigMapList');
      const w = await c.get(`${CM}?watch=1&timeoutSeconds=1&${q}`);
      assert.equal(w.status, 200, `watch ${q}: ${w.text}`);
      assert.match(w.text, /"type":"ADDED"/);
    }
  });

  it('timeoutSeconds and limit that are no int64: 400 with strconv.ParseInt\'s message (list, watch, deletecollection)', async () => {
    for (const [q, bad] of [['timeoutSeconds=abc', 'abc'], ['timeoutSeconds=', ''], ['timeoutSeconds=1.5', '1.5'], ['limit=abc', 'abc']] as const) {
      const message = `strconv.ParseInt: parsing ${JSON.stringify(bad)}: invalid syntax`;
      assertBadRequest(await c.get(`${CM}?${q}`), message, `list ${q}`);
      assertBadRequest(await c.get(`${CM}?watch=true&${q}`), message, `watch ${q}`);
      assertBadRequest(await c.delete(`${CM}?${q}`), message, `deletecollection ${q}`);
    }
    assertBadRequest(await c.get(`${CM}?timeoutSeconds=99999999999999999999`), 'strconv.ParseInt: parsing "99999999999999999999": value out of range', 'overflow');
    // Still there: the refused deletecollections deleted nothing.
    assert.equal((await c.get(`${CM}/q`)).status, 200);
  });

  it('a list with a valid timeoutSeconds, and a negative limit (no paging), answers 200', async () => {
    const r = await c.get(`${CM}?timeoutSeconds=5&limit=-1`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.metadata.continue, undefined);
  });

  it('watch timeoutSeconds bounds the stream; a negative one ends it at once', async () => {
    let t0 = Date.now();
    const w = await c.get(`${CM}?watch=true&timeoutSeconds=1`);
    assert.equal(w.status, 200);
    assert.ok(Date.now() - t0 >= 900, 'ended before its second');
    t0 = Date.now();
    const n = await c.get(`${CM}?watch=true&timeoutSeconds=-1`);
    assert.equal(n.status, 200);
    assert.ok(Date.now() - t0 < 900, 'a negative timeout ends the watch at once');
  });

  it('timeout: malformed → 400; a list or get that does not finish by it → 504 Timeout', async () => {
    assertBadRequest(await c.get(`${CM}?timeout=abc`), 'invalid timeout specified in the request URL - time: invalid duration "abc"', 'list');
    assertBadRequest(await c.get(`${CM}/q?timeout=5`), 'invalid timeout specified in the request URL - time: missing unit in duration "5"', 'get');
    assert.equal((await c.get(`${CM}?timeout=30s`)).status, 200);
    // A list at a revision the server has not reached waits for it; the 300 ms deadline ends it first.
    const t0 = Date.now();
    const r = await c.get(`${CM}?resourceVersion=999999999&resourceVersionMatch=NotOlderThan&timeout=300ms`);
    assert.equal(r.status, 504, r.text);
    assert.deepEqual(r.json, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Timeout: request did not complete within the allotted timeout', reason: 'Timeout', details: {}, code: 504,
    });
    assert.ok(Date.now() - t0 < 2500, 'answered at the deadline, not after the cache gave up');
    // A GET at such a revision is bounded the same way.
    const g = await c.get(`${CM}/q?resourceVersion=999999999&timeout=300ms`);
    assert.equal(g.status, 504, g.text);
    assert.equal(g.json.message, 'Timeout: request did not complete within the allotted timeout');
  });
});
