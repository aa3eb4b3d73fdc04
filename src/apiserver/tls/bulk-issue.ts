// Client certificates in bulk: a thousand simulated kubelets need a thousand certificates (CN =
// system:node:<name>, O = system:nodes), and @peculiar/x509 with a fresh key each takes ~6 ms a
// certificate (6 s for 1,000 nodes). These all share one key pair and one template — issuer,
// validity, key and extensions are the same, only the serial and the subject differ — so each is
// a few hundred bytes of DER around the subject and one signature by the CA key with node:crypto
// (~0.1 ms). The certificates are what Go's crypto/x509 issues for a client: v3,
// basicConstraints CA:false (critical), keyUsage digitalSignature + keyEncipherment (critical),
// extKeyUsage clientAuth, and the CA's key identifier as authorityKeyIdentifier.
import { createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';

/** One DER TLV. */
function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = content.length === 1 ? content[0]! : Buffer.concat(content);
  const n = body.length;
  let head: Buffer;
  if (n < 0x80) head = Buffer.from([tag, n]);
  else if (n < 0x100) head = Buffer.from([tag, 0x81, n]);
  else if (n < 0x10000) head = Buffer.from([tag, 0x82, n >> 8, n & 0xff]);
  else head = Buffer.from([tag, 0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]);
  return Buffer.concat([head, body]);
}

const SEQUENCE = 0x30;
const SET = 0x31;
const hex = (h: string) => Buffer.from(h.replace(/\s/g, ''), 'hex');

const OID_CN = hex('06 03 55 04 03');
const OID_O = hex('06 03 55 04 0a');
const ECDSA_SHA256 = tlv(SEQUENCE, hex('06 08 2a 86 48 ce 3d 04 03 02'));
const RSA_SHA256 = tlv(SEQUENCE, hex('06 09 2a 86 48 86 f7 0d 01 01 0b 05 00'));
const VERSION_3 = hex('a0 03 02 01 02');
const BASIC_CONSTRAINTS_END_ENTITY = tlv(SEQUENCE, hex('06 03 55 1d 13'), hex('01 01 ff'), tlv(0x04, tlv(SEQUENCE)));
// digitalSignature (bit 0) | keyEncipherment (bit 2): 0b1010_0000, 5 unused bits.
const KEY_USAGE_CLIENT = tlv(SEQUENCE, hex('06 03 55 1d 0f'), hex('01 01 ff'), tlv(0x04, hex('03 02 05 a0')));
const EXT_KEY_USAGE_CLIENT_AUTH = tlv(SEQUENCE, hex('06 03 55 1d 25'), tlv(0x04, tlv(SEQUENCE, hex('06 08 2b 06 01 05 05 07 03 02'))));

/** The elements of a DER SEQUENCE (or any constructed value): [tag, whole TLV, content]. */
function children(der: Buffer): Array<{ tag: number; whole: Buffer; content: Buffer }> {
  const out: Array<{ tag: number; whole: Buffer; content: Buffer }> = [];
  let i = 0;
  while (i < der.length) {
    const tag = der[i]!;
    let len = der[i + 1]!;
    let head = 2;
    if (len & 0x80) {
      const bytes = len & 0x7f;
      len = 0;
      for (let k = 0; k < bytes; k++) len = len * 256 + der[i + 2 + k]!;
      head = 2 + bytes;
    }
    out.push({ tag, whole: der.subarray(i, i + head + len), content: der.subarray(i + head, i + head + len) });
    i += head + len;
  }
  return out;
}

/** The CA certificate's subject (DER, as the issuer of what it signs) and its subjectKeyIdentifier, if any. */
function caFields(caPem: string): { subject: Buffer; keyId: Buffer | undefined } {
  const b64 = caPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s/g, '');
  const cert = children(Buffer.from(b64, 'base64'))[0]!;
  const tbs = children(children(cert.content)[0]!.content);
  // [0] version, serial, signature, issuer, validity, subject, spki, [3] extensions
  const offset = tbs[0]!.tag === 0xa0 ? 1 : 0;
  const subject = tbs[offset + 4]!.whole;
  let keyId: Buffer | undefined;
  const extensions = tbs.find((e) => e.tag === 0xa3);
  if (extensions) {
    for (const ext of children(children(extensions.content)[0]!.content)) {
      const parts = children(ext.content);
      if (parts[0]!.whole.equals(hex('06 03 55 1d 0e'))) keyId = children(parts[parts.length - 1]!.content)[0]!.content;
    }
  }
  return { subject, keyId };
}

function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  // RFC 5280: UTCTime through 2049, GeneralizedTime from 2050.
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

function name(commonName: string, organizations: readonly string[]): Buffer {
  const rdn = (oid: Buffer, value: string) => tlv(SET, tlv(SEQUENCE, oid, tlv(0x0c, Buffer.from(value, 'utf8'))));
  return tlv(SEQUENCE, ...organizations.map((o) => rdn(OID_O, o)), rdn(OID_CN, commonName));
}

function serial(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x40; // positive and minimal, as DER and RFC 5280 ask
  return tlv(0x02, bytes);
}

function pem(der: Buffer): string {
  return `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
}

export interface BulkIssuer {
  /** A client certificate (PEM) for the shared key, CN = commonName, one O per organization. */
  issue(commonName: string, organizations: readonly string[]): string;
}

/**
 * An issuer of client certificates for the public half of `keyPem`, signed by the CA (`caCertPem`,
 * `caKeyPem`: ECDSA or RSA), valid from a minute ago for `validityMs`.
 */
export function bulkClientIssuer(caCertPem: string, caKeyPem: string, keyPem: string, validityMs: number, now = Date.now()): BulkIssuer {
  const caKey: KeyObject = createPrivateKey(caKeyPem);
  const signature = caKey.asymmetricKeyType === 'ec' ? ECDSA_SHA256 : caKey.asymmetricKeyType === 'rsa' ? RSA_SHA256 : undefined;
  if (signature === undefined) throw new Error(`the CA key is ${caKey.asymmetricKeyType ?? 'unknown'}: only ECDSA and RSA CAs can sign node certificates`);
  const ca = caFields(caCertPem);
  const spki = createPublicKey(keyPem).export({ type: 'spki', format: 'der' });
  const validity = tlv(SEQUENCE, time(new Date(now - 60_000)), time(new Date(now + validityMs)));
  const extensionList = [BASIC_CONSTRAINTS_END_ENTITY, KEY_USAGE_CLIENT, EXT_KEY_USAGE_CLIENT_AUTH];
  if (ca.keyId) extensionList.push(tlv(SEQUENCE, hex('06 03 55 1d 23'), tlv(0x04, tlv(SEQUENCE, tlv(0x80, ca.keyId)))));
  const extensions = tlv(0xa3, tlv(SEQUENCE, ...extensionList));
  return {
    issue(commonName, organizations) {
      const tbs = tlv(SEQUENCE, VERSION_3, serial(), signature, ca.subject, validity, name(commonName, organizations), spki, extensions);
      const sig = sign('sha256', tbs, { key: caKey, dsaEncoding: 'der' });
      return pem(tlv(SEQUENCE, tbs, signature, tlv(0x03, Buffer.from([0]), sig)));
    },
  };
}
