// PKCS#10 certificate requests (what `openssl req -new` writes, and what a kubelet puts in a
// CertificateSigningRequest's spec.request): the subject (CN, optional O), DNS and IP
// subjectAltNames in an extensionRequest attribute, signed with the requester's key — ECDSA P-256
// (ecdsa-with-SHA256), RSA (sha256WithRSAEncryption) or Ed25519.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { ipBytes } from './certificate.js';
import { bitString, nullValue, oid, sequence, setOf, smallInteger, tlv, utf8String } from './der.js';

export type RequestKey = 'rsa' | 'ec' | 'ed25519';

export function requestKeyPair(kind: RequestKey = 'ec'): { publicKey: KeyObject; privateKey: KeyObject } {
  if (kind === 'rsa') return generateKeyPairSync('rsa', { modulusLength: 2048 });
  if (kind === 'ec') return generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return generateKeyPairSync('ed25519');
}

export interface RequestOptions {
  key?: RequestKey;
  organization?: string;
  /** A signature that does not verify (for tests of the refusal). */
  corruptSignature?: boolean;
  dnsNames?: readonly string[];
  ips?: readonly string[];
  /** The key pair to use (default: a new one of `key`'s kind). */
  keys?: { publicKey: KeyObject; privateKey: KeyObject };
}

/** The DER of a request for CN=`commonName` (and O=`organization` when given). */
export function certificateRequestDer(commonName: string, opts: RequestOptions = {}): Buffer {
  const kind = opts.key ?? 'ec';
  const { publicKey, privateKey } = opts.keys ?? requestKeyPair(kind);
  const rdn = (type: string, value: string) => setOf(sequence(oid(type), utf8String(value)));
  const subject = sequence(...(opts.organization ? [rdn('2.5.4.10', opts.organization)] : []), rdn('2.5.4.3', commonName));
  const names = [...(opts.dnsNames ?? []).map((d) => tlv(0x82, Buffer.from(d))), ...(opts.ips ?? []).map((ip) => tlv(0x87, ipBytes(ip)))];
  const san = names.length > 0 ? [sequence(oid('1.2.840.113549.1.9.14'), setOf(sequence(sequence(oid('2.5.29.17'), tlv(0x04, sequence(...names))))))] : [];
  const info = sequence(smallInteger(0), subject, publicKey.export({ type: 'spki', format: 'der' }), tlv(0xa0, ...san));
  const keyType = publicKey.asymmetricKeyType;
  const algorithm = keyType === 'rsa' ? sequence(oid('1.2.840.113549.1.1.11'), nullValue()) : keyType === 'ec' ? sequence(oid('1.2.840.10045.4.3.2')) : sequence(oid('1.3.101.112'));
  const signature = sign(keyType === 'ed25519' ? null : 'sha256', info, privateKey);
  if (opts.corruptSignature) signature[signature.length - 1]! ^= 0xff;
  return sequence(info, algorithm, bitString(signature));
}

/** The PEM of such a request (what a CSR's spec.request holds, before base64 for JSON). */
export function certificateRequestPem(commonName: string, opts: RequestOptions = {}): string {
  const b64 = certificateRequestDer(commonName, opts).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN CERTIFICATE REQUEST-----\n${b64}\n-----END CERTIFICATE REQUEST-----\n`;
}
