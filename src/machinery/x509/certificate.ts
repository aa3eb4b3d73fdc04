// X.509 v3 certificates (RFC 5280) encoded and signed with node:crypto: what Go's
// x509.CreateCertificate writes for kubeadm's CA, serving and client certificates. A certificate
// library (and its ~170 modules of ASN.1 schema classes) would cost the supervisor of `kubelite
// up` more to load than these few encoders take to write every certificate of a cluster.
import { createHash, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { bitString, boolean, children, ia5String, namedBits, nullValue, octetString, oid, oidString, readElement, sequence, setOf, smallInteger, time, tlv, unsignedInteger, utf8String } from './der.js';

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  any: '2.5.29.37.0',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  codeSigning: '1.3.6.1.5.5.7.3.3',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  ipsecEndSystem: '1.3.6.1.5.5.7.3.5',
  ipsecTunnel: '1.3.6.1.5.5.7.3.6',
  ipsecUser: '1.3.6.1.5.5.7.3.7',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  ocspSigning: '1.3.6.1.5.5.7.3.9',
  microsoftServerGatedCrypto: '1.3.6.1.4.1.311.10.3.3',
  netscapeServerGatedCrypto: '2.16.840.1.113730.4.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  ecdsaWithSha384: '1.2.840.10045.4.3.3',
  ecdsaWithSha512: '1.2.840.10045.4.3.4',
  sha256WithRsa: '1.2.840.113549.1.1.11',
} as const;

/** KeyUsage bits (RFC 5280 4.2.1.3). */
export const KEY_USAGE = { digitalSignature: 0, contentCommitment: 1, keyEncipherment: 2, dataEncipherment: 3, keyAgreement: 4, keyCertSign: 5, cRLSign: 6, encipherOnly: 7, decipherOnly: 8 } as const;

/** Extended key usages (RFC 5280 4.2.1.12 and the ones Go knows). */
export type ExtKeyUsage = 'any' | 'serverAuth' | 'clientAuth' | 'codeSigning' | 'emailProtection' | 'ipsecEndSystem' | 'ipsecTunnel' | 'ipsecUser' | 'timeStamping' | 'ocspSigning' | 'microsoftServerGatedCrypto' | 'netscapeServerGatedCrypto';

export interface CertificateTemplate {
  /** Big-endian magnitude; encoded as a positive INTEGER. */
  serialNumber: Buffer;
  /**
   * Subject O values, then the CN (Kubernetes reads CN as the user, each O as a group); or the DER
   * of a Name to copy as it is (a signed request's subject).
   */
  subject: { commonName: string; organizations?: readonly string[] } | { raw: Buffer };
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
  isCA: boolean;
  keyUsage: readonly number[];
  extKeyUsage?: readonly ExtKeyUsage[];
  dnsNames?: readonly string[];
  ips?: readonly string[];
  emails?: readonly string[];
  uris?: readonly string[];
}

/** The signer: the issuing CA's certificate (PEM; absent for a self-signed one) and private key. */
export interface Issuer {
  certificate?: string;
  privateKey: KeyObject;
}

/** 128 random bits, positive (RFC 5280 allows up to 20 octets). */
export function randomSerialNumber(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes;
}

/** A certificate, PEM, signed by `issuer` (self-signed when it has no certificate). */
export function createCertificate(template: CertificateTemplate, issuer: Issuer): string {
  return certificateSigner(issuer)(template);
}

/**
 * Signs certificates by `issuer`, whose own certificate and key are read once: for issuing many
 * (a thousand simulated kubelets' client certificates at ~0.1 ms each).
 */
export function certificateSigner(issuer: Issuer): (template: CertificateTemplate) => string {
  const algorithm = signatureAlgorithm(issuer.privateKey);
  const parent = issuer.certificate === undefined ? undefined : issuerFields(issuer.certificate);
  return (template) => signedCertificate(template, issuer.privateKey, algorithm, parent);
}

