// Impersonation headers against an in-process server whose authorizer lets `admin` impersonate
// (everything but the user "root") and `bob` nothing; it records who each request ends up as.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../server.js';
import { TokenFileAuthenticator } from './token-file.js';
import type { Attributes, Authorizer, UserInfo } from './types.js';

describe('impersonation', () => {
  let server: ApiServer;
  const checks: Attributes[] = [];
  const actedAs: UserInfo[] = [];
  const authorizer: Authorizer = {
    authorize(attrs) {
      if (attrs.verb !== 'impersonate') {
        actedAs.push(attrs.user);
        return { decision: 'allow', reason: '' };
      }
      checks.push(attrs);
      if (attrs.user.name === 'admin' && !(attrs.resource === 'users' && attrs.name === 'root')) return { decision: 'allow', reason: '' };
      return { decision: 'no-opinion', reason: '' };
    },
  };

  before(async () => {
    server = await startApiServer({
      storage: 'memory',
      port: 0,
      log: () => {},
      authentication: {
        authenticators: [
          new TokenFileAuthenticator(
            new Map([
              ['admin-token', { name: 'admin', uid: 'a1', groups: ['admins'] }],
              ['bob-token', { name: 'bob', uid: 'b1', groups: [] }],
            ]),
          ),
        ],
        anonymous: false,
      },
      authorizer,
    });
  });
  after(() => server?.close());

  /** A GET with these header lines, repeated names kept apart (as Go's client sends them). */
  function get(token: string, headers: Array<[string, string]>): Promise<{ status: number; body: any }> {
    checks.length = 0;
    actedAs.length = 0;
    const u = new URL(server.url);
    // Node sends each value of an array as its own header line.
    const raw: Record<string, string[]> = { authorization: [`Bearer ${token}`], accept: ['application/json'] };
    for (const [k, v] of headers) (raw[k] ??= []).push(v);
    return new Promise((resolve, reject) => {
      const req = request({ host: u.hostname, port: u.port, path: '/api/v1/namespaces/default/configmaps', headers: raw }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('no impersonation headers: the request is the authenticated user', async () => {
    assert.equal((await get('admin-token', [])).status, 200);
    assert.deepEqual(checks, []);
    assert.deepEqual(actedAs, [{ name: 'admin', uid: 'a1', groups: ['admins', 'system:authenticated'] }]);
  });

  it('user, groups, uid and extras: each checked, then the request acts as the impersonated user', async () => {
    const r = await get('admin-token', [
      ['Impersonate-User', 'jane'],
      ['Impersonate-Group', 'dev'],
      ['Impersonate-Group', 'qa, testers'],
      ['Impersonate-Uid', 'u-42'],
      ['Impersonate-Extra-Scopes', 'view'],
      ['Impersonate-Extra-Scopes', 'edit'],
      ['Impersonate-Extra-example.com%2Freason', 'audit'],
    ]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(
      checks.map((c) => [c.verb, c.apiGroup, c.resource, c.subresource, c.namespace, c.name]),
      [
        ['impersonate', '', 'users', '', '', 'jane'],
        ['impersonate', '', 'groups', '', '', 'dev'],
        ['impersonate', '', 'groups', '', '', 'qa, testers'],
        ['impersonate', 'authentication.k8s.io', 'userextras', 'scopes', '', 'view'],
        ['impersonate', 'authentication.k8s.io', 'userextras', 'scopes', '', 'edit'],
        ['impersonate', 'authentication.k8s.io', 'userextras', 'example.com/reason', '', 'audit'],
        ['impersonate', 'authentication.k8s.io', 'uids', '', '', 'u-42'],
      ],
    );
    for (const c of checks) assert.equal(c.user.name, 'admin');
    assert.deepEqual(actedAs, [
      { name: 'jane', uid: 'u-42', groups: ['dev', 'qa, testers', 'system:authenticated'], extra: { scopes: ['view', 'edit'], 'example.com/reason': ['audit'] } },
    ]);
  });

  it('a service account: checked as serviceaccounts in its namespace, with its groups', async () => {
    assert.equal((await get('admin-token', [['Impersonate-User', 'system:serviceaccount:kube-system:replicaset-controller']])).status, 200);
    assert.deepEqual(checks.map((c) => [c.resource, c.namespace, c.name]), [['serviceaccounts', 'kube-system', 'replicaset-controller']]);
    assert.deepEqual(actedAs, [{ name: 'system:serviceaccount:kube-system:replicaset-controller', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] }]);
  });

  it('system:anonymous gets system:unauthenticated, not system:authenticated', async () => {
    assert.equal((await get('admin-token', [['Impersonate-User', 'system:anonymous']])).status, 200);
    assert.deepEqual(actedAs, [{ name: 'system:anonymous', groups: ['system:unauthenticated'] }]);
  });

  it('refused: 403 naming what could not be impersonated, before anything else runs', async () => {
    const r = await get('bob-token', [['Impersonate-User', 'jane']]);
    assert.equal(r.status, 403);
    assert.equal(r.body.reason, 'Forbidden');
    assert.equal(r.body.message, 'users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope');
    assert.deepEqual(r.body.details, { name: 'jane', kind: 'users' });
    assert.deepEqual(actedAs, []);
    const group = await get('admin-token', [['Impersonate-User', 'root']]);
    assert.equal(group.status, 403);
    const sa = await get('bob-token', [['Impersonate-User', 'system:serviceaccount:ns1:builder']]);
    assert.equal(sa.body.message, 'serviceaccounts "builder" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1"');
  });

  it('groups without a user: 500, as Kubernetes', async () => {
    const r = await get('admin-token', [['Impersonate-Group', 'dev']]);
    assert.equal(r.status, 500);
    assert.match(r.body.message, /without impersonating a user/);
    assert.deepEqual(checks, []);
  });
});
