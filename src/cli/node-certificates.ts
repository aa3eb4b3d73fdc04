// The client certificates of the simulated kubelets: each node authenticates as
// `system:node:<name>` in `system:nodes`, as a kubelet does with the certificate kubeadm or its
// TLS bootstrap gives it, so that the API server's Node authorizer and NodeRestriction admission
// hold each node to itself and its pods. `kubelite nodes` issues them from the cluster's signing
// CA (kube-controller-manager's --cluster-signing-cert-file/--cluster-signing-key-file, the CA that
// signs kubelet client certificates in Kubernetes).
//
// All nodes share one key pair (the certificates differ by subject): issuing is then one signature
// per node, ~0.1 ms. With a cert dir (kubelet's --cert-dir), the key and the certificates are kept
// there (kubelet-client.key, and kubelet-client-certs.json: the certificates with the CA and key
// they were issued for and their expiry) and reused while the CA and key are the same and they
// stay valid for 30 more days, so a restart issues nothing and reads two files (checking 1,000
// certificates one by one with node:crypto would take a second).
import { X509Certificate, createHash, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bulkClientIssuer, type BulkIssuer } from '../apiserver/tls/bulk-issue.js';
import { writeSecureFile } from '../apiserver/tls/pki.js';
import type { RestConfig } from '../client/kubeconfig.js';
import { newClientset, type RestClientOptions, type RestClientset } from '../client/rest.js';
import { NODE_USER_PREFIX, NODES_GROUP } from '../nodes/identity.js';

const VALIDITY_MS = 365 * 24 * 3600 * 1000;
const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;
const KEY_FILE = 'kubelet-client.key';
const CERTS_FILE = 'kubelet-client-certs.json';

export interface NodeCertificates {
  /** PEM private key shared by every node certificate. */
  key: string;
  /** Node name → PEM client certificate. */
  certs: Map<string, string>;
  /** How many were issued now (the rest came from the cert dir). */
  issued: number;
}

export interface NodeCertificateOptions {
  caCertFile: string;
  caKeyFile: string;
  /** Where to keep the key and certificates; absent: issued anew at each start. */
  certDir?: string;
  nodeNames: readonly string[];
}

/** The cert dir's record of what it holds. */
interface CertsFile {
  /** SHA-256 of the CA certificate and of the key PEM the certificates were issued for. */
  ca: string;
  key: string;
  certs: Record<string, { notAfter: number; cert: string }>;
}

function readFile(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`${flag}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function readCertsFile(file: string, ca: string, key: string): CertsFile['certs'] {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as CertsFile;
    if (parsed.ca === ca && parsed.key === key && typeof parsed.certs === 'object' && parsed.certs !== null) return parsed.certs;
  } catch {
    // absent or unreadable: issue anew
  }
  return {};
}

/** The nodes' certificates: reused from the cert dir when still good, otherwise issued (and kept). */
export function nodeClientCertificates(o: NodeCertificateOptions): NodeCertificates {
  const caPem = readFile('--cluster-signing-cert-file', o.caCertFile);
  const caKeyPem = readFile('--cluster-signing-key-file', o.caKeyFile);
  let caFingerprint: string;
  try {
    const ca = new X509Certificate(caPem);
    if (!ca.checkPrivateKey(createPrivateKey(caKeyPem))) throw new Error('the key does not belong to the certificate');
    caFingerprint = ca.fingerprint256;
  } catch (e) {
    throw new Error(`--cluster-signing-cert-file/--cluster-signing-key-file: ${(e as Error).message}`);
  }
  if (o.certDir !== undefined) mkdirSync(o.certDir, { recursive: true, mode: 0o700 });
  const keyFile = o.certDir === undefined ? undefined : join(o.certDir, KEY_FILE);
  let keyPem: string | undefined;
  if (keyFile !== undefined && existsSync(keyFile)) {
    keyPem = readFileSync(keyFile, 'utf8');
    try {
      createPrivateKey(keyPem);
    } catch {
      keyPem = undefined;
    }
  }
  if (keyPem === undefined) {
    keyPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    if (keyFile !== undefined) writeSecureFile(keyFile, keyPem, 0o600);
  }
  const keyFingerprint = sha256(keyPem);
  const certsFile = o.certDir === undefined ? undefined : join(o.certDir, CERTS_FILE);
  const kept = certsFile === undefined ? {} : readCertsFile(certsFile, caFingerprint, keyFingerprint);
  const now = Date.now();
  let issuer: BulkIssuer | undefined;
  const certs = new Map<string, string>();
  let issued = 0;
  for (const name of o.nodeNames) {
    const cached = Object.hasOwn(kept, name) ? kept[name] : undefined;
    if (cached !== undefined && typeof cached.cert === 'string' && cached.notAfter - now > RENEW_BEFORE_MS) {
      certs.set(name, cached.cert);
      continue;
    }
    issuer ??= bulkClientIssuer(caPem, caKeyPem, keyPem, VALIDITY_MS, now);
    const cert = issuer.issue(`${NODE_USER_PREFIX}${name}`, [NODES_GROUP]);
    kept[name] = { notAfter: now + VALIDITY_MS, cert };
    certs.set(name, cert);
    issued++;
  }
  if (certsFile !== undefined && issued > 0) writeSecureFile(certsFile, JSON.stringify({ ca: caFingerprint, key: keyFingerprint, certs: kept } satisfies CertsFile), 0o644);
  return { key: keyPem, certs, issued };
}

/** Connections per simulated kubelet: its heartbeats, its pods' status writes and its events. */
const NODE_MAX_SOCKETS = 4;

/**
 * One client per node, each presenting that node's certificate on connections of its own (the
 * API server authenticates a client certificate per TLS connection), made on first use.
 */
export class NodeClients {
  private readonly clients = new Map<string, RestClientset>();
  /**
   * The shared key as every node's TLS context reads it: an EC key in SEC1 form ("EC PRIVATE KEY"),
   * which OpenSSL 3 decodes in half the time of PKCS#8 (0.3 vs 0.7 ms, once per node).
   */
  private readonly key: Buffer;

  /** `base`: the server and CA to trust (its credentials are not used); `options`: shared by all (e.g. one limiter). */
  constructor(
    private readonly base: RestConfig,
    private readonly certificates: NodeCertificates,
    private readonly options: Omit<RestClientOptions, 'config'>,
  ) {
    const key = createPrivateKey(certificates.key);
    this.key = Buffer.from(key.asymmetricKeyType === 'ec' ? key.export({ type: 'sec1', format: 'pem' }) : certificates.key);
  }

  private configFor(name: string): RestConfig {
    const cert = this.certificates.certs.get(name);
    if (cert === undefined) throw new Error(`no certificate for node ${name}`);
    const { server, ca, insecureSkipTlsVerify, serverName } = this.base;
    return { server, ...(ca ? { ca } : {}), ...(insecureSkipTlsVerify ? { insecureSkipTlsVerify } : {}), ...(serverName ? { serverName } : {}), clientCert: Buffer.from(cert), clientKey: this.key };
  }

  /** The client node `name` writes through. */
  readonly forNode = (name: string): RestClientset => {
    let c = this.clients.get(name);
    if (c === undefined) this.clients.set(name, (c = newClientset({ config: this.configFor(name), ...this.options, maxSockets: NODE_MAX_SOCKETS })));
    return c;
  };

  close(): void {
    for (const c of this.clients.values()) c.close();
  }
}
