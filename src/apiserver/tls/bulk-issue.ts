// Client certificates in bulk: a thousand simulated kubelets need a thousand certificates (CN =
// system:node:<name>, O = system:nodes). They all share one key pair and one template — issuer,
// validity, key and extensions are the same, only the serial and the subject differ — so the CA
// is read once and each certificate costs one signature (~0.1 ms), against ~6 ms for a fresh key
// each. What they carry is what Go's crypto/x509 issues for a client (certificate.ts).
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { certificateSigner, KEY_USAGE, randomSerialNumber } from '../../machinery/x509/certificate.js';

export interface BulkIssuer {
  /** A client certificate (PEM) for the shared key, CN = commonName, one O per organization. */
  issue(commonName: string, organizations: readonly string[]): string;
}

/**
 * An issuer of client certificates for the public half of `keyPem`, signed by the CA (`caCertPem`,
 * `caKeyPem`: ECDSA or RSA), valid from a minute ago for `validityMs`.
 */
export function bulkClientIssuer(caCertPem: string, caKeyPem: string, keyPem: string, validityMs: number, now = Date.now()): BulkIssuer {
  const caKey = createPrivateKey(caKeyPem);
  if (caKey.asymmetricKeyType !== 'ec' && caKey.asymmetricKeyType !== 'rsa') {
    throw new Error(`the CA key is ${caKey.asymmetricKeyType ?? 'unknown'}: only ECDSA and RSA CAs can sign node certificates`);
  }
  const sign = certificateSigner({ certificate: caCertPem, privateKey: caKey });
  const publicKey = createPublicKey(keyPem);
  const notBefore = new Date(now - 60_000);
  const notAfter = new Date(now + validityMs);
  return {
    issue: (commonName, organizations) =>
      sign({
        serialNumber: randomSerialNumber(),
        subject: { commonName, organizations },
        notBefore,
        notAfter,
        publicKey,
        isCA: false,
        keyUsage: [KEY_USAGE.digitalSignature, KEY_USAGE.keyEncipherment],
        extKeyUsage: ['clientAuth'],
      }),
  };
}
