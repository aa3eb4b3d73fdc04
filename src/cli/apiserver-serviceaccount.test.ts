import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER, serviceAccountTokenOptions } from './apiserver-serviceaccount.js';

const flags = { serviceAccountIssuer: [], serviceAccountKeyFile: [], serviceAccountExtendTokenExpiration: true };

test('service account flags: a key made in <data-dir>/pki and reused, issuers, audiences, extra keys, bad input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sa-flags-'));
  const first = serviceAccountTokenOptions(flags, dir);
  assert.equal(first.issuer, DEFAULT_SERVICE_ACCOUNT_ISSUER);
  assert.deepEqual(first.apiAudiences, [DEFAULT_SERVICE_ACCOUNT_ISSUER]);
  assert.equal(serviceAccountTokenOptions(flags, dir).signingKey.kid, first.signingKey.kid, 'reused on the next start');

  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyFile = join(dir, 'signing.pem');
  writeFileSync(keyFile, rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }));
  const pubFile = join(dir, 'other.pub');
  writeFileSync(pubFile, generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ type: 'spki', format: 'pem' }));
  const o = serviceAccountTokenOptions({ ...flags, serviceAccountIssuer: ['https://a', 'https://b'], serviceAccountSigningKeyFile: keyFile, serviceAccountKeyFile: [pubFile], apiAudiences: ['api'], serviceAccountMaxTokenExpiration: 7_200_000 }, dir);
  assert.equal(o.issuer, 'https://a');
  assert.deepEqual(o.acceptedIssuers, ['https://a', 'https://b']);
  assert.equal(o.signingKey.alg, 'RS256');
  assert.deepEqual(o.verificationKeys?.map((k) => k.alg), ['ES384']);
  assert.deepEqual(o.apiAudiences, ['api']);
  assert.equal(o.maxExpirationSeconds, 7200);

  assert.throws(() => serviceAccountTokenOptions({ ...flags, serviceAccountSigningKeyFile: pubFile }, dir), /other\.pub: no private key found/);
  assert.throws(() => serviceAccountTokenOptions({ ...flags, serviceAccountKeyFile: [join(dir, 'missing.pem')] }, dir), /ENOENT/);
  assert.throws(() => serviceAccountTokenOptions({ ...flags, serviceAccountMaxTokenExpiration: 600_000 }, dir), /must be greater than or equal to 1h/);
});
