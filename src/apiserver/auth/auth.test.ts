import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../server.js';
import { parseTokenFile, TokenFileAuthenticator } from './token-file.js';
import type { Attributes, Authorizer } from './types.js';

describe('token file', () => {
  it('reads token,user,uid and quoted groups as Go encoding/csv does', () => {
    const tokens = parseTokenFile('# admins\nt1,alice,u1,"system:masters,dev"\n\nt2,bob,u2\n"t,3",carol,u3,""\n');
    assert.deepEqual(tokens.get('t1'), { name: 'alice', uid: 'u1', groups: ['system:masters', 'dev'] });
    assert.deepEqual(tokens.get('t2'), { name: 'bob', uid: 'u2', groups: [] });
    assert.deepEqual(tokens.get('t,3'), { name: 'carol', uid: 'u3', groups: [] });
  });
  it('names the line of a malformed record', () => {
    assert.throws(() => parseTokenFile('t1,alice,u1\nt2,bob\n'), /line 2: need at least token,user,uid/);
    assert.throws(() => parseTokenFile('"t1,alice,u1\n'), /line 1: unterminated quoted field/);
    assert.throws(() => parseTokenFile('t1,a,u\nt1,b,u\n'), /line 2: duplicate token/);
    assert.throws(() => parseTokenFile(',a,u\n'), /line 1: the token and the user name must not be empty/);
  });
});

describe('authentication and authorization chain', () => {
  let server: ApiServer;
  const seen: Attributes[] = [];
  // Allows alice everything, bob only to list pods in "default"; denies the rest.
  const authorizer: Authorizer = {
    authorize(a) {
      seen.push(a);
      if (a.user.name === 'alice') return { decision: 'allow', reason: '' };
      if (a.user.name === 'bob' && a.verb === 'list' && a.resource === 'pods' && a.namespace === 'default') return { decision: 'allow', reason: '' };
      return { decision: 'no-opinion', reason: '' };
    },
  };
  before(async () => {
    const tokens = new TokenFileAuthenticator(parseTokenFile('alice-token,alice,1\nbob-token,bob,2,"team"\n'));
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, admissionPlugins: ['NamespaceLifecycle', 'NodeRestriction'], authentication: { authenticators: [tokens], anonymous: true }, authorizer });
  });
  after(() => server.close());

  const call = (path: string, token?: string, method = 'GET') =>
    fetch(server.url + path, { method, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } }).then(async (r) => ({ status: r.status, body: (await r.json().catch(() => undefined)) as any }));

  it('answers 401 for an unknown token, without trying anonymous', async () => {
    const r = await call('/api/v1/pods', 'nope');
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });
  it('passes the request attributes and the user (in system:authenticated) to the authorizer', async () => {
    seen.length = 0;
    const r = await call('/api/v1/namespaces/default/pods', 'bob-token');
    assert.equal(r.status, 200);
    assert.deepEqual(seen[0], {
      user: { name: 'bob', uid: '2', groups: ['team', 'system:authenticated'] },
      verb: 'list',
      resourceRequest: true,
      apiGroup: '',
      apiVersion: 'v1',
      namespace: 'default',
      resource: 'pods',
      subresource: '',
      name: '',
      path: '/api/v1/namespaces/default/pods',
    });
  });
  it('answers 403 with the kube-apiserver message for a denied resource request', async () => {
    const r = await call('/apis/apps/v1/namespaces/kube-system/deployments/web/scale', 'bob-token');
    assert.equal(r.status, 403);
    assert.equal(r.body.reason, 'Forbidden');
    assert.equal(r.body.message, 'deployments.apps "web" is forbidden: User "bob" cannot get resource "deployments/scale" in API group "apps" in the namespace "kube-system"');
    assert.deepEqual(r.body.details, { name: 'web', group: 'apps', kind: 'deployments' });
  });
  it('authorizes non-resource paths and anonymous requests too', async () => {
    const r = await call('/version');
    assert.equal(r.status, 403);
    assert.equal(r.body.message, 'forbidden: User "system:anonymous" cannot get path "/version"');
    assert.equal((await call('/version', 'alice-token')).status, 200);
  });
});
