// A PKCS#10 certificate request (RFC 2986), as much as Kubernetes' CSR validation needs: the PEM
// block, the DER structure, and its self-signature checked with the public key it carries (Go's
// certificates.ParseCSR and x509.CertificateRequest.CheckSignature). Node's crypto parses
// certificates (X509Certificate) but not requests, so the DER is walked here and only the
// signature check is crypto's. Errors carry Go's texts, which Kubernetes puts in its messages;
// Go's asn1 structure errors (which name Go struct tags) are reported as one malformed-request text.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { children, oidString, readElement, type Element } from './der.js';

/** The parts of a request Kubernetes reads. */
export interface CertificateRequest {
  /** The DER of CertificationRequestInfo, which the signature covers. */
  info: Buffer;
  /** The subject's organization (O) values, in order: the groups of a client certificate. */
  organizations: string[];
  /** The subject's common name (CN; '' when absent). */
  commonName: string;
  /** The subject Name's DER, to copy into a certificate as it is. */
  rawSubject: Buffer;
  /** Subject alternative names requested (extensionRequest's subjectAltName). */
  dnsNames: string[];
  emails: string[];
  ips: string[];
  uris: string[];
  publicKey: KeyObject;
  signatureAlgorithm: string;
  signature: Buffer;
}

/** Go's x509 SignatureAlgorithm OIDs → the hash Node's verify takes (null: the key decides, Ed25519). */
const SIGNATURE_ALGORITHMS: Readonly<Record<string, { hash: string | null; name: string }>> = {
  '1.2.840.113549.1.1.5': { hash: 'sha1', name: 'SHA1-RSA' },
  '1.2.840.113549.1.1.11': { hash: 'sha256', name: 'SHA256-RSA' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', name: 'SHA384-RSA' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', name: 'SHA512-RSA' },
  '1.2.840.10045.4.1': { hash: 'sha1', name: 'ECDSA-SHA1' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', name: 'ECDSA-SHA256' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', name: 'ECDSA-SHA384' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', name: 'ECDSA-SHA512' },
  '1.3.101.112': { hash: null, name: 'Ed25519' },
};

class RequestError extends Error {}

/** The first PEM block of `pem` (Go's pem.Decode): its type and bytes, or undefined. */
function firstPemBlock(pem: string): { type: string; bytes: Buffer } | undefined {
  const m = /-----BEGIN ([^\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/.exec(pem);
  if (!m) return undefined;
  const body = m[2]!.split(/\r?\n/).filter((l) => !l.includes(':')).join('');
  if (!/^[A-Za-z0-9+/=\s]*$/.test(body)) return undefined;
  return { type: m[1]!, bytes: Buffer.from(body, 'base64') };
}

function expectSequence(e: Element | undefined): Element[] {
  if (!e || e.tag !== 0x30) throw new RequestError('x509: malformed certificate request');
  return children(e);
}

/** x509.ParseCertificateRequest of a request's DER. */
export function parseCertificateRequestDer(der: Buffer): CertificateRequest {
  let outer: Element;
  let info: Element[];
  let parts: Element[];
  try {
    outer = readElement(der);
    parts = expectSequence(outer);
    // Go's asn1.Unmarshal refuses bytes after the request.
    if (outer.raw.length !== der.length) throw new RequestError('asn1: syntax error: trailing data');
    if (parts.length !== 3) throw new RequestError('x509: malformed certificate request');
    info = expectSequence(parts[0]);
  } catch (err) {
    if (err instanceof RequestError) throw err;
    throw new RequestError('x509: malformed certificate request');
  }
  // CertificationRequestInfo ::= SEQUENCE { version INTEGER, subject Name, subjectPKInfo, [0] attributes }
  const [version, subject, spki] = info;
  if (!version || version.tag !== 0x02 || !subject || subject.tag !== 0x30 || !spki || spki.tag !== 0x30) throw new RequestError('x509: malformed certificate request');
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: spki.raw, format: 'der', type: 'spki' });
  } catch {
    throw new RequestError('x509: unsupported elliptic curve');
  }
  const algorithm = expectSequence(parts[1]);
  if (!algorithm[0] || algorithm[0].tag !== 0x06) throw new RequestError('x509: malformed signature algorithm identifier');
  const signature = parts[2]!;
  if (signature.tag !== 0x03 || signature.contents.length < 1 || signature.contents[0] !== 0) throw new RequestError('x509: malformed signature');
  return {
    info: parts[0]!.raw,
    organizations: attributeValues(subject, '2.5.4.10'),
    commonName: attributeValues(subject, '2.5.4.3')[0] ?? '',
    rawSubject: subject.raw,
    ...requestedAltNames(info[3]),
    publicKey,
    signatureAlgorithm: oidString(algorithm[0].contents),
    signature: signature.contents.subarray(1),
  };
}

