// The TLS side of end-to-end tests: one CA per test process, and an admin client certificate
// (kubelite-e2e-admin in system:masters) signed by it. Every `kubelite apiserver` that
// test/support starts gets this CA in its <data-dir>/pki, so it makes its own serving certificate
// from it — the default path of a real start — and trusts the admin certificate; kubeconfigs carry
// the CA and the certificate; and node's fetch (which takes no CA of its own) gets them through
// undici's global dispatcher, so tests reach HTTPS servers with plain `fetch(url)` as before.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, setGlobalDispatcher } from 'undici';
import { createCA, issueCertificate, type KeyPair } from '../../src/apiserver/tls/pki.js';
import type { RestConfig } from '../../src/client/kubeconfig.js';

export interface TestPki {
  ca: KeyPair;
  admin: KeyPair;
}

export const TEST_PKI: TestPki = await (async () => {
  const ca = await createCA('kubelite-e2e-ca');
  const admin = await issueCertificate(ca, { commonName: 'kubelite-e2e-admin', organizations: ['system:masters'], usage: 'client' });
  return { ca, admin };
})();

setGlobalDispatcher(new Agent({ connect: { ca: TEST_PKI.ca.cert, cert: TEST_PKI.admin.cert, key: TEST_PKI.admin.key } }));

/** For fetch's `dispatcher`: trusts the test CA, presents no client certificate (anonymous, or a bearer token alone). */
export const CERTLESS_DISPATCHER = new Agent({ connect: { ca: TEST_PKI.ca.cert } });

/** Puts the test CA where `kubelite apiserver --data-dir <dataDir>` looks for its CA. */
export function seedPki(dataDir: string): void {
  const pki = join(dataDir, 'pki');
  mkdirSync(pki, { recursive: true, mode: 0o700 });
  writeFileSync(join(pki, 'ca.crt'), TEST_PKI.ca.cert);
  writeFileSync(join(pki, 'ca.key'), TEST_PKI.ca.key, { mode: 0o600 });
}

/** A client configuration for src/client as the test admin. */
export function adminRestConfig(server: string): RestConfig {
  if (!server.startsWith('https:')) return { server };
  return { server, ca: Buffer.from(TEST_PKI.ca.cert), clientCert: Buffer.from(TEST_PKI.admin.cert), clientKey: Buffer.from(TEST_PKI.admin.key) };
}

/** Issues a client certificate from the test CA (or from `ca`, e.g. another CA to be refused). */
export function clientCertificate(commonName: string, organizations: string[] = [], ca: KeyPair = TEST_PKI.ca, validity?: { notBefore: Date; notAfter: Date }): Promise<KeyPair> {
  return issueCertificate(ca, { commonName, organizations, usage: 'client', ...validity });
}
