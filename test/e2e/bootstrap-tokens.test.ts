// Bootstrap tokens on `kubelite up` (which enables them as kubeadm does) with the controllers that
// are off by default turned on: a token Secret authenticates as system:bootstrap:<id> in
// system:bootstrappers (kubectl auth whoami with --token); a wrong secret, a token not allowed to
// authenticate and an expired one are 401; the token cleaner deletes the expired one; the bootstrap
// signer signs kube-public/cluster-info for a signing token, and the signature verifies.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, args, { input });

function secret(id: string, tokenSecret: string, data: Record<string, string>): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'bootstrap.kubernetes.io/token',
    metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
    stringData: { 'token-id': id, 'token-secret': tokenSecret, ...data },
  });
}

/** kubectl as a bearer token alone (no client certificate). */
function asToken(token: string, args: string[]) {
  const empty = join(cluster.dataDir, 'empty.kubeconfig');
  writeFileSync(empty, 'apiVersion: v1\nkind: Config\n');
  return kubectl(empty, ['--server', cluster.server, '--insecure-skip-tls-verify', '--token', token, ...args]);
}

describe('kubelite up: bootstrap tokens', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 0, args: { controllerManager: ['--controllers=*,bootstrapsigner,tokencleaner'] } });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('a token authenticates as system:bootstrap:<id>; bad, unusable and expired ones are 401; the cleaner deletes the expired one', async () => {
    await k(['apply', '-f', '-'], secret('abcdef', '0123456789abcdef', { 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token' }));
    await k(['apply', '-f', '-'], secret('noauth', '0123456789abcdef', {}));
    await k(['apply', '-f', '-'], secret('old000', '0123456789abcdef', { 'usage-bootstrap-authentication': 'true', expiration: '2020-01-01T00:00:00Z' }));
    const who = await asToken('abcdef.0123456789abcdef', ['auth', 'whoami', '-o', 'json']);
    assert.equal(who.code, 0, who.stderr);
    const info = (JSON.parse(who.stdout) as { status: { userInfo: { username: string; groups: string[] } } }).status.userInfo;
    assert.equal(info.username, 'system:bootstrap:abcdef');
    assert.deepEqual(info.groups, ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated']);
    for (const token of ['abcdef.0000000000000000', 'noauth.0123456789abcdef', 'old000.0123456789abcdef']) {
      const r = await asToken(token, ['auth', 'whoami']);
      assert.notEqual(r.code, 0, token);
      assert.match(r.stderr, /Unauthorized/, token);
    }
    await waitFor(async () => (await kubectl(cluster.kubeconfig, ['-n', 'kube-system', 'get', 'secret', 'bootstrap-token-old000'])).code !== 0, 'the expired token deleted', 30_000);
    assert.equal((await kubectl(cluster.kubeconfig, ['-n', 'kube-system', 'get', 'secret', 'bootstrap-token-abcdef'])).code, 0);
  });

  it('the bootstrap signer signs cluster-info for a signing token', async () => {
    const kubeconfig = `apiVersion: v1\nkind: Config\nclusters:\n- name: ""\n  cluster:\n    server: ${cluster.server}\n`;
    await k(['-n', 'kube-public', 'create', 'configmap', 'cluster-info', `--from-literal=kubeconfig=${kubeconfig}`]);
    await k(['apply', '-f', '-'], secret('sign00', 'fedcba9876543210', { 'usage-bootstrap-signing': 'true' }));
    let jws = '';
    await waitFor(async () => {
      const data = (JSON.parse(await k(['-n', 'kube-public', 'get', 'configmap', 'cluster-info', '-o', 'json'])) as { data: Record<string, string> }).data;
      jws = data['jws-kubeconfig-sign00'] ?? '';
      return jws !== '';
    }, 'cluster-info signed', 30_000);
    const [header, payload, signature] = jws.split('.');
    assert.equal(payload, '');
    assert.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { alg: 'HS256', kid: 'sign00' });
    assert.equal(signature, createHmac('sha256', 'fedcba9876543210').update(`${header}.${Buffer.from(kubeconfig).toString('base64url')}`).digest('base64url'));
  });
});