/** The SANs of the extensionRequest attribute (PKCS#9) of a request's [0] attributes. */
function requestedAltNames(attributes: Element | undefined): Pick<CertificateRequest, 'dnsNames' | 'emails' | 'ips' | 'uris'> {
  const out = { dnsNames: [] as string[], emails: [] as string[], ips: [] as string[], uris: [] as string[] };
  if (!attributes || attributes.tag !== 0xa0) return out;
  try {
    for (const attribute of children(attributes)) {
      const [type, values] = children(attribute);
      if (!type || oidString(type.contents) !== '1.2.840.113549.1.9.14' || !values) continue;
      for (const extensions of children(values)) {
        for (const extension of children(extensions)) {
          const fields = children(extension);
          if (oidString(fields[0]!.contents) !== '2.5.29.17') continue;
          const value = fields[fields.length - 1]!;
          for (const general of children(readElement(value.contents))) {
            if (general.tag === 0x82) out.dnsNames.push(general.contents.toString('ascii'));
            else if (general.tag === 0x81) out.emails.push(general.contents.toString('ascii'));
            else if (general.tag === 0x86) out.uris.push(general.contents.toString('ascii'));
            else if (general.tag === 0x87) out.ips.push(ipText(general.contents));
          }
        }
      }
    }
  } catch {
    throw new RequestError('x509: malformed extension');
  }
  return out;
}

function ipText(bytes: Buffer): string {
  if (bytes.length === 4) return [...bytes].join('.');
  const groups: string[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}

/** The values of one attribute type in a Name (SEQUENCE OF SET OF SEQUENCE { type, value }). */
function attributeValues(name: Element, type: string): string[] {
  const out: string[] = [];
  for (const rdn of children(name)) {
    for (const attribute of children(rdn)) {
      const [oid, value] = children(attribute);
      if (oid?.tag === 0x06 && value && oidString(oid.contents) === type) out.push(value.contents.toString('utf8'));
    }
  }
  return out;
}

/** Go's CertificateRequest.CheckSignature; throws with Go's error text. */
export function checkRequestSignature(req: CertificateRequest): void {
  const algorithm = SIGNATURE_ALGORITHMS[req.signatureAlgorithm];
  if (!algorithm) throw new RequestError('x509: cannot verify signature: algorithm unimplemented');
  const keyType = req.publicKey.asymmetricKeyType;
  const rsa = algorithm.name.endsWith('-RSA');
  const ec = algorithm.name.startsWith('ECDSA');
  if ((rsa && keyType !== 'rsa') || (ec && keyType !== 'ec') || (algorithm.hash === null && keyType !== 'ed25519')) {
    throw new RequestError(`x509: signature algorithm specifies an ${rsa ? 'RSA' : ec ? 'ECDSA' : 'Ed25519'} public key, but have public key of type ${goKeyType(keyType)}`);
  }
  let ok: boolean;
  try {
    ok = verify(algorithm.hash, req.info, req.publicKey, req.signature);
  } catch {
    ok = false;
  }
  if (!ok) throw new RequestError(rsa ? 'crypto/rsa: verification error' : ec ? 'x509: ECDSA verification failure' : 'x509: Ed25519 verification failure');
}

function goKeyType(t: string | undefined): string {
  return t === 'rsa' ? '*rsa.PublicKey' : t === 'ec' ? '*ecdsa.PublicKey' : t === 'ed25519' ? 'ed25519.PublicKey' : `${t}`;
}

/** Kubernetes' certificates.ParseCSR: the first PEM block, a CERTIFICATE REQUEST, parsed (not verified). */
export function parseCertificateRequestPem(pem: Buffer): CertificateRequest {
  const block = firstPemBlock(pem.toString('latin1'));
  if (!block || block.type !== 'CERTIFICATE REQUEST') throw new RequestError('PEM block type must be CERTIFICATE REQUEST');
  return parseCertificateRequestDer(block.bytes);
}

/**
 * Kubernetes' validateCSR: the first PEM block must be a CERTIFICATE REQUEST whose DER parses and
 * whose signature verifies. Returns the error text Kubernetes reports, or undefined.
 */
export function certificateRequestProblem(pem: Buffer): string | undefined {
  try {
    checkRequestSignature(parseCertificateRequestPem(pem));
    return undefined;
  } catch (err) {
    if (err instanceof RequestError) return err.message;
    throw err;
  }
}
