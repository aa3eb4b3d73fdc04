import assert from 'node:assert/strict';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { createCertificate, ipBytes, KEY_USAGE } from './certificate.js';
import { children, namedBits, oid, oidString, readElement, time, unsignedInteger } from './der.js';

const hex = (b: Buffer) => b.toString('hex');

describe('der', () => {
  it('encodes INTEGERs minimally and positive', () => {
    assert.equal(hex(unsignedInteger(Buffer.from([0x00, 0x00, 0x7f]))), '02017f');
    assert.equal(hex(unsignedInteger(Buffer.from([0x80]))), '02020080');
    assert.equal(hex(unsignedInteger(Buffer.from([0x00]))), '020100');
  });

  it('encodes named bit strings without trailing zero bits (KeyUsage)', () => {
    assert.equal(hex(namedBits([KEY_USAGE.digitalSignature, KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign])), '03020186');
    assert.equal(hex(namedBits([KEY_USAGE.digitalSignature, KEY_USAGE.keyEncipherment])), '030205a0');
    assert.equal(hex(namedBits([8])), '0303070080');
  });

  it('encodes and reads OIDs, long lengths and times', () => {
    assert.equal(hex(oid('1.2.840.10045.4.3.2')), '06082a8648ce3d040302');
    assert.equal(oidString(readElement(oid('1.3.6.1.5.5.7.3.2')).contents), '1.3.6.1.5.5.7.3.2');
    const long = Buffer.concat([Buffer.from([0x04, 0x82, 0x01, 0x00]), Buffer.alloc(256, 7)]);
    assert.equal(readElement(long).contents.length, 256);
    assert.throws(() => readElement(long.subarray(0, 100)), /truncated/);
    assert.equal(time(new Date('2049-12-31T23:59:59Z')).toString('latin1', 2), '491231235959Z');
    assert.equal(time(new Date('2050-01-01T00:00:00Z')).toString('latin1', 2), '20500101000000Z');
  });

  it('gives the 16 bytes of IPv6 addresses in every notation', () => {
    assert.equal(hex(ipBytes('::1')), '00000000000000000000000000000001');
    assert.equal(hex(ipBytes('fe80::1:2')), 'fe800000000000000000000000010002');
    assert.equal(hex(ipBytes('::ffff:1.2.3.4')), '00000000000000000000ffff01020304');
    assert.equal(hex(ipBytes('2001:db8:0:0:1:0:0:1')), '20010db8000000000001000000000001');
    assert.equal(hex(ipBytes('10.96.0.1')), '0a600001');
    assert.throws(() => ipBytes('localhost'), /not an IP address/);
  });
});

describe('createCertificate', () => {
  const now = Date.now();
  const validity = { notBefore: new Date(now - 60_000), notAfter: new Date(now + 86_400_000) };

  for (const [label, ca] of [
    ['an ECDSA P-384', generateKeyPairSync('ec', { namedCurve: 'secp384r1' })],
    ['an RSA', generateKeyPairSync('rsa', { modulusLength: 2048 })],
  ] as const) {
    it(`signs with ${label} CA, its subject and key identifier copied into what it issues`, () => {
      const caPem = createCertificate({ serialNumber: Buffer.from([1]), subject: { commonName: 'ca' }, ...validity, publicKey: ca.publicKey, isCA: true, keyUsage: [KEY_USAGE.keyCertSign] }, { privateKey: ca.privateKey });
      const leaf = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      const leafPem = createCertificate(
        { serialNumber: Buffer.from([0xff, 0x01]), subject: { commonName: 'jane', organizations: ['dev'] }, ...validity, publicKey: leaf.publicKey, isCA: false, keyUsage: [KEY_USAGE.digitalSignature], extKeyUsage: ['clientAuth', 'serverAuth'], dnsNames: ['a.example'], ips: ['::1'] },
        { certificate: caPem, privateKey: ca.privateKey },
      );
      const caCert = new X509Certificate(caPem);
      const cert = new X509Certificate(leafPem);
      assert.equal(caCert.ca, true);
      assert.ok(caCert.verify(ca.publicKey), 'self-signed');
      assert.ok(cert.verify(ca.publicKey));
      assert.ok(cert.checkIssued(caCert));
      assert.equal(cert.issuer, 'CN=ca');
      assert.equal(cert.subject, 'O=dev\nCN=jane');
      assert.equal(cert.serialNumber.toUpperCase(), 'FF01', 'positive: a 0x00 went before the high bit');
      assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2', '1.3.6.1.5.5.7.3.1']);
      assert.equal(cert.subjectAltName, 'DNS:a.example, IP Address:0:0:0:0:0:0:0:1');
      // The AuthorityKeyIdentifier of the leaf is the CA's SubjectKeyIdentifier (OpenSSL refuses a mismatch).
      const keyIds = (pem: string) => {
        const tbs = children(readElement(new X509Certificate(pem).raw))[0]!;
        const exts = children(children(children(tbs).find((f) => f.tag === 0xa3)!)[0]!).map((e) => children(e));
        const value = (id: string) => exts.find((e) => oidString(e[0]!.contents) === id)?.at(-1)?.contents;
        return { ski: value('2.5.29.14'), aki: value('2.5.29.35') };
      };
      const ski = readElement(keyIds(caPem).ski!).contents;
      const aki = children(readElement(keyIds(leafPem).aki!))[0]!.contents;
      assert.equal(hex(aki), hex(ski));
    });
  }
});
