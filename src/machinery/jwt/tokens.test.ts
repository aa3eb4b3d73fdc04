import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ensureSigningKey, keyIdOf, parseSigningKey, parseVerificationKeys } from './keys.js';
import { boundClaims, LEGACY_ISSUER, legacyClaims, peekClaims, SIGNATURE_INVALID, signToken, verifySignature } from './tokens.js';

function rsaPkcs1(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
}
function ecSec1(curve: string): string {
  return generateKeyPairSync('ec', { namedCurve: curve }).privateKey.export({ type: 'sec1', format: 'pem' }).toString();
}

describe('service account keys', () => {
  it('reads RSA (PKCS#1) and ECDSA (SEC1, PKCS#8) private keys with their algorithm and kid', () => {
    assert.equal(parseSigningKey(rsaPkcs1()).alg, 'RS256');
    assert.equal(parseSigningKey(ecSec1('P-256')).alg, 'ES256');
    assert.equal(parseSigningKey(ecSec1('P-384')).alg, 'ES384');
    assert.equal(parseSigningKey(ecSec1('P-521')).alg, 'ES512');
    const pkcs8 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const key = parseSigningKey(pkcs8);
    // kid: base64url(sha256(PKIX DER of the public key)), 43 characters.
    assert.match(key.kid, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(key.kid, keyIdOf(key.publicKey));
  });

  it('reads every public key of a file (private keys, public keys), and refuses files without one', () => {
    const a = parseSigningKey(ecSec1('P-256'));
    const b = parseSigningKey(rsaPkcs1());
    const text = a.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() + b.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    assert.deepEqual(parseVerificationKeys(text).map((k) => k.kid), [a.kid, b.kid]);
    assert.throws(() => parseVerificationKeys('nothing here', 'f.pem'), /f\.pem: no PEM block found/);
    assert.throws(() => parseSigningKey(b.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'pub.pem'), /pub\.pem: no private key found/);
    assert.throws(() => parseSigningKey('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', 'bad.pem'), /bad\.pem: PRIVATE KEY/);
  });

  it('creates a key file once (0600, with its public half) and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sa-key-'));
    const first = ensureSigningKey(join(dir, 'pki', 'sa.key'), join(dir, 'pki', 'sa.pub'));
    assert.equal(statSync(join(dir, 'pki', 'sa.key')).mode & 0o777, 0o600);
    assert.equal(parseVerificationKeys(readFileSync(join(dir, 'pki', 'sa.pub'), 'utf8'))[0]!.kid, first.kid);
    assert.equal(ensureSigningKey(join(dir, 'pki', 'sa.key')).kid, first.kid);
  });
});

describe('service account JWTs', () => {
  const key = parseSigningKey(ecSec1('P-256'));
  const other = parseSigningKey(ecSec1('P-256'));
  const sa = { namespace: 'ns', name: 'bot', uid: 'sa-uid' };

  it('bound claims are exactly the ones Kubernetes writes', () => {
    const c = boundClaims({ issuer: 'https://issuer', serviceAccount: sa, audiences: ['a', 'b'], expirationSeconds: 600, warnAfterSeconds: 0, pod: { name: 'p', uid: 'pod-uid' }, node: { name: 'n', uid: 'node-uid' }, now: 1000 });
    assert.match(c.jti, /^[0-9a-f-]{36}$/);
    assert.deepEqual({ ...c, jti: '<jti>' }, {
      aud: ['a', 'b'], exp: 1600, iat: 1000, iss: 'https://issuer', jti: '<jti>', nbf: 1000, sub: 'system:serviceaccount:ns:bot',
      'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'bot', uid: 'sa-uid' }, pod: { name: 'p', uid: 'pod-uid' }, node: { name: 'n', uid: 'node-uid' } },
    });
    const extended = boundClaims({ issuer: 'i', serviceAccount: sa, audiences: ['a'], expirationSeconds: 31536000, warnAfterSeconds: 3607, secret: { name: 's', uid: 'u' }, now: 1000 });
    assert.deepEqual(extended['kubernetes.io'], { namespace: 'ns', serviceaccount: { name: 'bot', uid: 'sa-uid' }, secret: { name: 's', uid: 'u' }, warnafter: 4607 });
    assert.deepEqual(legacyClaims(sa, 'bot-token'), {
      iss: LEGACY_ISSUER,
      'kubernetes.io/serviceaccount/namespace': 'ns',
      'kubernetes.io/serviceaccount/secret.name': 'bot-token',
      'kubernetes.io/serviceaccount/service-account.name': 'bot',
      'kubernetes.io/serviceaccount/service-account.uid': 'sa-uid',
      sub: 'system:serviceaccount:ns:bot',
    });
  });

  it('signs with the key (header alg + kid) and verifies with it, not with another key', async () => {
    const token = await signToken(legacyClaims(sa, 's'), key);
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
    assert.deepEqual(header, { alg: 'ES256', kid: key.kid });
    assert.equal((await verifySignature(token, [other, key]))['kubernetes.io/serviceaccount/secret.name'], 's');
    await assert.rejects(verifySignature(token, [other]), new RegExp(SIGNATURE_INVALID));
    const rsa = parseSigningKey(rsaPkcs1());
    const rsaToken = await signToken(legacyClaims(sa, 's'), rsa);
    assert.equal((await verifySignature(rsaToken, [key, rsa])).sub, 'system:serviceaccount:ns:bot');
  });

  it('malformed tokens of every shape are refused, never thrown at as crashes', async () => {
    const good = await signToken(legacyClaims(sa, 's'), key);
    const [h, p, s] = good.split('.') as [string, string, string];
    const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
    const shapes = [
      '', 'abc', 'a.b', 'a.b.c.d', `${h}.${p}`, `${h}..${s}`, `${h}.${p}.`, `!!.${p}.${s}`, `${h}.${p}.${s}x`,
      `${b64('not json')}.${p}.${s}`, `${b64({ alg: 'none' })}.${p}.`, `${b64({ alg: 'HS256', kid: key.kid })}.${p}.${s}`,
      `${h}.${b64('[1,2]')}.${s}`, `${h}.${b64('null')}.${s}`, `${h}.${b64({ ...legacyClaims(sa, 'other') })}.${s}`,
    ];
    for (const token of shapes) {
      await assert.rejects(verifySignature(token, [key]), Error, JSON.stringify(token));
    }
    assert.equal(peekClaims('a.b'), undefined);
    assert.equal(peekClaims(`${h}.${b64('[1]')}.${s}`), undefined);
    assert.equal(peekClaims(`${h}.${b64('{')}.${s}`), undefined);
    assert.equal(peekClaims(good)?.iss, LEGACY_ISSUER);
  });
});
