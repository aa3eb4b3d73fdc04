// --authorization-mode parsing and the union's order: system:masters first, the first authorizer
// that allows or denies decides, otherwise the reasons of all are given.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAuthorizationModes, UnionAuthorizer } from './modes.js';
import type { Attributes, Authorizer, Decision } from './types.js';

const attrs = (groups: string[]): Attributes => ({ user: { name: 'u', groups }, verb: 'get', resourceRequest: false, apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', path: '/x' });
const fixed = (decision: Decision, reason = ''): Authorizer => ({ authorize: () => ({ decision, reason }) });

test('--authorization-mode: known modes, in order, each once', () => {
  assert.deepEqual(parseAuthorizationModes('Node,RBAC'), ['Node', 'RBAC']);
  assert.throws(() => parseAuthorizationModes('RBAC,Webhook'), /"Webhook" is not a valid mode/);
  assert.throws(() => parseAuthorizationModes('RBAC,RBAC'), /has mode specified more than once/);
});

test('union: masters allowed, first decisive answer wins (sync and async members), reasons joined', async () => {
  assert.deepEqual(new UnionAuthorizer([fixed('deny')]).authorize(attrs(['system:masters'])), { decision: 'allow', reason: '' });
  assert.deepEqual(new UnionAuthorizer([fixed('no-opinion', 'a'), fixed('deny', 'b'), fixed('allow')]).authorize(attrs([])), { decision: 'deny', reason: 'b' });
  assert.deepEqual(new UnionAuthorizer([fixed('no-opinion', 'a'), fixed('no-opinion'), fixed('no-opinion', 'c')]).authorize(attrs([])), { decision: 'no-opinion', reason: 'a\nc' });
  const later: Authorizer = { authorize: async () => ({ decision: 'no-opinion', reason: 'async' }) };
  assert.deepEqual(await new UnionAuthorizer([fixed('no-opinion', 'a'), later, fixed('allow', 'ok')]).authorize(attrs([])), { decision: 'allow', reason: 'ok' });
  assert.deepEqual(await new UnionAuthorizer([later]).authorize(attrs([])), { decision: 'no-opinion', reason: 'async' });
});
