// The PKI `kubelite up` makes, made by a benchmark before it starts `kubelite apiserver --data-dir
// <dir>` (which then reuses it, as it does on every start after the first): the CA, the serving
// certificate for 127.0.0.1, and an admin client certificate (system:masters) for the benchmark.
import { join } from 'node:path';
import { ensureServingPki, issueCertificate, servingNames } from '../src/apiserver/tls/pki.js';
import type { RestConfig } from '../src/client/kubeconfig.js';

export interface BenchTls {
  /** PEM CA to trust, admin certificate and key. */
  ca: string;
  cert: string;
  key: string;
  /** A src/client configuration for `https://127.0.0.1:<port>` as the admin. */
  restConfig(port: number): RestConfig;
}

export async function prepareApiserverPki(dataDir: string): Promise<BenchTls> {
  const { ca } = await ensureServingPki(join(dataDir, 'pki'), servingNames('127.0.0.1'));
  const admin = await issueCertificate(ca, { commonName: 'kubernetes-admin', organizations: ['system:masters'], usage: 'client' });
  return {
    ca: ca.cert,
    cert: admin.cert,
    key: admin.key,
    restConfig: (port) => ({ server: `https://127.0.0.1:${port}`, ca: Buffer.from(ca.cert), clientCert: Buffer.from(admin.cert), clientKey: Buffer.from(admin.key) }),
  };
}
