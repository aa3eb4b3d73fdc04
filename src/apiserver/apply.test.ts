import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseTokenFile, TokenFileAuthenticator } from './auth/token-file.js';
import type { Authorizer } from './auth/types.js';
import { startApiServer, type ApiServer } from './server.js';

describe('server-side apply and authorization', () => {
  let server: ApiServer;
  // alice may do anything; bob may only patch (and get) configmaps in "default".
  const authorizer: Authorizer = {
    authorize(a) {
      if (a.user.name === 'alice') return { decision: 'allow', reason: '' };
      if (a.user.name === 'bob' && a.resource === 'configmaps' && a.namespace === 'default' && (a.verb === 'patch' || a.verb === 'get')) return { decision: 'allow', reason: '' };
      return { decision: 'no-opinion', reason: '' };
    },
  };
  before(async () => {
    const tokens = new TokenFileAuthenticator(parseTokenFile('alice-token,alice,1\nbob-token,bob,2\n'));
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, authentication: { authenticators: [tokens], anonymous: false }, authorizer });
  });
  after(() => server.close());

  const apply = (name: string, token: string) =>
    fetch(`${server.url}/api/v1/namespaces/default/configmaps/${name}?fieldManager=m`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/apply-patch+yaml' },
      body: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\ndata: {a: "1"}\n`,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  it('an apply that would create needs the create permission too; one that updates does not', async () => {
    const denied = await apply('cm', 'bob-token');
    assert.equal(denied.status, 403);
    assert.equal(denied.body.message, 'configmaps "cm" is forbidden: User "bob" cannot create resource "configmaps" in API group "" in the namespace "default"');
    assert.equal((await apply('cm', 'alice-token')).status, 201);
    const updated = await apply('cm', 'bob-token');
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
  });
});
