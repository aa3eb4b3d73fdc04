import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { bulkClientIssuer } from './bulk-issue.js';
import { createCA, issueCertificate } from './pki.js';

const DAY = 24 * 3600 * 1000;

describe('bulkClientIssuer', () => {
  it('issues client certificates for one shared key that the CA verifies, with the subject as given', async () => {
    const ca = await createCA('test-ca');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const issuer = bulkClientIssuer(ca.cert, ca.key, keyPem, 365 * DAY);
    const caCert = new X509Certificate(ca.cert);
    const serials = new Set<string>();
    for (const n of ['a', 'b-with-a-longer-name-'.repeat(8)]) {
      const cert = new X509Certificate(issuer.issue(`system:node:${n}`, ['system:nodes']));
      assert.ok(cert.verify(caCert.publicKey), 'signed by the CA');
      assert.equal(cert.checkIssued(caCert), true);
      assert.equal(cert.checkPrivateKey(createPrivateKey(keyPem)), true);
      assert.equal(cert.subject, `O=system:nodes\nCN=system:node:${n}`);
      assert.equal(cert.ca, false);
      assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2'], 'clientAuth only');
      assert.ok(Date.parse(cert.validFrom) <= Date.now() && Date.parse(cert.validTo) > Date.now() + 364 * DAY);
      serials.add(cert.serialNumber);
    }
    assert.equal(serials.size, 2);
  });

  it('carries the CA key identifier and the same extensions as the client certificates pki.ts issues', async () => {
    const ca = await createCA('test-ca');
    const reference = await issueCertificate(ca, { commonName: 'x', usage: 'client' });
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const cert = new X509Certificate(bulkClientIssuer(ca.cert, ca.key, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), DAY).issue('x', []));
    const ext = (c: X509Certificate) => c.toLegacyObject() as unknown as { ext_key_usage?: string[] };
    assert.deepEqual(ext(cert).ext_key_usage, ext(new X509Certificate(reference.cert)).ext_key_usage);
    assert.equal(cert.issuer, new X509Certificate(reference.cert).issuer);
  });

  it('refuses a CA key it cannot sign with', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    assert.throws(() => bulkClientIssuer('', pem, pem, DAY), /only ECDSA and RSA CAs/);
  });
});
