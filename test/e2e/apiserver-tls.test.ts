// HTTPS and authentication end to end: the kubeconfigs `up` writes verify the CA and carry a client
// certificate per component, kubectl (1.27 and 1.33) uses them as they are, a certificate from
// another CA is refused with kubectl's "You must be logged in" message, anonymous requests are
// served (authorization is AlwaysAllow until RBAC), and oversized headers are 431, never a crash.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubeconfigYaml } from '../../src/up/credentials.js';
import { createCA } from '../../src/apiserver/tls/pki.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { clientCertificate } from '../support/tls.js';

interface KubeconfigDoc {
  clusters: Array<{ cluster: Record<string, unknown> }>;
  users: Array<{ user: Record<string, string> }>;
}

function readKubeconfig(path: string): KubeconfigDoc {
  return parse(readFileSync(path, 'utf8')) as KubeconfigDoc;
}

/** A GET that trusts `ca` and presents no client certificate (an anonymous client). */
function anonymousGet(url: string, ca: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsGet(url, { ca, agent: false, headers: { accept: 'application/json', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('HTTPS and client certificates through `up`', () => {
  let cluster: Cluster;
  let ca = '';

  before(async () => {
    cluster = await startCluster({ nodes: 1, storage: 'memory' });
    ca = Buffer.from(readKubeconfig(cluster.kubeconfig).clusters[0]!.cluster['certificate-authority-data'] as string, 'base64').toString();
  });
  after(() => cluster?.stop());

  it('writes kubeconfigs that verify the CA, one client certificate per component, keys 0600', () => {
    assert.match(cluster.server, /^https:\/\/127\.0\.0\.1:\d+$/);
    const expected: Record<string, string> = {
      kubeconfig: 'O=system:masters\nCN=kubernetes-admin',
      'controller-manager.kubeconfig': 'CN=system:kube-controller-manager',
      'scheduler.kubeconfig': 'CN=system:kube-scheduler',
      'nodes.kubeconfig': 'O=system:nodes\nCN=system:kubelite-nodes',
    };
    for (const [file, subject] of Object.entries(expected)) {
      const path = join(cluster.dataDir, file);
      const doc = readKubeconfig(path);
      const c = doc.clusters[0]!.cluster;
      assert.equal(c.server, cluster.server);
      assert.equal(c['insecure-skip-tls-verify'], undefined);
      assert.equal(Buffer.from(c['certificate-authority-data'] as string, 'base64').toString(), ca);
      const cert = new X509Certificate(Buffer.from(doc.users[0]!.user['client-certificate-data']!, 'base64'));
      assert.equal(cert.subject, subject, file);
      assert.ok(cert.verify(new X509Certificate(ca).publicKey), `${file}: signed by the CA`);
      assert.equal(statSync(path).mode & 0o777, 0o600, file);
    }
    assert.equal(statSync(join(cluster.dataDir, 'pki', 'ca.key')).mode & 0o777, 0o600);
  });

  for (const version of ['1.27', '1.33']) {
    it(`kubectl ${version} works with the kubeconfig as written`, async () => {
      const k = (args: string[]) => kubectlOk(cluster.kubeconfig, args, { version });
      assert.match(await k(['get', 'nodes', '-o', 'name']), /node\/kubelite-node-0/);
      await k(['create', 'configmap', `tls-${version.replace('.', '-')}`, '--from-literal=a=b']);
      assert.equal(await k(['get', 'configmap', `tls-${version.replace('.', '-')}`, '-o', 'jsonpath={.data.a}']), 'b');
      assert.match(await k(['get', '--raw', '/version']), /"gitVersion"/);
    });

    it(`kubectl ${version} with a certificate from another CA: Unauthorized`, async () => {
      const other = await clientCertificate('kubernetes-admin', ['system:masters'], await createCA('another-ca'));
      const path = join(cluster.dataDir, `other-ca-${version}.kubeconfig`);
      writeFileSync(path, kubeconfigYaml(cluster.server, ca, other), { mode: 0o600 });
      const r = await kubectl(path, ['get', 'pods'], { version });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /error: You must be logged in to the server \(Unauthorized\)/);
    });
  }

  it('kubectl with an expired certificate from the right CA: Unauthorized', async () => {
    const day = 86_400_000;
    const caKey = readFileSync(join(cluster.dataDir, 'pki', 'ca.key'), 'utf8');
    const expired = await clientCertificate('kubernetes-admin', ['system:masters'], { cert: ca, key: caKey }, { notBefore: new Date(Date.now() - 10 * day), notAfter: new Date(Date.now() - day) });
    const path = join(cluster.dataDir, 'expired.kubeconfig');
    writeFileSync(path, kubeconfigYaml(cluster.server, ca, expired), { mode: 0o600 });
    const r = await kubectl(path, ['get', 'pods']);
    assert.match(r.stderr, /error: You must be logged in to the server \(Unauthorized\)/);
  });

  it('anonymous requests: /version is served; resources too while authorization is AlwaysAllow', async () => {
    const version = await anonymousGet(`${cluster.server}/version`, ca);
    assert.equal(version.status, 200);
    assert.equal(JSON.parse(version.body).major, '1');
    // RBAC will answer 403 here (system:anonymous has no role); AlwaysAllow serves it.
    const pods = await anonymousGet(`${cluster.server}/api/v1/namespaces/default/pods`, ca);
    assert.equal(pods.status, 200, pods.body);
    assert.equal(JSON.parse(pods.body).kind, 'PodList');
  });

  it('headers over 64 KiB: 431, and the server goes on', async () => {
    const r = await anonymousGet(`${cluster.server}/version`, ca, { 'x-huge': 'h'.repeat(100 * 1024) });
    assert.equal(r.status, 431);
    assert.equal((await anonymousGet(`${cluster.server}/readyz`, ca)).status, 200);
  });
});
