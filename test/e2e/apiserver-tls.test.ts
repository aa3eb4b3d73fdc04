// HTTPS and authentication end to end: the kubeconfigs `up` writes verify the CA and carry a client
// certificate per component, kubectl (1.27 and 1.33) uses them as they are, a certificate from
// another CA is refused with kubectl's "You must be logged in" message, anonymous requests reach
// only what RBAC lets system:anonymous see, and oversized headers are 431, never a crash.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubeconfigYaml } from '../../src/up/credentials.js';
import { createCA, issueCertificate, type KeyPair } from '../../src/apiserver/tls/pki.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { KUBELITE_BIN, startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { clientCertificate, TEST_PKI } from '../support/tls.js';

/** The kubeconfigs `up` writes: the certificate's subject and the user the API server sees. */
const COMPONENTS: Record<string, { subject: string; user: string }> = {
  kubeconfig: { subject: 'O=system:masters\nCN=kubernetes-admin', user: 'kubernetes-admin' },
  'controller-manager.kubeconfig': { subject: 'CN=system:kube-controller-manager', user: 'system:kube-controller-manager' },
  'scheduler.kubeconfig': { subject: 'CN=system:kube-scheduler', user: 'system:kube-scheduler' },
  'nodes.kubeconfig': { subject: 'CN=system:kubelite-node-lifecycle', user: 'system:kubelite-node-lifecycle' },
};

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
    for (const [file, { subject }] of Object.entries(COMPONENTS)) {
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

  it('anonymous requests: /version is served, pods are forbidden (RBAC)', async () => {
    const version = await anonymousGet(`${cluster.server}/version`, ca);
    assert.equal(version.status, 200);
    assert.equal(JSON.parse(version.body).major, '1');
    const pods = await anonymousGet(`${cluster.server}/api/v1/namespaces/default/pods`, ca);
    assert.equal(pods.status, 403, pods.body);
    assert.equal(JSON.parse(pods.body).message, 'pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "default"');
  });

  it('each kubeconfig is who it says (kubectl auth whoami)', async () => {
    for (const [file, { user }] of Object.entries(COMPONENTS)) {
      assert.equal(await kubectlOk(join(cluster.dataDir, file), ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']), user, file);
    }
    // The nodes identity may do what kubelets do (system:node), not more.
    const nodes = join(cluster.dataDir, 'nodes.kubeconfig');
    assert.equal((await kubectl(nodes, ['auth', 'can-i', 'patch', 'nodes/status'])).stdout.trim(), 'yes');
    assert.equal((await kubectl(nodes, ['auth', 'can-i', 'create', 'deployments.apps'])).stdout.trim(), 'no');
  });

  it('plain HTTP or garbage on the HTTPS port: the connection closes, the server goes on', async () => {
    const u = new URL(cluster.server);
    for (const bytes of ['GET /version HTTP/1.1\r\nHost: x\r\n\r\n', '\x16\x03\x01\x00\x05garbage-garbage']) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(u.port), u.hostname, () => socket.write(bytes));
        socket.on('data', () => {});
        socket.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(err)));
        socket.on('close', () => resolve());
      });
    }
    assert.equal((await anonymousGet(`${cluster.server}/readyz`, ca)).status, 200);
  });

  it('headers over 64 KiB: 431, and the server goes on', async () => {
    const r = await anonymousGet(`${cluster.server}/version`, ca, { 'x-huge': 'h'.repeat(100 * 1024) });
    assert.equal(r.status, 431);
    assert.equal((await anonymousGet(`${cluster.server}/readyz`, ca)).status, 200);
  });
});

describe("kubelite apiserver with the user's own certificates", () => {
  let server: RunningApiserver;
  let ca: KeyPair;

  before(async () => {
    ca = await createCA('my-own-ca');
    const serving = await issueCertificate(ca, { commonName: 'my-apiserver', usage: 'server', dnsNames: ['localhost'], ips: ['127.0.0.1'] });
    const dir = mkdtempSync(join(tmpdir(), 'kubelite-own-tls-'));
    writeFileSync(join(dir, 'tls.crt'), serving.cert);
    writeFileSync(join(dir, 'tls.key'), serving.key, { mode: 0o600 });
    writeFileSync(join(dir, 'ca.crt'), ca.cert);
    server = await startApiserver(['--storage', 'memory', '--tls-cert-file', join(dir, 'tls.crt'), '--tls-private-key-file', join(dir, 'tls.key'), '--client-ca-file', join(dir, 'ca.crt')]);
  });
  after(() => server?.stop());

  it('serves them, trusts client certificates of --client-ca-file only', async () => {
    const mine = join(server.dir, 'mine.kubeconfig');
    writeFileSync(mine, kubeconfigYaml(server.url, ca.cert, await clientCertificate('me', ['system:masters'], ca)), { mode: 0o600 });
    assert.match(await kubectlOk(mine, ['get', 'namespaces', '-o', 'name']), /namespace\/default/);
    // The test admin's certificate comes from another CA here.
    const theirs = join(server.dir, 'theirs.kubeconfig');
    writeFileSync(theirs, kubeconfigYaml(server.url, ca.cert, TEST_PKI.admin), { mode: 0o600 });
    assert.match((await kubectl(theirs, ['get', 'namespaces'])).stderr, /You must be logged in to the server \(Unauthorized\)/);
  });

  it('a certificate that does not match its key, or a missing half: one line, exit 2', async () => {
    const run = (args: string[]) => spawnSync(process.execPath, [KUBELITE_BIN, 'apiserver', '--storage', 'memory', '--port', '0', ...args], { encoding: 'utf8', timeout: 20_000 });
    const dir = server.dir;
    const [one, other] = await Promise.all([clientCertificate('x', [], ca), clientCertificate('y', [], ca)]);
    writeFileSync(join(dir, 'one.crt'), one.cert);
    writeFileSync(join(dir, 'other.key'), other.key);
    const mismatch = run(['--tls-cert-file', join(dir, 'one.crt'), '--tls-private-key-file', join(dir, 'other.key')]);
    assert.equal(mismatch.status, 2);
    assert.match(mismatch.stderr, /^kubelite apiserver: the serving certificate, its key or the client CA cannot be used: .*key values mismatch\n$/);
    const half = run(['--tls-cert-file', join(dir, 'other.key')]);
    assert.equal(half.status, 2);
    assert.equal(half.stderr, 'kubelite apiserver: --tls-cert-file and --tls-private-key-file go together\n');
  });
});
