// PATCH bodies that empty the object: kube-apiserver's patcher checks the patched object's name
// against the URL, so a top-level strategic `{"$patch":"delete"}` (the merge returns an empty map)
// is a 400 and the stored object is left as it was.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../server.js';

describe('PATCH that removes the object name', () => {
  let server: ApiServer;
  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {} });
  });
  after(() => server.close());

  const path = '/api/v1/namespaces/default/configmaps/cm';
  const patch = async (url: string, type: string, body: string) => {
    const r = await fetch(`${server.url}${url}`, { method: 'PATCH', headers: { 'content-type': type }, body });
    return { status: r.status, body: (await r.json()) as { kind: string; reason?: string; message?: string; data?: Record<string, string> } };
  };

  before(async () => {
    const r = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"metadata":{"name":"cm"},"data":{"a":"1"}}' });
    assert.equal(r.status, 201);
  });

  for (const directive of ['delete', 'replace']) {
    it(`refuses a top-level strategic {"$patch":"${directive}"} with 400 and keeps the data`, async () => {
      const r = await patch(path, 'application/strategic-merge-patch+json', `{"$patch":"${directive}"}`);
      assert.equal(r.status, 400);
      assert.equal(r.body.kind, 'Status');
      assert.equal(r.body.reason, 'BadRequest');
      assert.equal(r.body.message, 'the name of the object () does not match the name on the URL (cm)');
      const stored = (await (await fetch(`${server.url}${path}`)).json()) as { data: Record<string, string> };
      assert.deepEqual(stored.data, { a: '1' });
    });
  }

  it('refuses a merge patch that nulls metadata.name, and one on the status subresource', async () => {
    assert.equal((await patch(path, 'application/merge-patch+json', '{"metadata":{"name":null}}')).status, 400);
    const r = await fetch(`${server.url}/api/v1/namespaces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"metadata":{"name":"ns-patched"}}' });
    assert.equal(r.status, 201);
    const status = await patch('/api/v1/namespaces/ns-patched/status', 'application/strategic-merge-patch+json', '{"$patch":"delete"}');
    assert.equal(status.status, 400);
    assert.equal(status.body.message, 'the name of the object () does not match the name on the URL (ns-patched)');
  });

  it('still applies a strategic patch that keeps the name', async () => {
    const r = await patch(path, 'application/strategic-merge-patch+json', '{"data":{"b":"2"}}');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { a: '1', b: '2' });
  });
});
