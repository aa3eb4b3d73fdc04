// The certificates kubelite makes for itself, as kube-apiserver's self-signed mode and kubeadm do:
// a CA, a serving certificate for the API server (signed by that CA, with the names clients use
// to reach it) and client certificates (CN = user, O = groups). Keys are ECDSA P-256 (fast to make,
// accepted by Go's and Node's TLS); files are PEM, keys written 0600.
//
// @peculiar/x509 (which builds certificates on webcrypto) is imported only when a certificate is
// actually made: a restart that reuses its files checks them with node:crypto alone.
import { X509Certificate, createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';

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

const EC: webcrypto.EcKeyGenParams & webcrypto.EcdsaParams = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY_MS = 24 * 60 * 60 * 1000;
const CA_VALIDITY_MS = 10 * 365 * DAY_MS;
const LEAF_VALIDITY_MS = 365 * DAY_MS;
/** A reused serving certificate must stay valid at least this long, else it is made anew. */
const RENEW_BEFORE_MS = 30 * DAY_MS;
/** The ClusterIP of the `kubernetes` Service (bootstrap.ts): pods reach the API server there. */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';

type X509Module = typeof import('@peculiar/x509');
let x509Module: Promise<X509Module> | undefined;
function loadX509(): Promise<X509Module> {
  return (x509Module ??= import('@peculiar/x509').then((m) => {
    m.cryptoProvider.set(webcrypto as unknown as Parameters<typeof m.cryptoProvider.set>[0]);
    return m;
  }));
}

function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f; // positive, as RFC 5280 asks
  return bytes.toString('hex');
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;
}

async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function exportKey(key: CryptoKey): Promise<string> {
  return pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', key));
}

async function importSigningKey(keyPem: string): Promise<CryptoKey> {
  const der = createPrivateKey(keyPem).export({ type: 'pkcs8', format: 'der' });
  return webcrypto.subtle.importKey('pkcs8', der, EC, false, ['sign']);
}

function subject(commonName: string, organizations: readonly string[] = []): Array<Record<string, string[]>> {
  return [...organizations.map((o) => ({ O: [o] })), { CN: [commonName] }];
}

/** A new self-signed CA (10 years). */
export async function createCA(commonName: string): Promise<KeyPair> {
  const x = await loadX509();
  const keys = await newKeys();
  const now = Date.now();
  const cert = await x.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: subject(commonName),
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + CA_VALIDITY_MS),
    keys,
    signingAlgorithm: EC,
    extensions: [
      new x.BasicConstraintsExtension(true, undefined, true),
      new x.KeyUsagesExtension(x.KeyUsageFlags.keyCertSign | x.KeyUsageFlags.cRLSign | x.KeyUsageFlags.digitalSignature, true),
      await x.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: await exportKey(keys.privateKey) };
}

/** A certificate signed by `ca` for a server or a client. */
export async function issueCertificate(ca: KeyPair, req: CertificateRequest): Promise<KeyPair> {
  const x = await loadX509();
  const keys = await newKeys();
  const caCert = new x.X509Certificate(ca.cert);
  const now = Date.now();
  const extensions: import('@peculiar/x509').Extension[] = [
    new x.BasicConstraintsExtension(false, undefined, true),
    new x.KeyUsagesExtension(x.KeyUsageFlags.digitalSignature | x.KeyUsageFlags.keyEncipherment, true),
    new x.ExtendedKeyUsageExtension([req.usage === 'server' ? x.ExtendedKeyUsage.serverAuth : x.ExtendedKeyUsage.clientAuth]),
    await x.AuthorityKeyIdentifierExtension.create(caCert),
  ];
  const names = [...(req.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })), ...(req.ips ?? []).map((value) => ({ type: 'ip' as const, value }))];
  if (names.length > 0) extensions.push(new x.SubjectAlternativeNameExtension(names));
  const cert = await x.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: subject(req.commonName, req.organizations),
    issuer: caCert.subject,
    notBefore: req.notBefore ?? new Date(now - 60_000),
    notAfter: req.notAfter ?? new Date(now + LEAF_VALIDITY_MS),
    publicKey: keys.publicKey,
    signingKey: await importSigningKey(ca.key),
    signingAlgorithm: EC,
    extensions,
  });
  return { cert: cert.toString('pem') + '\n', key: await exportKey(keys.privateKey) };
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
