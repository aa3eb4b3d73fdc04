// Starts real `kubelite` processes for end-to-end tests (free loopback ports, temporary data
// directories, a kubeconfig for kubectl) and stops them, whatever happens to the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/test/support/kubelite.js → dist/src/cli/main.js */
export const KUBELITE_BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'cli', 'main.js');

export interface RunningApiserver {
  url: string;
  kubeconfig: string;
  dir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A kubeconfig for `server`; with `user.token`, a bearer-token user (kubectl sends it to HTTPS
 * servers only), with `insecureSkipTLSVerify`, a server certificate nobody checks (tests' own).
 */
export function writeKubeconfig(path: string, server: string, user: { token?: string; insecureSkipTLSVerify?: boolean } = {}): void {
  const tls = user.insecureSkipTLSVerify ? '\n    insecure-skip-tls-verify: true' : '';
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

/** Starts `kubelite apiserver` on a free port and waits for its `ready:` line. */
export async function startApiserver(args: string[] = ['--storage', 'memory']): Promise<RunningApiserver> {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-e2e-'));
  const child = spawn(process.execPath, [KUBELITE_BIN, 'apiserver', '--port', '0', '--data-dir', join(dir, 'data'), ...args], {
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
