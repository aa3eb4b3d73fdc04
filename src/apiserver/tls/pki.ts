// The certificates kubelite makes for itself, as kube-apiserver's self-signed mode and kubeadm do:
// a CA, a serving certificate for the API server (signed by that CA, with the names clients use
// to reach it) and client certificates (CN = user, O = groups). Keys are ECDSA P-256 (fast to make,
// accepted by Go's and Node's TLS); files are PEM, keys written 0600. Certificates are encoded
// and signed with node:crypto (certificate.ts).
import { createPrivateKey, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createCertificate, KEY_USAGE, randomSerialNumber } from '../../machinery/x509/certificate.js';

/** A certificate and its private key, both PEM. */
export interface KeyPair {
  cert: string;
  key: string;
}

export interface CertificateRequest {
  commonName: string;
  /** Subject O values (Kubernetes reads them as the user's groups). */
  organizations?: readonly string[];
  usage: 'server' | 'client';
  /** Subject alternative names of a serving certificate. */
  dnsNames?: readonly string[];
  ips?: readonly string[];
  /** Defaults: now (minus a minute of clock skew) and one year later. */
  notBefore?: Date;
  notAfter?: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const CA_VALIDITY_MS = 10 * 365 * DAY_MS;
const LEAF_VALIDITY_MS = 365 * DAY_MS;
/** A reused serving certificate must stay valid at least this long, else it is made anew. */
const RENEW_BEFORE_MS = 30 * DAY_MS;
/** The ClusterIP of the `kubernetes` Service (bootstrap.ts): pods reach the API server there. */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';

function newKeys(): { publicKey: KeyObject; privateKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
}

const pkcs8 = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }) as string;

/** A new self-signed CA (10 years). */
export async function createCA(commonName: string): Promise<KeyPair> {
  const keys = newKeys();
  const now = Date.now();
  const cert = createCertificate(
    {
      serialNumber: randomSerialNumber(),
      subject: { commonName },
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + CA_VALIDITY_MS),
      publicKey: keys.publicKey,
      isCA: true,
      keyUsage: [KEY_USAGE.digitalSignature, KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign],
    },
    { privateKey: keys.privateKey },
  );
  return { cert, key: pkcs8(keys.privateKey) };
}

/** A certificate signed by `ca` for a server or a client. */
export async function issueCertificate(ca: KeyPair, req: CertificateRequest): Promise<KeyPair> {
  const keys = newKeys();
  const now = Date.now();
  const cert = createCertificate(
    {
      serialNumber: randomSerialNumber(),
      subject: { commonName: req.commonName, organizations: req.organizations },
      notBefore: req.notBefore ?? new Date(now - 60_000),
      notAfter: req.notAfter ?? new Date(now + LEAF_VALIDITY_MS),
      publicKey: keys.publicKey,
      isCA: false,
      keyUsage: [KEY_USAGE.digitalSignature, KEY_USAGE.keyEncipherment],
      extKeyUsage: [req.usage === 'server' ? 'serverAuth' : 'clientAuth'],
      dnsNames: req.dnsNames,
      ips: req.ips,
    },
    { certificate: ca.cert, privateKey: createPrivateKey(ca.key) },
  );
  return { cert, key: pkcs8(keys.privateKey) };
}

/** The names a serving certificate for an API server bound to `bindAddress` must carry. */
export function servingNames(bindAddress: string, extra: readonly string[] = []): { dnsNames: string[]; ips: string[] } {
  const dnsNames = new Set(['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local']);
  const ips = new Set(['127.0.0.1', '::1', KUBERNETES_SERVICE_IP]);
  // 0.0.0.0 and :: listen everywhere: the machine's name is the one other machines use.
  const unspecified = bindAddress === '0.0.0.0' || bindAddress === '::';
  if (unspecified) dnsNames.add(hostname().toLowerCase());
  for (const name of [...(unspecified ? [] : [bindAddress]), ...extra]) {
    if (name === '') continue;
    if (isIP(name)) ips.add(name);
    else dnsNames.add(name.toLowerCase());
  }
  return { dnsNames: [...dnsNames], ips: [...ips] };
}

/**
 * Why an existing serving certificate cannot be reused ('' when it can): not signed by the CA,
 * expiring within 30 days, or missing one of the names.
 */
export function servingCertificateProblem(certPem: string, caPem: string, names: { dnsNames: readonly string[]; ips: readonly string[] }, now = Date.now()): string {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
    if (!cert.verify(new X509Certificate(caPem).publicKey)) return 'not signed by the CA';
  } catch (err) {
    return `unreadable: ${(err as Error).message}`;
  }
  if (Date.parse(cert.validTo) - now < RENEW_BEFORE_MS) return `expires ${cert.validTo}`;
  if (Date.parse(cert.validFrom) > now + 60_000) return `not valid before ${cert.validFrom}`;
  for (const dns of names.dnsNames) if (cert.checkHost(dns, { wildcards: false, subject: 'never' }) === undefined) return `does not cover ${dns}`;
  for (const ip of names.ips) if (cert.checkIP(ip) === undefined) return `does not cover ${ip}`;
  return '';
}

/** Writes a file atomically (temporary file + rename) with the given mode. */
export function writeSecureFile(path: string, data: string, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

export interface ServingPki {
  ca: KeyPair;
  serving: KeyPair;
  caCertFile: string;
  caKeyFile: string;
  servingCertFile: string;
  servingKeyFile: string;
  /** What was made on this call (empty when everything was reused). */
  created: string[];
}

/**
 * The CA and the API server's serving certificate in `dir` (`ca.crt`/`ca.key`,
 * `apiserver.crt`/`apiserver.key`, kubeadm's names): made on first use, reused afterwards; the
 * serving certificate is made anew when it no longer fits (new bind address, near expiry, CA
 * replaced).
 */
export async function ensureServingPki(dir: string, names: { dnsNames: readonly string[]; ips: readonly string[] }): Promise<ServingPki> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const files = { caCertFile: join(dir, 'ca.crt'), caKeyFile: join(dir, 'ca.key'), servingCertFile: join(dir, 'apiserver.crt'), servingKeyFile: join(dir, 'apiserver.key') };
  const created: string[] = [];
  let ca: KeyPair;
  if (existsSync(files.caCertFile) && existsSync(files.caKeyFile)) {
    ca = { cert: readFileSync(files.caCertFile, 'utf8'), key: readFileSync(files.caKeyFile, 'utf8') };
  } else {
    ca = await createCA(`kubelite-ca@${Math.floor(Date.now() / 1000)}`);
    writeSecureFile(files.caKeyFile, ca.key, 0o600);
    writeSecureFile(files.caCertFile, ca.cert, 0o644);
    created.push('ca');
  }
  let serving: KeyPair | undefined;
  if (existsSync(files.servingCertFile) && existsSync(files.servingKeyFile)) {
    const existing = { cert: readFileSync(files.servingCertFile, 'utf8'), key: readFileSync(files.servingKeyFile, 'utf8') };
    if (servingCertificateProblem(existing.cert, ca.cert, names) === '') serving = existing;
  }
  if (serving === undefined) {
    serving = await issueCertificate(ca, { commonName: 'kube-apiserver', usage: 'server', dnsNames: names.dnsNames, ips: names.ips });
    writeSecureFile(files.servingKeyFile, serving.key, 0o600);
    writeSecureFile(files.servingCertFile, serving.cert, 0o644);
    created.push('serving');
  }
  return { ca, serving, ...files, created };
}
