// A TLS terminator in front of a plain-HTTP API server, for tests whose kubectl must send bearer
// tokens: kubectl (client-go's clientcmd) reads a kubeconfig's credentials only for HTTPS servers.
// Bytes pass through unchanged (HTTP/1.1 only). When the API server serves HTTPS itself, tests use
// its address directly and this goes away.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { writeKubeconfig } from './kubelite.js';

export interface TlsFront {
  /** https://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

let cached: { key: Buffer; cert: Buffer } | undefined;

/** A throwaway self-signed certificate for 127.0.0.1 (openssl), made once per test process. */
function selfSigned(): { key: Buffer; cert: Buffer } {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    cached = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startTlsFront(targetUrl: string): Promise<TlsFront> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ ...selfSigned(), ALPNProtocols: ['http/1.1'] }, (client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A kubeconfig for a bearer-token user of a server behind startTlsFront. */
export function writeTokenKubeconfig(path: string, server: string, token: string): void {
  writeKubeconfig(path, server, { token, insecureSkipTLSVerify: true });
}
