// The PKCS#10 reader against requests made by Node's crypto and by openssl, and Go's error texts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { certificateRequestProblem } from './csr.js';
import { certificateRequestDer, certificateRequestPem } from './csr.testutil.js';

test('a request signed by its own key verifies (RSA, ECDSA, Ed25519)', () => {
  for (const key of ['rsa', 'ec', 'ed25519'] as const) assert.equal(certificateRequestProblem(Buffer.from(certificateRequestPem('alice', { key }))), undefined, key);
});

test('openssl req -new requests verify', () => {
  const pem = execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', '/dev/null', '-subj', '/CN=bob/O=dev'], { encoding: 'utf8' });
  assert.equal(certificateRequestProblem(Buffer.from(pem)), undefined);
});

test("Go's errors: PEM type, malformed DER, bad signature", () => {
  assert.equal(certificateRequestProblem(Buffer.from('not pem')), 'PEM block type must be CERTIFICATE REQUEST');
  assert.equal(certificateRequestProblem(Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')), 'PEM block type must be CERTIFICATE REQUEST');
  assert.equal(certificateRequestProblem(Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n')), 'x509: malformed certificate request');
  assert.equal(certificateRequestProblem(Buffer.from(certificateRequestPem('x', { key: 'ec', corruptSignature: true }))), 'x509: ECDSA verification failure');
  assert.equal(certificateRequestProblem(Buffer.from(certificateRequestPem('x', { key: 'rsa', corruptSignature: true }))), 'crypto/rsa: verification error');
  assert.equal(certificateRequestProblem(Buffer.from(certificateRequestPem('x', { key: 'ed25519', corruptSignature: true }))), 'x509: Ed25519 verification failure');
  const der = certificateRequestDer('x');
  assert.equal(certificateRequestProblem(Buffer.from(`-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.concat([der, Buffer.from([0])]).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`)), 'asn1: syntax error: trailing data');
});
