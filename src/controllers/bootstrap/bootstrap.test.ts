import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { fakeControllerContext, flush } from '../../client/fake/index.js';
import type { KubeObject } from '../../client/types.js';
import { bootstrapTokenGroups, usableBootstrapToken } from '../../machinery/bootstrap-token.js';
import { CONFIGMAPS, BootstrapSigner, detachedSignature } from './signer.js';
import { SECRETS, TokenCleaner } from './tokencleaner.js';

const T0 = Date.UTC(2026, 0, 1);
const b64 = (s: string) => Buffer.from(s).toString('base64');

function tokenSecret(id: string, secret: string, data: Record<string, string> = {}): KubeObject {
  const all: Record<string, string> = { 'token-id': id, 'token-secret': secret, ...data };
  return { apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.kubernetes.io/token', metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system', uid: `uid-${id}` }, data: Object.fromEntries(Object.entries(all).map(([k, v]) => [k, b64(v)])) };
}

test('bootstrap token secrets: usable for a usage, expiry, groups', () => {
  const now = T0;
  const s = (data: Record<string, string>) => tokenSecret('abcdef', '0123456789abcdef', data);
  assert.deepEqual(usableBootstrapToken(s({ 'usage-bootstrap-signing': 'true' }) as never, 'usage-bootstrap-signing', now), { id: 'abcdef', secret: '0123456789abcdef' });
  assert.equal(usableBootstrapToken(s({}) as never, 'usage-bootstrap-signing', now), undefined);
  assert.equal(usableBootstrapToken(s({ 'usage-bootstrap-signing': 'true', expiration: '2025-12-31T00:00:00Z' }) as never, 'usage-bootstrap-signing', now), undefined);
  assert.equal(usableBootstrapToken(s({ 'usage-bootstrap-signing': 'true', expiration: 'soon' }) as never, 'usage-bootstrap-signing', now), undefined, 'an expiration that does not parse is expired');
  assert.equal(usableBootstrapToken(tokenSecret('ABCDEF', '0123456789abcdef', { 'usage-bootstrap-signing': 'true' }) as never, 'usage-bootstrap-signing', now), undefined);
  assert.deepEqual(bootstrapTokenGroups(s({ 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token,system:bootstrappers:a' }) as never), ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:kubeadm:default-node-token']);
  assert.throws(() => bootstrapTokenGroups(s({ 'auth-extra-groups': 'system:masters' }) as never), /bootstrap group "system:masters" is invalid \(must match \\Asystem:bootstrappers:\[a-z0-9:-\]\{0,255\}\[a-z0-9\]\\z\)/);
});

test('the token cleaner deletes expired tokens (by uid) and looks again at expiry for the others', async () => {
  const ctx = fakeControllerContext({ now: T0, objects: [tokenSecret('expire', '0123456789abcdef', { expiration: '2025-12-31T23:00:00Z' }), tokenSecret('future', '0123456789abcdef', { expiration: '2026-01-01T01:00:00Z' }), tokenSecret('never0', '0123456789abcdef')] });
  const c = new TokenCleaner(ctx);
  const delayed: [string, number][] = [];
  c.queue.addAfter = (k, ms) => void delayed.push([k, ms]);
  for (const id of ['expire', 'future', 'never0']) await c.sync(`kube-system/bootstrap-token-${id}`);
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), ['delete secrets kube-system/bootstrap-token-expire']);
  assert.deepEqual((ctx.clientset.actions.find((a) => a.verb === 'delete')!.options as { preconditions: unknown }).preconditions, { uid: 'uid-expire' });
  assert.deepEqual(delayed, [['kube-system/bootstrap-token-future', 3_600_001]]);
});

test('the bootstrap signer signs cluster-info with every signing token, detached HS256 JWS, and drops stale signatures', async () => {
  const kubeconfig = 'apiVersion: v1\nkind: Config\nclusters: []\n';
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-info', namespace: 'kube-public' }, data: { kubeconfig, 'jws-kubeconfig-gone00': 'x..y' } };
  const ctx = fakeControllerContext({ now: T0, objects: [cm, tokenSecret('abcdef', '0123456789abcdef', { 'usage-bootstrap-signing': 'true' }), tokenSecret('nosign', '0123456789abcdef')] });
  const c = new BootstrapSigner(ctx);
  await flush(3);
  await c.signConfigMap();
  const data = (ctx.clientset.tracker.get(CONFIGMAPS, 'kube-public', 'cluster-info') as { data: Record<string, string> }).data;
  assert.deepEqual(Object.keys(data).sort(), ['jws-kubeconfig-abcdef', 'kubeconfig']);
  const [header, empty, signature] = data['jws-kubeconfig-abcdef']!.split('.');
  assert.equal(empty, '');
  assert.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { alg: 'HS256', kid: 'abcdef' });
  const expected = createHmac('sha256', '0123456789abcdef').update(`${header}.${Buffer.from(kubeconfig).toString('base64url')}`).digest('base64url');
  assert.equal(signature, expected);
  assert.equal(data['jws-kubeconfig-abcdef'], await detachedSignature(kubeconfig, 'abcdef', '0123456789abcdef'));
  // signed already: nothing to write
  ctx.clientset.clearActions();
  await flush(3);
  await c.signConfigMap();
  assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), []);
  // the token goes: so does its signature
  ctx.clientset.tracker.remove(SECRETS, 'kube-system', 'bootstrap-token-abcdef');
  await flush(3);
  await c.signConfigMap();
  assert.deepEqual(Object.keys((ctx.clientset.tracker.get(CONFIGMAPS, 'kube-public', 'cluster-info') as { data: Record<string, string> }).data), ['kubeconfig']);
});
