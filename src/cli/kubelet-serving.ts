// The TLS material of the simulated nodes' kubelet API: its serving certificate and key (kubelet's
// --tls-cert-file/--tls-private-key-file; without them a self-signed CA and a certificate it
// signs for the listen address, localhost and the node names, made at start, as a kubelet without
// a certificate generates its own), and the CA client certificates must chain to
// (--client-ca-file).
import { readFileSync } from 'node:fs';
import { createCA, issueCertificate } from '../apiserver/tls/pki.js';

export interface KubeletServing {
  cert: string;
  key: string;
  clientCA?: string;
}

function read(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`${flag}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

export async function kubeletServing(o: { certFile?: string | undefined; keyFile?: string | undefined; clientCAFile?: string | undefined; address: string; nodeNames: readonly string[] }): Promise<KubeletServing> {
  const clientCA = o.clientCAFile === undefined ? undefined : read('--client-ca-file', o.clientCAFile);
  if (o.certFile !== undefined && o.keyFile !== undefined) {
    return { cert: read('--tls-cert-file', o.certFile), key: read('--tls-private-key-file', o.keyFile), ...(clientCA !== undefined ? { clientCA } : {}) };
  }
  const ca = await createCA(`kubelite-nodes-ca@${Math.floor(Date.now() / 1000)}`);
  const ips = [...new Set(['127.0.0.1', '::1', ...(/^[\d.]+$|:/.test(o.address) && o.address !== '0.0.0.0' ? [o.address] : [])])];
  const serving = await issueCertificate(ca, { commonName: 'kubelite-nodes', usage: 'server', dnsNames: ['localhost', ...o.nodeNames], ips });
  return { cert: `${serving.cert}${ca.cert}`, key: serving.key, ...(clientCA !== undefined ? { clientCA } : {}) };
}
