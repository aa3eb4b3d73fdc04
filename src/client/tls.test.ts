import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import https from 'node:https';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { loadRestConfig } from './kubeconfig.js';
import { RestClientset } from './rest.js';

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

test('rest client over TLS: CA verification, client certificate, bearer token, user agent', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-tls-'));
  try {
    openssl(dir, 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=test-ca');
    writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    openssl(dir, 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
    openssl(dir, 'x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '1', '-extfile', 'san.ext');
    openssl(dir, 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=system:kube-controller-manager');
    openssl(dir, 'x509', '-req', '-in', 'client.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.crt', '-days', '1');
  } catch {
    t.skip('openssl cannot make certificates here');
    return;
  }
  const seen: { cn: string; auth: string; ua: string; accept: string }[] = [];
  const server = https.createServer(
    { key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.crt')), ca: readFileSync(join(dir, 'ca.crt')), requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const cert = (req.socket as TLSSocket).getPeerCertificate();
      seen.push({ cn: String(cert?.subject?.CN ?? ''), auth: String(req.headers.authorization ?? ''), ua: String(req.headers['user-agent'] ?? ''), accept: String(req.headers.accept ?? '') });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }));
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    writeFileSync(join(dir, 'token'), 'tok-123\n');
    writeFileSync(
      join(dir, 'kubeconfig'),
      `apiVersion: v1
kind: Config
current-context: c
clusters: [{name: k, cluster: {server: "https://127.0.0.1:${port}", certificate-authority: ca.crt}}]
users: [{name: u, user: {client-certificate: client.crt, client-key: client.key, tokenFile: token}}]
contexts: [{name: c, context: {cluster: k, user: u}}]
`,
    );
    const cs = new RestClientset({ config: loadRestConfig({ kubeconfig: join(dir, 'kubeconfig') }), userAgent: 'kube-controller-manager/v1.33.0 (linux/amd64) kubernetes/kubelite', qps: 0 });
    const ns = await cs.resource({ group: '', version: 'v1', resource: 'namespaces' }).get('', 'default');
    assert.equal((ns.metadata as { name: string }).name, 'default');
    assert.deepEqual(seen[0], {
      cn: 'system:kube-controller-manager',
      auth: 'Bearer tok-123',
      ua: 'kube-controller-manager/v1.33.0 (linux/amd64) kubernetes/kubelite',
      accept: 'application/vnd.kubernetes.protobuf, application/json',
    });
    cs.close();
    // The server's name is checked against its certificate: tls-server-name localhost is one of
    // its names, kubernetes.invalid is not.
    const named = new RestClientset({ config: { ...loadRestConfig({ kubeconfig: join(dir, 'kubeconfig') }), serverName: 'localhost' }, qps: 0 });
    await named.resource({ group: '', version: 'v1', resource: 'namespaces' }).get('', 'default');
    named.close();
    const misnamed = new RestClientset({ config: { ...loadRestConfig({ kubeconfig: join(dir, 'kubeconfig') }), serverName: 'kubernetes.invalid' }, qps: 0, maxRetries: 0 });
    await assert.rejects(misnamed.resource({ group: '', version: 'v1', resource: 'namespaces' }).get('', 'default'), /Hostname\/IP does not match certificate's altnames: Host: kubernetes\.invalid\. is not in the cert's altnames: IP Address:127\.0\.0\.1, DNS:localhost/);
    misnamed.close();
    // Without the CA the server's certificate is refused; insecure-skip-tls-verify accepts it.
    const untrusted = new RestClientset({ config: { server: `https://127.0.0.1:${port}` }, qps: 0, maxRetries: 0 });
    await assert.rejects(untrusted.resource({ group: '', version: 'v1', resource: 'namespaces' }).get('', 'default'), /self[- ]signed|unable to verify|certificate/i);
    untrusted.close();
    const insecure = new RestClientset({ config: { server: `https://127.0.0.1:${port}`, insecureSkipTlsVerify: true }, qps: 0 });
    await insecure.resource({ group: '', version: 'v1', resource: 'namespaces' }).get('', 'default');
    insecure.close();
  } finally {
    server.close();
  }
});
