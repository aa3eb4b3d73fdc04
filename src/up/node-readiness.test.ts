// up's readiness count of Nodes against a real API server: one list, then the watch keeps the count
// (no list per poll), heartbeats of an earlier run do not count, and a watch that ends is replaced by
// a new list.
import assert from 'node:assert/strict';
import { get as httpsGet, Agent } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { startApiserver, type RunningApiserver } from '../../test/support/kubelite.js';
import { TEST_PKI } from '../../test/support/tls.js';
import { waitFor } from '../../test/support/wait.js';
import { NodeReadiness } from './node-readiness.js';

let apiserver: RunningApiserver;
const since = Date.now();

function node(name: string, ready: 'True' | 'False', heartbeat: Date) {
  const time = heartbeat.toISOString().replace(/\.\d+Z$/, 'Z');
  return { apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { conditions: [{ type: 'Ready', status: ready, reason: 'KubeletReady', lastHeartbeatTime: time, lastTransitionTime: time }] } };
}

async function send(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${apiserver.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const out = (await res.json()) as Record<string, unknown>;
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(out)}`);
  return out;
}

describe('NodeReadiness', () => {
  before(async () => {
    apiserver = await startApiserver();
  });
  after(async () => {
    await apiserver?.stop();
  });

  it('counts Ready nodes of this run from one list and a watch, and lists again when the watch ends', async () => {
    const agent = new Agent({ keepAlive: true, ca: TEST_PKI.ca.cert, cert: TEST_PKI.admin.cert, key: TEST_PKI.admin.key });
    let lists = 0;
    const list = (url: string) =>
      new Promise<{ status: number; body: Record<string, unknown> | undefined }>((resolve, reject) => {
        lists++;
        httpsGet(url, { agent, headers: { accept: 'application/json' } }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
        }).on('error', reject);
      });
    const readiness = new NodeReadiness(agent, apiserver.url, since, list);
    try {
      const now = new Date(Date.now() + 1000);
      await send('POST', '/api/v1/nodes', node('a', 'True', now));
      await send('POST', '/api/v1/nodes', node('b', 'False', now));
      // Ready, but its heartbeat is an earlier run's
      await send('POST', '/api/v1/nodes', node('old', 'True', new Date(since - 60_000)));
      assert.equal(await readiness.count(), 1);
      assert.equal(lists, 1);

      const b = (await send('GET', '/api/v1/nodes/b')) as { metadata: object };
      await send('PUT', '/api/v1/nodes/b/status', { ...node('b', 'True', now), metadata: b.metadata });
      await waitFor(async () => (await readiness.count()) === 2, 'b to count as Ready');
      await send('DELETE', '/api/v1/nodes/a');
      await waitFor(async () => (await readiness.count()) === 1, 'a to be gone');
      assert.equal(lists, 1, 'the watch kept the count');

      // the watch's connection goes: the next count lists again, and the watch after it keeps counting
      agent.destroy();
      await waitFor(async () => (await readiness.count()) === 1 && lists === 2, 'a new list');
      await send('POST', '/api/v1/nodes', node('c', 'True', now));
      await waitFor(async () => (await readiness.count()) === 2, 'c to count as Ready');
      assert.equal(lists, 2);
    } finally {
      readiness.close();
      agent.destroy();
    }
  });
});
