import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createCA, ensureServingPki, issueCertificate, KUBERNETES_SERVICE_IP, servingCertificateProblem, servingNames } from './pki.js';

describe('pki', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'kubelite-pki-'));
    dirs.push(d);
    return join(d, 'pki');
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('makes a CA and a serving certificate with the names clients use, keys 0600', async () => {
    const dir = tempDir();
    const pki = await ensureServingPki(dir, servingNames('127.0.0.1'));
    assert.deepEqual(pki.created, ['ca', 'serving']);
    const ca = new X509Certificate(readFileSync(join(dir, 'ca.crt')));
    assert.equal(ca.ca, true);
    const serving = new X509Certificate(readFileSync(join(dir, 'apiserver.crt')));
    assert.equal(serving.ca, false);
    assert.ok(serving.verify(ca.publicKey), 'signed by the CA');
    assert.equal(serving.checkIssued(ca), true);
    for (const dns of ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local']) {
      assert.equal(serving.checkHost(dns, { subject: 'never' }), dns, dns);
    }
    for (const ip of ['127.0.0.1', '::1', KUBERNETES_SERVICE_IP]) assert.ok(serving.checkIP(ip), ip);
    assert.equal(serving.checkHost('example.com', { subject: 'never' }), undefined);
    assert.equal(serving.keyUsage?.includes('1.3.6.1.5.5.7.3.1'), true, 'serverAuth');
    assert.equal(statSync(join(dir, 'ca.key')).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'apiserver.key')).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });

  it('reuses its files on the next start', async () => {
    const dir = tempDir();
    const first = await ensureServingPki(dir, servingNames('127.0.0.1'));
    const second = await ensureServingPki(dir, servingNames('127.0.0.1'));
    assert.deepEqual(second.created, []);
    assert.equal(second.ca.cert, first.ca.cert);
    assert.equal(second.serving.cert, first.serving.cert);
    assert.equal(second.serving.key, first.serving.key);
  });

  it('makes the serving certificate anew (same CA) when it no longer covers the bind address', async () => {
    const dir = tempDir();
    const first = await ensureServingPki(dir, servingNames('127.0.0.1'));
    const moved = await ensureServingPki(dir, servingNames('127.0.0.2'));
    assert.deepEqual(moved.created, ['serving']);
    assert.equal(moved.ca.cert, first.ca.cert);
    const cert = new X509Certificate(moved.serving.cert);
    assert.ok(cert.checkIP('127.0.0.2'));
    assert.ok(cert.checkIP('127.0.0.1'));
    // A host name as the bind address is a DNS name of the certificate.
    const named = await ensureServingPki(dir, servingNames('api.example.test'));
    assert.equal(new X509Certificate(named.serving.cert).checkHost('api.example.test', { subject: 'never' }), 'api.example.test');
  });

  it('says why a certificate cannot be reused: another CA, expiry, a missing name', async () => {
    const ca = await createCA('test-ca');
    const other = await createCA('other-ca');
    const names = servingNames('127.0.0.1');
    const good = await issueCertificate(ca, { commonName: 'kube-apiserver', usage: 'server', ...names });
    assert.equal(servingCertificateProblem(good.cert, ca.cert, names), '');
    assert.equal(servingCertificateProblem(good.cert, other.cert, names), 'not signed by the CA');
    assert.equal(servingCertificateProblem(good.cert, ca.cert, servingNames('10.1.2.3')), 'does not cover 10.1.2.3');
    const soon = await issueCertificate(ca, { commonName: 'kube-apiserver', usage: 'server', ...names, notAfter: new Date(Date.now() + 86_400_000) });
    assert.match(servingCertificateProblem(soon.cert, ca.cert, names), /^expires /);
    assert.match(servingCertificateProblem('garbage', ca.cert, names), /^unreadable/);
  });

  it('issues client certificates: CN the user, one O per group', async () => {
    const ca = await createCA('test-ca');
    const client = await issueCertificate(ca, { commonName: 'jane', organizations: ['dev', 'system:masters'], usage: 'client' });
    const cert = new X509Certificate(client.cert);
    assert.equal(cert.subject, 'O=dev\nO=system:masters\nCN=jane');
    assert.equal(cert.keyUsage?.includes('1.3.6.1.5.5.7.3.2'), true, 'clientAuth');
    assert.equal(cert.subjectAltName, undefined);
  });
});
