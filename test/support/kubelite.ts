// Starts real `kubelite` processes for end-to-end tests (free loopback ports, temporary data
// directories, a kubeconfig for kubectl) and stops them, whatever happens to the test. The API
// servers serve HTTPS with certificates from the test CA; kubeconfigs and fetch use the test admin
// (see tls.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kubeconfigYaml } from '../../src/up/credentials.js';
import { seedPki, TEST_PKI } from './tls.js';

/** The executable users run (package.json's `bin`): dist/test/support/kubelite.js → dist/bundle/cli/kubelite.js */
export const KUBELITE_BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bundle', 'cli', 'kubelite.js');

export interface RunningApiserver {
  url: string;
  kubeconfig: string;
  dir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A kubeconfig for `server`. HTTPS: it trusts the test CA and authenticates as the test admin
 * (client certificate), or with `user.token` as that bearer token instead; `insecureSkipTLSVerify`
 * checks no server certificate. http:// (in-process servers): no credentials.
 */
export function writeKubeconfig(path: string, server: string, user: { token?: string; insecureSkipTLSVerify?: boolean } = {}): void {
  if (server.startsWith('https:') && user.token === undefined && !user.insecureSkipTLSVerify) {
    writeFileSync(path, kubeconfigYaml(server, TEST_PKI.ca.cert, TEST_PKI.admin), { mode: 0o600 });
    return;
  }
  const caData = server.startsWith('https:') && !user.insecureSkipTLSVerify ? `\n    certificate-authority-data: ${Buffer.from(TEST_PKI.ca.cert).toString('base64')}` : '';
  const tls = user.insecureSkipTLSVerify ? '\n    insecure-skip-tls-verify: true' : caData;
  const credentials = user.token === undefined ? ' {}' : `\n    token: ${user.token}`;
  writeFileSync(path, `apiVersion: v1
kind: Config
clusters:
- name: kubelite
  cluster:
    server: ${server}${tls}
users:
- name: kubelite
  user:${credentials}
contexts:
- name: kubelite
  context:
    cluster: kubelite
    user: kubelite
current-context: kubelite
`);
}

/**
 * Starts `kubelite apiserver` on a free port and waits for its `ready:` line. As in Kubernetes'
 * integration test servers, the ServiceAccount admission plugin is off unless `args` set the
 * admission plugins: without a controller manager no `default` service account would ever exist
 * and every pod would be refused.
 */
export async function startApiserver(args: string[] = ['--storage', 'memory']): Promise<RunningApiserver> {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-e2e-'));
  // The apiserver takes the last --data-dir given: the test's own one, or this one.
  const dataDirFlag = args.lastIndexOf('--data-dir');
  seedPki(dataDirFlag >= 0 && args[dataDirFlag + 1] !== undefined ? args[dataDirFlag + 1]! : join(dir, 'data'));
  const admission = args.some((a) => /^--(enable|disable)-admission-plugins\b/.test(a)) ? [] : ['--disable-admission-plugins=ServiceAccount'];
  const child = spawn(process.execPath, [KUBELITE_BIN, 'apiserver', '--port', '0', '--data-dir', join(dir, 'data'), ...admission, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-20_000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`apiserver not ready after 30 s: ${stderr}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready: server=(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`apiserver exited with ${code}: ${stderr}`));
    });
  });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, url);
  return {
    url,
    kubeconfig,
    dir,
    process: child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
