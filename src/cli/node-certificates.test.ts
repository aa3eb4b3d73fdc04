import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createCA } from '../apiserver/tls/pki.js';
import { nodeClientCertificates } from './node-certificates.js';

describe('nodeClientCertificates', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-node-certs-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const writeCA = async (name: string) => {
    const ca = await createCA(name);
    writeFileSync(join(dir, `${name}.crt`), ca.cert);
    writeFileSync(join(dir, `${name}.key`), ca.key);
    return { caCertFile: join(dir, `${name}.crt`), caKeyFile: join(dir, `${name}.key`), cert: ca.cert };
  };

  it('issues system:node:<name> in system:nodes for each node, keeps them in the cert dir and reuses them', async () => {
    const ca = await writeCA('ca');
    const certDir = join(dir, 'nodes');
    const first = nodeClientCertificates({ ...ca, certDir, nodeNames: ['n-0', 'n-1'] });
    assert.equal(first.issued, 2);
    for (const name of ['n-0', 'n-1']) {
      const cert = new X509Certificate(first.certs.get(name)!);
      assert.equal(cert.subject, `O=system:nodes\nCN=system:node:${name}`);
      assert.ok(cert.verify(new X509Certificate(ca.cert).publicKey));
    }
    assert.equal(statSync(join(certDir, 'kubelet-client.key')).mode & 0o777, 0o600);
    assert.equal(statSync(certDir).mode & 0o777, 0o700);
    const again = nodeClientCertificates({ ...ca, certDir, nodeNames: ['n-0', 'n-1', 'n-2'] });
    assert.equal(again.issued, 1, 'only the new node');
    assert.equal(again.certs.get('n-0'), first.certs.get('n-0'));
    assert.equal(again.key, first.key);
    assert.equal(nodeClientCertificates({ ...ca, certDir, nodeNames: ['n-2', 'n-0'] }).issued, 0);
  });

  it('issues anew for another CA, and without a cert dir at every call', async () => {
    const certDir = join(dir, 'nodes-2');
    const a = await writeCA('ca-a');
    const b = await writeCA('ca-b');
    nodeClientCertificates({ ...a, certDir, nodeNames: ['n'] });
    const other = nodeClientCertificates({ ...b, certDir, nodeNames: ['n'] });
    assert.equal(other.issued, 1);
    assert.ok(new X509Certificate(other.certs.get('n')!).verify(new X509Certificate(b.cert).publicKey));
    assert.equal(nodeClientCertificates({ ...b, nodeNames: ['n'] }).issued, 1);
    assert.equal(nodeClientCertificates({ ...b, nodeNames: ['n'] }).issued, 1);
  });

  it('says which file is wrong', async () => {
    const a = await writeCA('ca-c');
    const b = await writeCA('ca-d');
    assert.throws(() => nodeClientCertificates({ caCertFile: join(dir, 'missing.crt'), caKeyFile: a.caKeyFile, nodeNames: [] }), /--cluster-signing-cert-file: cannot read .*missing\.crt: ENOENT/);
    assert.throws(() => nodeClientCertificates({ caCertFile: a.caCertFile, caKeyFile: b.caKeyFile, nodeNames: [] }), /the key does not belong to the certificate/);
    assert.match(readFileSync(a.caCertFile, 'utf8'), /BEGIN CERTIFICATE/);
  });
});
