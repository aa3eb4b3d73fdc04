// A watcher that stops reading is cut off once the events queued for it pass the bound, as
// kube-apiserver drops a watcher whose buffer fills (apiserver_terminated_watchers_total counts
// it), and the other watchers of the same resource are unaffected: they receive every event.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from './server.js';

const PATH = '/api/v1/namespaces/default/configmaps';

describe('a watcher that never reads', () => {
  let server: ApiServer;
  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, watchQueueLimits: { events: 50 } });
  });
  after(() => server.close());

  it('is cut off past the bound; a reading watcher of the same resource gets every event', async () => {
    const url = new URL(server.url);
    // the stuck watcher: asks for the watch, then never reads (its socket paused, so the kernel's buffers fill too)
    const stuck = connect(Number(url.port), url.hostname);
    await new Promise((r) => stuck.once('connect', r));
    stuck.write(`GET ${PATH}?watch=1 HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    stuck.pause();
    // the healthy watcher reads every event
    const seen = new Set<string>();
    const abort = new AbortController();
    const healthy = fetch(`${server.url}${PATH}?watch=1`, { signal: abort.signal }).then(async (res) => {
      let partial = '';
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        const lines = (partial + Buffer.from(chunk).toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const l of lines) if (l !== '') seen.add((JSON.parse(l) as { object: { metadata: { name: string } } }).object.metadata.name);
      }
    }).catch(() => undefined);
    // 400 events of ~150 KB: more than the sockets' buffers hold, then more than the 50 the cache may queue
    const names: string[] = [];
    for (let i = 0; i < 400; i++) {
      const name = `cm-${i}`;
      const r = await fetch(`${server.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: randomBytes(110_000).toString('base64') } }) });
      assert.equal(r.status, 201);
      names.push(name);
    }
    const metric = async () => /^apiserver_terminated_watchers_total\{resource="configmaps"\} (\d+)$/m.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1];
    for (let i = 0; i < 500 && (await metric()) === undefined; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await metric(), '1');
    for (let i = 0; i < 500 && seen.size < names.length; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(seen.size, names.length, 'the reading watcher missed events');
    abort.abort();
    await healthy;
    stuck.destroy();
  });
});
