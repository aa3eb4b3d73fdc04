// The client's impersonation: the Impersonate-* headers client-go sends, and clients acting as
// different users over one connection pool.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { impersonationHeaders, RestClientset } from './rest.js';

const configmaps = { group: '', version: 'v1', resource: 'configmaps' };

test('impersonationHeaders: user, one header line per group and extra value, uid; none without impersonation', () => {
  assert.deepEqual(impersonationHeaders(undefined), {});
  assert.deepEqual(impersonationHeaders({ userName: 'system:node:a', groups: ['system:nodes'] }), { 'Impersonate-User': 'system:node:a', 'Impersonate-Group': ['system:nodes'] });
  assert.deepEqual(impersonationHeaders({ userName: 'u', groups: [], uid: 'x1', extra: { 'example.com/team': ['a', 'b'], empty: [] } }), {
    'Impersonate-User': 'u',
    'Impersonate-Uid': 'x1',
    'Impersonate-Extra-example.com%2Fteam': ['a', 'b'],
  });
});

test('impersonating(): each client acts as its user over the parent\'s connections; closing one leaves the others working', async () => {
  const seen: Array<{ user: string | undefined; groups: string[]; auth: string | undefined; socket: unknown }> = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const groups: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'impersonate-group') groups.push(req.rawHeaders[i + 1]!);
    seen.push({ user: req.headers['impersonate-user'] as string | undefined, groups, auth: req.headers.authorization, socket: req.socket });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } }));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const parent = new RestClientset({ config: { server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 'agent-token' }, qps: 0, contentType: 'application/json', maxSockets: 1 });
  try {
    const a = parent.impersonating({ userName: 'system:node:a', groups: ['system:nodes'] });
    const b = parent.impersonating({ userName: 'system:node:b', groups: ['system:nodes', 'extra'] });
    await a.resource(configmaps).get('default', 'c');
    await b.resource(configmaps).get('default', 'c');
    await parent.resource(configmaps).get('default', 'c');
    assert.deepEqual(
      seen.map(({ user, groups, auth }) => ({ user, groups, auth })),
      [
        { user: 'system:node:a', groups: ['system:nodes'], auth: 'Bearer agent-token' },
        { user: 'system:node:b', groups: ['system:nodes', 'extra'], auth: 'Bearer agent-token' },
        { user: undefined, groups: [], auth: 'Bearer agent-token' },
      ],
    );
    assert.equal(connections, 1, 'one kept-alive connection for all three identities');
    assert.equal(parent.metrics.requests.get('200 GET'), 3, 'one set of request metrics');
    a.close();
    await assert.rejects(a.resource(configmaps).get('default', 'c'), /client closed/);
    await b.resource(configmaps).get('default', 'c');
    assert.equal(connections, 1, 'closing an impersonating client leaves the shared connection open');
  } finally {
    parent.close();
    server.close();
  }
});