function signedCertificate(
  template: CertificateTemplate,
  privateKey: KeyObject,
  algorithm: { hash: string; identifier: Buffer },
  parent: { subject: Buffer; subjectKeyId: Buffer } | undefined,
): string {
  const subjectName = 'raw' in template.subject ? template.subject.raw : name(template.subject);
  const spki = template.publicKey.export({ type: 'spki', format: 'der' });
  const extensions: Buffer[] = [
    extension(OID.basicConstraints, true, template.isCA ? sequence(boolean(true)) : sequence()),
    extension(OID.keyUsage, true, namedBits(template.keyUsage)),
  ];
  if (template.extKeyUsage?.length) extensions.push(extension(OID.extKeyUsage, false, sequence(...template.extKeyUsage.map((u) => oid(OID[u])))));
  // As Go: a CA names its key (SubjectKeyIdentifier); what it signs points at it (AuthorityKeyIdentifier).
  if (template.isCA) extensions.push(extension(OID.subjectKeyIdentifier, false, octetString(keyIdentifier(spki))));
  if (parent) extensions.push(extension(OID.authorityKeyIdentifier, false, sequence(tlv(0x80, parent.subjectKeyId))));
  // GeneralName order as Go writes it: DNS names, emails, IPs, URIs
  const altNames = [
    ...(template.dnsNames ?? []).map((d) => tlv(0x82, Buffer.from(d, 'ascii'))),
    ...(template.emails ?? []).map((e) => tlv(0x81, Buffer.from(e, 'ascii'))),
    ...(template.ips ?? []).map((ip) => tlv(0x87, ipBytes(ip))),
    ...(template.uris ?? []).map((u) => tlv(0x86, Buffer.from(u, 'ascii'))),
  ];
  if (altNames.length > 0) extensions.push(extension(OID.subjectAltName, false, sequence(...altNames)));
  const tbs = sequence(
    tlv(0xa0, smallInteger(2)), // version v3
    unsignedInteger(template.serialNumber),
    algorithm.identifier,
    parent ? parent.subject : subjectName,
    sequence(time(template.notBefore), time(template.notAfter)),
    subjectName,
    spki,
    tlv(0xa3, sequence(...extensions)),
  );
  const signature = sign(algorithm.hash, tbs, privateKey);
  const der = sequence(tbs, algorithm.identifier, bitString(signature));
  return `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
}

/** The signature algorithm Go picks for a key: ECDSA with the curve's hash, RSA PKCS#1 v1.5 with SHA-256. */
function signatureAlgorithm(key: KeyObject): { hash: string; identifier: Buffer } {
  if (key.asymmetricKeyType === 'rsa') return { hash: 'sha256', identifier: sequence(oid(OID.sha256WithRsa), nullValue()) };
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return { hash: 'sha256', identifier: sequence(oid(OID.ecdsaWithSha256)) };
    if (curve === 'secp384r1') return { hash: 'sha384', identifier: sequence(oid(OID.ecdsaWithSha384)) };
    if (curve === 'secp521r1') return { hash: 'sha512', identifier: sequence(oid(OID.ecdsaWithSha512)) };
    throw new Error(`cannot sign with an ECDSA key on curve ${String(curve)}`);
  }
  throw new Error(`cannot sign with a ${String(key.asymmetricKeyType)} key (want ECDSA or RSA)`);
}

/** A Name: one RDN per organization, then the common name (UTF8String, as RFC 5280 asks of new certificates). */
function name(subject: { commonName: string; organizations?: readonly string[] }): Buffer {
  const rdn = (type: string, value: string) => setOf(sequence(oid(type), utf8String(value)));
  return sequence(...(subject.organizations ?? []).map((o) => rdn(OID.organization, o)), rdn(OID.commonName, subject.commonName));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), boolean(true), octetString(value)) : sequence(oid(id), octetString(value));
}

/** RFC 5280 4.2.1.2 method 1 (as Go): SHA-1 of the subjectPublicKey bits of a SubjectPublicKeyInfo. */
function keyIdentifier(spki: Buffer): Buffer {
  const [, subjectPublicKey] = children(readElement(spki));
  return createHash('sha1').update(subjectPublicKey!.contents.subarray(1)).digest();
}

/** The issuer's subject, byte for byte (chains are built by comparing names), and its key identifier. */
function issuerFields(pem: string): { subject: Buffer; subjectKeyId: Buffer } {
  const der = new X509Certificate(pem).raw;
  const tbs = children(readElement(der))[0]!;
  const fields = children(tbs);
  // [0] version, serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, [1] [2] unique ids, [3] extensions
  const offset = fields[0]?.tag === 0xa0 ? 1 : 0;
  const subject = fields[offset + 4];
  const spki = fields[offset + 6];
  if (!subject || !spki) throw new Error('the CA certificate is malformed');
  const extensions = fields.find((f) => f.tag === 0xa3);
  const ski = extensions ? children(children(extensions)[0]!).map((e) => children(e)).find((e) => oidString(e[0]!.contents) === OID.subjectKeyIdentifier) : undefined;
  // A CA without a SubjectKeyIdentifier: Go computes the AuthorityKeyIdentifier from its key.
  const subjectKeyId = ski ? readElement(ski.at(-1)!.contents).contents : keyIdentifier(spki.raw);
  return { subject: subject.raw, subjectKeyId };
}

/** An IP address's 4 or 16 bytes. */
export function ipBytes(ip: string): Buffer {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  if (!isIPv6(ip)) throw new Error(`not an IP address: ${ip}`);
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const groups = (part: string | undefined): number[] => {
    if (!part) return [];
    return part.split(':').flatMap((g) => {
      if (!g.includes('.')) return [parseInt(g, 16)];
      const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const front = groups(head);
  const back = groups(tail);
  const all = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(g, 2 * i));
  return out;
}
