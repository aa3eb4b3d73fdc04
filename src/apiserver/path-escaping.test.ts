// Request paths are read as Go's server hands them to Kubernetes: percent-escapes decoded, so a
// name with a colon (RBAC's system:* objects) is found whether the client escaped it or not;
// a malformed escape is 400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from './server.js';

describe('escaped request paths', () => {
  let server: ApiServer;
  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, authorizationModes: ['RBAC'] });
  });
  after(() => server.close());

  const get = (path: string) => fetch(`${server.url}${path}`).then(async (r) => ({ status: r.status, body: (await r.json()) as { metadata?: { name?: string }; message?: string } }));

  it('finds system:node as system%3Anode, and refuses a broken escape', async () => {
    const plain = await get('/apis/rbac.authorization.k8s.io/v1/clusterroles/system:node');
    const escaped = await get('/apis/rbac.authorization.k8s.io/v1/clusterroles/system%3Anode');
    assert.equal(plain.status, 200);
    assert.equal(escaped.status, 200);
    assert.equal(escaped.body.metadata?.name, 'system:node');
    const broken = await get('/apis/rbac.authorization.k8s.io/v1/clusterroles/system%3');
    assert.equal(broken.status, 400);
    assert.equal(broken.body.message, 'malformed request URL');
  });
});
